/* cudaboxblur: frames in GStreamer's CUDA memory, with its CUDA elements
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Built only with gstreamer-cuda-1.0.  Exits with 77 (skipped) and says why
 * when there is no usable GPU or an element the tests need is missing
 * (nvcodec's cudaupload, cudadownload and nvh264dec; x264enc, h264parse,
 * mp4mux and qtdemux to make and read a clip).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/base/gstbasetransform.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <dlfcn.h>
#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

#include "testutils.h"

static const gchar *const needed[] = { "cudaupload", "cudadownload",
  "nvh264dec", "x264enc", "h264parse", "mp4mux", "qtdemux"
};


/* Two face-sized regions of interest, one of them over the frame's edge. */
static const GstVideoRectangle roi_metas[] = { {40, 30, 90, 110},
{300, 200, 120, 120}
};

static void
add_roi_metas (GstBuffer * buf)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (roi_metas); i++)
    gst_buffer_add_video_region_of_interest_meta (buf, "face",
        roi_metas[i].x, roi_metas[i].y, roi_metas[i].w, roi_metas[i].h);
#ifdef HAVE_GST_ANALYTICS
  /* and as a detector of 1.24+ attaches them: the regions are those of the
   * region metas, as the element takes a detection attached both ways
   * once */
  {
    GstAnalyticsRelationMeta *meta =
        gst_buffer_add_analytics_relation_meta (buf);
    GstAnalyticsODMtd od;

    for (i = 0; i < G_N_ELEMENTS (roi_metas); i++)
      gst_analytics_relation_meta_add_od_mtd (meta,
          g_quark_from_static_string ("face"), roi_metas[i].x,
          roi_metas[i].y, roi_metas[i].w, roi_metas[i].h, -1, &od);
  }
#endif
}

/* cudaupload drops the region metas (they carry video tags): put them
 * back on the CUDA buffer cudaboxblur receives. */
static GstPadProbeReturn
add_roi_metas_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));

  add_roi_metas (buf);
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

static void
settings_case (guint i, GstCudaBoxBlurSettings * s)
{
  gst_cuda_box_blur_settings_init (s);
  switch (i) {
    case 0:
      break;
    case 1:
      s->radius_x = s->radius_y = 8;
      break;
    case 2:
      s->radius_x = s->radius_y = 63;
      break;
    case 3:
      s->radius_x = s->radius_y = 8;
      s->passes = 3;
      break;
    case 4:
      s->radius_x = s->radius_y = 5;
      s->border = GST_CUDA_BOX_BLUR_BORDER_MIRROR;
      break;
    case 5:
      s->radius_x = s->radius_y = 8;
      s->roi.x = 101;
      s->roi.y = 50;
      s->roi.w = 150;
      s->roi.h = 100;
      break;
    case 6:
      s->radius_x = s->radius_y = 8;
      s->passes = 2;
      s->roi_meta = TRUE;
      s->roi_padding = 4;
      break;
  }
}

#define N_SETTINGS 7

static GstElement *
harness_element (GstHarness * h, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (h->element), name);

  fail_unless (e != NULL, "no %s", name);
  return e;
}

/* TRUE when @pad of @element negotiated CUDA memory. */
static gboolean
pad_caps_are_cuda (GstElement * element, const gchar * pad_name)
{
  GstPad *pad = gst_element_get_static_pad (element, pad_name);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean cuda;

  fail_unless (caps != NULL);
  cuda = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return cuda;
}

/* The size of a frame of @format that GStreamer's CUDA memory carries
 * whole, nearest 385x289.  Its uploads and downloads move COMP_WIDTH x
 * PSTRIDE of component 0 bytes of each row (1.22 to 1.24): of packed 4:2:2
 * of an odd width, that leaves the last two bytes of the row behind, the
 * last pair's V among them, which cudaupload then never carries to the
 * GPU.  1.26.2's cudaupload fails to copy the VU plane of an NV21 frame in
 * system memory of an odd width or height (CUDA_ERROR_INVALID_VALUE,
 * "Failed to copy plane 1"). */
