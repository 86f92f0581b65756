/* cudaboxblur: a frame described from its caps, with no GPU
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The layout of each format (components, planes, offsets, steps, shifts,
 * sizes) from caps, against GStreamer's own; buffers whose video meta
 * does not fit the frame refused with the reason.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <string.h>

#include "cudaboxblur-info.h"
#include "cudaboxblur-params.h"
#include "testutils.h"

GST_START_TEST (test_info_from_caps)
{
  GstCudaBoxBlurInfo info;
  GstCaps *caps;
  guint f;

  info = test_info ("GRAY32F", 385, 289);
  fail_unless_equals_int (info.type, GST_CUDA_BOX_BLUR_F32);
  fail_unless_equals_int (info.sample_size, 4);
  fail_unless_equals_int (info.stride[0], 385 * 4);
  fail_unless_equals_int (info.comp[0].step, 4);
  fail_unless_equals_uint64 (info.size, 385 * 4 * 289);

  /* GRAY8 rows are padded to 4 bytes, as GstVideoInfo does */
  info = test_info ("GRAY8", 385, 289);
  fail_unless_equals_int (info.stride[0], 388);
  fail_unless_equals_uint64 (info.size, 388 * 289);

  info = test_info ("GRAY16_LE", 385, 289);
  fail_unless_equals_int (info.type, GST_CUDA_BOX_BLUR_U16);
  fail_unless_equals_int (info.row_bytes[0], 770);

  /* odd I420: chroma rounds up */
  info = test_info ("I420", 323, 241);
  fail_unless_equals_int (info.n_planes, 3);
  fail_unless_equals_int (info.comp[1].width, 162);
  fail_unless_equals_int (info.comp[1].height, 121);
  fail_unless_equals_int (info.comp[2].plane, 2);
  info = test_info ("YV12", 323, 241);
  fail_unless_equals_int (info.comp[1].plane, 2);
  fail_unless_equals_int (info.comp[2].plane, 1);

  /* NV21: V first in the interleaved plane */
  info = test_info ("NV21", 64, 48);
  fail_unless_equals_int (info.comp[1].kind, GST_CUDA_BOX_BLUR_CHROMA_U);
  fail_unless_equals_int (info.comp[1].offset, 1);
  fail_unless_equals_int (info.comp[2].offset, 0);
  fail_unless_equals_int (info.comp[1].step, 2);

  info = test_info ("BGR", 5, 3);
  fail_unless_equals_int (info.comp[0].kind, GST_CUDA_BOX_BLUR_RED);
  fail_unless_equals_int (info.comp[0].offset, 2);
  fail_unless_equals_int (info.comp[0].step, 3);
  fail_unless_equals_int (info.row_bytes[0], 15);

  info = test_info ("xBGR", 5, 3);
  fail_unless_equals_int (info.n_components, 3);
  fail_unless (info.has_padding);

  /* 10-, 12- and 16-bit samples in the low bits of 16-bit words: their
   * largest sample, fill colours and border values at their depth */
  info = test_info ("I420_10LE", 323, 241);
  fail_unless_equals_int (info.type, GST_CUDA_BOX_BLUR_U16);
  fail_unless_equals_int (info.comp[1].width, 162);
  fail_unless_equals_int (info.comp[1].step, 2);
  fail_unless_equals_int (gst_cuda_box_blur_info_sample_max (&info, 0), 1023);
  /* white in BT.709's limited range: 940 of 1023, as 235 of 255 */
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&info, 0,
          0xffffffff), 940);
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&info, 1,
          0xffffffff), 512);
  {
    GstCudaBoxBlurSettings s;
    GstCudaBoxBlurWindow window;

    gst_cuda_box_blur_settings_init (&s);
    s.border = GST_CUDA_BOX_BLUR_BORDER_CONSTANT;
    s.border_value = 60000;
    gst_cuda_box_blur_settings_window (&s, &info, 0, &window);
    fail_unless_equals_int (window.border_value, 1023);
    info = test_info ("GRAY16_LE", 8, 8);
    gst_cuda_box_blur_settings_window (&s, &info, 0, &window);
    fail_unless_equals_int (window.border_value, 60000);
  }
  /* P010: U and V words side by side (GStreamer 1.22 says V is 1 byte
   * into the pair), 10 bits in the high bits of each */
  info = test_info ("P010_10LE", 64, 48);
  fail_unless_equals_int (info.n_planes, 2);
  fail_unless_equals_int (info.comp[1].offset, 0);
  fail_unless_equals_int (info.comp[2].offset, 2);
  fail_unless_equals_int (info.comp[2].step, 4);
  fail_unless_equals_int (info.comp[0].shift, 6);
  fail_unless_equals_int (info.comp[2].shift, 6);
  fail_if (info.has_padding);
  {
    GstCudaBoxBlurSettings s;
    GstCudaBoxBlurWindow window;

    gst_cuda_box_blur_settings_init (&s);
    s.mode = GST_CUDA_BOX_BLUR_MODE_FILL;
    s.fill_color = 0xffffffff;
    s.border = GST_CUDA_BOX_BLUR_BORDER_CONSTANT;
    s.border_value = 60000;
    gst_cuda_box_blur_settings_window (&s, &info, 0, &window);
    fail_unless_equals_int (window.fill_value, 940 << 6);
    fail_unless_equals_int (window.border_value, 1023 << 6);
  }
  info = test_info ("P016_LE", 8, 8);
  fail_unless_equals_int (info.comp[2].offset, 2);
  fail_unless_equals_int (info.comp[2].shift, 0);
  info = test_info ("I422_12LE", 8, 8);
  fail_unless_equals_int (gst_cuda_box_blur_info_sample_max (&info, 2), 4095);
  fail_unless_equals_int (info.comp[2].height, 8);
  info = test_info ("Y444_16LE", 8, 8);
  fail_unless_equals_int (gst_cuda_box_blur_info_sample_max (&info, 1),
      65535);

  /* every format parses, with each component inside its rows, and frames
   * of odd sizes as large as GStreamer's (whose frame of I422_10LE counts
   * an odd height's chroma rows rounded up), so that other elements map
   * the element's buffers as video frames */
  for (f = 0; f < test_n_formats; f++) {
    const gint sizes[][2] = { {7, 5}, {385, 289}, {1, 1} };
    guint i;
    gint c;

    for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
      GstVideoInfo vinfo;

      info = test_info (test_formats[f], sizes[i][0], sizes[i][1]);
      fail_unless_equals_string (info.format, test_formats[f]);
      for (c = 0; c < info.n_components; c++) {
        const GstCudaBoxBlurComponent *comp = &info.comp[c];
        fail_unless (comp->offset + (comp->width - 1) * comp->step +
            info.sample_size <= info.row_bytes[comp->plane]);
      }
      if (g_str_equal (test_formats[f], "GRAY32F"))
        continue;
      gst_video_info_set_format (&vinfo,
          gst_video_format_from_string (test_formats[f]), sizes[i][0],
          sizes[i][1]);
      fail_unless (info.size >= GST_VIDEO_INFO_SIZE (&vinfo),
          "%s %dx%d: %" G_GSIZE_FORMAT " bytes, GStreamer's frame %"
          G_GSIZE_FORMAT, test_formats[f], sizes[i][0], sizes[i][1],
          info.size, GST_VIDEO_INFO_SIZE (&vinfo));
    }
  }

  caps = gst_caps_from_string ("video/x-raw,format=GRAY32F,width=8,"
      "height=8,framerate=30/1,interlace-mode=interleaved");
  fail_if (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);

  caps = gst_caps_from_string ("video/x-raw,format=GRAY32F,height=8");
  fail_if (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);

  /* 32768 x 32768 GRAY32F: 4 GiB, more than a buffer pool counts; GRAY8
   * of that size is 1 GiB, and taken */
  caps = gst_caps_from_string ("video/x-raw,format=GRAY32F,width=32768,"
      "height=32768,framerate=30/1");
  fail_if (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-raw,format=GRAY8,width=32768,"
      "height=32768,framerate=30/1");
  fail_unless (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);

  caps = gst_caps_from_string ("video/x-raw,format=v210,width=8,height=8");
  fail_if (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);
}

