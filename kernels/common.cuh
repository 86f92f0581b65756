/* cudaboxblur: what every kernel shares: sample types, loads and stores,
 * the border rule, float32 sums in pairs (Fsum), packed pixels (Pixel4,
 * Sum4) and the launch's list of entries (included by boxblur.cu).
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

typedef unsigned char uint8;
typedef unsigned short uint16;
typedef unsigned long long uint64;

/* V samples of type T side by side, loaded and stored at once where they
 * are adjacent and aligned. */
template <typename T, int V>
struct alignas (sizeof (T) * V) Vector
{
  T v[V];
};

template <typename T>
__device__ __forceinline__ T
load (const uint8 * base, int stride, int step, int x, int y)
{
  return *(const T *) (base + (long long) y * stride + (long long) x * step);
}

template <typename T>
__device__ __forceinline__ void
store (const BoxBlurArgs & a, int x, int y, T v)
{
  *(T *) (a.dst + (long long) y * a.dst_stride + (long long) x * a.dst_step) =
      v;
}

template <typename T>
__device__ __forceinline__ T
src_at (const BoxBlurArgs & a, int x, int y)
{
  return load < T > (a.src, a.src_stride, a.src_step, x, y);
}

/* This block's entry of a launch's list, copied to registers once, so the
 * loops read its fields from there rather than from memory. */
__device__ __forceinline__ BoxBlurArgs
entry (const BoxBlurArgs * __restrict__ list)
{
  return list[blockIdx.z];
}

/* The rows of row @y's windows inside the frame (shrink), or all of them. */
__device__ __forceinline__ unsigned int
window_rows (const BoxBlurArgs & a, int y)
{
  const int ry = a.radius_y;

  return a.border == BOX_BORDER_SHRINK ?
      min (y + ry, a.height - 1) - max (y - ry, 0) + 1 : 2 * ry + 1;
}

/* The index inside 0 .. n - 1 that position @i of a line stands for, or -1
 * where the constant border applies.  Mirror and wrap repeat as often as a
 * window wider than the frame needs. */
__device__ __forceinline__ int
border_index (int i, int n, int mode)
{
  if (i >= 0 && i < n)
    return i;
  switch (mode) {
    case BOX_BORDER_CLAMP:
      return i < 0 ? 0 : n - 1;
    case BOX_BORDER_MIRROR:{
      if (n == 1)
        return 0;
      const int period = 2 * (n - 1);
      int m = i % period;
      if (m < 0)
        m += period;
      return m < n ? m : period - m;
    }
    case BOX_BORDER_WRAP:{
      int m = i % n;
      return m < 0 ? m + n : m;
    }
    default:
      return -1;
  }
}

/* A value given both ways, as a sample of T: @i for integer samples, @f
 * for float ones. */
template <typename T>
__device__ __forceinline__ T
as_sample (unsigned int i, float f)
{
  return (T) i;
}

template <>
__device__ __forceinline__ float
as_sample < float >(unsigned int i, float f)
{
  return f;
}

template <typename T>
__device__ __forceinline__ T
constant_sample (const BoxBlurArgs & a)
{
  return as_sample < T > (a.border_int, a.border_float);
}

/* The sample the window reads at (@x, @y), inside the frame or not
 * (any mode but shrink). */
template <typename T>
__device__ __forceinline__ T
sample (const BoxBlurArgs & a, int x, int y)
{
  const int mx = border_index (x, a.width, a.border);
  const int my = border_index (y, a.height, a.border);

  if (mx < 0 || my < 0)
    return constant_sample < T > (a);
  return src_at < T > (a, mx, my);
}

/* ------------------------------------------------------------------------
 * Float32 sums that need more than float32's precision (sliding sums,
 * scans, large blocks) are kept as an unevaluated pair hi + lo, lo holding
 * the rounding errors of hi's additions, each found exactly by TwoSum: about
 * twice float32's precision in FP32 instructions only, where most GPUs run
 * FP64 at 1/32 to 1/64 of their FP32 rate.
 * ------------------------------------------------------------------------ */
struct Fsum
{
  float hi, lo;

