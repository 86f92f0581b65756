/* cudaboxblur: box blur kernels, compiled at run time with NVRTC.
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each output pixel is the mean of the input pixels of the
 * (2 * radius_x + 1) x (2 * radius_y + 1) window that lie inside the image:
 * the window is clipped at the borders, so border pixels average fewer
 * neighbours.  Rows are addressed through a byte stride so that padded
 * frames work.
 *
 * This file must stay self-contained: NVRTC compiles it without any include
 * path.
 */

typedef unsigned char uint8;

template <typename T>
__device__ __forceinline__ T *
row_ptr (T * base, int stride, int y)
{
  return base + (long long) y * stride;
}

/* GRAY32F: float accumulation, window rows outer and columns inner, then one
 * division by the number of in-image pixels.  This is the summation order of
 * the "Image Blur with Unified Memory" sample, so its results are reproduced
 * bit for bit. */
extern "C" __global__ void
box_blur_gray32f (const uint8 * __restrict__ src, int src_stride,
    uint8 * __restrict__ dst, int dst_stride, int width, int height,
    int radius_x, int radius_y)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= width || y >= height)
    return;

  const int x0 = max (x - radius_x, 0), x1 = min (x + radius_x, width - 1);
  const int y0 = max (y - radius_y, 0), y1 = min (y + radius_y, height - 1);
  float sum = 0.0f;

  for (int yy = y0; yy <= y1; yy++) {
    const float *row = (const float *) row_ptr (src, src_stride, yy);
    for (int xx = x0; xx <= x1; xx++)
      sum += row[xx];
  }

  const int count = (x1 - x0 + 1) * (y1 - y0 + 1);
  ((float *) row_ptr (dst, dst_stride, y))[x] = sum / (float) count;
}

/* GRAY8: exact integer sum, mean rounded half up.  The largest window
 * (511 x 511 pixels of 255) keeps 2 * sum + count below 2^32. */
extern "C" __global__ void
box_blur_gray8 (const uint8 * __restrict__ src, int src_stride,
    uint8 * __restrict__ dst, int dst_stride, int width, int height,
    int radius_x, int radius_y)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= width || y >= height)
    return;

  const int x0 = max (x - radius_x, 0), x1 = min (x + radius_x, width - 1);
  const int y0 = max (y - radius_y, 0), y1 = min (y + radius_y, height - 1);
  unsigned int sum = 0;

  for (int yy = y0; yy <= y1; yy++) {
    const uint8 *row = row_ptr (src, src_stride, yy);
    for (int xx = x0; xx <= x1; xx++)
      sum += row[xx];
  }

  const unsigned int count = (x1 - x0 + 1) * (y1 - y0 + 1);
  row_ptr (dst, dst_stride, y)[x] = (uint8) ((2 * sum + count) / (2 * count));
}

/* ------------------------------------------------------------------------
 * The sample's own window, 3x3, specialised: each thread produces
 * BOX3_ROWS vertically adjacent pixels and loads each input pixel of their
 * windows once into registers, with the loops unrolled.  The summation
 * order is the one above (rows outer, columns inner, from 0), so results
 * are bit-identical to box_blur_*.  Threads whose windows touch the border
 * take the general path.
 * ------------------------------------------------------------------------ */

#define BOX3_ROWS 4

template <typename T, typename Acc>
__device__ __forceinline__ T
box3_finish (Acc sum, unsigned int count)
{
  return (T) (sum / (Acc) count);
}

template <>
__device__ __forceinline__ uint8
box3_finish < uint8, unsigned int >(unsigned int sum, unsigned int count)
{
  return (uint8) ((2 * sum + count) / (2 * count));
}

template <typename T, typename Acc>
__device__ __forceinline__ void
box_blur3 (const uint8 * __restrict__ src, int src_stride,
    uint8 * __restrict__ dst, int dst_stride, int width, int height)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * BOX3_ROWS;

  if (x >= width || y0 >= height)
    return;

  if (x >= 1 && x + 1 < width && y0 >= 1 && y0 + BOX3_ROWS < height) {
    T v[BOX3_ROWS + 2][3];

#pragma unroll
    for (int r = 0; r < BOX3_ROWS + 2; r++) {
      const T *row = (const T *) row_ptr (src, src_stride, y0 - 1 + r);
#pragma unroll
      for (int c = 0; c < 3; c++)
        v[r][c] = row[x - 1 + c];
    }
#pragma unroll
    for (int k = 0; k < BOX3_ROWS; k++) {
      Acc sum = 0;
#pragma unroll
      for (int dy = 0; dy < 3; dy++)
#pragma unroll
        for (int dx = 0; dx < 3; dx++)
          sum += v[k + dy][dx];
      ((T *) row_ptr (dst, dst_stride, y0 + k))[x] =
          box3_finish < T, Acc > (sum, 9);
    }
    return;
  }

  for (int y = y0; y < min (y0 + BOX3_ROWS, height); y++) {
    const int x0 = max (x - 1, 0), x1 = min (x + 1, width - 1);
    const int ya = max (y - 1, 0), yb = min (y + 1, height - 1);
    Acc sum = 0;

    for (int yy = ya; yy <= yb; yy++) {
      const T *row = (const T *) row_ptr (src, src_stride, yy);
      for (int xx = x0; xx <= x1; xx++)
        sum += row[xx];
    }
    ((T *) row_ptr (dst, dst_stride, y))[x] =
        box3_finish < T, Acc > (sum, (x1 - x0 + 1) * (yb - ya + 1));
  }
}