GST_END_TEST;

static gboolean
frame_from (GstBuffer * buf, const GstCudaBoxBlurInfo * info,
    GstCudaBoxBlurFrame * frame, GError ** error)
{
  GstMapInfo map;
  gboolean ok;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  ok = gst_cuda_box_blur_frame_from_buffer (frame, info, buf, &map, error);
  if (ok)
    fail_unless (frame->data[0] >= map.data
        && frame->data[0] < map.data + map.size);
  gst_buffer_unmap (buf, &map);
  return ok;
}

/* Fails unless the frame in @buf (taken) is refused with a message that
 * contains @text. */
static void
assert_refused (GstBuffer * buf, const GstCudaBoxBlurInfo * info,
    const gchar * text)
{
  GstCudaBoxBlurFrame frame;
  GError *error = NULL;

  fail_if (frame_from (buf, info, &frame, &error));
  fail_unless (strstr (error->message, text) != NULL, "'%s' lacks '%s'",
      error->message, text);
  g_clear_error (&error);
  gst_buffer_unref (buf);
}

GST_START_TEST (test_frame_from_buffer_checks_layout)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY32F", 17, 13);
  GstCudaBoxBlurInfo nv12 = test_info ("NV12", 17, 13);
  GstCudaBoxBlurFrame frame;
  GstBuffer *buf;
  GError *error = NULL;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 64, };

  /* padded strides from the meta */
  buf = test_buffer_new (NULL, "GRAY32F", 17, 13, 60, 1);
  fail_unless (frame_from (buf, &info, &frame, &error));
  fail_unless_equals_int (frame.stride[0], 17 * 4 + 60);
  gst_buffer_unref (buf);
  buf = test_buffer_new (NULL, "NV12", 17, 13, 12, 1);
  fail_unless (frame_from (buf, &nv12, &frame, &error));
  fail_unless_equals_int (frame.stride[1], nv12.stride[1] + 12);
  gst_buffer_unref (buf);

  /* a buffer one byte short of the last row of its last plane (the
   * padding after it is not needed) */
  buf = gst_buffer_new_allocate (NULL, nv12.size - (nv12.stride[1] -
          nv12.row_bytes[1]) - 1, NULL);
  assert_refused (buf, &nv12, "too small");

  /* a GRAY32F stride shorter than 4 * width */
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_UNKNOWN, 17, 13, 1, offset, stride);
  assert_refused (buf, &info, "stride");

  /* a GRAY32F stride that is not a whole number of samples */
  buf = gst_buffer_new_allocate (NULL, info.size * 2, NULL);
  stride[0] = 17 * 4 + 2;
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_UNKNOWN, 17, 13, 1, offset, stride);
  assert_refused (buf, &info, "aligned");

  /* offsets past the buffer, one so large that adding the plane's size to
   * it wraps round to a small number */
  stride[0] = 17 * 4;
  offset[0] = info.size + 4;
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_UNKNOWN, 17, 13, 1, offset, stride);
  assert_refused (buf, &info, "too small");
  offset[0] = G_MAXSIZE - info.size + 4 + 1;
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_UNKNOWN, 17, 13, 1, offset, stride);
  assert_refused (buf, &info, "too small");
}