  Fsum () = default;            /* trivial, for __shared__ arrays */
  __device__ Fsum (float v):hi (v), lo (0.0f)
  {
  }
  __device__ explicit operator  float () const
  {
    return __fadd_rn (hi, lo);
  }
};

/* a + b exactly, as the rounded sum and its error (Knuth's TwoSum) */
__device__ __forceinline__ Fsum
two_sum (float a, float b)
{
  const float s = __fadd_rn (a, b);
  const float bb = __fsub_rn (s, a);
  Fsum r;

  r.hi = s;
  r.lo = __fadd_rn (__fsub_rn (a, __fsub_rn (s, bb)), __fsub_rn (b, bb));
  return r;
}

/* a + b: hi rounded, its error added to lo */
__device__ __forceinline__ Fsum
operator+ (Fsum a, float b)
{
  Fsum r = two_sum (a.hi, b);

  r.lo = __fadd_rn (r.lo, a.lo);
  return r;
}

__device__ __forceinline__ Fsum
operator+ (Fsum a, Fsum b)
{
  Fsum r = two_sum (a.hi, b.hi);

  r.lo = __fadd_rn (r.lo, __fadd_rn (a.lo, b.lo));
  return r;
}

__device__ __forceinline__ Fsum
operator- (Fsum a, float b)
{
  return a + -b;
}

__device__ __forceinline__ Fsum
operator- (Fsum a, Fsum b)
{
  b.hi = -b.hi;
  b.lo = -b.lo;
  return a + b;
}

__device__ __forceinline__ Fsum &
operator+= (Fsum & a, float b)
{
  return a = a + b;
}

__device__ __forceinline__ Fsum &
operator+= (Fsum & a, Fsum b)
{
  return a = a + b;
}

__device__ __forceinline__ Fsum &
operator-= (Fsum & a, float b)
{
  return a = a - b;
}

/* How box_rows_run() reads column sums (Value) and adds up their steps
 * (Acc), and the neighbouring output samples each lane makes: integers in
 * Acc, four a lane; float32 column sums as they are, each step (the column
 * entering minus the one leaving) an exact pair, eight a lane, which
 * halves the share of the warp's scan (in pairs, the most costly part) in
 * each sample. */
template <typename Acc>
struct RowSums
{
  typedef Acc Value;
  static const int samples = 4;

  static __device__ __forceinline__ Acc step (Acc enter, Acc leave)
  {
    return enter - leave;
  }
  static __device__ __forceinline__ Acc at (Acc before, Acc sum)
  {
    return before + sum;
  }
};

template <>
struct RowSums <Fsum >
{
  typedef float Value;
  static const int samples = 8;

  static __device__ __forceinline__ Fsum step (float enter, float leave)
  {
    return two_sum (enter, -leave);
  }
  /* a sample's window sum, only converted and divided from here: its
   * halves added apart, the rounding of the high one of the order of the
   * result's own (as long as lo stays small beside hi) */
  static __device__ __forceinline__ Fsum at (Fsum before, Fsum sum)
  {
    Fsum r;

    r.hi = __fadd_rn (before.hi, sum.hi);
    r.lo = __fadd_rn (before.lo, sum.lo);
    return r;
  }
};

/* Mean of @count samples summing to @sum: integers rounded half up, float
 * sums divided once (a pair: hi divided, then the remainder, exact by a
 * fused multiply-add, with lo, so that the quotient is rounded once in
 * all but the rarest cases). */
__device__ __forceinline__ unsigned int
finish (unsigned int sum, unsigned int count)
{
  return (2 * sum + count) / (2 * count);
}

__device__ __forceinline__ float
finish (float sum, unsigned int count)
{
  return sum / (float) count;
}

__device__ __forceinline__ float
finish (Fsum sum, unsigned int count)
{
  const float c = (float) count;
  const float q = __fdiv_rn (sum.hi, c);
  const float r = __fmaf_rn (-q, c, sum.hi);

  return __fadd_rn (q, __fdiv_rn (__fadd_rn (r, sum.lo), c));
}

/* Integer means from the float32 reciprocal @inv of 2 * @count (the
 * mean is (2 * sum + count) / (2 * count), rounded down): the float
 * quotient is within 0.02 of the exact one (three roundings of 2^-24
 * relative, on quotients below 2^16), so truncated it is at most one off,
 * and the remainder corrects it.  No integer division: a 64-bit one takes
 * dozens of instructions. */
