/* cudaboxblur: the element on a real GPU against the CPU reference
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Exits with 77 (skipped) and says why when there is no usable GPU.
 */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <glib/gstdio.h>
#include <dlfcn.h>
#include <unistd.h>

#include "boxblur-kernel.h"
#include "boxblur-ref.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-program.h"
#include "testutils.h"

static const gchar *const formats[] = { "GRAY8", "GRAY32F" };

/* Pushes @in and checks the frame that comes out. */
static void
push_and_check_xy (GstHarness * h, GstBuffer * in,
    const gchar * format, gint w, gint height, gint radius_x,
    gint radius_y)
{
  GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));

  fail_unless (out != NULL);
  if (radius_x == 0 && radius_y == 0) {
    /* passthrough: the very same buffer, no GPU work */
    fail_unless (out == in);
  } else {
    fail_unless (test_is_element_memory (h->element, out),
        "output is not the element's memory-in-use");
    test_assert_blurred (in, out, format, w, height, radius_x, radius_y);
  }
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

static void
push_and_check (GstHarness * h, GstBuffer * in, const gchar * format,
    gint w, gint height, gint radius)
{
  push_and_check_xy (h, in, format, w, height, radius, radius);
}

static void
check_size (gint w, gint height)
{
  const gint radii[] = { 1, 0, 2, 7 };
  guint f, r;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    const gchar * format = formats[f];
    GstCudaBoxBlurInfo info;
    GstHarness *h;
    GstAllocator *allocator = NULL;
    gint pad;

    info = test_info (format, w, height);
    /* GRAY8 with an odd stride; GRAY32F keeps 4-byte aligned rows */
    pad = info.sample_size == 1 ? 5 : 68;

    h = test_harness_new (format, w, height);
    gst_harness_get_allocator (h, &allocator, NULL);
    fail_unless (allocator != NULL, "no allocator offered upstream");
    fail_unless_equals_string (allocator->mem_type,
        test_element_memory_type (h->element));

    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      gint radius = radii[r];

      GST_INFO ("%dx%d %s radius %d", w, height,
          format, radius);
      g_object_set (h->element, "radius", radius, NULL);

      push_and_check (h, test_pool_buffer (h, &info, r), format, w, height,
          radius);
      push_and_check (h, test_buffer_new (allocator, format, w, height,
              pad, r + 10), format, w, height, radius);
      push_and_check (h, test_buffer_new (NULL, format, w, height,
              0, r + 20), format, w, height, radius);
      push_and_check (h, test_buffer_new (NULL, format, w, height, pad,
              r + 30), format, w, height, radius);
    }

    gst_harness_teardown (h);
  }
}

GST_START_TEST (test_1x1)
{
  check_size (1, 1);
}

GST_END_TEST;

GST_START_TEST (test_3x2)
{
  check_size (3, 2);
}

GST_END_TEST;

GST_START_TEST (test_17x13)
{
  check_size (17, 13);
}

GST_END_TEST;

GST_START_TEST (test_256x256)
{
  check_size (256, 256);
}

GST_END_TEST;

GST_START_TEST (test_1920x1080)
{
  check_size (1920, 1080);
}

GST_END_TEST;

GST_START_TEST (test_4097x7)
{
  check_size (4097, 7);
}

GST_END_TEST;

/* The separable passes: every radius class, asymmetric windows, windows
 * wider than the frame, odd sizes. */