static void
cuda_carried_size (const gchar * format, gint * width, gint * height)
{
  const GstVideoFormatInfo *finfo =
      gst_video_format_get_info (gst_video_format_from_string (format));
  guint major, minor, micro, nano;

  gst_version (&major, &minor, &micro, &nano);
  *width = 385;
  *height = 289;
  if (GST_VIDEO_FORMAT_INFO_N_PLANES (finfo) == 1
      && GST_VIDEO_FORMAT_INFO_W_SUB (finfo, 1) > 0)
    *width &= ~1;
  if (GST_VIDEO_FORMAT_INFO_FORMAT (finfo) == GST_VIDEO_FORMAT_NV21
      && major == 1 && minor >= 26) {
    *width &= ~1;
    *height &= ~1;
  }
}

/* TRUE when cudaupload ! cudadownload alone gives a frame for @in. */
static gboolean
cuda_round_trips (GstBuffer * in, const gchar * format, gint width,
    gint height)
{
  GstHarness *h = gst_harness_new_parse ("cudaupload ! cudadownload");
  GstBuffer *out;

  gst_harness_set_src_caps (h, test_caps_new (format, width, height));
  gst_harness_set_sink_caps (h, test_caps_new (format, width, height));
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  gst_harness_teardown (h);
  if (out == NULL)
    return FALSE;
  gst_buffer_unref (out);
  return TRUE;
}

/* cudaupload ! cudaboxblur ! cudadownload for every format cudaupload
 * takes, against the CPU reference, with every setting.  A format whose
 * frame GStreamer's upload and download lose without the element as well
 * is named and left out; one that only the element loses fails the test. */
GST_START_TEST (test_cudaupload_chain)
{
  GString *lost = g_string_new (NULL);
  guint major, minor, micro, nano, f, i;

  gst_version (&major, &minor, &micro, &nano);
  for (f = 0; f < test_n_cuda_formats; f++) {
    const gchar *format = test_cuda_formats[f];
    GstHarness *h = gst_harness_new_parse ("cudaupload ! cudaboxblur "
        "name=blur ! cudadownload");
    GstElement *blur = harness_element (h, "blur");
    GstPad *blur_sink = gst_element_get_static_pad (blur, "sink");
    gint w, height;

    cuda_carried_size (format, &w, &height);
    gst_pad_add_probe (blur_sink, GST_PAD_PROBE_TYPE_BUFFER,
        add_roi_metas_probe, NULL, NULL);
    gst_harness_set_src_caps (h, test_caps_new (format, w, height));
    gst_harness_set_sink_caps (h, test_caps_new (format, w, height));

    for (i = 0; i < N_SETTINGS; i++) {
      GstCudaBoxBlurSettings settings;
      GstBuffer *in, *out;

      settings_case (i, &settings);
      test_apply_settings (blur, &settings);
      GST_INFO ("%s setting %u", format, i);

      in = test_buffer_new (NULL, format, w, height, 0, f * 10 + i);
      out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
      if (out == NULL) {
        /* the other formats still run, so that one run names them all */
        if (cuda_round_trips (in, format, w, height))
          g_string_append_printf (lost, " %s %dx%d", format, w, height);
        else
          g_print ("GStreamer %u.%u.%u: cudaupload ! cudadownload loses a "
              "%s frame of %dx%d; left out\n", major, minor, micro, format,
              w, height);
        gst_buffer_unref (in);
        break;
      }
      fail_unless (pad_caps_are_cuda (blur, "sink"), "%s", format);
      fail_unless (pad_caps_are_cuda (blur, "src"), "%s", format);

      add_roi_metas (in);
      test_assert_output (in, out, format, w, height, &settings);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
    gst_object_unref (blur_sink);
    gst_object_unref (blur);
    gst_harness_teardown (h);
  }
  fail_unless (lost->len == 0, "the element gave no output for:%s",
      lost->str);
  g_string_free (lost, TRUE);
}

GST_END_TEST;

/* TRUE when this process holds the primary CUDA context of device 0.  It
 * never should: GStreamer's CUDA elements make contexts of their own
 * (GstCudaContext), and cudaboxblur works in theirs, so a primary context
 * would be a second context on the device, made by the CUDA runtime
 * behind the element's back. */
static gboolean
primary_context_active (void)
{
  CUresult (*device_get) (CUdevice * device, int ordinal);
  CUresult (*get_state) (CUdevice device, unsigned int *flags, int *active);
  void *driver = dlopen ("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  unsigned int flags = 0;
  CUdevice device;
  int active = 0;

  fail_unless (driver != NULL, "the CUDA driver library is not loaded");
  device_get = dlsym (driver, "cuDeviceGet");
  get_state = dlsym (driver, "cuDevicePrimaryCtxGetState");
  fail_unless (device_get && get_state);
  fail_unless (device_get (&device, 0) == CUDA_SUCCESS);
  fail_unless (get_state (device, &flags, &active) == CUDA_SUCCESS);
  dlclose (driver);
  return active != 0;
}

/* The CUDA context @element answers a context query on its pad @pad_name
 * with. */
static GstCudaContext *
element_context (GstElement * element, const gchar * pad_name)
{
  GstPad *pad = gst_element_get_static_pad (element, pad_name);
  GstQuery *query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstCudaContext *cuda_context = NULL;
  GstContext *context = NULL;

  fail_unless (gst_pad_query (pad, query), "%s has no CUDA context",
      GST_ELEMENT_NAME (element));
  gst_query_parse_context (query, &context);
  fail_unless (context != NULL);
  fail_unless (gst_structure_get (gst_context_get_structure (context),
          GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &cuda_context,
          NULL));
  gst_query_unref (query);
  gst_object_unref (pad);
  return cuda_context;
}

/* Plays @desc to EOS and leaves it there, started. */
static GstElement *
play_to_eos (const gchar * desc)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstMessage *msg;

  fail_unless (pipeline != NULL, "%s", desc);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s", desc);
  gst_message_unref (msg);
  return pipeline;
}

static void
stop (GstElement * pipeline)
{
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

/* Encodes a short clip with x264enc into @path. */
static void
make_clip (const gchar * path, gint w, gint height, gint frames)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%d pattern=ball "
      "! video/x-raw,format=I420,width=%d,height=%d,framerate=30/1 ! "
      "x264enc speed-preset=ultrafast ! h264parse ! mp4mux ! filesink "
      "location=\"%s\"", frames, w, height, path);

  stop (play_to_eos (desc));
  g_free (desc);
}

