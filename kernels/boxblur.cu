/* cudaboxblur: box blur kernels, compiled at run time with NVRTC.
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each output sample is the mean of the (2 * radius_x + 1) x
 * (2 * radius_y + 1) window around it.  Where the window leaves the frame,
 * BoxBlurArgs.border says what it reads: with BOX_BORDER_SHRINK (the NVIDIA
 * sample's rule) nothing, and the mean is over the samples inside the
 * frame, so border pixels average fewer neighbours; the other modes read
 * stand-in samples and always divide by the full window.
 *
 * A kernel works on one component of one plane (see boxblur-args.h): rows
 * are addressed through a byte stride and pixels through a byte step, so
 * padded rows, interleaved chroma and packed RGB need no copy; the *_px4
 * kernels take whole pixels of four 8-bit samples instead (Pixel4, below).
 * Only the region args.x, args.y, args.w, args.h is written; windows read
 * the whole frame.  Samples are 8-bit, 16-bit (native endian) or float32.
 *
 * This file must stay self-contained apart from boxblur-args.h, which NVRTC
 * receives as an in-memory header.
 */

#include "boxblur-args.h"

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
    return (T) finish (sum, (x1 - x0 + 1) * (y1 - y0 + 1));
  }

  for (int yy = y - ry; yy <= y + ry; yy++)
    for (int xx = x - rx; xx <= x + rx; xx++)
      sum += sample < T > (a, xx, yy);
  return (T) finish (sum, (2 * rx + 1) * (2 * ry + 1));
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

/* ------------------------------------------------------------------------
 * The sample's own window, 3x3, specialised: each thread produces
 * BOX3_ROWS vertically adjacent samples and loads each input sample of
 * their windows once into registers, with the loops unrolled.  The
 * summation order is blur_sample's, so results are bit-identical to
 * box_blur_*.  Threads whose windows touch the frame's border, or whose
 * rows leave the region, take box_blur3_edge.  8-bit samples go through
 * box_blur3_u8_words, four columns a thread.  BOX3_ROWS is in
 * boxblur-args.h, for the host's launch geometry.
 * ------------------------------------------------------------------------ */

/* box_blur3's samples of column @x, rows y0 .. y0 + BOX3_ROWS - 1 (those
 * before @y_end), next to the frame's border or the region's last row:
 * the window stack is read into registers first, every load independent
 * of the others, then summed in blur_sample's order.  Rows below the
 * windows of the rows written are not read: src may end there (a region's
 * halo copy).  In shrink mode a sample outside the frame reads as 0 and is
 * not counted; adding 0 changes no sum, so float32 stays bit-identical. */
template <typename T, typename Acc>
__device__ __forceinline__ void
box_blur3_edge (const BoxBlurArgs & a, int x, int y0, int y_end)
{
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  T v[BOX3_ROWS + 2][3];

#pragma unroll
  for (int r = 0; r < BOX3_ROWS + 2; r++)
#pragma unroll
    for (int c = 0; c < 3; c++) {
      const int xx = x - 1 + c, yy = y0 - 1 + r;

      if (yy > y_end)
        v[r][c] = T ();
      else if (!shrink)
        v[r][c] = sample < T > (a, xx, yy);
      else if (xx >= 0 && xx < a.width && yy >= 0 && yy < a.height)
        v[r][c] = src_at < T > (a, xx, yy);
      else
        v[r][c] = T ();
    }

  const unsigned int columns = shrink ?
      min (x + 1, a.width - 1) - max (x - 1, 0) + 1 : 3;
#pragma unroll
  for (int k = 0; k < BOX3_ROWS; k++) {
    const int y = y0 + k;
    if (y < y_end) {
      const unsigned int rows = shrink ?
          min (y + 1, a.height - 1) - max (y - 1, 0) + 1 : 3;
      Acc sum = 0;
#pragma unroll
      for (int dy = 0; dy < 3; dy++)
#pragma unroll
        for (int dx = 0; dx < 3; dx++)
          sum += v[k + dy][dx];
      store (a, x, y, (T) finish (sum, rows * columns));
    }
  }
}

template <typename T, typename Acc>
__device__ __forceinline__ void
box_blur3 (const BoxBlurArgs & a)
{
  const int x = a.x + blockIdx.x * blockDim.x + threadIdx.x;
  const int y0 = a.y + (blockIdx.y * blockDim.y + threadIdx.y) * BOX3_ROWS;
  const int y_end = a.y + a.h;

  if (x >= a.x + a.w || y0 >= y_end)
    return;

  if (x >= 1 && x + 1 < a.width && y0 >= 1 && y0 + BOX3_ROWS < a.height
      && y0 + BOX3_ROWS <= y_end) {
    T v[BOX3_ROWS + 2][3];

#pragma unroll
    for (int r = 0; r < BOX3_ROWS + 2; r++)
#pragma unroll
      for (int c = 0; c < 3; c++)
        v[r][c] = src_at < T > (a, x - 1 + c, y0 - 1 + r);
#pragma unroll
    for (int k = 0; k < BOX3_ROWS; k++) {
      Acc sum = 0;
#pragma unroll
      for (int dy = 0; dy < 3; dy++)
#pragma unroll
        for (int dx = 0; dx < 3; dx++)
          sum += v[k + dy][dx];
      store (a, x, y0 + k, (T) finish (sum, 9));
    }
    return;
  }

  box_blur3_edge < T, Acc > (a, x, y0, y_end);
}

/* 8-bit samples: each thread makes BOX3_U8_COLUMNS x BOX3_ROWS samples,
 * and where rows are 4-byte aligned and the pixels adjacent bytes, loads
 * and stores them as 32-bit words: one word and the two bytes beside it
 * for each row read, one word for each row written. */
__device__ __forceinline__ void
box_blur3_u8_words (const BoxBlurArgs & a)
{
  const int x4 = a.x + (blockIdx.x * blockDim.x + threadIdx.x) *
      BOX3_U8_COLUMNS;
  const int y0 = a.y + (blockIdx.y * blockDim.y + threadIdx.y) * BOX3_ROWS;
  const int x_end = a.x + a.w, y_end = a.y + a.h;

  if (x4 >= x_end || y0 >= y_end)
    return;

  const bool words = a.src_step == 1 && a.dst_step == 1
      && (((unsigned long long) a.src | (unsigned long long) a.dst |
              (unsigned int) (a.src_stride | a.dst_stride | a.x)) & 3) == 0;

  if (words && x4 >= 1 && x4 + BOX3_U8_COLUMNS < a.width
      && x4 + BOX3_U8_COLUMNS <= x_end && y0 >= 1
      && y0 + BOX3_ROWS < a.height && y0 + BOX3_ROWS <= y_end) {
    unsigned int h[BOX3_ROWS + 2][4];

#pragma unroll
    for (int r = 0; r < BOX3_ROWS + 2; r++) {
      const uint8 *row = a.src + (long long) (y0 - 1 + r) * a.src_stride;
      const unsigned int w = *(const unsigned int *) (row + x4);
      const unsigned int b0 = w & 0xff, b1 = (w >> 8) & 0xff,
          b2 = (w >> 16) & 0xff, b3 = w >> 24;

      h[r][0] = row[x4 - 1] + b0 + b1;
      h[r][1] = b0 + b1 + b2;
      h[r][2] = b1 + b2 + b3;
      h[r][3] = b2 + b3 + row[x4 + 4];
    }
#pragma unroll
    for (int k = 0; k < BOX3_ROWS; k++) {
      unsigned int out = 0;
#pragma unroll
      for (int c = 0; c < 4; c++)
        out |= finish (h[k][c] + h[k + 1][c] + h[k + 2][c], 9u) << (8 * c);
      *(unsigned int *) (a.dst + (long long) (y0 + k) * a.dst_stride + x4) =
          out;
    }
    return;
  }

#pragma unroll
  for (int c = 0; c < BOX3_U8_COLUMNS; c++)
    if (x4 + c < x_end)
      box_blur3_edge < uint8, unsigned int > (a, x4 + c, y0, y_end);
}

/* box_blur3's pixels of column @x, rows y0 .. y0 + BOX3_ROWS - 1 (those
 * before @y_end), for packed pixels: the three pixels of a row are added
 * as words, bytes 0 and 2 (even) and bytes 1 and 3 (odd) in the 16-bit
 * halves of one word each (nine samples sum to 2295 at most, so no half
 * carries into the other), and each row's sums serve the three windows
 * that hold it.  EDGE: the windows may leave the frame (a pixel outside
 * reads through the border rule, in shrink mode as 0, not counted), and
 * the rows may pass @y_end (rows below the windows of those before it are
 * not read).  The kept bytes come from the centre pixel, already
 * loaded. */