template <typename U, typename S>
__device__ __forceinline__ U
finish_estimated (U sum, unsigned int count, float inv)
{
  const U num = 2 * sum + count, den = 2 * (U) count;
  U q = (U) __float2uint_rz ((float) num * inv);
  const S rem = (S) (num - q * den);

  if (rem < 0)
    q--;
  else if (rem >= (S) den)
    q++;
  return q;
}

__device__ __forceinline__ float
reciprocal_of_twice (unsigned int count)
{
  return 1.0f / (float) (2 * count);
}

/* 16-bit sums (up to 511 x 511 x 65535) need 64 bits */
__device__ __forceinline__ uint64
finish (uint64 sum, unsigned int count)
{
  return finish_estimated < uint64, long long >(sum, count,
      reciprocal_of_twice (count));
}

/* Bytes 0 and 2, and bytes 1 and 3, of @w, each in a 16-bit half. */
__device__ __forceinline__ unsigned int
even_bytes (unsigned int w)
{
  return __byte_perm (w, 0, 0x4240);
}

__device__ __forceinline__ unsigned int
odd_bytes (unsigned int w)
{
  return __byte_perm (w, 0, 0x4341);
}

/* ------------------------------------------------------------------------
 * Packed pixels: the four 8-bit samples of a pixel of RGBA, BGRx, AYUV ...
 * (src_step and dst_step 4, pixels and rows 4-byte aligned), blurred
 * together where their windows are the same, so that every load and store
 * moves a whole pixel.  The kernels take Pixel4 for T and sum in Sum4,
 * four integer sums side by side, each exact as an 8-bit sample's; the
 * column sums of the separable passes are those of the row's bytes (the
 * 8-bit box_columns_* over a plane four times as wide), read back four at
 * once.  The bits of a pixel's word set in a.pixel_keep are not blurred:
 * they are copied from src, so that every store writes whole pixels.
 * ------------------------------------------------------------------------ */
struct alignas (4) Pixel4
{
  uint8 c[4];
};

struct Sum4
{
  unsigned int c[4];

  Sum4 () = default;            /* trivial, for __shared__ arrays */
  __device__ Sum4 (unsigned int v)
  {
#pragma unroll
    for (int i = 0; i < 4; i++)
      c[i] = v;
  }
  __device__ Sum4 (Pixel4 p)
  {
#pragma unroll
    for (int i = 0; i < 4; i++)
      c[i] = p.c[i];
  }
  /* a pixel's four column sums */
  template <typename Mid>
  __device__ Sum4 (Vector < Mid, 4 > m)
  {
#pragma unroll
    for (int i = 0; i < 4; i++)
      c[i] = m.v[i];
  }
  /* means, each below 256 */
  __device__ explicit operator  Pixel4 () const
  {
    Pixel4 p;
#pragma unroll
    for (int i = 0; i < 4; i++)
      p.c[i] = (uint8) c[i];
    return p;
  }
};

__device__ __forceinline__ Sum4
operator+ (Sum4 a, Sum4 b)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    a.c[i] += b.c[i];
  return a;
}

__device__ __forceinline__ Sum4
operator- (Sum4 a, Sum4 b)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    a.c[i] -= b.c[i];
  return a;
}

__device__ __forceinline__ Sum4
operator* (Sum4 a, unsigned int n)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    a.c[i] *= n;
  return a;
}

__device__ __forceinline__ Sum4 &
operator+= (Sum4 & a, Sum4 b)
{
  return a = a + b;
}

__device__ __forceinline__ Sum4
finish (Sum4 sum, unsigned int count)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    sum.c[i] = finish (sum.c[i], count);
  return sum;
}

/* The mean of @count samples of type T summing to @sum: finish(), but
 * for 16-bit samples whose low a.shift bits are no part of them (P010,
 * P012) rounded at the samples' depth and stored back in the high bits:
 * the sum divided by count << shift, shifted back. */
template <typename T>
struct Mean
{
  template <typename Acc>
  static __device__ __forceinline__ auto
  of (const BoxBlurArgs & a, Acc sum, unsigned int count)
      -> decltype (finish (sum, count))
  {
    return finish (sum, count);
  }