extern "C" __global__ void
box_blur3_gray8 (const uint8 * __restrict__ src, int src_stride,
    uint8 * __restrict__ dst, int dst_stride, int width, int height)
{
  box_blur3 < uint8, unsigned int >(src, src_stride, dst, dst_stride, width,
      height);
}

extern "C" __global__ void
box_blur3_gray32f (const uint8 * __restrict__ src, int src_stride,
    uint8 * __restrict__ dst, int dst_stride, int width, int height)
{
  box_blur3 < float, float >(src, src_stride, dst, dst_stride, width,
      height);
}

/* ------------------------------------------------------------------------
 * Separable kernels: cost independent of the radius.
 *
 * The window sum is a sum of column sums, so a frame is blurred in two
 * passes through an intermediate frame `mid` of column sums (width x height,
 * tightly packed):
 *
 *   box_columns_*: each thread walks down one column over a run of
 *     COLUMN_RUN rows, keeping the sum of the 2 * radius_y + 1 rows around it
 *     and sliding it one row at a time (add the row entering, subtract the
 *     row leaving).  Threads of a warp own neighbouring columns, so every
 *     load is coalesced.
 *   box_rows_*: each block takes a run of one row of `mid` plus its
 *     2 * radius_x halo into shared memory, turns it into a prefix sum with a
 *     block-wide scan, and reads each window sum as the difference of two
 *     prefix sums.
 *
 * GRAY8 accumulates in 32-bit integers, so the result is exact and equal to
 * the direct kernel's.  GRAY32F slides and scans in double and keeps the
 * column sums as float: the only roundings are one per column sum (relative
 * 2^-24) and the final division, so the result stays within about 1e-7
 * relative of the exact mean for non-negative data, whatever the radius,
 * instead of accumulating the drift a float running sum would.
 * ------------------------------------------------------------------------ */

/* Rows per thread of box_columns_*; the host's launch code
 * (gst/cudaboxblur-program.c) uses the same number. */
#define COLUMN_RUN 64

template <typename In, typename Acc, typename Mid>
__device__ __forceinline__ void
box_columns (const uint8 * __restrict__ src, int src_stride,
    Mid * __restrict__ mid, int width, int height, int radius_y)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y0 = blockIdx.y * COLUMN_RUN;

  if (x >= width)
    return;

  const int y1 = min (y0 + COLUMN_RUN, height);
  Acc sum = 0;

  for (int yy = max (y0 - radius_y, 0); yy <= min (y0 + radius_y, height - 1);
      yy++)
    sum += (Acc) ((const In *) row_ptr (src, src_stride, yy))[x];

  for (int y = y0; y < y1; y++) {
    mid[(long long) y * width + x] = (Mid) sum;
    const int enter = y + radius_y + 1, leave = y - radius_y;
    if (enter < height)
      sum += (Acc) ((const In *) row_ptr (src, src_stride, enter))[x];
    if (leave >= 0)
      sum -= (Acc) ((const In *) row_ptr (src, src_stride, leave))[x];
  }
}

/* Exclusive prefix sum of @v over the block; @warp_sums has one slot per
 * warp. */
template <typename Acc>
__device__ __forceinline__ Acc
block_exclusive_scan (Acc v, Acc * warp_sums)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int n_warps = blockDim.x >> 5;
  Acc inclusive = v;

  for (int d = 1; d < 32; d <<= 1) {
    Acc up = __shfl_up_sync (0xffffffffu, inclusive, d);
    if (lane >= d)
      inclusive += up;
  }
  if (lane == 31)
    warp_sums[warp] = inclusive;
  __syncthreads ();
  if (warp == 0) {
    Acc w = lane < n_warps ? warp_sums[lane] : (Acc) 0;
    for (int d = 1; d < 32; d <<= 1) {
      Acc up = __shfl_up_sync (0xffffffffu, w, d);
      if (lane >= d)
        w += up;
    }
    if (lane < n_warps)
      warp_sums[lane] = w;      /* inclusive over warps */
  }
  __syncthreads ();
  return inclusive - v + (warp > 0 ? warp_sums[warp - 1] : (Acc) 0);
}