template <bool EDGE>
__device__ __forceinline__ void
box_blur3_px4_at (const BoxBlurArgs & a, int x, int y0, int y_end)
{
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const unsigned int outside = shrink ? 0u :
      (a.border_int & 0xff) * 0x01010101u;
  unsigned int even[BOX3_ROWS + 2], odd[BOX3_ROWS + 2], centre[BOX3_ROWS + 2];

#pragma unroll
  for (int r = 0; r < BOX3_ROWS + 2; r++) {
    even[r] = odd[r] = 0;
#pragma unroll
    for (int c = 0; c < 3; c++) {
      const int xx = x - 1 + c, yy = y0 - 1 + r;
      const int mx = EDGE ? border_index (xx, a.width, a.border) : xx;
      const int my = EDGE ? border_index (yy, a.height, a.border) : yy;
      /* rows below the windows of the rows written are not read */
      const unsigned int w = EDGE && yy > y_end ? 0u : mx < 0 || my < 0 ?
          outside : load < unsigned int >(a.src, a.src_stride, 4, mx, my);

      if (c == 1)
        centre[r] = w;
      even[r] += even_bytes (w);
      odd[r] += odd_bytes (w);
    }
  }

  const unsigned int columns = EDGE && shrink ?
      min (x + 1, a.width - 1) - max (x - 1, 0) + 1 : 3;
#pragma unroll
  for (int k = 0; k < BOX3_ROWS; k++) {
    const int y = y0 + k;

    if (!EDGE || y < y_end) {
      const unsigned int n = EDGE && shrink ?
          (min (y + 1, a.height - 1) - max (y - 1, 0) + 1) * columns : 9;
      const unsigned int e = even[k] + even[k + 1] + even[k + 2];
      const unsigned int o = odd[k] + odd[k + 1] + odd[k + 2];
      const unsigned int out = finish (e & 0xffff, n) |
          finish (o & 0xffff, n) << 8 | finish (e >> 16, n) << 16 |
          finish (o >> 16, n) << 24;

      *(unsigned int *) (a.dst + (long long) y * a.dst_stride +
          (long long) x * 4) = (out & ~a.pixel_keep) |
          (centre[k + 1] & a.pixel_keep);
    }
  }
}

__device__ __forceinline__ void
box_blur3_px4_words (const BoxBlurArgs & a)
{
  const int x = a.x + blockIdx.x * blockDim.x + threadIdx.x;
  const int y0 = a.y + (blockIdx.y * blockDim.y + threadIdx.y) * BOX3_ROWS;
  const int y_end = a.y + a.h;

  if (x >= a.x + a.w || y0 >= y_end)
    return;
  if (x >= 1 && x + 1 < a.width && y0 >= 1 && y0 + BOX3_ROWS < a.height
      && y0 + BOX3_ROWS <= y_end)
    box_blur3_px4_at < false > (a, x, y0, y_end);
  else
    box_blur3_px4_at < true > (a, x, y0, y_end);
}

/* Instantiates the direct kernels for samples T summed in Acc. */
#define DIRECT(name, T, Acc) \
  extern "C" __global__ void \
  box_blur_##name (const BoxBlurArgs * __restrict__ list) \
  { \
    box_blur < T, Acc > (entry (list)); \
  }

DIRECT (u8, uint8, unsigned int)
DIRECT (u16, uint16, uint64)
DIRECT (f32, float, float)

extern "C" __global__ void
box_blur3_u8 (const BoxBlurArgs * __restrict__ list)
{
  box_blur3_u8_words (entry (list));
}

/* nine 16-bit samples sum within 32 bits */
extern "C" __global__ void
box_blur3_u16 (const BoxBlurArgs * __restrict__ list)
{
  box_blur3 < uint16, unsigned int > (entry (list));
}

extern "C" __global__ void
box_blur3_f32 (const BoxBlurArgs * __restrict__ list)
{
  box_blur3 < float, float >(entry (list));
}

/* ------------------------------------------------------------------------
 * Separable kernels: cost independent of the radius.
 *
 * The window sum is a sum of column sums, so a region is blurred in two
 * passes through column sums `mid` (one row per row of the region, as
 * wide as the columns its windows reach, each entry of a launch in its own
 * part):
 *
 *   box_columns_*: each thread walks down COLUMN_VECTOR_* neighbouring
 *     columns over a run of column_run rows, keeping the sums of the
 *     2 * radius_y + 1 rows around it and sliding them one row at a time
 *     (add the row entering, subtract the row leaving), loading and
 *     storing the columns at once where they are aligned.  Threads of a
 *     warp own neighbouring columns, so loads are coalesced.  Only the
 *     columns the region's windows reach are summed.
 *   box_rows_*: each warp slides the window along a run of one row of
 *     `mid`, the lanes' steps added up by a warp-wide scan, with no shared
 *     memory.  Columns outside the frame stand in by border_index, or are
 *     whole columns of the constant border.
 *
 * Integer samples accumulate exactly (8-bit in 32 bits; 16-bit columns in
 * 32 bits and rows in 64), so the result equals the direct kernel's.  Float
 * samples slide and scan in pairs (Fsum) and keep the column sums as
 * float: the roundings that matter are one per column sum (relative
 * 2^-24) and the last few of each sample (relative 2^-24 each); those of
 * the pairs are of the order of u^2 times the sum of the magnitudes the
 * slide has passed (the pairs are not renormalised, so lo may grow after
 * heavy cancellation), so the result stays within a few 1e-7 relative of
 * the exact mean for non-negative data, whatever the radius, instead of
 * accumulating the drift a float running sum would: a window that slid
 * off samples of 10^6 onto samples of 1 keeps no measurable trace of them
 * (the kernels suite's extremes test), one that slid off samples of 10^8
 * an error of the order of 1e-6 relative.  A window that meets an
 * infinite or NaN sample gives NaN here (the direct kernels give
 * infinity for an infinite one).
 * ------------------------------------------------------------------------ */

/* The frame row that window row @i stands for, or -1 where the window
 * reads the constant border (or, in shrink mode, nothing). */
__device__ __forceinline__ int
window_row (const BoxBlurArgs & a, int i)
{
  return border_index (i, a.height, a.border);
}

/* The thread's V columns of source row @r (-1: @outside), at @col, the
 * thread's first column of row 0, as Out; with VECTOR in one aligned
 * load, else one at a time, the columns from @n on repeating the last.
 * The load is made whatever @r, from row @home where it is -1, and its
 * value chosen after, so that no branch stands between the loads of a
 * thread. */
template <typename T, typename Out, int V, bool VECTOR>
__device__ __forceinline__ void
load_columns (const BoxBlurArgs & a, const uint8 * col, int r, int home,
    int n, Out outside, Out * v)
{
  const uint8 *p = col + (long long) (r < 0 ? home : r) * a.src_stride;
  T w[V];

  if (VECTOR) {
    const Vector < T, V > vec = *(const Vector < T, V > *) p;
#pragma unroll
    for (int c = 0; c < V; c++)
      w[c] = vec.v[c];
  } else {
#pragma unroll
    for (int c = 0; c < V; c++)
      w[c] = *(const T *) (p + min (c, n - 1) * a.src_step);
  }
#pragma unroll
  for (int c = 0; c < V; c++)
    v[c] = r < 0 ? outside : (Out) w[c];
}

/* The rows entering (@enter) and leaving (@leave) the sums of rows y ..
 * y + U - 1, those from @y1 on adding nothing.  INSIDE: all of them are
 * frame rows, which need no border rule.  They are kept as samples, which
 * take fewer registers than float32's pairs. */
template <typename T, int U, int V, bool VECTOR, bool INSIDE>
__device__ __forceinline__ void
load_slide (const BoxBlurArgs & a, const uint8 * col, int y, int y1,
    int n, T outside, T enter[U][V], T leave[U][V])
{
  const int ry = a.radius_y;

#pragma unroll
  for (int u = 0; u < U; u++) {
    const bool in = y + u < y1;
    const int e = y + u + ry + 1, l = y + u - ry;

    load_columns < T, T, V, VECTOR > (a, col,
        !in ? -1 : INSIDE ? e : window_row (a, e), y, n,
        in ? outside : (T) 0, enter[u]);
    load_columns < T, T, V, VECTOR > (a, col,
        !in ? -1 : INSIDE ? l : window_row (a, l), y, n,
        in ? outside : (T) 0, leave[u]);
  }
}