GST_START_TEST (test_large_and_asymmetric_radii)
{
  const gint sizes[][2] = { {323, 241}, {1920, 1080}, {4097, 7}, {5, 600} };
  const gint radii[][2] = {
    {3, 3}, {7, 7}, {15, 15}, {30, 30}, {63, 63}, {127, 127}, {255, 255},
    {0, 9}, {9, 0}, {40, 2}, {2, 40}, {255, 0}, {0, 255}, {1, 200},
  };
  guint s, f, r;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s][0], height = sizes[s][1];

    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstCudaBoxBlurInfo info;
      GstHarness *h = test_harness_new (formats[f], w, height);

      info = test_info (formats[f], w, height);
      for (r = 0; r < G_N_ELEMENTS (radii); r++) {
        GST_INFO ("%dx%d %s radius %d,%d", w, height,
            formats[f], radii[r][0],
            radii[r][1]);
        g_object_set (h->element, "radius-x", radii[r][0], "radius-y",
            radii[r][1], NULL);
        /* pool and foreign input alternate */
        if (r % 2)
          push_and_check_xy (h, test_pool_buffer (h, &info, r), formats[f], w,
              height, radii[r][0], radii[r][1]);
        else
          push_and_check_xy (h, test_buffer_new (NULL, formats[f], w, height,
                  4 * (r % 3), r), formats[f], w, height,
              radii[r][0], radii[r][1]);
      }
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* Each frame is blurred with the radius set just before it was pushed. */
GST_START_TEST (test_radius_change_while_playing)
{
  const gint w = 97, height = 61;
  GstHarness *h = test_harness_new ("GRAY32F", w, height);
  GstCudaBoxBlurInfo info;
  guint i;

  info = test_info ("GRAY32F", w, height);
  for (i = 0; i < 40; i++) {
    /* small and large radii, so the kernel variant changes too */
    gint radius = (i % 2) ? (i * 7) % 5 : (i * 13) % 97;

    g_object_set (h->element, "radius", radius, NULL);
    push_and_check (h, test_buffer_new (NULL, info.format, w, height,
            0, i), info.format, w, height, radius);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

static GstBuffer *
pull_from_appsink (GstElement * pipeline, GstCaps ** caps)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstSample *sample = NULL;
  GstBuffer *buf;

  g_signal_emit_by_name (sink, "pull-sample", &sample);
  fail_unless (sample != NULL, "no sample");
  buf = gst_buffer_ref (gst_sample_get_buffer (sample));
  *caps = gst_caps_ref (gst_sample_get_caps (sample));
  gst_sample_unref (sample);
  gst_object_unref (sink);
  return buf;
}

GST_START_TEST (test_negotiation_with_appsrc)
{
  const gint w = 385, height = 289;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstElement *pipeline, *src;
    GstCaps *caps, *out_caps;
    GstBuffer *in, *out;
    GstFlowReturn flow;
    gchar *text;

    caps = test_caps_new (formats[f], w, height);
    pipeline = gst_parse_launch ("appsrc name=src format=time ! "
        "cudaboxblur radius=2 ! appsink name=sink", NULL);
    src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
    g_object_set (src, "caps", caps, NULL);
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);

    in = test_buffer_new (NULL, formats[f], w, height, 0, f);
    g_signal_emit_by_name (src, "push-buffer", in, &flow);
    fail_unless_equals_int (flow, GST_FLOW_OK);

    out = pull_from_appsink (pipeline, &out_caps);
    text = gst_caps_to_string (out_caps);
    fail_unless (gst_caps_is_equal (out_caps, caps), "%s", text);
    g_free (text);
    test_assert_blurred (in, out, formats[f], w, height, 2, 2);

    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_caps_unref (out_caps);
    gst_caps_unref (caps);
    gst_object_unref (src);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
  }
}

GST_END_TEST;