/* What crosses cudaboxblur's pads, counted in the streaming thread and
 * checked in the test's. */
typedef struct
{
  GstCudaContext *in_context;   /* of the first buffer cudaboxblur receives */
  GstCudaContext *out_context;  /* of the first buffer it pushes */
  guint not_cuda;               /* buffers not in CUDA memory */
  guint other_context;          /* buffers of another context than the
                                 * first's */
  guint device_written;         /* output buffers written with GST_MAP_CUDA
                                 * and never on the host */
  guint frames;                 /* output buffers */
} ContextProbe;

static GstPadProbeReturn
context_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  ContextProbe *probe = data;
  GstMemory *mem = gst_buffer_peek_memory (GST_PAD_PROBE_INFO_BUFFER (info),
      0);
  gboolean sink = GST_PAD_DIRECTION (pad) == GST_PAD_SINK;
  GstCudaContext **context = sink ? &probe->in_context : &probe->out_context;

  if (!sink)
    probe->frames++;
  if (!gst_is_cuda_memory (mem)) {
    probe->not_cuda++;
    return GST_PAD_PROBE_OK;
  }
  if (*context == NULL)
    *context = gst_object_ref (GST_CUDA_MEMORY_CAST (mem)->context);
  if (*context != GST_CUDA_MEMORY_CAST (mem)->context)
    probe->other_context++;
  if (!sink && GST_MEMORY_FLAG_IS_SET (mem,
          GST_CUDA_MEMORY_TRANSFER_NEED_DOWNLOAD)
      && !GST_MEMORY_FLAG_IS_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_UPLOAD))
    probe->device_written++;
  return GST_PAD_PROBE_OK;
}

static gboolean
collect_frame (GstElement * sink, GPtrArray * frames)
{
  GstSample *sample = NULL;

  g_signal_emit_by_name (sink, "pull-sample", &sample);
  if (!sample)
    return FALSE;
  g_ptr_array_add (frames, gst_buffer_ref (gst_sample_get_buffer (sample)));
  gst_sample_unref (sample);
  return TRUE;
}

