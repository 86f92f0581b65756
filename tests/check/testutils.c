/* cudaboxblur test helpers
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutils.h"
#include "boxblur-ref.h"

gboolean
test_gpu_available (gchar ** reason)
{
  gint count = 0;
  cudaError_t err = cudaGetDeviceCount (&count);

  if (err != cudaSuccess) {
    *reason = g_strdup_printf ("no usable CUDA device: %s (%s)",
        cudaGetErrorString (err), cudaGetErrorName (err));
    return FALSE;
  }
  if (count == 0) {
    *reason = g_strdup ("no CUDA device found");
    return FALSE;
  }
  return TRUE;
}

void
test_skip_without_gpu (const gchar * name)
{
  gchar *reason = NULL;

  if (!test_gpu_available (&reason)) {
    g_print ("SKIP: %s: %s\n", name, reason);
    g_free (reason);
    exit (TEST_EXIT_SKIP);
  }
}

GstCaps *
test_caps_new (GstCudaBoxBlurFormat format, gint width, gint height)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_cuda_box_blur_format_to_string (format),
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
}

static gint
bytes_per_pixel (GstCudaBoxBlurFormat format)
{
  return format == GST_CUDA_BOX_BLUR_FORMAT_GRAY8 ? 1 : 4;
}

void
test_fill (guint8 * data, gint stride, GstCudaBoxBlurFormat format,
    gint width, gint height, guint seed)
{
  guint32 state = seed * 2654435761u + 1;
  gint x, y, bpp = bytes_per_pixel (format);

  for (y = 0; y < height; y++) {
    guint8 *row = data + (gsize) y * stride;

    for (x = 0; x < width; x++) {
      state = state * 1664525u + 1013904223u;
      if (format == GST_CUDA_BOX_BLUR_FORMAT_GRAY8) {
        row[x] = state >> 24;
      } else {
        /* values of several magnitudes and both signs, so that float
         * rounding depends on the summation order */
        gfloat v = (gfloat) (state >> 8) / (gfloat) (1 << 24);
        ((gfloat *) row)[x] = (state & 1) ? v * 1000.0f : -v;
      }
    }
    memset (row + width * bpp, 0xff, stride - width * bpp);
  }
}

GstBuffer *
test_buffer_new (GstAllocator * allocator, GstCudaBoxBlurFormat format,
    gint width, gint height, gint stride, guint seed)
{
  GstCudaBoxBlurInfo info;
  GstCaps *caps = test_caps_new (format, width, height);
  GstBuffer *buf;
  GstMapInfo map;

  fail_unless (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);

  buf = gst_buffer_new_allocate (allocator, (gsize) stride * height, NULL);
  fail_unless (buf != NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  test_fill (map.data, stride, format, width, height, seed);
  gst_buffer_unmap (buf, &map);

  if (stride != info.stride) {
    gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
    gint strides[GST_VIDEO_MAX_PLANES] = { stride, };

    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        format == GST_CUDA_BOX_BLUR_FORMAT_GRAY8 ? GST_VIDEO_FORMAT_GRAY8 :
        GST_VIDEO_FORMAT_UNKNOWN, width, height, 1, offset, strides);
  }
  return buf;
}

/* Stride of @buf for a frame of @format, from its meta or the caps. */
static gint
buffer_stride (GstBuffer * buf, GstCudaBoxBlurFormat format, gint width,
    gint height, gsize * offset)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  GstCudaBoxBlurInfo info;
  GstCaps *caps;

  *offset = 0;
  if (meta) {
    *offset = meta->offset[0];
    return meta->stride[0];
  }
  caps = test_caps_new (format, width, height);
  fail_unless (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  return info.stride;
}

/* Windows up to this many pixels are checked with the direct CPU loops,
 * larger ones with the summed-area tables. */
#define DIRECT_REF_MAX_WINDOW 225

/* GRAY32F results from the separable passes may differ from the sample's
 * float summation order: they must be within this much of the exact mean,
 * relative to the mean of |pixel| over the window (the scale of the
 * rounding errors of any summation order). */
#define GRAY32F_TOLERANCE 1e-5

static gchar *
describe (GstCudaBoxBlurFormat format, gint width, gint height, gint rx,
    gint ry, gint x, gint y)
{
  return g_strdup_printf ("%dx%d %s radius %d,%d: pixel (%d,%d)", width,
      height, gst_cuda_box_blur_format_to_string (format), rx, ry, x, y);
}