GST_START_TEST (test_two_elements_in_one_pipeline)
{
  const gint w = 257, height = 131;
  const gchar *format = "GRAY32F";
  GstHarness *h =
      gst_harness_new_parse ("cudaboxblur radius=1 ! cudaboxblur radius=3");
  GstCudaBoxBlurInfo info;
  GstBuffer *in, *once, *out;
  GstMapInfo in_map, once_map;
  GstCudaBoxBlurSettings settings;
  GstCudaBoxBlurFrame in_frame, once_frame;
  const GstVideoRectangle whole = { 0, 0, w, height };

  gst_harness_set_src_caps (h, test_caps_new (format, w, height));
  info = test_info (format, w, height);
  in = test_buffer_new (NULL, format, w, height, 0, 5);

  /* the first blur, on the CPU */
  once = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_buffer_map (in, &in_map, GST_MAP_READ));
  fail_unless (gst_buffer_map (once, &once_map, GST_MAP_WRITE));
  gst_cuda_box_blur_settings_init (&settings);
  gst_cuda_box_blur_frame_from_data (&in_frame, &info, in_map.data);
  gst_cuda_box_blur_frame_from_data (&once_frame, &info, once_map.data);
  box_blur_ref_frame (&info, &settings, &in_frame, &once_frame, &whole, 1,
      NULL);
  gst_buffer_unmap (once, &once_map);
  gst_buffer_unmap (in, &in_map);

  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  {
    /* the second element's memory (the harness's element is their bin) */
    GstPad *src = gst_element_get_static_pad (h->element, "src");
    GstPad *target = gst_ghost_pad_get_target (GST_GHOST_PAD (src));
    GstElement *last = gst_pad_get_parent_element (target);

    fail_unless (test_is_element_memory (last, out));
    gst_object_unref (last);
    gst_object_unref (target);
    gst_object_unref (src);
  }
  test_assert_blurred (once, out, format, w, height, 3, 3);

  gst_buffer_unref (out);
  gst_buffer_unref (once);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_1000_frames_no_memory_growth)
{
  const gint w = 1920, height = 1080;
  GstHarness *h = test_harness_new ("GRAY8", w, height);
  GstCudaBoxBlurInfo info;
  GstAllocator *allocator = NULL;
  GstBuffer *foreign;
  guint64 held_before = 0, held_after = 0, work_before = 0, work_after = 0;
  guint i;

  g_object_set (h->element, "radius", 3, NULL);
  info = test_info ("GRAY8", w, height);
  foreign = test_buffer_new (NULL, info.format, w, height, 0, 9);
  /* the element's allocator, which serves both of its pools */
  gst_harness_get_allocator (h, &allocator, NULL);
  fail_unless (allocator != NULL);

  /* Alternate pool and foreign input, so that the staging path runs too. */
  for (i = 0; i < 1020; i++) {
    GstBuffer *in = (i % 2) ? gst_buffer_ref (foreign) :
        test_pool_buffer (h, &info, i);

    gst_buffer_unref (gst_harness_push_and_pull (h, in));
    if (i == 19) {
      g_object_get (allocator, "allocated-bytes", &held_before, NULL);
      g_object_get (h->element, "work-memory", &work_before, NULL);
    }
  }
  g_object_get (allocator, "allocated-bytes", &held_after, NULL);
  g_object_get (h->element, "work-memory", &work_after, NULL);

  g_print ("1000 frames: managed memory held %" G_GUINT64_FORMAT " -> %"
      G_GUINT64_FORMAT " bytes, work memory %" G_GUINT64_FORMAT " -> %"
      G_GUINT64_FORMAT " bytes\n", held_before, held_after, work_before,
      work_after);
  /* Every buffer goes back to its pool: not one more allocation.  The
   * element's own memory (the GPU is shared: what others take or free
   * says nothing of it) stays what the first frames made it: staging
   * copies of the foreign frames, the launches' arguments. */
  fail_unless_equals_uint64 (held_after, held_before);
  fail_unless (work_before >= info.size, "%" G_GUINT64_FORMAT " bytes of "
      "work memory: no staging copy", work_before);
  fail_unless_equals_uint64 (work_after, work_before);

  gst_buffer_unref (foreign);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_50_state_cycles)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=GRAY8,width=320,height=240 ! cudaboxblur ! "
      "fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  guint i;

  for (i = 0; i < 50; i++) {
    GstMessage *msg;

    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE, "cycle %u", i);
    msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "cycle %u: no EOS", i);
    fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
    gst_message_unref (msg);
    fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
  }

  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Regions of a managed frame nobody else holds are blurred where they
 * are: the very buffer comes back, blurred like the reference; while a
 * reference to the input is kept, a new buffer comes out instead. */