GST_END_TEST;

/* Each component of every format (at odd sizes, 1x1, and the 1080p of
 * cameras) is where GStreamer's own pack function writes it: a frame
 * packed from a pattern line by line reads back, through the layout the
 * element describes (offsets, steps, shifts, subsampled sizes), as the
 * pattern at each component's depth.  GStreamer is the independent
 * witness here: the kernels and the reference share the layout. */
static guint
pattern (gint x, gint y, gint c, gint depth)
{
  return (guint) (x * 37 + y * 101 + c * 53 + 5) & ((1u << depth) - 1);
}

static gint
unpacked_index (const GstVideoFormatInfo * finfo, gint c)
{
  /* AYUV(64) and ARGB(64) lines: alpha first */
  return GST_VIDEO_FORMAT_INFO_HAS_ALPHA (finfo) && c == 3 ? 0 : 1 + c;
}

GST_START_TEST (test_layout_is_gstreamers)
{
  const gint sizes[][2] = { {7, 5}, {8, 6}, {33, 17}, {1, 1}, {2, 3},
  {1920, 1080}
  };
  guint f, s;

  for (f = 0; f < test_n_formats; f++) {
    const GstVideoFormat format =
        gst_video_format_from_string (test_formats[f]);
    const GstVideoFormatInfo *finfo;
    gboolean wide;

    if (format == GST_VIDEO_FORMAT_UNKNOWN)     /* GRAY32F */
      continue;
    finfo = gst_video_format_get_info (format);
    wide = GST_VIDEO_FORMAT_INFO_DEPTH (gst_video_format_get_info
        (finfo->unpack_format), 0) > 8;

    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      const gint w = sizes[s][0], height = sizes[s][1];
      const GstCudaBoxBlurInfo info = test_info (test_formats[f], w, height);
      const gint n_components = GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo);
      guint16 *line = g_new0 (guint16, 4 * (w + 2));
      guint8 *line8 = g_new0 (guint8, 4 * (w + 2));
      GstCudaBoxBlurFrame frame;
      GstVideoFrame vframe;
      GstVideoInfo vinfo;
      GstBuffer *buf;
      gint x, y, c, p;

      gst_video_info_set_format (&vinfo, format, w, height);
      buf = gst_buffer_new_allocate (NULL, info.size, NULL);
      gst_buffer_memset (buf, 0, 0, info.size);
      fail_unless (gst_video_frame_map (&vframe, &vinfo, buf,
              GST_MAP_READWRITE));
      for (y = 0; y < height; y++) {
        for (x = 0; x < w; x++)
          for (c = 0; c < n_components; c++) {
            const gint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c);
            const guint v = pattern (x >> GST_VIDEO_FORMAT_INFO_W_SUB (finfo,
                    c), y >> GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c), c,
                depth);
            const gint i = 4 * x + unpacked_index (finfo, c);

            line[i] = v << (16 - depth);
            line8[i] = v;
          }
        finfo->pack_func (finfo, GST_VIDEO_PACK_FLAG_NONE, wide ?
            (gpointer) line : (gpointer) line8, 0, vframe.data,
            vframe.info.stride, vinfo.chroma_site, y, w);
      }
      for (p = 0; p < info.n_planes; p++) {
        frame.data[p] = vframe.data[p];
        frame.stride[p] = vframe.info.stride[p];
      }
      for (c = 0; c < info.n_components; c++) {
        const gint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c);
        GstCudaBoxBlurPlane plane;

        gst_cuda_box_blur_frame_get_plane (&frame, &info, c, &plane);
        fail_unless_equals_int (plane.width,
            GST_VIDEO_INFO_COMP_WIDTH (&vinfo, c));
        fail_unless_equals_int (plane.height,
            GST_VIDEO_INFO_COMP_HEIGHT (&vinfo, c));
        for (y = 0; y < plane.height; y++)
          for (x = 0; x < plane.width; x++) {
            const guint8 *sample = plane.data + (gsize) y * plane.stride +
                (gsize) x * plane.step;
            const guint got = info.sample_size == 1 ? *sample :
                GST_READ_UINT16_LE (sample) >> plane.shift;

            if (got != pattern (x, y, c, depth))
              fail ("%s %dx%d component %d at %d,%d: %u, GStreamer packed "
                  "%u", test_formats[f], w, height, c, x, y, got,
                  pattern (x, y, c, depth));
          }
      }
      gst_video_frame_unmap (&vframe);
      gst_buffer_unref (buf);
      g_free (line);
      g_free (line8);
    }
  }
}

GST_END_TEST;

static Suite *
info_suite (void)
{
  Suite *s = suite_create ("info");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_info_from_caps);
  tcase_add_test (tc, test_layout_is_gstreamers);
  tcase_add_test (tc, test_frame_from_buffer_checks_layout);
  return s;
}

GST_CHECK_MAIN (info);