/* Decodes @path through @middle into system memory and returns every
 * frame. */
static GPtrArray *
decode (const gchar * path, const gchar * middle, ContextProbe * probe)
{
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! "
      "h264parse ! nvh264dec name=dec ! %s ! cudadownload ! "
      "video/x-raw,format=NV12 ! appsink name=sink sync=false", path,
      middle);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstElement *blur = gst_bin_get_by_name (GST_BIN (pipeline), "blur");
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GstMessage *error;

  fail_unless (pipeline != NULL, "%s", desc);
  if (blur && probe) {
    GstPad *in = gst_element_get_static_pad (blur, "sink");
    GstPad *out = gst_element_get_static_pad (blur, "src");

    gst_pad_add_probe (in, GST_PAD_PROBE_TYPE_BUFFER, context_probe, probe,
        NULL);
    gst_pad_add_probe (out, GST_PAD_PROBE_TYPE_BUFFER, context_probe, probe,
        NULL);
    gst_object_unref (in);
    gst_object_unref (out);
  }

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while (collect_frame (sink, frames))
    continue;
  error = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_MESSAGE_ERROR);
  fail_unless (error == NULL, "%s failed", desc);

  if (blur) {
    GstElement *dec = gst_bin_get_by_name (GST_BIN (pipeline), "dec");
    /* cudaboxblur answers with the context it runs in */
    GstCudaContext *blur_context = element_context (blur, "sink");
    GstCudaContext *dec_context = element_context (dec, "src");

    fail_unless (pad_caps_are_cuda (blur, "sink"));
    fail_unless (pad_caps_are_cuda (blur, "src"));
    fail_unless (blur_context == dec_context,
        "cudaboxblur does not share nvh264dec's CUDA context");
    if (probe) {
      fail_unless (probe->in_context == blur_context);
      fail_unless (probe->out_context == blur_context);
    }
    gst_object_unref (blur_context);
    gst_object_unref (dec_context);
    gst_object_unref (dec);
    gst_object_unref (blur);
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
  return frames;
}

/* A real decode: nvh264dec into CUDA memory, blurred there; every frame
 * against the reference blur of the same decoded frame. */
GST_START_TEST (test_decode_blur_download)
{
  const gint w = 640, height = 360, n = 30;
  gchar *dir = g_dir_make_tmp ("cudaboxblur-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "clip.mp4", NULL);
  ContextProbe probe = { NULL, };
  GstCudaBoxBlurSettings settings;
  GPtrArray *decoded, *blurred;
  guint i;

  make_clip (path, w, height, n);
  decoded = decode (path, "identity", NULL);
  blurred = decode (path, "cudaboxblur name=blur radius=8", &probe);

  fail_unless_equals_int (decoded->len, n);
  fail_unless_equals_int (blurred->len, n);
  fail_unless_equals_int (probe.frames, n);
  fail_unless_equals_int (probe.not_cuda, 0);
  fail_unless_equals_int (probe.other_context, 0);
  fail_unless_equals_int (probe.device_written, n);
  fail_if (primary_context_active (), "a second CUDA context was made: the "
      "device's primary one");

  gst_cuda_box_blur_settings_init (&settings);
  settings.radius_x = settings.radius_y = 8;
  for (i = 0; i < decoded->len; i++)
    test_assert_output (g_ptr_array_index (decoded, i),
        g_ptr_array_index (blurred, i), "NV12", w, height, &settings);

  gst_clear_object (&probe.in_context);
  gst_clear_object (&probe.out_context);
  g_ptr_array_unref (decoded);
  g_ptr_array_unref (blurred);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* In system memory too the element works in a GstCudaContext: made by the
 * first CUDA element to start (here cudaboxblur, which starts before the
 * CUDA elements upstream of it) and shared by the others, and by the
 * cudaboxblur of another pipeline of the process, with no primary context
 * beside it. */
GST_START_TEST (test_one_context_in_system_memory)
{
  GstElement *first = play_to_eos ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=NV12,width=320,height=240 ! cudaupload name=up ! "
      "cudadownload ! video/x-raw ! cudaboxblur name=blur radius=3 ! "
      "fakesink");
  GstElement *second = play_to_eos ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! cudaboxblur name=blur "
      "! fakesink");
  GstElement *up = gst_bin_get_by_name (GST_BIN (first), "up");
  GstElement *blur = gst_bin_get_by_name (GST_BIN (first), "blur");
  GstElement *other = gst_bin_get_by_name (GST_BIN (second), "blur");
  GstCudaContext *blur_context, *up_context, *other_context;

  fail_if (pad_caps_are_cuda (blur, "sink"));
  blur_context = element_context (blur, "sink");
  up_context = element_context (up, "src");
  other_context = element_context (other, "sink");
  fail_unless (blur_context == up_context, "cudaupload and cudaboxblur "
      "work in two CUDA contexts");
  fail_unless (other_context == blur_context, "two pipelines of the "
      "process work in two CUDA contexts");
  fail_if (primary_context_active (), "a second CUDA context was made: the "
      "device's primary one");

  gst_object_unref (blur_context);
  gst_object_unref (up_context);
  gst_object_unref (other_context);
  gst_object_unref (up);
  gst_object_unref (blur);
  gst_object_unref (other);
  stop (first);
  stop (second);
}