/* Every row of the window of row @y0: first its rows @lo .. @hi inside the
 * frame, U at a time, with no border rule, by @add_rows (r, n) (rows r ..
 * r + n - 1, n <= U), then those above and below them by @add_row (r),
 * through the border rule (-1: not there). */
template <int U, typename Rows, typename Row>
__device__ __forceinline__ void
for_window_rows (const BoxBlurArgs & a, int y0, int lo, int hi,
    Rows add_rows, Row add_row)
{
  const int ry = a.radius_y;

  for (int yy = lo; yy <= hi; yy += U)
    add_rows (yy, min (U, hi + 1 - yy));
  for (int yy = y0 - ry; yy < lo; yy++)
    add_row (window_row (a, yy));
  for (int yy = hi + 1; yy <= y0 + ry; yy++)
    add_row (window_row (a, yy));
}

/* What box_columns_at() slides its column sums in, for samples summed in
 * Acc (the row pass's): 16-bit ones in 32 bits (at most 511 x 65535),
 * others in Acc; and the Part that the first window's rows are added up
 * in, U at a time, before going into the sums.  A float32 part in plain
 * float32 would leave its rounding in the sums after its rows have left
 * the window, where the samples may be far smaller, so float32 rows take
 * a plain part only where they stay in every window of the run (the core:
 * its rounding is then relative to samples of each window), and pairs
 * elsewhere. */
template <typename Acc>
struct ColumnSums
{
  typedef Acc Sum;
  typedef Acc Part;
};

template <>
struct ColumnSums <uint64 >
{
  typedef unsigned int Sum;
  typedef unsigned int Part;
};

template <>
struct ColumnSums <Fsum >
{
  typedef Fsum Sum;
  typedef float Part;
};

/* Adds rows @r .. @r + @rows - 1 (@rows <= U) of the thread's V columns
 * to @sum, first summed in Part. */
template <typename T, typename Part, typename Sum, int U, int V, bool VECTOR>
__device__ __forceinline__ void
add_rows_in (const BoxBlurArgs & a, const uint8 * col, int r, int rows,
    int home, int n, Sum * sum)
{
  Part part[V], v[V];

#pragma unroll
  for (int c = 0; c < V; c++)
    part[c] = 0;
#pragma unroll
  for (int u = 0; u < U; u++)
    if (u < rows) {
      load_columns < T, Part, V, VECTOR > (a, col, r + u, home, n, 0, v);
#pragma unroll
      for (int c = 0; c < V; c++)
        part[c] += v[c];
    }
#pragma unroll
  for (int c = 0; c < V; c++)
    sum[c] += part[c];
}

/* The column sums of rows @y0 .. @y1 - 1 of the thread's V columns from
 * @x on (those from x_last on repeating the last), U rows at a time: the
 * rows entering and leaving the next U sums are loaded first, so that
 * their loads are in flight together.  A row that is not there (shrink)
 * adds and subtracts 0, which changes no sum.  @put (sum) takes each row's
 * V sums in turn.  VECTOR: the thread's columns are all there, adjacent
 * and aligned. */
template <typename T, typename RowAcc, int U, int V, bool VECTOR,
    typename Put>
__device__ __forceinline__ void
box_columns_at (const BoxBlurArgs & a, int x, int y0, int y1, Put put)
{
  typedef typename ColumnSums < RowAcc >::Sum Acc;
  typedef typename ColumnSums < RowAcc >::Part Part;
  const int ry = a.radius_y;
  /* the first of the rows in every window of the run */
  const int core = y1 - 1 - ry;
  const int n = a.x_last - x;
  const T outside = a.border == BOX_BORDER_SHRINK ? (T) 0 :
      constant_sample < T > (a);
  const uint8 *col = a.src + (long long) x * a.src_step;
  const int lo = max (y0 - ry, 0), hi = min (y0 + ry, a.height - 1);
  Acc sum[V];

  /* the window of row y0: its rows inside the frame, then those above
   * and below it */
#pragma unroll
  for (int c = 0; c < V; c++)
    sum[c] = 0;
  auto add_rows = [&](int r, int rows) {
    /* parts of the core in Part where it is narrower than the sums */
    if (sizeof (Part) < sizeof (Acc) && r >= core)
      add_rows_in < T, Part, Acc, U, V, VECTOR > (a, col, r, rows, y0, n,
          sum);
    else
      add_rows_in < T, Acc, Acc, U, V, VECTOR > (a, col, r, rows, y0, n,
          sum);
  };
  auto add_row = [&](int r) {
    Acc v[V];

    load_columns < T, Acc, V, VECTOR > (a, col, r, y0, n, (Acc) outside, v);
#pragma unroll
    for (int c = 0; c < V; c++)
      sum[c] += v[c];
  };
  for_window_rows < U > (a, y0, lo, hi, add_rows, add_row);

  for (int y = y0; y < y1; y += U) {
    T enter[U][V], leave[U][V];

    if (y - ry >= 0 && y + U + ry < a.height)
      load_slide < T, U, V, VECTOR, true > (a, col, y, y1, n, outside,
          enter, leave);
    else
      load_slide < T, U, V, VECTOR, false > (a, col, y, y1, n, outside,
          enter, leave);
#pragma unroll
    for (int u = 0; u < U; u++) {
      if (y + u < y1) {
        put (sum);
#pragma unroll
        for (int c = 0; c < V; c++) {
          sum[c] += enter[u][c];
          sum[c] -= leave[u][c];
        }
      }
    }
  }
}

/* The four 8-bit samples of a row at @p as one word, the first in byte
 * 0: with VECTOR one aligned load, else one sample at a time, the columns
 * from @n on repeating the last. */
template <bool VECTOR>
__device__ __forceinline__ unsigned int
row_word (const BoxBlurArgs & a, const uint8 * p, int n)
{
  if (VECTOR)
    return *(const unsigned int *) p;

  unsigned int w = 0;
#pragma unroll
  for (int c = 0; c < 4; c++)
    w |= (unsigned int) p[min (c, n - 1) * a.src_step] << (8 * c);
  return w;
}

/* The words of the rows entering (@enter) and leaving (@leave) the sums
 * of rows y .. y + U - 1 near the frame's top or bottom, through the
 * border rule, as load_slide() loads them. */
template <int U, bool VECTOR>
__device__ __forceinline__ void
load_words (const BoxBlurArgs & a, const uint8 * col, int y, int y1, int n,
    unsigned int outside, unsigned int enter[U], unsigned int leave[U])
{
  const int ry = a.radius_y;

#pragma unroll
  for (int u = 0; u < U; u++) {
    const bool in = y + u < y1;
    const int e = in ? window_row (a, y + u + ry + 1) : -1;
    const int l = in ? window_row (a, y + u - ry) : -1;
    const unsigned int we = row_word < VECTOR > (a, col +
        (long long) (e < 0 ? y : e) * a.src_stride, n);
    const unsigned int wl = row_word < VECTOR > (a, col +
        (long long) (l < 0 ? y : l) * a.src_stride, n);

    enter[u] = e < 0 ? (in ? outside : 0) : we;
    leave[u] = l < 0 ? (in ? outside : 0) : wl;
  }
}

/* box_columns_at() for 8-bit samples with 16-bit column sums, four
 * columns a thread (@n of them there, the others repeating the last), rows
 * @y0 .. @y1 - 1: a row's four samples come as one word, and the sums of
 * columns 0 and 2 (even) and of columns 1 and 3 (odd) slide as the 16-bit
 * halves of one word each, so that one 32-bit addition serves two
 * columns.  Every column sum fits its half (at most 65535), and integers
 * add up to the same word whatever carries cross between the halves on the
 * way, so the sums are exact.  @put (lo, hi) takes the four sums of each
 * row in turn, columns 0 and 1 in the halves of lo, 2 and 3 in those of
 * hi. */