/* One block per (run of @run output pixels, row).  Shared memory holds the
 * prefix sums P of mid[row][first .. last], P[0] = 0, where first and last
 * are the run's window ends clipped to the image. */
template <typename Acc, typename Mid, typename Out>
__device__ __forceinline__ void
box_rows (const Mid * __restrict__ mid, uint8 * __restrict__ dst,
    int dst_stride, int width, int height, int radius_x, int radius_y,
    int run, Acc * prefix)
{
  __shared__ Acc warp_sums[32];
  const int y = blockIdx.y;
  const int x0 = blockIdx.x * run;
  const int x1 = min (x0 + run, width);
  const int first = max (x0 - radius_x, 0);
  const int last = min (x1 - 1 + radius_x, width - 1);
  const int n = last - first + 1;
  const Mid *row = mid + (long long) y * width + first;

  for (int i = threadIdx.x; i < n; i += blockDim.x)
    prefix[i + 1] = (Acc) row[i];

  /* Each thread scans a contiguous chunk; the block scan stitches them. */
  const int chunk = (n + blockDim.x - 1) / blockDim.x;
  const int c0 = min ((int) threadIdx.x * chunk, n);
  const int c1 = min (c0 + chunk, n);
  __syncthreads ();

  Acc local = 0;
  for (int i = c0; i < c1; i++)
    local += prefix[i + 1];
  Acc acc = block_exclusive_scan (local, warp_sums);
  for (int i = c0; i < c1; i++) {
    acc += prefix[i + 1];
    prefix[i + 1] = acc;
  }
  if (threadIdx.x == 0)
    prefix[0] = 0;
  __syncthreads ();

  const int rows = min (y + radius_y, height - 1) - max (y - radius_y, 0) + 1;
  Out *out = (Out *) row_ptr (dst, dst_stride, y);
  for (int x = x0 + threadIdx.x; x < x1; x += blockDim.x) {
    const int a = max (x - radius_x, 0), b = min (x + radius_x, width - 1);
    const Acc sum = prefix[b - first + 1] - prefix[a - first];
    const unsigned int count = (unsigned int) (b - a + 1) * rows;
    if (sizeof (Out) == 1)
      out[x] = (Out) ((2 * (unsigned int) sum + count) / (2 * count));
    else
      out[x] = (Out) ((double) sum / (double) count);
  }
}

extern "C" __global__ void
box_columns_gray8 (const uint8 * __restrict__ src, int src_stride,
    unsigned int *__restrict__ mid, int width, int height, int radius_y)
{
  box_columns < uint8, unsigned int, unsigned int >(src, src_stride, mid,
      width, height, radius_y);
}

/* GRAY8 with radius_y <= 128: a column sum is at most 257 * 255 = 65535,
 * so 16 bits hold it and the intermediate frame is half the size. */
extern "C" __global__ void
box_columns_gray8_16 (const uint8 * __restrict__ src, int src_stride,
    unsigned short *__restrict__ mid, int width, int height, int radius_y)
{
  box_columns < uint8, unsigned int, unsigned short >(src, src_stride, mid,
      width, height, radius_y);
}

extern "C" __global__ void
box_columns_gray32f (const uint8 * __restrict__ src, int src_stride,
    float *__restrict__ mid, int width, int height, int radius_y)
{
  box_columns < float, double, float >(src, src_stride, mid, width, height,
      radius_y);
}

extern "C" __global__ void
box_rows_gray8 (const unsigned int *__restrict__ mid,
    uint8 * __restrict__ dst, int dst_stride, int width, int height,
    int radius_x, int radius_y, int run)
{
  extern __shared__ unsigned int prefix_u32[];
  box_rows < unsigned int, unsigned int, uint8 >(mid, dst, dst_stride, width,
      height, radius_x, radius_y, run, prefix_u32);
}

extern "C" __global__ void
box_rows_gray32f (const float *__restrict__ mid, uint8 * __restrict__ dst,
    int dst_stride, int width, int height, int radius_x, int radius_y,
    int run)
{
  extern __shared__ double prefix_f64[];
  box_rows < double, float, float >(mid, dst, dst_stride, width, height,
      radius_x, radius_y, run, prefix_f64);
}

extern "C" __global__ void
box_rows_gray8_16 (const unsigned short *__restrict__ mid,
    uint8 * __restrict__ dst, int dst_stride, int width, int height,
    int radius_x, int radius_y, int run)
{
  extern __shared__ unsigned int prefix_u32_16[];
  box_rows < unsigned int, unsigned short, uint8 >(mid, dst, dst_stride,
      width, height, radius_x, radius_y, run, prefix_u32_16);
}