GST_END_TEST;

/* The GstMemory of each buffer that crosses a pad, in order. */
static GstPadProbeReturn
memory_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  g_ptr_array_add (data, gst_buffer_peek_memory (GST_PAD_PROBE_INFO_BUFFER
          (info), 0));
  return GST_PAD_PROBE_OK;
}

/* ROI metas on CUDA buffers nobody else holds: the regions are blurred
 * where they are, in the buffer that came in, and match the reference. */
GST_START_TEST (test_roi_in_place)
{
  const gint w = 640, height = 360, n = 6;
  GstHarness *h = gst_harness_new_parse ("cudaupload ! cudaboxblur "
      "name=blur roi-meta=true radius=8 ! cudadownload");
  GstElement *blur = harness_element (h, "blur");
  GstPad *blur_sink = gst_element_get_static_pad (blur, "sink");
  GstPad *blur_src = gst_element_get_static_pad (blur, "src");
  GPtrArray *ins = g_ptr_array_new (), *outs = g_ptr_array_new ();
  GstCudaBoxBlurSettings settings;
  gint i;

  gst_pad_add_probe (blur_sink, GST_PAD_PROBE_TYPE_BUFFER,
      add_roi_metas_probe, NULL, NULL);
  gst_pad_add_probe (blur_sink, GST_PAD_PROBE_TYPE_BUFFER, memory_probe, ins,
      NULL);
  gst_pad_add_probe (blur_src, GST_PAD_PROBE_TYPE_BUFFER, memory_probe, outs,
      NULL);
  gst_harness_set_src_caps (h, test_caps_new ("I420", w, height));
  gst_harness_set_sink_caps (h, test_caps_new ("I420", w, height));
  gst_cuda_box_blur_settings_init (&settings);
  settings.radius_x = settings.radius_y = 8;
  settings.roi_meta = TRUE;

  for (i = 0; i < n; i++) {
    GstBuffer *in = test_buffer_new (NULL, "I420", w, height, 0, i);
    GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));

    fail_unless (out != NULL);
    add_roi_metas (in);
    test_assert_output (in, out, "I420", w, height, &settings);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (ins->len, n);
  fail_unless_equals_int (outs->len, n);
  for (i = 0; i < n; i++)
    fail_unless (g_ptr_array_index (ins, i) == g_ptr_array_index (outs, i),
        "frame %d was not blurred in place", i);

  g_ptr_array_unref (ins);
  g_ptr_array_unref (outs);
  gst_object_unref (blur_sink);
  gst_object_unref (blur_src);
  gst_object_unref (blur);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Radius 0 on CUDA memory: the very buffer goes through, no GPU work. */