template <int U, bool VECTOR, typename Put>
__device__ __forceinline__ void
box_columns_u8_pairs (const BoxBlurArgs & a, int x, int n, int y0, int y1,
    Put put)
{
  const int ry = a.radius_y;
  const unsigned int outside = a.border == BOX_BORDER_SHRINK ? 0u :
      (a.border_int & 0xff) * 0x01010101u;
  const uint8 *col = a.src + (long long) x * a.src_step;
  const int lo = max (y0 - ry, 0), hi = min (y0 + ry, a.height - 1);
  unsigned int even = 0, odd = 0;

  auto add_row = [&](int r) {
    const unsigned int w = row_word < VECTOR > (a, col +
        (long long) (r < 0 ? y0 : r) * a.src_stride, n);
    const unsigned int v = r < 0 ? outside : w;
    even += even_bytes (v);
    odd += odd_bytes (v);
  };
  auto add_rows = [&](int r, int rows) {
#pragma unroll
    for (int u = 0; u < U; u++)
      if (u < rows)
        add_row (r + u);
  };
  for_window_rows < U > (a, y0, lo, hi, add_rows, add_row);

  /* the rows entering and leaving the sums of row y: pointers added to,
   * rather than a row multiplied by the stride for each load, where all U
   * rows are the run's and every row of their windows is inside the
   * frame (src may hold no rows past the run's windows) */
  const long long stride = a.src_stride;
  const uint8 *entering = col + (y0 + ry + 1) * stride;
  const uint8 *leaving = col + (y0 - ry) * stride;

  for (int y = y0; y < y1; y += U) {
    unsigned int enter[U], leave[U];

    if (y - ry >= 0 && y + U + ry < a.height && y + U <= y1) {
#pragma unroll
      for (int u = 0; u < U; u++) {
        enter[u] = row_word < VECTOR > (a, entering + u * stride, n);
        leave[u] = row_word < VECTOR > (a, leaving + u * stride, n);
      }
    } else {
      load_words < U, VECTOR > (a, col, y, y1, n, outside, enter, leave);
    }
    entering += U * stride;
    leaving += U * stride;
#pragma unroll
    for (int u = 0; u < U; u++) {
      if (y + u < y1) {
        /* columns 0, 1 and 2, 3 */
        put (__byte_perm (even, odd, 0x5410),
            __byte_perm (even, odd, 0x7632));
        even += even_bytes (enter[u]) - even_bytes (leave[u]);
        odd += odd_bytes (enter[u]) - odd_bytes (leave[u]);
      }
    }
  }
}

template <typename T, typename Acc, typename Mid, int U, int V>
__device__ __forceinline__ void
box_columns (const BoxBlurArgs & a, Mid * __restrict__ mid)
{
  const int x = a.x_first + (blockIdx.x * blockDim.x + threadIdx.x) * V;
  const int y0 = a.y + blockIdx.y * a.column_run;

  if (x >= a.x_last || y0 >= a.y + a.h)
    return;

  const unsigned long long at = (unsigned long long) a.src +
      (unsigned long long) x * a.src_step;
  const bool vector = x + V <= a.x_last && a.src_step == sizeof (T)
      && ((at | (unsigned int) a.src_stride) & (sizeof (T) * V - 1)) == 0;
  const int y1 = min (y0 + a.column_run, a.y + a.h), n = a.x_last - x;
  typedef typename ColumnSums < Acc >::Sum Sum;
  Mid *out = mid + a.mid_offset + (long long) (y0 - a.y) * a.mid_pitch +
      x - a.x_first;

  if constexpr (sizeof (T) == 1 && sizeof (Mid) == 2 && V == 4) {
    /* all four sums stored, those from x_last on into the padding of
     * mid's rows */
    auto put = [&](unsigned int lo, unsigned int hi) {
      *(uint2 *) out = make_uint2 (lo, hi);
      out += a.mid_pitch;
    };

    if (vector)
      box_columns_u8_pairs < U, true > (a, x, n, y0, y1, put);
    else
      box_columns_u8_pairs < U, false > (a, x, n, y0, y1, put);
  } else if (vector) {
    box_columns_at < T, Acc, U, V, true > (a, x, y0, y1,
        [&](const Sum * sum) {
          Vector < Mid, V > w;
#pragma unroll
          for (int c = 0; c < V; c++)
            w.v[c] = (Mid) sum[c];
          *(Vector < Mid, V > *) out = w;
          out += a.mid_pitch;
        });
  } else {
    /* the columns from x_last on not stored */
    box_columns_at < T, Acc, U, V, false > (a, x, y0, y1,
        [&](const Sum * sum) {
#pragma unroll
          for (int c = 0; c < V; c++)
            if (c < n)
              out[c] = (Mid) sum[c];
          out += a.mid_pitch;
        });
  }
}

/* The warp's shuffles, for sums of any Acc. */
template <typename Acc>
__device__ __forceinline__ Acc
shfl_up (Acc v, int d)
{
  return __shfl_up_sync (0xffffffffu, v, d);
}

template <typename Acc>
__device__ __forceinline__ Acc
shfl_xor (Acc v, int d)
{
  return __shfl_xor_sync (0xffffffffu, v, d);
}

template <typename Acc>
__device__ __forceinline__ Acc
shfl_from (Acc v, int lane)
{
  return __shfl_sync (0xffffffffu, v, lane);
}

__device__ __forceinline__ Fsum
shfl_up (Fsum v, int d)
{
  v.hi = shfl_up (v.hi, d);
  v.lo = shfl_up (v.lo, d);
  return v;
}

__device__ __forceinline__ Fsum
shfl_xor (Fsum v, int d)
{
  v.hi = shfl_xor (v.hi, d);
  v.lo = shfl_xor (v.lo, d);
  return v;
}

__device__ __forceinline__ Fsum
shfl_from (Fsum v, int lane)
{
  v.hi = shfl_from (v.hi, lane);
  v.lo = shfl_from (v.lo, lane);
  return v;
}

__device__ __forceinline__ Sum4
shfl_up (Sum4 v, int d)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    v.c[i] = shfl_up (v.c[i], d);
  return v;
}

__device__ __forceinline__ Sum4
shfl_xor (Sum4 v, int d)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    v.c[i] = shfl_xor (v.c[i], d);
  return v;
}

__device__ __forceinline__ Sum4
shfl_from (Sum4 v, int lane)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    v.c[i] = shfl_from (v.c[i], lane);
  return v;
}

/* Exclusive prefix sum of @v over the warp. */
template <typename Acc>
__device__ __forceinline__ Acc
warp_exclusive_scan (Acc v)
{
  const int lane = threadIdx.x & 31;
  Acc inclusive = v;

#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const Acc up = shfl_up (inclusive, d);
    if (lane >= d)
      inclusive += up;
  }
  return inclusive - v;
}

/* Division by a divisor d >= 2 that many quotients share: n / d is
 * umulhi (n, m) >> l, with 2^l < d <= 2^(l + 1) and m = ceil (2^(32 + l) /
 * d), which is below 2^32; since m d - 2^(32 + l) < d, the quotient is
 * exact for every n below 2^31 (Granlund and Montgomery).  m is found with
 * no 64-bit division: a float32 estimate, within 129 of the floor of the
 * quotient, corrected by its remainder in 32-bit integers. */
struct Divider
{
  unsigned int m;
  int l;
};

__device__ __forceinline__ Divider
divider (unsigned int d)
{
  Divider v;

  v.l = 31 - __clz (d - 1);

  const uint64 p = 1ull << (32 + v.l);
  unsigned int q = __float2uint_rz (__fdiv_rn ((float) p, (float) d));
  int r = (int) (long long) (p - (uint64) q * d);
  int k = r / (int) d;

  r -= k * (int) d;
  if (r < 0) {
    k--;
    r += d;
  }
  v.m = q + k + (r != 0);
  return v;
}

/* finish() for the many windows of one row that have the same count,
 * with what it divides by worked out once (reciprocal()): 8-bit sums
 * (below 2^27, so 2 sum + count below 2^28) divide exactly by a Divider of
 * 2 count; 16-bit sums by a float32 reciprocal and the remainder
 * (finish_estimated()); float32 sums are converted and multiplied by the
 * reciprocal, within about two float32 roundings of the quotient. */
__device__ __forceinline__ Divider
reciprocal (unsigned int count, unsigned int)
{
  return divider (2 * count);
}

__device__ __forceinline__ float
reciprocal (unsigned int count, uint64)
{
  return reciprocal_of_twice (count);
}

__device__ __forceinline__ float
reciprocal (unsigned int count, Fsum)
{
  return 1.0f / (float) count;
}

__device__ __forceinline__ unsigned int
finish_by (unsigned int sum, unsigned int count, Divider by)
{
  return __umulhi (2 * sum + count, by.m) >> by.l;
}

__device__ __forceinline__ uint64
finish_by (uint64 sum, unsigned int count, float inv)
{
  return finish_estimated < uint64, long long >(sum, count, inv);
}

__device__ __forceinline__ float
finish_by (Fsum sum, unsigned int, float inv)
{
  return __fmul_rn ((float) sum, inv);
}