GST_START_TEST (test_roi_in_place)
{
  const gint w = 640, height = 360;
  GstHarness *h = test_harness_new_in ("managed", "NV12", w, height);
  GstCudaBoxBlurInfo info = test_info ("NV12", w, height);
  GstCudaBoxBlurSettings settings;
  guint i;

  gst_cuda_box_blur_settings_init (&settings);
  settings.radius_x = settings.radius_y = 8;
  settings.roi_meta = TRUE;
  test_apply_settings (h->element, &settings);

  for (i = 0; i < 4; i++) {
    GstBuffer *in = test_pool_buffer (h, &info, i), *copy, *out;

    gst_buffer_add_video_region_of_interest_meta (in, "face", 40 + 10 * i,
        30, 90, 110);
    gst_buffer_add_video_region_of_interest_meta (in, "face", 600, 300, 80,
        80);
    copy = gst_buffer_copy_deep (in);
    if (i % 2) {
      out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
      fail_if (out == in, "a frame someone else holds was blurred in place");
      gst_buffer_unref (in);
    } else {
      out = gst_harness_push_and_pull (h, in);
      fail_unless (out == in, "the regions were not blurred in place");
    }
    test_assert_output (copy, out, "NV12", w, height, &settings);
    gst_buffer_unref (out);
    gst_buffer_unref (copy);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_invalid_device_id)
{
  GstElement *pipeline;
  GstMessage *msg;
  GstBus *bus;
  GError *error = NULL;
  gchar *desc;
  gint count = 0;

  fail_unless (cudaGetDeviceCount (&count) == cudaSuccess);
  desc = g_strdup_printf ("videotestsrc ! video/x-raw,format=GRAY8 ! "
      "cudaboxblur device-id=%d ! fakesink", count);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &error, NULL);
  fail_unless (strstr (error->message, "No CUDA device with device-id") !=
      NULL, "%s", error->message);

  g_error_free (error);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* The kernels built with the plugin serve, and the arch property says
 * which. */
GST_START_TEST (test_arch_matches_device)
{
  GstHarness *h = test_harness_new ("GRAY8", 8, 8);
  const GstCudaBoxBlurBuiltIn *images, *image;
  struct cudaDeviceProp props;
  gchar *arch, *expected;
  guint n;

  fail_unless (cudaGetDeviceProperties (&props, 0) == cudaSuccess);
  images = gst_cuda_box_blur_program_built_in (&n);
  image = gst_cuda_box_blur_program_pick (images, n, props.major,
      props.minor);
  fail_unless (image != NULL, "no built-in kernels for sm_%d%d",
      props.major, props.minor);
  expected = image->ptx ?
      g_strdup_printf ("compute_%d (built-in PTX, compiled by the driver)",
      image->arch) : g_strdup_printf ("sm_%d (built in)", image->arch);
  g_object_get (h->element, "arch", &arch, NULL);
  fail_unless_equals_string (arch, expected);

  g_free (arch);
  g_free (expected);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The kernels compiled at run time by NVRTC (from the kernels' own source,
 * named by CUDABOXBLUR_KERNEL_SOURCE) blur as the built-in ones do. */
GST_START_TEST (test_nvrtc_kernels)
{
  const gint w = 323, height = 241, radii[] = { 1, 5, 40 };
  gchar *path = NULL, *arch = NULL;
  gint fd = g_file_open_tmp ("cudaboxblur-XXXXXX.cu", &path, NULL);
  guint f, r;

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, cuda_box_blur_kernel_source, -1,
          NULL));
  g_setenv ("CUDABOXBLUR_KERNEL_SOURCE", path, TRUE);

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = test_harness_new (formats[f], w, height);

    g_free (arch);
    g_object_get (h->element, "arch", &arch, NULL);
    fail_unless (g_str_has_suffix (arch, " (NVRTC)")
        || g_str_has_suffix (arch, " (NVRTC, from the kernel cache)"), "%s",
        arch);
    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      g_object_set (h->element, "radius", radii[r], NULL);
      push_and_check (h, test_buffer_new (NULL, formats[f], w, height, 0, r),
          formats[f], w, height, radii[r]);
    }
    gst_harness_teardown (h);
  }
  g_print ("cudaboxblur-gpu: kernels %s equal the reference\n", arch);

  g_unsetenv ("CUDABOXBLUR_KERNEL_SOURCE");
  g_remove (path);
  g_free (path);
  g_free (arch);
}

GST_END_TEST;

/* The CUDA driver's context calls, from the driver library the CUDA
 * runtime loaded, to give a thread a context of the test's own. */
typedef struct
{
  CUresult (*device_get) (CUdevice * device, int ordinal);
  CUresult (*ctx_create) (CUcontext * context, unsigned int flags,
      CUdevice device);
  CUresult (*ctx_destroy) (CUcontext context);
  CUresult (*ctx_get_current) (CUcontext * context);
} Driver;

/* A thread that is not the element's, the way a neighbour's streaming
 * thread or the application's is: what it has current before each of the
 * element's entry points must be current after it. */
typedef struct
{
  const Driver *driver;
  const gchar *mode;            /* memory-mode */
  GstCudaBoxBlurInfo info;
  GstBuffer *in[2];             /* a frame for each round */
  GstBuffer *out[2];            /* what the element made of it */
  GString *problems;            /* what went wrong, checked by the test */
} Neighbour;

#define NEIGHBOUR_W 64
#define NEIGHBOUR_H 48
#define NEIGHBOUR_RADIUS 2

