/* cudaboxblur: the direct kernels, box_blur_* (any window up to
 * GST_CUDA_BOX_BLUR_DIRECT_MAX_WINDOW pixels) and box_blur3_* (the
 * sample's 3x3) (included by boxblur.cu).
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

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
      store (a, x, y, (T) Mean < T >::of (a, sum, rows * columns));
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
      store (a, x, y0 + k, (T) Mean < T >::of (a, sum, 9));
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
__launch_bounds__ (BLOCK_W * BLOCK_H, BOX3_U8_BLOCKS_PER_SM)
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

/* Packed pixels of four 8-bit samples (Pixel4): sums of 9 samples of 255
 * stay within 32 bits. */
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