__device__ __forceinline__ Divider
reciprocal (unsigned int count, Sum4)
{
  return divider (2 * count);
}

__device__ __forceinline__ Sum4
finish_by (Sum4 sum, unsigned int count, Divider by)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    sum.c[i] = finish_by (sum.c[i], count, by);
  return sum;
}

/* The column sum that column @j stands for in a row's windows: with
 * INSIDE (every window of the run is inside the frame) the column sums'
 * column @j; else the one border_index names, or where it names none
 * @border_column, the sum of a column of the constant border (shrink: 0),
 * the load then made from column @home and its value dropped. */
template <typename Value, typename Mid, bool INSIDE>
__device__ __forceinline__ Value
row_value (const BoxBlurArgs & a, const Mid * row, int j,
    Value border_column, int home)
{
  if (INSIDE)
    return (Value) row[j];

  const int m = border_index (j, a.width, a.border);
  const Value v = (Value) row[m < 0 ? home : m];
  return m < 0 ? border_column : v;
}

/* Output samples x0 .. x1 - 1 of row @y, from the column sums @row (column
 * j at row[j]), @lane of the warp taking K = RowSums::samples neighbouring
 * ones of each step of 32 * K.  The warp sums the window of x0, then
 * slides it: the sum of x is that of x - 1 plus the column entering and
 * minus the one leaving, d(x).  Each lane adds up its d()s, a warp-wide
 * scan turns those into every sample's sum, and the last lane's carries
 * over to the next step.  Integer sums slide exactly (d() may wrap, the
 * sums never do), float ones in pairs (Fsum).  A lane's means are stored
 * at once where they are adjacent and aligned. */
template <typename T, typename Acc, typename Mid, bool INSIDE>
__device__ __forceinline__ void
box_rows_run (const BoxBlurArgs & a, const Mid * __restrict__ row, int x0,
    int x1, int y, int lane)
{
  typedef RowSums < Acc > Sums;
  typedef typename Sums::Value Value;
  const int K = Sums::samples;
  const int rx = a.radius_x, ry = a.radius_y;
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const Value border_column = shrink ? (Value) 0 :
      (Value) (constant_sample < T > (a) * (2 * ry + 1));
  auto value = [&](int j) {
    return row_value < Value, Mid, INSIDE > (a, row, j, border_column,
        a.x_first);
  };

  Acc carry = 0;
  for (int i = lane; i <= 2 * rx; i += 32)
    carry += value (x0 - rx + i);
#pragma unroll
  for (int d = 16; d > 0; d >>= 1)
    carry += shfl_xor (carry, d);

  const unsigned int rows = shrink ?
      min (y + ry, a.height - 1) - max (y - ry, 0) + 1 : 2 * ry + 1;
  const unsigned int full = (2 * rx + 1) * rows;
  const auto inv = reciprocal (full, (Acc) 0);

  for (int xs = x0 + lane * K; xs - lane * K < x1; xs += 32 * K) {
    Acc sum[K], local;

#pragma unroll
    for (int c = 0; c < K; c++) {
      const int x = xs + c;
      const Acc step = x > x0 && x < x1 ?
          Sums::step (value (x + rx), value (x - rx - 1)) : (Acc) 0;
      local = c == 0 ? step : local + step;
      sum[c] = local;
    }
    const Acc before = carry + warp_exclusive_scan (local);
    carry = shfl_from (before + local, 31);

    T out[K];
#pragma unroll
    for (int c = 0; c < K; c++) {
      const int x = xs + c;
      const unsigned int count = INSIDE || !shrink || x >= x1 ? full :
          (unsigned int) (min (x + rx, a.width - 1) - max (x - rx, 0) + 1) *
          rows;
      const Acc s = Sums::at (before, sum[c]);
      out[c] = (T) (count == full ? finish_by (s, full, inv) :
          finish (s, count));
    }

    uint8 *p = a.dst + (long long) y * a.dst_stride +
        (long long) xs * a.dst_step;
    if (xs + K <= x1 && a.dst_step == sizeof (T)
        && ((unsigned long long) p & (sizeof (T) * K - 1)) == 0) {
      Vector < T, K > v;
#pragma unroll
      for (int c = 0; c < K; c++)
        v.v[c] = with_kept (a, out[c], xs + c, y);
      *(Vector < T, K > *) p = v;
    } else {
#pragma unroll
      for (int c = 0; c < K; c++)
        if (xs + c < x1)
          store (a, xs + c, y, out[c]);
    }
  }
}

/* One warp per (run of row_run output samples, row of the region); runs
 * whose windows all stay inside the frame take no border rule. */
template <typename T, typename Acc, typename Mid>
__device__ __forceinline__ void
box_rows (const BoxBlurArgs & a, const Mid * __restrict__ mid)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int dy = blockIdx.y * (blockDim.x >> 5) + warp;
  const int x0 = a.x + blockIdx.x * a.row_run;
  const int x1 = min (x0 + a.row_run, a.x + a.w);

  /* the whole warp leaves together, before any shuffle */
  if (x0 >= a.x + a.w || dy >= a.h)
    return;

  const Mid *row = mid + a.mid_offset + (long long) dy * a.mid_pitch -
      a.x_first;
  if (x0 - a.radius_x >= 0 && x1 + a.radius_x <= a.width)
    box_rows_run < T, Acc, Mid, true > (a, row, x0, x1, a.y + dy, lane);
  else
    box_rows_run < T, Acc, Mid, false > (a, row, x0, x1, a.y + dy, lane);
}

/* ------------------------------------------------------------------------
 * One pass, box_tiles_* (8-bit samples here, float32 ones in
 * box_tiles_f32 below): a CUDA block takes a tile of
 * TILE_ROWS rows and row_run bytes of the region, and no intermediate
 * frame is written.  The plane holds pixels of pixel_samples samples side
 * by side (1; 2 for NV12's UV, 3 for RGB, 4 for RGBA ...), each sample's
 * window taking every pixel_samples-th byte column.  Its threads first sum
 * the columns that the tile's windows reach, four a thread as
 * box_columns_u8_pairs() does (a narrow tile's rows split among them:
 * tile_group ()), into shared memory, twice over (at most TILE_COLUMNS of
 * them).  After one barrier each warp takes an equal part
 * of the tile's columns, a multiple of TILE_SEGMENT and of pixel_samples,
 * and each of its lanes one row of the tile, along which it slides the
 * window: the sum of x + 1 is that of x plus the column entering and minus
 * the one leaving, two reads of shared memory a sample (for pixels of
 * four, a pixel: tile_pixels ()) and no exchange between lanes, and one
 * multiplication for the mean.
 * Rows an odd number of words apart (TILE_PITCH) put the 32 lanes' reads
 * of one column in 32 different banks.  The windows must not wrap around
 * the frame's sides (the plan takes the two passes there): every other
 * border mode names a column that the tile has summed.  They hold at most
 * TILE_WINDOW samples and TILE_RADIUS_Y rows either side
 * (TILE_RADIUS_Y_PX4 for pixels of four).
 * ------------------------------------------------------------------------ */

/* What tile_row () multiplies by to divide by @d = 2 c, the count c of
 * a window of at most TILE_WINDOW samples: m = ceil (2^32 / d), so that
 * __umulhi (n, m) is floor (n / d) wherever n (m d - 2^32) < 2^32.  That
 * holds for every t = 2 s + c of the window's 8-bit samples, as
 * t (m d - 2^32) < 512 c d = 1024 c^2 <= 2^32 (and every n below 512 c
 * was checked against the division for every c up to TILE_WINDOW). */
__device__ __forceinline__ unsigned int
tile_divider (unsigned int d)
{
  return 0xffffffffu / d + 1;
}

/* The TILE_SEGMENT means @w of row @y from column @x on, four a word,
 * those from @xe on not written: at once where they are aligned, else
 * one at a time. */
__device__ __forceinline__ void
store_segment (const BoxBlurArgs & a, int x, int xe, int y,
    const unsigned int w[TILE_SEGMENT / 4])
{
  static_assert (TILE_SEGMENT == 16, "a segment is stored as one uint4");
  uint8 *p = a.dst + (long long) y * a.dst_stride +
      (long long) x * a.dst_step;

  if (x + TILE_SEGMENT <= xe && a.dst_step == 1
      && ((unsigned long long) p & 15) == 0) {
    *(uint4 *) p = make_uint4 (w[0], w[1], w[2], w[3]);
    return;
  }
#pragma unroll
  for (int c = 0; c < TILE_SEGMENT; c++)
    if (x + c < xe)
      store < uint8 > (a, x + c, y, (uint8) (w[c / 4] >> (8 * (c % 4))));
}

