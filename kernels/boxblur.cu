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