GST_START_TEST (test_passthrough)
{
  GstHarness *h = gst_harness_new_parse ("cudaupload ! cudaboxblur "
      "name=blur radius=0 ! identity name=after");
  GstElement *blur = harness_element (h, "blur");
  GstElement *after = harness_element (h, "after");
  GstPad *pad = gst_element_get_static_pad (after, "sink");
  ContextProbe probe = { NULL, };
  GstBuffer *out;

  gst_harness_set_src_caps (h, test_caps_new ("NV12", 64, 48));
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, context_probe, &probe,
      NULL);
  out = gst_harness_push_and_pull (h, test_buffer_new (NULL, "NV12", 64, 48,
          0, 1));
  fail_unless (out != NULL);
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
          (blur)));
  fail_unless_equals_int (probe.not_cuda, 0);
  gst_buffer_unref (out);
  gst_clear_object (&probe.in_context);
  gst_clear_object (&probe.out_context);
  gst_object_unref (pad);
  gst_object_unref (after);
  gst_object_unref (blur);
  gst_harness_teardown (h);
}

GST_END_TEST;

static guint
count_roi_metas (GstBuffer * buf)
{
  gpointer state = NULL;
  guint n = 0;

  while (gst_buffer_iterate_meta_filtered (buf, &state,
          GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))
    n++;
  return n;
}

static GstCaps *
cuda_caps_new (const gchar * format, gint w, gint height)
{
  GstCaps *caps = test_caps_new (format, w, height);

  gst_caps_set_features (caps, 0,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  return caps;
}

/* Where region metas are lost on their way to the GPU: GStreamer 1.22's
 * cudaupload and cudadownload keep only metas without tags
 * (GstBaseTransform's default), and region metas carry video tags.  Each
 * gets the metas on its own input, in the memory it copies from; the suite
 * prints what the installed version keeps. */
GST_START_TEST (test_cuda_elements_drop_region_metas)
{
  static const gchar *const chains[] = { "cudaupload",
    "cudaupload ! video/x-raw(memory:CUDAMemory) ! cudadownload name=down"
  };
  guint i, major, minor, micro, nano;

  gst_version (&major, &minor, &micro, &nano);
  for (i = 0; i < G_N_ELEMENTS (chains); i++) {
    GstHarness *h = gst_harness_new_parse (chains[i]);
    GstBuffer *in = test_buffer_new (NULL, "NV12", 64, 48, 0, i), *out;
    guint kept;

    gst_harness_set_src_caps (h, test_caps_new ("NV12", 64, 48));
    if (i == 0) {
      gst_harness_set_sink_caps (h, cuda_caps_new ("NV12", 64, 48));
      add_roi_metas (in);
    } else {
      GstElement *down = harness_element (h, "down");
      GstPad *pad = gst_element_get_static_pad (down, "sink");

      gst_harness_set_sink_caps (h, test_caps_new ("NV12", 64, 48));
      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, add_roi_metas_probe,
          NULL, NULL);
      gst_object_unref (pad);
      gst_object_unref (down);
    }
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL);
    kept = count_roi_metas (out);
    g_print ("GStreamer %u.%u.%u: %s keeps %u of %u region metas\n", major,
        minor, micro, i == 0 ? "cudaupload" : "cudadownload", kept,
        (guint) G_N_ELEMENTS (roi_metas));
#ifdef HAVE_GST_ANALYTICS
    g_print ("GStreamer %u.%u.%u: %s keeps %u of 1 analytics meta\n", major,
        minor, micro, i == 0 ? "cudaupload" : "cudadownload",
        gst_buffer_get_n_meta (out, GST_ANALYTICS_RELATION_META_API_TYPE));
#endif
    if (major == 1 && minor <= 22)
      fail_unless_equals_int (kept, 0);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* What leaves cudaboxblur, counted in the streaming thread. */
typedef struct
{
  guint frames;
  guint cuda;                   /* buffers in CUDA memory */
  guint metas;                  /* region metas on the last buffer */
} OutProbe;

static GstPadProbeReturn
out_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  OutProbe *probe = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  probe->frames++;
  probe->cuda += gst_is_cuda_memory (gst_buffer_peek_memory (buf, 0));
  probe->metas = count_roi_metas (buf);
  return GST_PAD_PROBE_OK;
}

/* The element is where frames cross between the memories, their region
 * metas with them: system memory in and CUDA memory out (read back through
 * cudadownload: 1.22's own mapping of I420 CUDA memory of an odd height
 * leaves the right part of V's rows out), and CUDA memory in and system
 * memory out.  Every frame against the reference, frames with no region
 * (copied into the other memory) and radius 0 (no passthrough across
 * memories) too. */