/* The means of row @y, bytes @xs .. @xe - 1 (@xs a multiple of P), from
 * the tile's column sums @row, each stored twice over (byte column j at
 * row[j]; @home is one of them), of pixels of P samples: each sample's
 * window takes every P-th column, and the P sums slide side by side.
 * INSIDE: every window is inside the frame. */
template <int P, bool INSIDE>
__device__ __forceinline__ void
tile_row (const BoxBlurArgs & a, const uint16 * row, int home, int xs,
    int xe, int y)
{
  const int rx = a.radius_x, ry = a.radius_y, width = a.width / P;
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const unsigned int border_column = shrink ? 0u :
      2 * (a.border_int & 0xff) * (2 * ry + 1);
  /* twice the column sum that byte column j stands for (row_value() of
   * pixels of P samples) */
  auto value = [&](int j) {
    if (INSIDE)
      return (unsigned int) row[j];

    /* j mod P, of any sign */
    const int sample = (P & (P - 1)) == 0 ? j & (P - 1) :
        j - P * (j >= 0 ? j / P : -((P - 1 - j) / P));
    const int m = border_index ((j - sample) / P, width, a.border);
    const unsigned int v = row[m < 0 ? home : m * P + sample];
    return m < 0 ? border_column : v;
  };
  const unsigned int rows = shrink ?
      min (y + ry, a.height - 1) - max (y - ry, 0) + 1 : 2 * ry + 1;
  const unsigned int full = (2 * rx + 1) * rows;
  /* the rounded mean of a window of sum s and count c is
   * floor ((2 s + c) / (2 c)); the lane slides t = 2 s + full, and
   * divides it by one multiplication (tile_divider ()) */
  const unsigned int by = tile_divider (2 * full);
  unsigned int t[P];

#pragma unroll
  for (int s = 0; s < P; s++) {
    t[s] = full;
    for (int i = -rx; i <= rx; i++)
      t[s] += value (xs + s + i * P);
  }
  for (int x = xs; x < xe; x += TILE_SEGMENT) {
    unsigned int step[TILE_SEGMENT], w[TILE_SEGMENT / 4];

    /* every read of the segment first, with no branch between them, so
     * that they are in flight together; past xe they read columns of no
     * use, whose steps go into sums no mean is taken of: within the row's
     * pitch or the padding after the last row, or where a mirror at the
     * frame's right edge folds them back, up to TILE_SEGMENT columns
     * before the tile's first, in the padding before the first row */
#pragma unroll
    for (int c = 0; c < TILE_SEGMENT; c++)
      step[c] = value (x + c + P * (rx + 1)) - value (x + c - P * rx);
#pragma unroll
    for (int c = 0; c < TILE_SEGMENT; c++) {
      const int xc = (x + c) / P;
      const unsigned int count = INSIDE || !shrink || x + c >= xe ? full :
          (unsigned int) (min (xc + rx, width - 1) - max (xc - rx, 0) + 1) *
          rows;
      const unsigned int m = count == full ? __umulhi (t[c % P], by) :
          finish ((t[c % P] - full) / 2, count);

      /* the means below 256: the bytes of a word added up */
      w[c / 4] = c % 4 == 0 ? m : w[c / 4] + (m << (8 * (c % 4)));
      t[c % P] += step[c];
    }
    store_segment (a, x, xe, y, w);
    /* the next segment starts TILE_SEGMENT bytes on, at the second
     * sample of a pixel of three */
    if (P == 3) {
      const unsigned int t0 = t[0];

      static_assert (TILE_SEGMENT % 3 == 1, "pixels of 3 move on by one");
      t[0] = t[1];
      t[1] = t[2];
      t[2] = t0;
    }
  }
}

/* Half @h of a word of two 16-bit values. */
__device__ __forceinline__ unsigned int
half16 (unsigned int w, int h)
{
  return h ? w >> 16 : w & 0xffff;
}

/* tile_row () of pixels of four samples, rows TILE_PITCH_PX4 apart: a
 * pixel's four column sums are read as one 64-bit word, two sums a half,
 * and the differences of the entering pixel's and the leaving one's taken
 * two at a time, each half biased by 2^15 so that none borrows from the
 * other (every sum, twice a column of at most 2 TILE_RADIUS_Y_PX4 + 1
 * rows, is below 2^15).  The bytes in a.pixel_keep are copied from src,
 * whose pixels and rows are 4-byte aligned (the plan's rule). */
template <bool INSIDE>
__device__ __forceinline__ void
tile_pixels (const BoxBlurArgs & a, const uint16 * row, int home, int xs,
    int xe, int y)
{
  const int rx = a.radius_x, ry = a.radius_y, width = a.width / 4;
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const unsigned int edge = shrink ? 0u :
      2 * (a.border_int & 0xff) * (2 * ry + 1) * 0x10001u;
  /* twice the column sums of pixel i's four bytes, two a word */
  auto pixel = [&](int i) {
    if (INSIDE)
      return *(const uint2 *) (row + 4 * i);

    const int m = border_index (i, width, a.border);
    const uint2 v = *(const uint2 *) (row + (m < 0 ? home : 4 * m));
    return m < 0 ? make_uint2 (edge, edge) : v;
  };
  const unsigned int rows = shrink ?
      min (y + ry, a.height - 1) - max (y - ry, 0) + 1 : 2 * ry + 1;
  const unsigned int full = (2 * rx + 1) * rows;
  const unsigned int by = tile_divider (2 * full);
  unsigned int t[4] = { full, full, full, full };

  for (int i = -rx; i <= rx; i++) {
    const uint2 v = pixel (xs / 4 + i);

#pragma unroll
    for (int s = 0; s < 4; s++)
      t[s] += half16 (s < 2 ? v.x : v.y, s & 1);
  }
  for (int x = xs; x < xe; x += TILE_SEGMENT) {
    const int p = x / 4;
    unsigned int d[TILE_SEGMENT / 2], w[TILE_SEGMENT / 4];

    /* every read first, as tile_row () does */
#pragma unroll
    for (int k = 0; k < TILE_SEGMENT / 4; k++) {
      const uint2 e = pixel (p + k + rx + 1), l = pixel (p + k - rx);

      d[2 * k] = e.x + 0x80008000u - l.x;
      d[2 * k + 1] = e.y + 0x80008000u - l.y;
    }
#pragma unroll
    for (int k = 0; k < TILE_SEGMENT / 4; k++) {
      const int xc = p + k;
      const unsigned int count = INSIDE || !shrink || 4 * xc >= xe ? full :
          (unsigned int) (min (xc + rx, width - 1) - max (xc - rx, 0) + 1) *
          rows;

#pragma unroll
      for (int s = 0; s < 4; s++) {
        const unsigned int m = count == full ? __umulhi (t[s], by) :
            finish ((t[s] - full) / 2, count);

        w[k] = s == 0 ? m : w[k] + (m << (8 * s));
        t[s] += half16 (d[2 * k + s / 2], s & 1) - 0x8000;
      }
    }
    if (a.pixel_keep != 0) {
      const unsigned int *in = (const unsigned int *) (a.src +
          (long long) y * a.src_stride + x);

#pragma unroll
      for (int k = 0; k < TILE_SEGMENT / 4; k++)
        if (x + 4 * k < xe)
          w[k] = (w[k] & ~a.pixel_keep) | (in[k] & a.pixel_keep);
    }
    store_segment (a, x, xe, y, w);
  }
}

/* The part of a tile's column sums that a thread makes: those of rows
 * y0 .. y1 - 1 of its column of @across side by side.  Tiles wide enough
 * take every thread side by side down all TILE_ROWS rows; narrower ones
 * (the plan narrows them until the GPU holds every tile at once) split
 * their rows in TILE_GROUPS or 2 groups, each thread then walking fewer
 * rows after a first window of its own, rather than most threads waiting
 * at the barrier for the few. */
struct TileGroup
{
  int column, y0, y1;
};

__device__ __forceinline__ TileGroup
tile_group (int across, int y0, int y1)
{
  const int groups = across * TILE_GROUPS <= TILE_THREADS ? TILE_GROUPS :
      across * 2 <= TILE_THREADS ? 2 : 1;
  const int rows = TILE_ROWS / groups, k = threadIdx.x / across;
  TileGroup g;

  g.column = threadIdx.x - k * across;
  g.y0 = k < groups ? y0 + k * rows : y1;
  g.y1 = min (g.y0 + rows, y1);
  return g;
}

