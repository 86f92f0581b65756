/* cudaboxblur: pipeline events, bad input and faults on a real GPU
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Exits with 77 (skipped) and says why when there is no usable GPU.
 * CUDABOXBLUR_FUZZ_SEED replays a fuzz run; its seed is always printed.
 */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "boxblur-kernel.h"
#include "cudaboxblur-info.h"
#include "testfuzz.h"
#include "testutils.h"

static const gchar *const formats[] = { "GRAY8", "GRAY32F" };

static void
push_check (GstHarness * h, const gchar * format, gint w, gint height,
    gint rx, gint ry, guint seed)
{
  GstBuffer *in = test_buffer_new (NULL, format, w, height, 0, seed);
  GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));

  fail_unless (out != NULL);
  test_assert_blurred (in, out, format, w, height, rx, ry);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* Size and format change mid-stream; every frame is right for its caps. */
GST_START_TEST (test_caps_change_mid_stream)
{
  const struct
  {
    const gchar * format;
    gint w, h;
  } steps[] = {
    {"GRAY8", 64, 48},
    {"GRAY32F", 97, 61},
    {"GRAY32F", 1920, 1080},
    {"GRAY8", 7, 3},
    {"GRAY8", 1920, 1080},
    {"GRAY32F", 1, 1},
  };
  GstHarness *h = gst_harness_new ("cudaboxblur");
  guint i;

  g_object_set (h->element, "radius", 9, NULL);
  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    gst_harness_set_caps (h, test_caps_new (steps[i].format, steps[i].w,
            steps[i].h), test_caps_new (steps[i].format, steps[i].w,
            steps[i].h));
    push_check (h, steps[i].format, steps[i].w, steps[i].h, 9, 9, i);
    push_check (h, steps[i].format, steps[i].w, steps[i].h, 9, 9, i + 100);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Flushes in the middle of a stream, then EOS: frames after the flush are
 * right and EOS comes out. */
GST_START_TEST (test_flush_and_eos)
{
  GstHarness *h = gst_harness_new ("cudaboxblur");
  GstSegment segment;
  GstEvent *ev;
  gint i;

  gst_harness_set_src_caps (h, test_caps_new (formats[1], 320, 240));
  for (i = 0; i < 3; i++) {
    push_check (h, formats[1], 320, 240, 1, 1, i);
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
    gst_segment_init (&segment, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  }
  push_check (h, formats[1], 320, 240, 1, 1, 7);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  while ((ev = gst_harness_try_pull_event (h))) {
    gboolean eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;

    gst_event_unref (ev);
    if (eos)
      break;
    fail_unless (gst_harness_events_in_queue (h) > 0, "no EOS came out");
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A frame spread over several GstMemory, and one at an offset given by its
 * GstVideoMeta. */
GST_START_TEST (test_multi_memory_and_offsets)
{
  static const gchar *const layouts[] = { "GRAY8", "GRAY32F", "I420",
    "RGB"
  };
  const gint w = 123, height = 45;
  guint f;
  gint p;

  for (f = 0; f < G_N_ELEMENTS (layouts); f++) {
    GstCudaBoxBlurInfo info = test_info (layouts[f], w, height);
    GstHarness *h = gst_harness_new ("cudaboxblur");
    GstBuffer *whole, *split, *out, *shifted;
    GstMapInfo map;
    gsize third = info.size / 3;
    gsize offsets[GST_VIDEO_MAX_PLANES];

    for (p = 0; p < info.n_planes; p++)
      offsets[p] = 64 + info.offset[p];
    g_object_set (h->element, "radius", 4, NULL);
    gst_harness_set_src_caps (h, test_caps_new (layouts[f], w, height));

    /* three memories */
    whole = test_buffer_new (NULL, layouts[f], w, height, 0, 3);
    split = gst_buffer_new ();
    gst_buffer_append_memory (split, gst_memory_share (gst_buffer_peek_memory
            (whole, 0), 0, third));
    gst_buffer_append_memory (split, gst_memory_share (gst_buffer_peek_memory
            (whole, 0), third, third));
    gst_buffer_append_memory (split, gst_memory_share (gst_buffer_peek_memory
            (whole, 0), 2 * third, info.size - 2 * third));
    fail_unless_equals_int (gst_buffer_n_memory (split), 3);
    out = gst_harness_push_and_pull (h, split);
    test_assert_blurred (whole, out, layouts[f], w, height, 4, 4);
    gst_buffer_unref (out);

    /* the frame 64 bytes into its buffer */
    shifted = gst_buffer_new_allocate (NULL, info.size + 64, NULL);
    fail_unless (gst_buffer_map (whole, &map, GST_MAP_READ));
    gst_buffer_fill (shifted, 64, map.data, map.size);
    gst_buffer_unmap (whole, &map);
    gst_buffer_add_video_meta_full (shifted, GST_VIDEO_FRAME_FLAG_NONE,
        info.video_format, w, height, info.n_planes, offsets, info.stride);
    out = gst_harness_push_and_pull (h, shifted);
    test_assert_blurred (whole, out, layouts[f], w, height, 4, 4);
    gst_buffer_unref (out);

    gst_buffer_unref (whole);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* A buffer smaller than its caps say is refused; nothing is read past it. */
GST_START_TEST (test_truncated_buffer)
{
  GstHarness *h = gst_harness_new ("cudaboxblur");
  GstCudaBoxBlurInfo info = test_info (formats[1], 640, 480);

  gst_harness_set_src_caps (h, test_caps_new (formats[1], 640, 480));
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, info.size / 2, NULL)),
      GST_FLOW_ERROR);
  gst_harness_teardown (h);
}

GST_END_TEST;

static GstMessage *
run_until (GstElement * pipeline, GstMessageType types)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND, types);

  gst_object_unref (bus);
  return msg;
}

GST_START_TEST (test_500_state_cycles_and_200_toggles)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! cudaboxblur radius=20 ! "
      "fakesink", NULL);
  GstMessage *msg;
  guint i;

  for (i = 0; i < 500; i++) {
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE, "cycle %u", i);
    msg = run_until (pipeline, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
        "cycle %u", i);
    gst_message_unref (msg);
    fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref (pipeline);

  /* frames keep flowing while PAUSED and PLAYING alternate */
  pipeline = gst_parse_launch ("videotestsrc num-buffers=2000 ! "
      "video/x-raw,format=GRAY8,width=320,height=240 ! cudaboxblur radius=5 ! "
      "fakesink sync=false", NULL);
  for (i = 0; i < 200; i++) {
    fail_unless (gst_element_set_state (pipeline, i % 2 ? GST_STATE_PAUSED :
            GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "toggle %u", i);
    fail_unless (gst_element_get_state (pipeline, NULL, NULL,
            10 * GST_SECOND) != GST_STATE_CHANGE_FAILURE, "toggle %u", i);
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = run_until (pipeline, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Two pipelines, two threads, one GPU, each checking its own frames. */
static gpointer
pipeline_thread (gpointer data)
{
  const gint idx = GPOINTER_TO_INT (data);
  const gchar *format = formats[idx % 2];
  const gint w = 400 + idx, height = 300 - idx, radius = 2 + 10 * idx;
  GstCaps *caps = test_caps_new (format, w, height);
  GstElement *pipeline, *src, *sink;
  gchar *desc;
  gint i;

  desc = g_strdup_printf ("appsrc name=src format=time ! cudaboxblur "
      "radius=%d ! appsink name=sink sync=false", radius);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (src, "caps", caps, NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  for (i = 0; i < 30; i++) {
    GstBuffer *in = test_buffer_new (NULL, format, w, height, 0,
        i + 1000 * idx);
    GstSample *sample = NULL;
    GstFlowReturn flow;

    g_signal_emit_by_name (src, "push-buffer", in, &flow);
    fail_unless_equals_int (flow, GST_FLOW_OK);
    g_signal_emit_by_name (sink, "pull-sample", &sample);
    fail_unless (sample != NULL);
    test_assert_blurred (in, gst_sample_get_buffer (sample), format, w,
        height, radius, radius);
    gst_sample_unref (sample);
    gst_buffer_unref (in);
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  gst_caps_unref (caps);
  return NULL;
}

GST_START_TEST (test_two_pipelines_two_threads)
{
  GThread *a = g_thread_new ("p0", pipeline_thread, GINT_TO_POINTER (0));
  GThread *b = g_thread_new ("p1", pipeline_thread, GINT_TO_POINTER (1));

  g_thread_join (a);
  g_thread_join (b);
}

GST_END_TEST;

/* On the first frame (@i 0), and then one frame in @one_in, new caps of a
 * random format and a size up to @max_w x @max_h. */
static void
fuzz_caps (GstHarness * h, GRand * rand, gint i, gint one_in, gint max_w,
    gint max_h, const gchar ** format, gint * w, gint * height)
{
  if (i > 0 && g_rand_int_range (rand, 0, one_in) != 0)
    return;
  *format = test_formats[g_rand_int_range (rand, 0, test_n_formats)];
  *w = g_rand_int_range (rand, 1, max_w);
  *height = g_rand_int_range (rand, 1, max_h);
  gst_harness_set_caps (h, test_caps_new (*format, *w, *height),
      test_caps_new (*format, *w, *height));
}

/* Seeded, bounded: frame after frame, random format, size, radii, chroma
 * radii, passes, border mode and region, with input in padded or default
 * layout; each output against the reference. */
GST_START_TEST (test_property_fuzz)
{
  guint32 seed;
  GRand *rand = test_fuzz_rand_new ("property", &seed);
  GstHarness *h = gst_harness_new ("cudaboxblur");
  const gchar *format = test_formats[0];
  GstCudaBoxBlurSettings s;
  gint w = 0, height = 0, i;

  gst_cuda_box_blur_settings_init (&s);
  for (i = 0; i < 150; i++) {
    GstBuffer *in, *out;

    fuzz_caps (h, rand, i, 10, 700, 500, &format, &w, &height);
    s.radius_x = g_rand_int_range (rand, 0, 4) ?
        g_rand_int_range (rand, 0, 12) : g_rand_int_range (rand, 0, 256);
    s.radius_y = g_rand_boolean (rand) ? s.radius_x :
        g_rand_int_range (rand, 0, 64);
    s.chroma_radius_x = g_rand_int_range (rand, -1, 6);
    s.chroma_radius_y = g_rand_int_range (rand, -1, 6);
    s.passes = g_rand_int_range (rand, 0, 4) ? 1 : g_rand_int_range (rand,
        2, 4);
    s.border = g_rand_int_range (rand, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
        GST_CUDA_BOX_BLUR_BORDER_CONSTANT + 1);
    s.border_value = g_rand_int_range (rand, 0, 256);
    s.blur_alpha = g_rand_boolean (rand);
    if (g_rand_boolean (rand)) {
      s.roi.x = g_rand_int_range (rand, 0, w);
      s.roi.y = g_rand_int_range (rand, 0, height);
      s.roi.w = g_rand_int_range (rand, 0, w);
      s.roi.h = g_rand_int_range (rand, 0, height);
    } else {
      s.roi.x = s.roi.y = s.roi.w = s.roi.h = 0;
    }
    test_apply_settings (h->element, &s);

    in = test_buffer_new (NULL, format, w, height,
        g_rand_boolean (rand) ? 0 : 4 * g_rand_int_range (rand, 1, 9), i);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    test_assert_output (in, out, format, w, height, &s);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
  g_rand_free (rand);
}

GST_END_TEST;

/* Seeded, bounded: frame after frame, random format, size, mode, shape,
 * feather, fill colour, invert, no-region policy and type list, with 0 to 4
 * region metas, hostile ones among them (test_fuzz_meta_add()); each output
 * against the reference, no frame lost and no error posted. */
GST_START_TEST (test_redaction_fuzz)
{
  guint32 seed;
  GRand *rand = test_fuzz_rand_new ("redaction", &seed);
  GstHarness *h = gst_harness_new ("cudaboxblur");
  GstBus *bus = gst_bus_new ();
  const gchar *format = test_formats[0];
  GstCudaBoxBlurSettings s;
  GstMessage *error;
  gint w = 0, height = 0, i, n;

  gst_element_set_bus (h->element, bus);
  for (i = 0; i < 200; i++) {
    GstBuffer *in, *out;

    fuzz_caps (h, rand, i, 8, 400, 300, &format, &w, &height);
    test_fuzz_settings (&s, rand, w, height);
    test_apply_settings (h->element, &s);

    in = test_buffer_new (NULL, format, w, height,
        g_rand_boolean (rand) ? 0 : 4 * g_rand_int_range (rand, 1, 9), i);
    for (n = g_rand_int_range (rand, 0, 5); n > 0; n--)
      test_fuzz_meta_add (in, rand, w, height);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL, "frame %d lost (seed %u)", i, seed);
    test_assert_output (in, out, format, w, height, &s);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  error = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (error == NULL, "an error was posted (seed %u)", seed);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_rand_free (rand);
}

GST_END_TEST;

/* Back to the built-in kernels: the stopped @pipeline plays to EOS; where
 * it does not, the failure says the error it posted. */
static void
restart_with_builtin_kernels (GstElement * pipeline)
{
  GstStateChangeReturn ret;
  GstMessage *msg;
  GError *error = NULL;
  gchar *debug = NULL;

  g_unsetenv ("CUDABOXBLUR_KERNEL_SOURCE");
  ret = gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = run_until (pipeline, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &error, &debug);
  fail_unless (ret != GST_STATE_CHANGE_FAILURE && msg
      && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "the restart %s: %s (%s)",
      ret == GST_STATE_CHANGE_FAILURE ? "failed" : "played no EOS",
      error ? error->message : "no error", debug ? debug : "");
  gst_message_unref (msg);
}

/* A kernel source that does not compile: the element error carries NVRTC's
 * log, and the element works again with the built-in kernels. */
GST_START_TEST (test_compile_error_reported)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("cudaboxblur-XXXXXX.cu", &path, NULL);
  GstElement *pipeline;
  GstMessage *msg;
  GError *error = NULL;
  gchar *debug = NULL;

  fail_unless (fd >= 0);
  fail_unless (g_file_set_contents (path, "extern \"C\" __global__ void "
          "box_blur_u8 () { undefined_thing; }\n", -1, NULL));
  close (fd);
  g_setenv ("CUDABOXBLUR_KERNEL_SOURCE", path, TRUE);

  pipeline = gst_parse_launch ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=GRAY8 ! cudaboxblur ! fakesink", NULL);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = run_until (pipeline, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &error, &debug);
  fail_unless (g_error_matches (error, GST_LIBRARY_ERROR,
          GST_LIBRARY_ERROR_INIT));
  fail_unless (strstr (error->message, "undefined_thing") != NULL, "%s",
      error->message);
  g_error_free (error);
  g_free (debug);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  restart_with_builtin_kernels (pipeline);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

static GstMessage *
pop_error (GstBus * bus)
{
  return gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND, GST_MESSAGE_ERROR);
}

/* The output pool cannot grow (an allocation fails as if out of memory):
 * an element error says so, and everything taken is given back. */
GST_START_TEST (test_allocation_failure)
{
  GstHarness *h = gst_harness_new ("cudaboxblur");
  GstBus *bus = gst_bus_new ();
  GstAllocator *allocator = NULL;
  GstBuffer *held;
  GstMessage *msg;
  GError *error = NULL;
  guint64 held_bytes = 1;

  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps (h, test_caps_new (formats[0], 640, 480));
  gst_buffer_unref (gst_harness_create_buffer (h, 1));
  gst_harness_get_allocator (h, &allocator, NULL);
  fail_unless (allocator != NULL);
  gst_object_ref (allocator);

  /* keep the first output, so that the pool must allocate another */
  held = gst_harness_push_and_pull (h, test_buffer_new (NULL, formats[0],
          640, 480, 0, 1));
  fail_unless (held != NULL);
  g_object_set_data (G_OBJECT (allocator),
      GST_CUDA_BOX_BLUR_ALLOCATOR_FAIL_AFTER, GINT_TO_POINTER (1));
  fail_unless_equals_int (gst_harness_push (h, test_buffer_new (NULL,
              formats[0], 640, 480, 0, 2)), GST_FLOW_ERROR);

  msg = pop_error (bus);
  fail_unless (msg != NULL, "no element error");
  gst_message_parse_error (msg, &error, NULL);
  fail_unless (g_error_matches (error, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NO_SPACE_LEFT), "%s", error->message);
  fail_unless (strstr (error->message, "Cannot allocate") != NULL);
  g_error_free (error);
  gst_message_unref (msg);

  gst_buffer_unref (held);
  gst_element_set_bus (h->element, NULL);
  gst_harness_teardown (h);
  g_object_get (allocator, "allocated-bytes", &held_bytes, NULL);
  fail_unless_equals_uint64 (held_bytes, 0);
  gst_object_unref (allocator);
  gst_object_unref (bus);
}

GST_END_TEST;

/* Writes the built-in kernels with @from replaced by @to to a file. */
static gchar *
patched_kernels (const gchar * from, const gchar * to)
{
  gchar **parts = g_strsplit (cuda_box_blur_kernel_source, from, -1);
  gchar *text = g_strjoinv (to, parts), *path = NULL;
  gint fd = g_file_open_tmp ("cudaboxblur-XXXXXX.cu", &path, NULL);

  fail_unless (g_strv_length (parts) == 2, "'%s' not found once", from);
  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, text, -1, NULL));
  g_strfreev (parts);
  g_free (text);
  return path;
}

static guint handoffs;

static void
count_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer u)
{
  g_atomic_int_inc (&handoffs);
}

/* Plays five GRAY8 frames through cudaboxblur with the built-in kernels
 * with @from replaced by @to, which must fail with an element error
 * containing @says, before any frame reaches the sink.  Returns the
 * stopped pipeline, its sink counting handoffs. */
static GstElement *
play_until_fault (const gchar * from, const gchar * to, const gchar * says)
{
  gchar *path = patched_kernels (from, to);
  GstElement *pipeline, *sink;
  GstMessage *msg;
  GError *error = NULL;
  gchar *debug = NULL;

  g_setenv ("CUDABOXBLUR_KERNEL_SOURCE", path, TRUE);
  pipeline = gst_parse_launch ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=GRAY8,width=320,height=240 ! cudaboxblur ! "
      "fakesink name=sink signal-handoffs=true", NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_signal_connect (sink, "handoff", G_CALLBACK (count_handoff), NULL);
  gst_object_unref (sink);
  handoffs = 0;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = run_until (pipeline, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR);
  gst_message_parse_error (msg, &error, &debug);
  GST_INFO ("fault: %s (%s)", error->message, debug);
  fail_unless (strstr (error->message, says) != NULL, "'%s' lacks '%s'",
      error->message, says);
  g_error_free (error);
  g_free (debug);
  gst_message_unref (msg);
  fail_unless_equals_int (g_atomic_int_get (&handoffs), 0);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  g_unsetenv ("CUDABOXBLUR_KERNEL_SOURCE");
  g_unlink (path);
  g_free (path);
  return pipeline;
}

/* A kernel launch that fails mid-stream (more threads per block than the
 * kernel allows): an element error, no frame pushed as if valid, and the
 * element runs again after a restart. */
GST_START_TEST (test_launch_error_then_restart)
{
  GstElement *pipeline = play_until_fault ("__launch_bounds__ (TILE_THREADS, "
      "TILE_BLOCKS_PER_SM)\nbox_tiles_u8 (const",
      "__launch_bounds__ (32)\nbox_tiles_u8 (const",
      "CUDA error while blurring");

  restart_with_builtin_kernels (pipeline);
  fail_unless_equals_int (g_atomic_int_get (&handoffs), 5);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* @pipeline, stopped, must refuse to start: an element error that says
 * to restart the process, and no frame. */
static void
check_refused_until_restart (GstElement * pipeline)
{
  GstMessage *msg;
  GError *error = NULL;

  handoffs = 0;
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = run_until (pipeline, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "a lost device was not refused");
  gst_message_parse_error (msg, &error, NULL);
  fail_unless (g_error_matches (error, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_FAILED), "%s", error->message);
  fail_unless (strstr (error->message, "restart the process") != NULL,
      "%s", error->message);
  g_error_free (error);
  gst_message_unref (msg);
  fail_unless_equals_int (g_atomic_int_get (&handoffs), 0);
  gst_element_set_state (pipeline, GST_STATE_NULL);
}

/* A kernel that faults (a trap) leaves the CUDA context it ran in lost,
 * and NVIDIA documents the process as needing a restart.  The element says
 * so, and from then on refuses the device at once, with the same advice,
 * in the pipeline restarted and in a new one of the same process.  A fault
 * on purpose is an error to compute-sanitizer, under which
 * (CUDABOXBLUR_SANITIZER, set by scripts/gpu-sanitize.sh) the test says it
 * is skipped. */
GST_START_TEST (test_lost_device_needs_restart)
{
  const gchar *entry = "box_tiles_u8 (const BoxBlurArgs * __restrict__ list)"
      "\n{\n";
  GstElement *pipeline;
  gchar *faulting;

  if (g_getenv ("CUDABOXBLUR_SANITIZER")) {
    g_print ("test_lost_device_needs_restart: skipped under "
        "compute-sanitizer (its kernel faults on purpose)\n");
    return;
  }
  faulting = g_strconcat (entry, "  __trap ();\n", NULL);
  pipeline = play_until_fault (entry, faulting, "a kernel fault left CUDA "
      "device 0 unusable in this process; restart the process");
  g_free (faulting);

  check_refused_until_restart (pipeline);
  gst_object_unref (pipeline);
  pipeline = gst_parse_launch ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! cudaboxblur ! fakesink",
      NULL);
  check_refused_until_restart (pipeline);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
robust_suite (void)
{
  Suite *s = suite_create ("cudaboxblur-robust");
  TCase *tc = tcase_create ("robust");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_caps_change_mid_stream);
  tcase_add_test (tc, test_flush_and_eos);
  tcase_add_test (tc, test_multi_memory_and_offsets);
  tcase_add_test (tc, test_truncated_buffer);
  tcase_add_test (tc, test_500_state_cycles_and_200_toggles);
  tcase_add_test (tc, test_two_pipelines_two_threads);
  tcase_add_test (tc, test_property_fuzz);
  tcase_add_test (tc, test_redaction_fuzz);
  tcase_add_test (tc, test_compile_error_reported);
  tcase_add_test (tc, test_allocation_failure);
  tcase_add_test (tc, test_launch_error_then_restart);
  tcase_add_test (tc, test_lost_device_needs_restart);
  return s;
}

TEST_GPU_CHECK_MAIN ("cudaboxblur-robust", robust_suite, NULL);