static void
assert_gray8 (const guint8 * src, gint src_stride, const guint8 * got,
    gint got_stride, gint width, gint height, gint rx, gint ry)
{
  guint8 *want = g_malloc ((gsize) width * height);
  gint x, y;

  if ((2 * rx + 1) * (2 * ry + 1) <= DIRECT_REF_MAX_WINDOW)
    box_blur_ref_gray8 (src, src_stride, want, width, width, height, rx, ry);
  else
    box_blur_sat_gray8 (src, src_stride, want, width, width, height, rx, ry);

  for (y = 0; y < height; y++) {
    const guint8 *g = got + (gsize) y * got_stride, *w = want + y * width;

    if (memcmp (g, w, width) == 0)
      continue;
    for (x = 0; x < width; x++)
      if (g[x] != w[x])
        fail ("%s is %u, expected %u", describe
            (GST_CUDA_BOX_BLUR_FORMAT_GRAY8, width, height, rx, ry, x, y),
            g[x], w[x]);
  }
  g_free (want);
}

static void
assert_gray32f (const guint8 * src, gint src_stride, const guint8 * got,
    gint got_stride, gint width, gint height, gint rx, gint ry)
{
  gint x, y;

  if (rx <= 1 && ry <= 1) {
    /* the sample's own window: bit for bit */
    gfloat *want = g_new (gfloat, (gsize) width * height);

    box_blur_ref_gray32f (src, src_stride, (guint8 *) want, width * 4,
        width, height, rx, ry);
    for (y = 0; y < height; y++) {
      const gfloat *g = (const gfloat *) (got + (gsize) y * got_stride);
      const gfloat *w = want + (gsize) y * width;

      if (memcmp (g, w, (gsize) width * 4) == 0)
        continue;
      for (x = 0; x < width; x++)
        if (memcmp (&g[x], &w[x], 4) != 0)
          fail ("%s is %.9g, expected exactly %.9g", describe
              (GST_CUDA_BOX_BLUR_FORMAT_GRAY32F, width, height, rx, ry, x,
                  y), g[x], w[x]);
    }
    g_free (want);
  } else {
    gdouble *want = g_new (gdouble, (gsize) width * height);
    gdouble *scale = g_new (gdouble, (gsize) width * height);

    box_blur_sat_gray32f (src, src_stride, want, width, height, rx, ry,
        FALSE);
    box_blur_sat_gray32f (src, src_stride, scale, width, height, rx, ry,
        TRUE);
    for (y = 0; y < height; y++) {
      const gfloat *g = (const gfloat *) (got + (gsize) y * got_stride);

      for (x = 0; x < width; x++) {
        gsize i = (gsize) y * width + x;
        gdouble err = fabs (g[x] - want[i]);

        if (!(err <= GRAY32F_TOLERANCE * scale[i]))
          fail ("%s is %.9g, expected %.9g (error %.3g, allowed %.3g)",
              describe (GST_CUDA_BOX_BLUR_FORMAT_GRAY32F, width, height, rx,
                  ry, x, y), g[x], want[i], err,
              GRAY32F_TOLERANCE * scale[i]);
      }
    }
    g_free (want);
    g_free (scale);
  }
}

void
test_assert_blurred (GstBuffer * in, GstBuffer * out,
    GstCudaBoxBlurFormat format, gint width, gint height, gint radius_x,
    gint radius_y)
{
  gint bpp = bytes_per_pixel (format), in_stride, out_stride;
  gsize in_off, out_off, row_bytes = (gsize) width * bpp;
  GstMapInfo in_map, out_map;

  in_stride = buffer_stride (in, format, width, height, &in_off);
  out_stride = buffer_stride (out, format, width, height, &out_off);

  fail_unless (gst_buffer_map (in, &in_map, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &out_map, GST_MAP_READ));
  fail_unless (out_map.size >= out_off + (gsize) out_stride * (height - 1)
      + row_bytes);

  if (format == GST_CUDA_BOX_BLUR_FORMAT_GRAY8)
    assert_gray8 (in_map.data + in_off, in_stride, out_map.data + out_off,
        out_stride, width, height, radius_x, radius_y);
  else
    assert_gray32f (in_map.data + in_off, in_stride, out_map.data + out_off,
        out_stride, width, height, radius_x, radius_y);

  gst_buffer_unmap (out, &out_map);
  gst_buffer_unmap (in, &in_map);
}
