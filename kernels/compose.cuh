/* cudaboxblur: compose_*, which lays redacted samples or a fill
 * colour onto the frame through a shape and feather, and copy_bytes, which
 * copies the regions' halos (included by boxblur.cu).
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* ------------------------------------------------------------------------
 * Compose: lays a region's redacted samples (src, or the fill value) onto
 * dst through the region's shape and feather (with invert, the input's
 * samples onto the redacted frame).  A sample of the region
 * whose (x, y) lies inside the shape shrunk by k samples on every side,
 * for every k up to K and no further, gets the weight
 * n = min (K + 1, feather + 1) out of feather + 1; outside the shape it
 * gets 0 and keeps dst.  The rectangle shrunk by k leaves k samples off
 * each edge; the ellipse shrunk by k is the one inscribed in the rectangle
 * shrunk by k, and holds the sample when its centre is inside or on it.
 * Everything is exact integer arithmetic, so the weights are the CPU
 * reference's.  The blend rounds integers half up; float32 is blended
 * with each product rounded on its own (no fused multiply-add).
 * ------------------------------------------------------------------------ */

/* Whether sample (dx, dy) of a w x h region is inside the ellipse
 * inscribed in it shrunk by k samples on every side.  In half samples
 * from the centre, (ex, ey) is inside the ellipse of axes W x H when
 * ex^2 H^2 + ey^2 W^2 <= W^2 H^2; every term stays below 2^61. */
__device__ __forceinline__ bool
in_ellipse (int dx, int dy, int w, int h, int k)
{
  const long long W = w - 2 * k, H = h - 2 * k;
  const long long ex = 2 * dx + 1 - w, ey = 2 * dy + 1 - h;

  return W > 0 && H > 0 && ex * ex * H * H + ey * ey * W * W <= W * W * H * H;
}

/* The weight n (0 .. feather + 1) of sample (dx, dy) of the region. */
__device__ __forceinline__ int
shape_weight (const BoxBlurArgs & a, int dx, int dy)
{
  if (a.shape == BOX_SHAPE_RECTANGLE) {
    const int k = min (min (dx, a.w - 1 - dx), min (dy, a.h - 1 - dy));
    return min (k + 1, a.feather + 1);
  }
  if (!in_ellipse (dx, dy, a.w, a.h, 0))
    return 0;
  /* the shrunk ellipses nest: find the last k that holds the sample */
  int lo = 0, hi = a.feather;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (in_ellipse (dx, dy, a.w, a.h, mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo + 1;
}


/* (cur (d - n) + red n) / d, rounded half up; for 16-bit samples whose
 * low @shift bits are no part of them (P010, P012) rounded at their depth
 * and stored back in the high bits (at_depth()) */
template <typename T>
__device__ __forceinline__ T
blend (T cur, T red, int n, int d, int shift)
{
  const unsigned int sum = (unsigned int) cur * (d - n) +
      (unsigned int) red * n;
  const unsigned int den = (unsigned int) d << shift;
  return (T) at_depth ((2 * sum + den) / (2 * den), shift);
}

template <>
__device__ __forceinline__ float
blend < float >(float cur, float red, int n, int d, int)
{
  return __fdiv_rn (__fadd_rn (__fmul_rn (cur, (float) (d - n)),
          __fmul_rn (red, (float) n)), (float) d);
}

template <typename T>
__device__ __forceinline__ void
compose (const BoxBlurArgs & a)
{
  const int dx = blockIdx.x * blockDim.x + threadIdx.x;
  const int dy = blockIdx.y * blockDim.y + threadIdx.y;

  if (dx >= a.w || dy >= a.h)
    return;
  const int n = shape_weight (a, dx, dy), d = a.feather + 1;
  const int x = a.x + dx, y = a.y + dy;

  /* a kept region of invert, grown by its feather, may reach past the
   * plane: its shape is the whole rectangle's, its samples the plane's */
  if (n == 0 || x < 0 || y < 0 || x >= a.width || y >= a.height)
    return;
  const T red = a.fill ? as_sample < T > (a.fill_int, a.fill_float) :
      src_at < T > (a, x, y);
  if (n == d) {
    store (a, x, y, red);
    return;
  }
  const T cur = load < T > (a.dst, a.dst_stride, a.dst_step, x, y);
  store (a, x, y, blend < T > (cur, red, n, d, a.shift));
}

extern "C" __global__ void
compose_u8 (const BoxBlurArgs * __restrict__ list)
{
  compose < uint8 > (entry (list));
}

extern "C" __global__ void
compose_u16 (const BoxBlurArgs * __restrict__ list)
{
  compose < uint16 > (entry (list));
}

extern "C" __global__ void
compose_f32 (const BoxBlurArgs * __restrict__ list)
{
  compose < float >(entry (list));
}

/* Copies the w x h bytes at src into dst (the steps are 1): the halos of
 * regions, one entry each. */
extern "C" __global__ void
copy_bytes (const BoxBlurArgs * __restrict__ list)
{
  const BoxBlurArgs a = entry (list);
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x < a.w && y < a.h)
    a.dst[(long long) y * a.dst_stride + x] =
        a.src[(long long) y * a.src_stride + x];
}