/* Notes a problem when the thread's current CUDA context is not
 * @expected after @step. */
static void
neighbour_check (Neighbour * n, const gchar * step, CUcontext expected)
{
  CUcontext current = NULL;

  if (n->driver->ctx_get_current (&current) != CUDA_SUCCESS)
    g_string_append_printf (n->problems, "%s: cuCtxGetCurrent failed; ",
        step);
  else if (current != expected)
    g_string_append_printf (n->problems, "%s: context %p is current, not "
        "%p; ", step, (gpointer) current, (gpointer) expected);
}

/* One element's life on this thread, with @expected current throughout:
 * start and caps, the queries, the pool it proposes upstream (buffers
 * allocated and freed here), its allocator, a frame through it and its
 * output pool, set_context, and stop. */
static void
neighbour_round (Neighbour * n, guint round, CUcontext expected)
{
  GstElement *blur = gst_object_ref_sink (gst_element_factory_make
      ("cudaboxblur", NULL));
  GstBufferPool *pool = NULL;
  GstAllocator *allocator = NULL;
  GstBuffer *bufs[3] = { NULL, };
  GstContext *context;
  GstMemory *mem;
  GstHarness *h;
  GstQuery *query;
  GstCaps *caps;
  GstPad *sink;
  guint i;

  gst_util_set_object_arg (G_OBJECT (blur), "memory-mode", n->mode);
  g_object_set (blur, "radius", NEIGHBOUR_RADIUS, NULL);
  h = gst_harness_new_with_element (blur, "sink", "src");
  neighbour_check (n, "start", expected);
  gst_harness_set_src_caps (h, test_caps_new ("GRAY8", NEIGHBOUR_W,
          NEIGHBOUR_H));
  neighbour_check (n, "caps", expected);

  sink = gst_element_get_static_pad (blur, "sink");
  caps = gst_pad_get_current_caps (sink);
  query = gst_query_new_caps (NULL);
  gst_pad_query (sink, query);
  gst_query_unref (query);
  neighbour_check (n, "caps query", expected);
  query = gst_query_new_context ("gst.cuda.context");
  gst_pad_query (sink, query);
  gst_query_unref (query);
  neighbour_check (n, "context query", expected);
  query = gst_query_new_allocation (caps, TRUE);
  if (gst_pad_query (sink, query)
      && gst_query_get_n_allocation_pools (query) > 0
      && gst_query_get_n_allocation_params (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
    gst_query_parse_nth_allocation_param (query, 0, &allocator, NULL);
  }
  gst_query_unref (query);
  neighbour_check (n, "allocation query", expected);

  if (pool && allocator) {
    /* the pool starts empty: each buffer is allocated here */
    gst_buffer_pool_set_active (pool, TRUE);
    neighbour_check (n, "pool activation", expected);
    for (i = 0; i < G_N_ELEMENTS (bufs); i++)
      if (gst_buffer_pool_acquire_buffer (pool, &bufs[i], NULL) !=
          GST_FLOW_OK)
        g_string_append (n->problems, "no buffer from the pool; ");
    neighbour_check (n, "buffers from the pool", expected);
    for (i = 0; i < G_N_ELEMENTS (bufs); i++)
      gst_clear_buffer (&bufs[i]);
    neighbour_check (n, "buffers back to the pool", expected);
    /* and freed here */
    gst_buffer_pool_set_active (pool, FALSE);
    neighbour_check (n, "pool deactivation", expected);

    mem = gst_allocator_alloc (allocator, n->info.size, NULL);
    if (!mem)
      g_string_append (n->problems, "no memory from the allocator; ");
    neighbour_check (n, "allocation", expected);
    if (mem)
      gst_memory_unref (mem);
    neighbour_check (n, "free", expected);
  } else {
    g_string_append (n->problems, "no pool or allocator proposed; ");
  }
  gst_clear_object (&pool);
  gst_clear_object (&allocator);

  /* the streaming thread's work, and the element's output pool */
  n->out[round] = gst_harness_push_and_pull (h, gst_buffer_ref (n->in[round]));
  if (!n->out[round])
    g_string_append (n->problems, "no frame out; ");
  neighbour_check (n, "a frame through", expected);

  context = gst_context_new ("cudaboxblur.test", FALSE);
  gst_element_set_context (blur, context);
  gst_context_unref (context);
  neighbour_check (n, "set_context", expected);

  gst_caps_unref (caps);
  gst_object_unref (sink);
  gst_harness_teardown (h);
  neighbour_check (n, "stop", expected);
  gst_object_unref (blur);
}

/* Round 0 with no context current, as on a fresh thread; round 1 with a
 * context of the thread's own on the same GPU, as another element's or
 * library's would be. */
static gpointer
neighbour_thread (gpointer data)
{
  Neighbour *n = data;
  CUcontext own = NULL;
  CUdevice device;

  neighbour_check (n, "a new thread", NULL);
  neighbour_round (n, 0, NULL);
  if (n->driver->device_get (&device, 0) != CUDA_SUCCESS
      || n->driver->ctx_create (&own, 0, device) != CUDA_SUCCESS) {
    g_string_append (n->problems, "cannot make a CUDA context; ");
    return NULL;
  }
  neighbour_check (n, "a context of its own", own);
  neighbour_round (n, 1, own);
  n->driver->ctx_destroy (own);
  return NULL;
}

/* Whatever thread calls into the element, its allocator or its pools
 * finds its own CUDA context current afterwards, or none if it had none:
 * the element pushes its context and pops it, in managed and in pinned
 * memory. */
GST_START_TEST (test_thread_keeps_its_context)
{
  static const gchar *const modes[] = { "managed", "pinned" };
  void *lib = dlopen ("libcuda.so.1", RTLD_LAZY);
  Driver driver;
  guint m, r;

  fail_unless (lib != NULL, "cannot load the CUDA driver library");
  driver.device_get = dlsym (lib, "cuDeviceGet");
  driver.ctx_create = dlsym (lib, "cuCtxCreate_v2");
  driver.ctx_destroy = dlsym (lib, "cuCtxDestroy_v2");
  driver.ctx_get_current = dlsym (lib, "cuCtxGetCurrent");
  fail_unless (driver.device_get && driver.ctx_create && driver.ctx_destroy
      && driver.ctx_get_current);

  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    Neighbour n = { &driver, modes[m], };
    GThread *thread;

    n.info = test_info ("GRAY8", NEIGHBOUR_W, NEIGHBOUR_H);
    n.problems = g_string_new (NULL);
    for (r = 0; r < 2; r++)
      n.in[r] = test_buffer_new (NULL, "GRAY8", NEIGHBOUR_W, NEIGHBOUR_H, 0,
          m * 2 + r);
    thread = g_thread_new ("neighbour", neighbour_thread, &n);
    g_thread_join (thread);

    fail_unless (n.problems->len == 0, "memory-mode=%s: %s", modes[m],
        n.problems->str);
    for (r = 0; r < 2; r++) {
      test_assert_blurred (n.in[r], n.out[r], "GRAY8", NEIGHBOUR_W,
          NEIGHBOUR_H, NEIGHBOUR_RADIUS, NEIGHBOUR_RADIUS);
      gst_buffer_unref (n.in[r]);
      gst_buffer_unref (n.out[r]);
    }
    g_string_free (n.problems, TRUE);
  }
  dlclose (lib);
}

GST_END_TEST;

static Suite *
cudaboxblur_gpu_suite (void)
{
  Suite *s = suite_create ("cudaboxblur-gpu");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_1x1);
  tcase_add_test (tc, test_3x2);
  tcase_add_test (tc, test_17x13);
  tcase_add_test (tc, test_256x256);
  tcase_add_test (tc, test_1920x1080);
  tcase_add_test (tc, test_4097x7);
  tcase_add_test (tc, test_large_and_asymmetric_radii);
  tcase_add_test (tc, test_radius_change_while_playing);
  tcase_add_test (tc, test_negotiation_with_appsrc);
  tcase_add_test (tc, test_two_elements_in_one_pipeline);
  tcase_add_test (tc, test_1000_frames_no_memory_growth);
  tcase_add_test (tc, test_50_state_cycles);
  tcase_add_test (tc, test_roi_in_place);
  tcase_add_test (tc, test_invalid_device_id);
  tcase_add_test (tc, test_arch_matches_device);
  tcase_add_test (tc, test_nvrtc_kernels);
  tcase_add_test (tc, test_thread_keeps_its_context);
  return s;
}

TEST_GPU_CHECK_MAIN ("cudaboxblur-gpu", cudaboxblur_gpu_suite, NULL);
