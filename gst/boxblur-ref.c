/* cudaboxblur
 * Copyright (C) 2026 The cudaboxblur authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "boxblur-ref.h"

#include <math.h>

/* The window of pixel @pos along an axis of @len pixels, clipped to the
 * image. */
static inline void
window (gint pos, gint radius, gint len, gint * first, gint * last)
{
  *first = MAX (pos - radius, 0);
  *last = MIN (pos + radius, len - 1);
}

/* Mean rounded half up: floor (sum / count + 1/2) in integers. */
void
box_blur_ref_gray8 (const guint8 * src, gsize src_stride, guint8 * dst,
    gsize dst_stride, gint width, gint height, gint radius_x, gint radius_y)
{
  gint x, y, xx, yy, x0, x1, y0, y1;

  for (y = 0; y < height; y++) {
    window (y, radius_y, height, &y0, &y1);
    for (x = 0; x < width; x++) {
      guint64 sum = 0, count;

      window (x, radius_x, width, &x0, &x1);
      for (yy = y0; yy <= y1; yy++)
        for (xx = x0; xx <= x1; xx++)
          sum += src[yy * src_stride + xx];
      count = (guint64) (x1 - x0 + 1) * (y1 - y0 + 1);
      dst[y * dst_stride + x] = (guint8) ((2 * sum + count) / (2 * count));
    }
  }
}

/* float32 sum, window rows outer and columns inner, divided once by the
 * count: the summation order of the NVIDIA sample's kernel. */
void
box_blur_ref_gray32f (const guint8 * src, gsize src_stride, guint8 * dst,
    gsize dst_stride, gint width, gint height, gint radius_x, gint radius_y)
{
  gint x, y, xx, yy, x0, x1, y0, y1;

  for (y = 0; y < height; y++) {
    gfloat *out = (gfloat *) (dst + y * dst_stride);

    window (y, radius_y, height, &y0, &y1);
    for (x = 0; x < width; x++) {
      gfloat sum = 0.0f;
      gint count;

      window (x, radius_x, width, &x0, &x1);
      for (yy = y0; yy <= y1; yy++) {
        const gfloat *row = (const gfloat *) (src + yy * src_stride);

        for (xx = x0; xx <= x1; xx++)
          sum += row[xx];
      }
      count = (x1 - x0 + 1) * (y1 - y0 + 1);
      out[x] = sum / (gfloat) count;
    }
  }
}

/* Summed-area table T of (width + 1) x (height + 1) entries: T[y][x] is the
 * sum of the pixels above and left of (x, y). */
#define SAT(t, x, y) ((t)[(gsize) (y) * (width + 1) + (x)])

void
box_blur_sat_gray8 (const guint8 * src, gsize src_stride, guint8 * dst,
    gsize dst_stride, gint width, gint height, gint radius_x, gint radius_y)
{
  guint64 *t = g_new0 (guint64, (gsize) (width + 1) * (height + 1));
  gint x, y, x0, x1, y0, y1;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      SAT (t, x + 1, y + 1) = src[y * src_stride + x] + SAT (t, x, y + 1)
          + SAT (t, x + 1, y) - SAT (t, x, y);

  for (y = 0; y < height; y++) {
    window (y, radius_y, height, &y0, &y1);
    for (x = 0; x < width; x++) {
      guint64 sum, count;

      window (x, radius_x, width, &x0, &x1);
      sum = SAT (t, x1 + 1, y1 + 1) - SAT (t, x0, y1 + 1)
          - SAT (t, x1 + 1, y0) + SAT (t, x0, y0);
      count = (guint64) (x1 - x0 + 1) * (y1 - y0 + 1);
      dst[y * dst_stride + x] = (guint8) ((2 * sum + count) / (2 * count));
    }
  }
  g_free (t);
}

/* Rows are summed first and then accumulated down the columns, so every
 * table entry is a sum of row sums: the rounding error of a window stays
 * near that of its own magnitude.  With @absolute, the means of |pixel|,
 * which scale the tolerance of float comparisons. */
void
box_blur_sat_gray32f (const guint8 * src, gsize src_stride, gdouble * dst,
    gint width, gint height, gint radius_x, gint radius_y, gboolean absolute)
{
  gdouble *t = g_new0 (gdouble, (gsize) (width + 1) * (height + 1));
  gint x, y, x0, x1, y0, y1;

  for (y = 0; y < height; y++) {
    const gfloat *row = (const gfloat *) (src + y * src_stride);
    gdouble run = 0.0;

    for (x = 0; x < width; x++) {
      run += absolute ? fabs (row[x]) : row[x];
      SAT (t, x + 1, y + 1) = SAT (t, x + 1, y) + run;
    }
  }

  for (y = 0; y < height; y++) {
    window (y, radius_y, height, &y0, &y1);
    for (x = 0; x < width; x++) {
      gdouble sum;

      window (x, radius_x, width, &x0, &x1);
      sum = SAT (t, x1 + 1, y1 + 1) - SAT (t, x0, y1 + 1)
          - SAT (t, x1 + 1, y0) + SAT (t, x0, y0);
      dst[(gsize) y * width + x] = sum / ((x1 - x0 + 1) * (y1 - y0 + 1));
    }
  }
  g_free (t);
}
