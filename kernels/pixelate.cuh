/* cudaboxblur: pixelate_*, blocks of their mean (included by
 * boxblur.cu).
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

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
    blocks[t] = (Acc) Mean < T >::of (a, block, count);
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

/* Packed pixels of four 8-bit samples (Pixel4). */
extern "C" __global__ void
pixelate_px4 (const BoxBlurArgs * __restrict__ list)
{
  pixelate < Pixel4, Sum4 > (entry (list));
}