  /* what a mean of @count samples divides by */
  static __device__ __forceinline__ unsigned int
  divisor (const BoxBlurArgs & a, unsigned int count)
  {
    return count;
  }
};

/* @q, a 16-bit mean rounded at the samples' depth (16 - @shift bits),
 * stored back in the high bits.  Words whose low bits are not 0 (no part
 * of a P010 sample, but a source may set them) may round to one past the
 * depth's largest value, which is kept instead of wrapping round to 0. */
template <typename Acc>
__device__ __forceinline__ Acc
at_depth (Acc q, int shift)
{
  const Acc top = (Acc) (0xffffu >> shift);

  return (q < top ? q : top) << shift;
}

template <>
struct Mean < uint16 >
{
  template <typename Acc>
  static __device__ __forceinline__ Acc
  of (const BoxBlurArgs & a, Acc sum, unsigned int count)
  {
    return at_depth (finish (sum, divisor (a, count)), a.shift);
  }

  static __device__ __forceinline__ unsigned int
  divisor (const BoxBlurArgs & a, unsigned int count)
  {
    return count << a.shift;
  }
};

template <>
__device__ __forceinline__ Pixel4
as_sample < Pixel4 > (unsigned int i, float f)
{
  return (Pixel4) Sum4 (i);
}

/* @v, with the bits of a.pixel_keep those of the src pixel at (@x, @y);
 * samples of any other type as they are. */
template <typename T>
__device__ __forceinline__ T
with_kept (const BoxBlurArgs & a, T v, int x, int y)
{
  return v;
}

template <>
__device__ __forceinline__ Pixel4
with_kept < Pixel4 > (const BoxBlurArgs & a, Pixel4 v, int x, int y)
{
  const unsigned int keep = a.pixel_keep;

  if (keep == 0)
    return v;

  const Pixel4 in = src_at < Pixel4 > (a, x, y);
#pragma unroll
  for (int i = 0; i < 4; i++)
    if (keep & (0xffu << (8 * i)))
      v.c[i] = in.c[i];
  return v;
}

__device__ __forceinline__ void
store (const BoxBlurArgs & a, int x, int y, Pixel4 v)
{
  store < Pixel4 > (a, x, y, with_kept (a, v, x, y));
}

/* One output sample, summing its whole window: rows outer, columns inner,
 * from the top left.  For float32 in shrink mode this is the summation
 * order of the "Image Blur with Unified Memory" sample, whose results are
 * reproduced bit for bit.  8-bit sums stay exact in 32 bits (511 x 511 x 255
 * < 2^31), 16-bit ones in 64 bits. */
template <typename T, typename Acc>
__device__ __forceinline__ T
blur_sample (const BoxBlurArgs & a, int x, int y)
{
  const int rx = a.radius_x, ry = a.radius_y;
  const bool inside = x - rx >= 0 && x + rx < a.width && y - ry >= 0
      && y + ry < a.height;
  Acc sum = 0;

  if (inside || a.border == BOX_BORDER_SHRINK) {
    const int x0 = max (x - rx, 0), x1 = min (x + rx, a.width - 1);
    const int y0 = max (y - ry, 0), y1 = min (y + ry, a.height - 1);

    for (int yy = y0; yy <= y1; yy++)
      for (int xx = x0; xx <= x1; xx++)
        sum += src_at < T > (a, xx, yy);
    return (T) Mean < T >::of (a, sum, (x1 - x0 + 1) * (y1 - y0 + 1));
  }

  for (int yy = y - ry; yy <= y + ry; yy++)
    for (int xx = x - rx; xx <= x + rx; xx++)
      sum += sample < T > (a, xx, yy);
  return (T) Mean < T >::of (a, sum, (2 * rx + 1) * (2 * ry + 1));
}

/* One thread per output sample. */
template <typename T, typename Acc>
__device__ __forceinline__ void
box_blur (const BoxBlurArgs & a)
{
  const int x = a.x + blockIdx.x * blockDim.x + threadIdx.x;
  const int y = a.y + blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= a.x + a.w || y >= a.y + a.h)
    return;
  store (a, x, y, blur_sample < T, Acc > (a, x, y));
}
