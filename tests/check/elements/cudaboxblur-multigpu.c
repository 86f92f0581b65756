/* cudaboxblur: two elements on two GPUs at once
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Needs two CUDA devices: exits with 77 (skipped) and says why on fewer.
 * With gstreamer-cuda-1.0 the frames go through each device's CUDA memory
 * (cudaupload cuda-device-id=N ! cudaboxblur device-id=N ! cudadownload),
 * otherwise through system memory.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <string.h>

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#endif

#include "testutils.h"

#define FRAMES 60
#define WIDTH 1280
#define HEIGHT 720

typedef struct
{
  gint device;
  GPtrArray *in, *out;
  gint wrong_device;            /* output buffers of another device */
  gchar *error;                 /* why a frame was refused, or NULL */
} Run;

#ifdef HAVE_GST_CUDA
static GstPadProbeReturn
device_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Run *run = data;
  GstMemory *mem = gst_buffer_peek_memory (GST_PAD_PROBE_INFO_BUFFER (info),
      0);
  guint device = G_MAXUINT;

  if (gst_is_cuda_memory (mem))
    g_object_get (GST_CUDA_MEMORY_CAST (mem)->context, "cuda-device-id",
        &device, NULL);
  if (device != (guint) run->device)
    g_atomic_int_inc (&run->wrong_device);
  return GST_PAD_PROBE_OK;
}
#endif

/* FRAMES NV12 frames through an element on device @run->device. */
static gpointer
run_device (gpointer data)
{
  Run *run = data;
#ifdef HAVE_GST_CUDA
  gchar *desc = g_strdup_printf ("cudaupload cuda-device-id=%d ! cudaboxblur "
      "name=blur device-id=%d radius=8 ! cudadownload", run->device,
      run->device);
#else
  gchar *desc = g_strdup_printf ("cudaboxblur name=blur device-id=%d "
      "radius=8", run->device);
#endif
  /* the bin's messages go to a bus of the test's, set before the harness
   * starts the bin, so that a refused frame is said at once with the
   * element's error rather than waited for: this thread keeps the error
   * for the test's own thread to fail on */
  GstElement *bin = gst_parse_bin_from_description (desc, TRUE, NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  gint i;

  g_assert (bin != NULL);
  gst_element_set_bus (bin, bus);
  h = gst_harness_new_with_element (bin, "sink", "src");
  gst_object_unref (bin);

#ifdef HAVE_GST_CUDA
  {
    GstElement *blur = gst_bin_get_by_name (GST_BIN (h->element), "blur");
    GstPad *pad = gst_element_get_static_pad (blur, "src");

    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, device_probe, run,
        NULL);
    gst_object_unref (pad);
    gst_object_unref (blur);
  }
#endif
  gst_harness_set_src_caps (h, test_caps_new ("NV12", WIDTH, HEIGHT));
  gst_harness_set_sink_caps (h, test_caps_new ("NV12", WIDTH, HEIGHT));
  for (i = 0; i < FRAMES && !run->error; i++) {
    GstBuffer *in = test_buffer_new (NULL, "NV12", WIDTH, HEIGHT, 0,
        run->device * 1000 + i);
    GstFlowReturn flow;

    g_ptr_array_add (run->in, in);
    flow = gst_harness_push (h, gst_buffer_ref (in));
    if (flow == GST_FLOW_OK) {
      g_ptr_array_add (run->out, gst_harness_pull (h));
    } else {
      GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
      GError *error = NULL;

      if (msg)
        gst_message_parse_error (msg, &error, NULL);
      run->error = g_strdup_printf ("frame %d: %s (%s)", i,
          gst_flow_get_name (flow), error ? error->message : "no message");
      g_clear_error (&error);
      gst_clear_message (&msg);
    }
  }
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (desc);
  return NULL;
}

/* Devices 0 and 1 blur at the same time, each frame as the reference. */
GST_START_TEST (test_two_devices_at_once)
{
  Run runs[2];
  GThread *threads[2];
  GstCudaBoxBlurSettings settings;
  guint d, i;

  for (d = 0; d < 2; d++) {
    runs[d].device = d;
    runs[d].in = g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_buffer_unref);
    runs[d].out = g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_mini_object_unref);
    runs[d].wrong_device = 0;
    runs[d].error = NULL;
    threads[d] = g_thread_new ("device", run_device, &runs[d]);
  }
  for (d = 0; d < 2; d++)
    g_thread_join (threads[d]);

  gst_cuda_box_blur_settings_init (&settings);
  settings.radius_x = settings.radius_y = 8;
  for (d = 0; d < 2; d++) {
    fail_unless (runs[d].error == NULL, "device %u: %s", d, runs[d].error);
    fail_unless_equals_int (runs[d].out->len, FRAMES);
    fail_unless_equals_int (runs[d].wrong_device, 0);
    for (i = 0; i < FRAMES; i++) {
      fail_unless (g_ptr_array_index (runs[d].out, i) != NULL,
          "device %u: frame %u missing", d, i);
      test_assert_output (g_ptr_array_index (runs[d].in, i),
          g_ptr_array_index (runs[d].out, i), "NV12", WIDTH, HEIGHT,
          &settings);
    }
    g_ptr_array_unref (runs[d].in);
    g_ptr_array_unref (runs[d].out);
  }
}

GST_END_TEST;

#ifdef HAVE_GST_CUDA
/* CUDA memory of device 0 into an element set to device 1: refused at
 * negotiation, naming both devices. */
GST_START_TEST (test_mismatched_device_refused)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=NV12,width=320,height=240 ! cudaupload "
      "cuda-device-id=0 ! cudaboxblur device-id=1 ! cudadownload ! fakesink",
      NULL);
  GstMessage *msg;
  GError *error = NULL;

  fail_unless (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      10 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  gst_message_parse_error (msg, &error, NULL);
  fail_unless (strstr (error->message, "device 1") != NULL
      && strstr (error->message, "device 0") != NULL, "%s", error->message);
  g_error_free (error);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;
#endif

static Suite *
cudaboxblur_multigpu_suite (void)
{
  Suite *s = suite_create ("cudaboxblur-multigpu");
  TCase *tc = tcase_create ("multigpu");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_two_devices_at_once);
#ifdef HAVE_GST_CUDA
  tcase_add_test (tc, test_mismatched_device_refused);
#endif
  return s;
}

#ifdef HAVE_GST_CUDA
static const gchar *const needed[] = { "cudaupload" };
#endif

static const TestGpuNeeds needs = {
  .n_devices = 2,
#ifdef HAVE_GST_CUDA
  .elements = needed,
  .n_elements = G_N_ELEMENTS (needed),
#endif
};

TEST_GPU_CHECK_MAIN ("cudaboxblur-multigpu", cudaboxblur_multigpu_suite,
    &needs);
