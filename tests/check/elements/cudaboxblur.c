/* cudaboxblur: caps, properties and errors, with no GPU needed
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * meson runs this suite with CUDA_VISIBLE_DEVICES="" so that it exercises
 * the no-device path on machines with a GPU too.
 */

#include <gst/check/gstcheck.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "cudaboxblur-info.h"
#include "testutils.h"

static GstElement *
new_blur (void)
{
  GstElement *e = gst_element_factory_make ("cudaboxblur", NULL);

  fail_unless (e != NULL, "cudaboxblur not found: check GST_PLUGIN_PATH");
  return gst_object_ref_sink (e);
}

static gboolean
sink_accepts (GstElement * e, const gchar * caps_str)
{
  GstPad *pad = gst_element_get_static_pad (e, "sink");
  GstCaps *caps = gst_caps_from_string (caps_str);
  gboolean res;

  fail_unless (caps != NULL, "%s", caps_str);
  res = gst_pad_query_accept_caps (pad, caps);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return res;
}

GST_START_TEST (test_accepts_gray8_and_gray32f)
{
  GstElement *e = new_blur ();

  fail_unless (sink_accepts (e,
          "video/x-raw,format=GRAY8,width=320,height=240,framerate=30/1"));
  fail_unless (sink_accepts (e,
          "video/x-raw,format=GRAY32F,width=385,height=289,framerate=0/1"));
  fail_unless (sink_accepts (e,
          "video/x-raw,format=GRAY8,width=1,height=1,framerate=25/1"));
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_rejects_other_caps)
{
  GstElement *e = new_blur ();
  const gchar *bad[] = {
    "video/x-raw,format=RGBA,width=320,height=240,framerate=30/1",
    "video/x-raw,format=I420,width=320,height=240,framerate=30/1",
    "video/x-raw,format=GRAY16_LE,width=320,height=240,framerate=30/1",
    "video/x-raw,format=GRAY8,width=0,height=240,framerate=30/1",
    "video/x-raw,format=GRAY32F,width=320,height=0,framerate=30/1",
    "video/x-raw,format=GRAY8,width=40000,height=2,framerate=30/1",
    "video/x-raw(memory:CUDAMemory),format=GRAY8,width=320,height=240,"
        "framerate=30/1",
    "audio/x-raw,format=F32LE,rate=48000,channels=1",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    fail_if (sink_accepts (e, bad[i]), "accepted %s", bad[i]);
  gst_object_unref (e);
}

GST_END_TEST;

/* Same caps in and out: asking the source pad for GRAY32F gives GRAY32F
 * only. */
GST_START_TEST (test_caps_pass_through_unchanged)
{
  GstElement *e = new_blur ();
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstCaps *filter, *caps;
  GstStructure *s;

  filter = gst_caps_from_string ("video/x-raw,format=GRAY32F");
  caps = gst_pad_query_caps (src, filter);
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
  s = gst_caps_get_structure (caps, 0);
  fail_unless_equals_string (gst_structure_get_string (s, "format"),
      "GRAY32F");
  gst_caps_unref (caps);
  gst_caps_unref (filter);

  caps = gst_pad_query_caps (src, NULL);
  filter = gst_caps_from_string ("video/x-raw,format={GRAY8,GRAY32F},"
      "width=[1,32768],height=[1,32768],framerate=[0/1,2147483647/1]");
  fail_unless (gst_caps_is_equal (caps, filter), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  gst_caps_unref (filter);
  gst_object_unref (src);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_info_from_caps)
{
  GstCudaBoxBlurInfo info;
  GstCaps *caps;

  caps = test_caps_new (GST_CUDA_BOX_BLUR_FORMAT_GRAY32F, 385, 289);
  fail_unless (gst_cuda_box_blur_info_from_caps (&info, caps));
  fail_unless_equals_int (info.format, GST_CUDA_BOX_BLUR_FORMAT_GRAY32F);
  fail_unless_equals_int (info.bpp, 4);
  fail_unless_equals_int (info.stride, 385 * 4);
  fail_unless_equals_uint64 (info.size, 385 * 4 * 289);
  gst_caps_unref (caps);

  /* GRAY8 rows are padded to 4 bytes, as GstVideoInfo does */
  caps = test_caps_new (GST_CUDA_BOX_BLUR_FORMAT_GRAY8, 385, 289);
  fail_unless (gst_cuda_box_blur_info_from_caps (&info, caps));
  fail_unless_equals_int (info.stride, 388);
  fail_unless_equals_uint64 (info.size, 388 * 289);
  gst_caps_unref (caps);

  caps = gst_caps_from_string ("video/x-raw,format=GRAY32F,width=8,"
      "height=8,framerate=30/1,interlace-mode=interleaved");
  fail_if (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);

  caps = gst_caps_from_string ("video/x-raw,format=GRAY32F,height=8");
  fail_if (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);

  caps = gst_caps_from_string ("video/x-raw,format=RGBA,width=8,height=8");
  fail_if (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);
}

GST_END_TEST;

GST_START_TEST (test_plane_from_buffer_checks_layout)
{
  GstCudaBoxBlurInfo info;
  GstCudaBoxBlurPlane plane;
  GstCaps *caps = test_caps_new (GST_CUDA_BOX_BLUR_FORMAT_GRAY32F, 17, 13);
  GstBuffer *buf;
  GstMapInfo map;
  GError *error = NULL;

  fail_unless (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);

  /* padded stride from the meta */
  buf = test_buffer_new (NULL, info.format, 17, 13, 128, 1);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless (gst_cuda_box_blur_plane_from_buffer (&plane, &info, buf, &map,
          &error));
  fail_unless_equals_int (plane.stride, 128);
  fail_unless (plane.data == map.data);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);

  /* a truncated buffer */
  buf = gst_buffer_new_allocate (NULL, info.size - 1, NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_if (gst_cuda_box_blur_plane_from_buffer (&plane, &info, buf, &map,
          &error));
  fail_unless (strstr (error->message, "too small") != NULL, "%s",
      error->message);
  g_clear_error (&error);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);

  /* a stride shorter than a row */
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  {
    gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
    gint stride[GST_VIDEO_MAX_PLANES] = { 64, };

    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_UNKNOWN, 17, 13, 1, offset, stride);
  }
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_if (gst_cuda_box_blur_plane_from_buffer (&plane, &info, buf, &map,
          &error));
  fail_unless (strstr (error->message, "stride") != NULL, "%s",
      error->message);
  g_clear_error (&error);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
}