/* tile_row () of pixels of P samples, @inside or not */
template <int P>
__device__ __forceinline__ void
tiles_row (const BoxBlurArgs & a, bool inside, const uint16 * row, int home,
    int xs, int xe, int y)
{
  if (P == 4 && inside)
    tile_pixels < true > (a, row, home, xs, xe, y);
  else if (P == 4)
    tile_pixels < false > (a, row, home, xs, xe, y);
  else if (inside)
    tile_row < P, true > (a, row, home, xs, xe, y);
  else
    tile_row < P, false > (a, row, home, xs, xe, y);
}

/* The one pass over pixels of P samples, or of Q where a.pixel_samples
 * says so, rows PITCH apart in shared memory. */
template <int P, int Q, int PITCH>
__device__ __forceinline__ void
box_tiles (const BoxBlurArgs * __restrict__ list)
{
  /* the tile's rows from TILE_PAD on, padding on either side */
  __shared__ alignas (8) unsigned int sums[TILE_SUMS (PITCH) / 2];
  const BoxBlurArgs a = entry (list);
  const int tx0 = a.x + blockIdx.x * a.row_run;
  const int tx1 = min (tx0 + a.row_run, a.x + a.w);
  const int y0 = a.y + blockIdx.y * TILE_ROWS;

  /* the whole block leaves together, before the barrier */
  if (tx0 >= a.x + a.w || y0 >= a.y + a.h)
    return;

  const int y1 = min (y0 + TILE_ROWS, a.y + a.h);
  /* the columns the tile's windows reach, from a multiple of 4 where the
   * region's reach [x_first, x_last) allows (src may hold no others) */
  const int reach = a.pixel_samples * a.radius_x;
  const int c0 = max ((tx0 - reach) & ~3, a.x_first);
  const int c1 = min (tx1 + reach, a.x_last);
  const TileGroup g = tile_group ((c1 - c0 + 3) / 4, y0, y1);
  const int x = c0 + 4 * g.column;

  if (g.y0 < g.y1 && x < c1 && 4 * g.column < TILE_COLUMNS) {
    const unsigned long long at = (unsigned long long) a.src +
        (unsigned long long) x * a.src_step;
    const bool vector = x + 4 <= a.x_last && a.src_step == 1
        && ((at | (unsigned int) a.src_stride) & 3) == 0;
    unsigned int *out = sums + TILE_PAD / 2 + (g.y0 - y0) * (PITCH / 2) +
        2 * g.column;
    /* each sum twice over (tile_row ()), within its 16 bits */
    auto put = [&](unsigned int lo, unsigned int hi) {
      out[0] = lo << 1;
      out[1] = hi << 1;
      out += PITCH / 2;
    };

    if (vector)
      box_columns_u8_pairs < COLUMN_UNROLL_U8, true > (a, x, a.x_last - x,
          g.y0, g.y1, put);
    else
      box_columns_u8_pairs < COLUMN_UNROLL_U8, false > (a, x, a.x_last - x,
          g.y0, g.y1, put);
  }
  __syncthreads ();

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int part = a.row_run / (TILE_THREADS / 32);
  const int xs = tx0 + warp * part, xe = min (xs + part, tx1);

  if (y0 + lane >= y1 || xs >= xe)
    return;

  const uint16 *row = (const uint16 *) sums + TILE_PAD +
      lane * PITCH - c0;
  const bool inside = xs - reach >= 0 && xe + reach <= a.width;

  if (a.pixel_samples == Q)
    tiles_row < Q > (a, inside, row, c0, xs, xe, y0 + lane);
  else
    tiles_row < P > (a, inside, row, c0, xs, xe, y0 + lane);
}

/* Samples of their own and pairs (NV12's UV) ... */
extern "C" __global__ void __launch_bounds__ (TILE_THREADS, TILE_BLOCKS_PER_SM)
box_tiles_u8 (const BoxBlurArgs * __restrict__ list)
{
  box_tiles < 1, 2, TILE_PITCH > (list);
}

/* ... and pixels of three (RGB) and four (RGBA ...), apart, so that they
 * leave the register allocation of the others' code as it was measured */
extern "C" __global__ void __launch_bounds__ (TILE_THREADS, TILE_BLOCKS_PER_SM)
box_tiles_px3 (const BoxBlurArgs * __restrict__ list)
{
  box_tiles < 3, 3, TILE_PITCH > (list);
}

extern "C" __global__ void __launch_bounds__ (TILE_THREADS, TILE_BLOCKS_PER_SM)
box_tiles_px4 (const BoxBlurArgs * __restrict__ list)
{
  box_tiles < 4, 4, TILE_PITCH_PX4 > (list);
}

/* The one pass for float32 samples: column sums slid down in pairs
 * (Fsum) as box_columns_f32 slides them, two columns a thread, kept as
 * float32 in shared memory, rows TILE_PITCH_F32 words apart; then each
 * lane slides its row's window along in a pair, the steps (the column
 * entering minus the one leaving) found exactly first, TILE_SEGMENT_F32
 * means stored at once.  The roundings that matter are those of the two
 * passes: one per column sum, and the mean's own. */
template <bool INSIDE>
__device__ __forceinline__ void
tile_row_f32 (const BoxBlurArgs & a, const float *row, int home, int xs,
    int xe, int y)
{
  const int S = TILE_SEGMENT_F32;
  const int rx = a.radius_x, ry = a.radius_y;
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const float border_column = shrink ? 0.0f :
      a.border_float * (float) (2 * ry + 1);
  auto value = [&](int j) {
    return row_value < float, float, INSIDE > (a, row, j, border_column,
        home);
  };
  const unsigned int rows = shrink ?
      min (y + ry, a.height - 1) - max (y - ry, 0) + 1 : 2 * ry + 1;
  const unsigned int full = (2 * rx + 1) * rows;
  const float inv = reciprocal (full, Fsum (0.0f));
  Fsum t = 0.0f;

  for (int i = -rx; i <= rx; i++)
    t += value (xs + i);
  for (int x = xs; x < xe; x += S) {
    Fsum step[S];
    float out[S];

    /* every read first, as tile_row () does; past xe they read sums of
     * no use (within the row's pitch or the padding, or folded back by a
     * mirror at most S columns before the tile's first), which go into no
     * mean */
#pragma unroll
    for (int c = 0; c < S; c++)
      step[c] = two_sum (value (x + c + rx + 1), -value (x + c - rx));
#pragma unroll
    for (int c = 0; c < S; c++) {
      const int xc = x + c;
      const unsigned int count = INSIDE || !shrink || xc >= xe ? full :
          (unsigned int) (min (xc + rx, a.width - 1) - max (xc - rx, 0) + 1) *
          rows;

      out[c] = count == full ? finish_by (t, full, inv) : finish (t, count);
      t += step[c];
    }

    uint8 *p = a.dst + (long long) y * a.dst_stride +
        (long long) x * a.dst_step;
    if (x + S <= xe && a.dst_step == sizeof (float)
        && ((unsigned long long) p & 15) == 0) {
#pragma unroll
      for (int c = 0; c < S; c += 4)
        *(float4 *) (p + 4 * c) = make_float4 (out[c], out[c + 1],
            out[c + 2], out[c + 3]);
    } else {
#pragma unroll
      for (int c = 0; c < S; c++)
        if (x + c < xe)
          store < float >(a, x + c, y, out[c]);
    }
  }
}

/* box_tiles () of float32 samples: x, w, width, x_first, x_last and
 * row_run count samples. */