GST_START_TEST (test_memory_boundary)
{
  static const gchar *const formats[] = { "NV12", "RGBA", "I420" };
  const gint w = 321, height = 243;
  guint direction, f, i;

  for (direction = 0; direction < 2; direction++) {
    const gboolean to_cuda = direction == 0;

    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstHarness *h = gst_harness_new_parse (to_cuda ?
          "cudaboxblur name=blur ! video/x-raw(memory:CUDAMemory) ! "
          "cudadownload" :
          "cudaupload ! video/x-raw(memory:CUDAMemory) ! "
          "cudaboxblur name=blur");
      GstElement *blur = harness_element (h, "blur");
      GstPad *blur_sink = gst_element_get_static_pad (blur, "sink");
      GstPad *blur_src = gst_element_get_static_pad (blur, "src");
      OutProbe probe = { 0, };

      gst_harness_set_src_caps (h, test_caps_new (formats[f], w, height));
      gst_harness_set_sink_caps (h, test_caps_new (formats[f], w, height));
      gst_pad_add_probe (blur_src, GST_PAD_PROBE_TYPE_BUFFER, out_probe,
          &probe, NULL);
      /* cudaupload lost them: put them back past it */
      if (!to_cuda)
        gst_pad_add_probe (blur_sink, GST_PAD_PROBE_TYPE_BUFFER,
            add_roi_metas_probe, NULL, NULL);

      for (i = 0; i < 4; i++) {
        GstCudaBoxBlurSettings settings;
        GstBuffer *in, *out;

        gst_cuda_box_blur_settings_init (&settings);
        settings.roi_meta = i != 2 && i != 3;
        settings.radius_x = settings.radius_y = i == 3 ? 0 : 8;
        if (i == 1)
          settings.mode = GST_CUDA_BOX_BLUR_MODE_PIXELATE;
        test_apply_settings (blur, &settings);

        in = test_buffer_new (NULL, formats[f], w, height, 0, f * 10 + i);
        if (to_cuda && i != 2)
          add_roi_metas (in);
        out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
        fail_unless (out != NULL, "%s case %u: no output", formats[f], i);
        fail_unless (pad_caps_are_cuda (blur, "sink") == !to_cuda);
        fail_unless (pad_caps_are_cuda (blur, "src") == to_cuda);
        /* nothing to blur, and still no passthrough across memories */
        fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
                (blur)), "%s case %u: passthrough", formats[f], i);
        fail_unless_equals_int (probe.frames, i + 1);
        fail_unless_equals_int (probe.cuda, to_cuda ? i + 1 : 0);
        fail_unless_equals_int (probe.metas,
            i == 2 && to_cuda ? 0 : G_N_ELEMENTS (roi_metas));
        if (!to_cuda && i != 2)
          add_roi_metas (in);
        test_assert_output (in, out, formats[f], w, height, &settings);
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
      gst_object_unref (blur_sink);
      gst_object_unref (blur_src);
      gst_object_unref (blur);
      gst_harness_teardown (h);
    }
  }

  /* what did not link before: system memory through the element into
   * cudadownload */
  stop (play_to_eos ("videotestsrc num-buffers=3 ! video/x-raw,format=NV12,"
          "width=64,height=48 ! cudaboxblur radius=4 ! "
          "video/x-raw(memory:CUDAMemory) ! cudadownload ! fakesink"));
}

GST_END_TEST;

static Suite *
cudaboxblur_cuda_suite (void)
{
  Suite *s = suite_create ("cudaboxblur-cuda");
  TCase *tc = tcase_create ("cuda-memory");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cudaupload_chain);
  tcase_add_test (tc, test_decode_blur_download);
  tcase_add_test (tc, test_one_context_in_system_memory);
  tcase_add_test (tc, test_roi_in_place);
  tcase_add_test (tc, test_passthrough);
  tcase_add_test (tc, test_cuda_elements_drop_region_metas);
  tcase_add_test (tc, test_memory_boundary);
  return s;
}

static const TestGpuNeeds needs = {
  .elements = needed,
  .n_elements = G_N_ELEMENTS (needed),
};

TEST_GPU_CHECK_MAIN ("cudaboxblur-cuda", cudaboxblur_cuda_suite, &needs);