GST_END_TEST;

GST_START_TEST (test_properties)
{
  GstElement *e = new_blur ();
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  GParamSpecUInt *radius;
  GParamSpecInt *device;
  guint r;
  gint d;
  gchar *arch;

  radius = G_PARAM_SPEC_UINT (g_object_class_find_property (klass, "radius"));
  fail_unless_equals_int (radius->default_value, 1);
  fail_unless_equals_int (radius->minimum, 0);
  fail_unless_equals_int (radius->maximum, 255);
  fail_unless (radius->parent_instance.flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless (radius->parent_instance.flags & GST_PARAM_CONTROLLABLE);

  device = G_PARAM_SPEC_INT (g_object_class_find_property (klass,
          "device-id"));
  fail_unless_equals_int (device->default_value, 0);
  fail_unless_equals_int (device->minimum, 0);
  fail_unless (device->parent_instance.flags & GST_PARAM_MUTABLE_READY);

  {
    GParamSpecEnum *mode = G_PARAM_SPEC_ENUM (g_object_class_find_property
        (klass, "memory-mode"));
    GEnumValue *v;

    fail_unless_equals_int (mode->default_value, 0);
    v = g_enum_get_value_by_nick (mode->enum_class, "managed");
    fail_unless (v != NULL && v->value == 0);
    v = g_enum_get_value_by_nick (mode->enum_class, "pinned");
    fail_unless (v != NULL && v->value == 1);
    fail_unless (mode->parent_instance.flags & GST_PARAM_MUTABLE_READY);
  }

  g_object_get (e, "radius", &r, "device-id", &d, "arch", &arch, NULL);
  fail_unless_equals_int (r, 1);
  fail_unless_equals_int (d, 0);
  fail_unless (arch == NULL);

  g_object_set (e, "radius", 7, "device-id", 3, NULL);
  g_object_get (e, "radius", &r, "device-id", &d, NULL);
  fail_unless_equals_int (r, 7);
  fail_unless_equals_int (d, 3);

  /* radius sets both directions; each can be set alone */
  g_object_set (e, "radius-x", 4, "radius-y", 9, NULL);
  g_object_get (e, "radius", &r, NULL);
  fail_unless_equals_int (r, 4);
  g_object_get (e, "radius-y", &r, NULL);
  fail_unless_equals_int (r, 9);
  g_object_set (e, "radius", 5, NULL);
  g_object_get (e, "radius-y", &r, NULL);
  fail_unless_equals_int (r, 5);
  radius = G_PARAM_SPEC_UINT (g_object_class_find_property (klass,
          "radius-y"));
  fail_unless_equals_int (radius->maximum, 255);
  fail_unless (radius->parent_instance.flags & GST_PARAM_MUTABLE_PLAYING);

  /* passthrough only when both are 0 */
  g_object_set (e, "radius-x", 0, "radius-y", 3, NULL);
  fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (e)));

  /* radius 0 is passthrough, and back */
  fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (e)));
  g_object_set (e, "radius", 0, NULL);
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (e)));
  g_object_set (e, "radius", 2, NULL);
  fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (e)));

  gst_object_unref (e);
}

GST_END_TEST;

/* Runs @desc to PAUSED, which must fail with an error from cudaboxblur that
 * contains @text. */
static void
assert_start_fails (const gchar * desc, const gchar * text)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus;
  GstMessage *msg;
  GError *error = NULL;
  gchar *debug = NULL;

  fail_unless (pipeline != NULL);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);

  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message posted");
  fail_unless_equals_string (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), "blur");
  gst_message_parse_error (msg, &error, &debug);
  fail_unless (error->domain == GST_RESOURCE_ERROR);
  fail_unless (strstr (error->message, text) != NULL, "'%s' lacks '%s'",
      error->message, text);
  GST_INFO ("error: %s (%s)", error->message, debug);

  g_error_free (error);
  g_free (debug);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_START_TEST (test_no_device_is_an_element_error)
{
  assert_start_fails ("appsrc caps=video/x-raw,format=GRAY32F,width=64,"
      "height=48,framerate=30/1 ! cudaboxblur name=blur ! appsink",
      "No CUDA device");
  assert_start_fails ("videotestsrc ! video/x-raw,format=GRAY8 ! "
      "cudaboxblur name=blur device-id=5 ! fakesink", "No CUDA device");
}

GST_END_TEST;

static Suite *
cudaboxblur_suite (void)
{
  Suite *s = suite_create ("cudaboxblur");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_accepts_gray8_and_gray32f);
  tcase_add_test (tc, test_rejects_other_caps);
  tcase_add_test (tc, test_caps_pass_through_unchanged);
  tcase_add_test (tc, test_info_from_caps);
  tcase_add_test (tc, test_plane_from_buffer_checks_layout);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_no_device_is_an_element_error);
  return s;
}

GST_CHECK_MAIN (cudaboxblur);