extern "C" __global__ void __launch_bounds__ (TILE_THREADS, TILE_BLOCKS_PER_SM)
box_tiles_f32 (const BoxBlurArgs * __restrict__ list)
{
  /* the tile's rows from TILE_PAD_F32 on, padding on either side */
  __shared__ float sums[TILE_SUMS_F32];
  const BoxBlurArgs a = entry (list);
  const int tx0 = a.x + blockIdx.x * a.row_run;
  const int tx1 = min (tx0 + a.row_run, a.x + a.w);
  const int y0 = a.y + blockIdx.y * TILE_ROWS;

  /* the whole block leaves together, before the barrier */
  if (tx0 >= a.x + a.w || y0 >= a.y + a.h)
    return;

  const int y1 = min (y0 + TILE_ROWS, a.y + a.h);
  /* the columns the tile's windows reach, from an even one where the
   * region's reach allows */
  const int c0 = max ((tx0 - a.radius_x) & ~1, a.x_first);
  const int c1 = min (tx1 + a.radius_x, a.x_last);
  const int x = c0 + 2 * threadIdx.x;

  if (x < c1 && 2 * threadIdx.x < TILE_COLUMNS_F32) {
    const unsigned long long at = (unsigned long long) a.src +
        (unsigned long long) x * a.src_step;
    const bool vector = x + 2 <= a.x_last && a.src_step == sizeof (float)
        && ((at | (unsigned int) a.src_stride) & 7) == 0;
    /* both sums stored, a second one past x_last within the row's pitch */
    float *out = sums + TILE_PAD_F32 + 2 * threadIdx.x;
    auto put = [&](const Fsum * sum) {
      out[0] = (float) sum[0];
      out[1] = (float) sum[1];
      out += TILE_PITCH_F32;
    };

    if (a.radius_y <= TILE_SHORT_RADIUS_F32 && vector)
      box_columns_at < float, Fsum, TILE_UNROLL_F32, 2, true > (a, x, y0,
          y1, put);
    else if (a.radius_y <= TILE_SHORT_RADIUS_F32)
      box_columns_at < float, Fsum, TILE_UNROLL_F32, 2, false > (a, x, y0,
          y1, put);
    else if (vector)
      box_columns_at < float, Fsum, COLUMN_UNROLL_F32, 2, true > (a, x, y0,
          y1, put);
    else
      box_columns_at < float, Fsum, COLUMN_UNROLL_F32, 2, false > (a, x, y0,
          y1, put);
  }
  __syncthreads ();

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int part = a.row_run / (TILE_THREADS / 32);
  const int xs = tx0 + warp * part, xe = min (xs + part, tx1);

  if (y0 + lane >= y1 || xs >= xe)
    return;

  const float *row = sums + TILE_PAD_F32 + lane * TILE_PITCH_F32 - c0;

  if (xs - a.radius_x >= 0 && xe + a.radius_x <= a.width)
    tile_row_f32 < true > (a, row, c0, xs, xe, y0 + lane);
  else
    tile_row_f32 < false > (a, row, c0, xs, xe, y0 + lane);
}

/* ------------------------------------------------------------------------
 * Pixelate: the region is cut into blocks of block_w x block_h samples from
 * its top left corner, and each sample takes the mean of the samples of its
 * block inside the region, rounded like the blur (float32 summed in
 * pairs).  A CUDA block of PIXELATE_THREADS threads takes one band of
 * block_h rows and a tile of PIXELATE_TILE (block_w) columns, whole blocks
 * side by side: each thread sums its columns of the band (the column
 * tx, and tx + PIXELATE_THREADS ... of blocks wider than the threads), one
 * thread per block adds up the block's threads' sums, and each thread
 * writes the mean down its columns.  Every sample is read once and written
 * once.
 * ------------------------------------------------------------------------ */
template <typename T, typename Acc>
__device__ __forceinline__ void
pixelate (const BoxBlurArgs & a)
{
  __shared__ Acc columns[PIXELATE_THREADS];
  __shared__ Acc blocks[PIXELATE_THREADS];
  const int bw = a.block_w, tile = PIXELATE_TILE (bw);
  const int t = threadIdx.x;
  const int tile_x = a.x + blockIdx.x * tile;
  const int y0 = a.y + blockIdx.y * a.block_h;
  const int x_end = min (tile_x + tile, a.x + a.w);
  const int y1 = min (y0 + a.block_h, a.y + a.h);

  if (tile_x >= a.x + a.w || y0 >= a.y + a.h)
    return;

  Acc sum = 0;
  for (int x = tile_x + t; x < x_end; x += PIXELATE_THREADS) {
#pragma unroll 4
    for (int y = y0; y < y1; y++)
      sum += src_at < T > (a, x, y);
  }
  columns[t] = sum;
  __syncthreads ();

  /* the threads of block j: j * bw .. j * bw + bw - 1, or all of them
   * for a block wider than the threads */
  const int per_block = min (bw, PIXELATE_THREADS);
  const int n_blocks = (x_end - tile_x + bw - 1) / bw;
  if (t < n_blocks) {
    const int bx = tile_x + t * bw;
    const unsigned int count = (unsigned int) ((min (bx + bw, a.x + a.w) -
            bx) * (y1 - y0));
    Acc block = 0;
    for (int i = 0; i < per_block; i++)
      block += columns[t * per_block + i];
    blocks[t] = (Acc) finish (block, count);
  }
  __syncthreads ();

  for (int x = tile_x + t; x < x_end; x += PIXELATE_THREADS) {
    const T mean = (T) blocks[(x - tile_x) / bw];
#pragma unroll 4
    for (int y = y0; y < y1; y++)
      store (a, x, y, mean);
  }
}

/* 8-bit sums of a block of up to 256 x 256 stay within 32 bits */
extern "C" __global__ void
pixelate_u8 (const BoxBlurArgs * __restrict__ list)
{
  pixelate < uint8, unsigned int > (entry (list));
}

extern "C" __global__ void
pixelate_u16 (const BoxBlurArgs * __restrict__ list)
{
  pixelate < uint16, uint64 > (entry (list));
}

extern "C" __global__ void
pixelate_f32 (const BoxBlurArgs * __restrict__ list)
{
  pixelate < float, Fsum > (entry (list));
}

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


/* (cur (d - n) + red n) / d, rounded half up */
template <typename T>
__device__ __forceinline__ T
blend (T cur, T red, int n, int d)
{
  const unsigned int sum = (unsigned int) cur * (d - n) +
      (unsigned int) red * n;
  return (T) ((2 * sum + d) / (2 * d));
}

template <>
__device__ __forceinline__ float
blend < float >(float cur, float red, int n, int d)
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
  store (a, x, y, blend < T > (cur, red, n, d));
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

/* Instantiates the two passes for samples T summed in Acc with column sums
 * kept as Mid. */
#define SEPARABLE(name, T, Acc, Mid, U, V) \
  extern "C" __global__ void \
  box_columns_##name (const BoxBlurArgs * __restrict__ list, \
      Mid * __restrict__ mid) \
  { \
    box_columns < T, Acc, Mid, U, V > (entry (list), mid); \
  } \
  extern "C" __global__ void \
  box_rows_##name (const BoxBlurArgs * __restrict__ list, \
      const Mid * __restrict__ mid) \
  { \
    box_rows < T, Acc, Mid > (entry (list), mid); \
  }

SEPARABLE (u8, uint8, unsigned int, unsigned int, COLUMN_UNROLL_U8,
    COLUMN_VECTOR_U8)
/* 8-bit samples with radius_y <= 128: a column sum is at most
 * 257 * 255 = 65535, so 16 bits hold it and the intermediate frame is half
 * the size. */
SEPARABLE (u8_16, uint8, unsigned int, uint16, COLUMN_UNROLL_U8,
    COLUMN_VECTOR_U8)
/* a 16-bit column sum is at most 511 * 65535 < 2^32 */
SEPARABLE (u16, uint16, uint64, unsigned int, COLUMN_UNROLL_U16,
    COLUMN_VECTOR_U16)
SEPARABLE (f32, float, Fsum, float, COLUMN_UNROLL_F32, COLUMN_VECTOR_F32)

/* Packed pixels of four 8-bit samples (Pixel4): the direct kernels,
 * pixelate, and the row passes after box_columns_u8 (or box_columns_u8_16)
 * has summed the columns of the rows' bytes, read here a pixel's four at
 * a time (sums of 9, 511 x 511 or 256 x 256 samples of 255 stay within 32
 * bits). */
extern "C" __global__ void
box_blur_px4 (const BoxBlurArgs * __restrict__ list)
{
  box_blur < Pixel4, Sum4 > (entry (list));
}

extern "C" __global__ void
box_blur3_px4 (const BoxBlurArgs * __restrict__ list)
{
  box_blur3_px4_words (entry (list));
}

extern "C" __global__ void
box_rows_px4 (const BoxBlurArgs * __restrict__ list,
    const Vector < unsigned int, 4 > *__restrict__ mid)
{
  box_rows < Pixel4, Sum4, Vector < unsigned int, 4 > >(entry (list), mid);
}

extern "C" __global__ void
box_rows_px4_16 (const BoxBlurArgs * __restrict__ list,
    const Vector < uint16, 4 > *__restrict__ mid)
{
  box_rows < Pixel4, Sum4, Vector < uint16, 4 > >(entry (list), mid);
}

extern "C" __global__ void
pixelate_px4 (const BoxBlurArgs * __restrict__ list)
{
  pixelate < Pixel4, Sum4 > (entry (list));
}
