/* cudaboxblur test helpers
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>
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

int
test_run_gpu_suite (Suite * suite, const gchar * name)
{
  gchar *reason = NULL;

  if (!test_gpu_available (&reason)) {
    g_print ("SKIP: %s: %s\n", name, reason);
    g_free (reason);
    return TEST_EXIT_SKIP;
  }
  return gst_check_run_suite (suite, name, __FILE__);
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

void
test_assert_blurred (GstBuffer * in, GstBuffer * out,
    GstCudaBoxBlurFormat format, gint width, gint height, gint radius_x,
    gint radius_y)
{
  gint bpp = bytes_per_pixel (format), in_stride, out_stride, x, y;
  gsize in_off, out_off, row_bytes = (gsize) width * bpp;
  GstMapInfo in_map, out_map;
  guint8 *expected;

  in_stride = buffer_stride (in, format, width, height, &in_off);
  out_stride = buffer_stride (out, format, width, height, &out_off);

  fail_unless (gst_buffer_map (in, &in_map, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &out_map, GST_MAP_READ));
  fail_unless (out_map.size >= out_off + (gsize) out_stride * (height - 1)
      + row_bytes);

  expected = g_malloc (row_bytes * height);
  if (format == GST_CUDA_BOX_BLUR_FORMAT_GRAY8)
    box_blur_ref_gray8 (in_map.data + in_off, in_stride, expected, row_bytes,
        width, height, radius_x, radius_y);
  else
    box_blur_ref_gray32f (in_map.data + in_off, in_stride, expected,
        row_bytes, width, height, radius_x, radius_y);

  for (y = 0; y < height; y++) {
    const guint8 *want = expected + y * row_bytes;
    const guint8 *got = out_map.data + out_off + (gsize) y * out_stride;

    if (memcmp (want, got, row_bytes) == 0)
      continue;
    for (x = 0; x < width; x++) {
      if (memcmp (want + x * bpp, got + x * bpp, bpp) == 0)
        continue;
      if (format == GST_CUDA_BOX_BLUR_FORMAT_GRAY8)
        fail ("%dx%d GRAY8 radius %d,%d: pixel (%d,%d) is %u, expected %u",
            width, height, radius_x, radius_y, x, y, got[x], want[x]);
      else
        fail ("%dx%d GRAY32F radius %d,%d: pixel (%d,%d) is %.9g, "
            "expected %.9g", width, height, radius_x, radius_y, x, y,
            ((const gfloat *) got)[x], ((const gfloat *) want)[x]);
    }
  }

  g_free (expected);
  gst_buffer_unmap (out, &out_map);
  gst_buffer_unmap (in, &in_map);
}
