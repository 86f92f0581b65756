/* cudaboxblur-bench: start-up, each in a process of its own
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bench.h"
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudaboxblur-cache.h"
#include "cudaboxblur-engine.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-program.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#endif

static gboolean
nvrtc_mapped (void)
{
  gchar *maps = NULL;
  gboolean mapped;

  if (!g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL))
    return FALSE;
  mapped = strstr (maps, "libnvrtc") != NULL;
  g_free (maps);
  return mapped;
}

/* The CUDA context of device 0 a start-up works in, made and timed apart:
 * a GstCudaContext, as GStreamer's CUDA elements make and share it (pushed
 * when @push), or without gstreamer-cuda-1.0 the primary context. */
static gpointer
startup_context (gboolean push, gdouble * ms)
{
  gint64 t0 = g_get_monotonic_time ();
  gpointer context = NULL;

#ifdef HAVE_GST_CUDA
  if (!gst_cuda_load_library () || !(context = gst_cuda_context_new (0)))
    g_error ("cannot make a CUDA context on device 0");
  if (push && !gst_cuda_context_push (context))
    g_error ("cannot push the CUDA context");
#else
  if (cudaSetDevice (0) != cudaSuccess || cudaFree (NULL) != cudaSuccess)
    g_error ("cannot make a CUDA context on device 0");
#endif
  *ms = (g_get_monotonic_time () - t0) * 1e-3;
  return context;
}

/* One start-up, in this process (run as a child by bench_startup()): the
 * CUDA context made first and timed apart, and given to the pipeline as a
 * neighbour would share it; then NULL to the first blurred buffer, which
 * opens the device and loads the kernels, at the sink (its preroll) and
 * rendered once the pipeline plays; and whether NVRTC was loaded. */
gint
startup_child (gint width)
{
  GstElement *pipeline, *sink;
  SinkState st = { 0, }, preroll = { 0, };
  gpointer context;
  gint64 t0;
  gdouble ctx_ms;
  gchar *desc;

  context = startup_context (FALSE, &ctx_ms);
  desc = g_strdup_printf ("videotestsrc num-buffers=1 pattern=black ! "
      "video/x-raw,format=GRAY8,width=%d,height=%d ! cudaboxblur ! "
      "fakesink name=sink signal-handoffs=true", width, width * 9 / 16);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
#ifdef HAVE_GST_CUDA
  {
    GstContext *gst_context = gst_context_new_cuda_context (context);

    gst_element_set_context (pipeline, gst_context);
    gst_context_unref (gst_context);
  }
#endif
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_mutex_init (&st.lock);
  g_cond_init (&st.cond);
  g_mutex_init (&preroll.lock);
  g_cond_init (&preroll.cond);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &st);
  g_signal_connect (sink, "preroll-handoff", G_CALLBACK (on_handoff),
      &preroll);
  t0 = g_get_monotonic_time ();
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    g_error ("cannot start the start-up pipeline");
  wait_for (&st, 1);
  wait_for (&preroll, 1);
  g_print ("%.3f %.3f %.3f %d\n", ctx_ms, (preroll.last_out - t0) * 1e-3,
      (st.last_out - t0) * 1e-3, nvrtc_mapped ());
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  if (context)
    gst_object_unref (context);
  return 0;
}

/* The steps of a start-up, timed one by one with the GPU library alone, in
 * this process (run as a child by bench_startup()), for a GRAY8 frame
 * @width wide (16:9) in managed memory, as the element meets them; prints
 * one "NAME MS" line each. */
static const gchar *const startup_steps[] = { "context", "device query",
  "runtime in context", "kernels loaded", "first allocation", "first touch",
  "engine", "first blur", "second blur"
};

gint
startup_steps_child (gint width)
{
  const gint height = width * 9 / 16;
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      "GRAY8", "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      NULL);
  gdouble ms[G_N_ELEMENTS (startup_steps)];
  GstCudaBoxBlurSettings settings;
  GstCudaBoxBlurImage in, out;
  GstCudaBoxBlurEngine *engine;
  const GstCudaBoxBlurProgram *program;
  GstCudaBoxBlurDevice dev;
  GstCudaBoxBlurInfo info;
  GstCudaBoxBlurJob job;
  GError *error = NULL;
  gpointer context;
  guint8 *a, *b;
  gint64 t;
  guint i = 0;

#define STEP(what) G_STMT_START { \
  what; \
  ms[i++] = (g_get_monotonic_time () - t) * 1e-3; \
  t = g_get_monotonic_time (); \
} G_STMT_END

  gst_cuda_box_blur_info_from_caps (&info, caps);
  gst_caps_unref (caps);
  gst_cuda_box_blur_settings_init (&settings);
  memset (&in, 0, sizeof (in));
  memset (&out, 0, sizeof (out));
  in.location = out.location = GST_CUDA_BOX_BLUR_IN_MANAGED;

  context = startup_context (TRUE, &ms[i++]);
  t = g_get_monotonic_time ();
  STEP (if (!gst_cuda_box_blur_device_query (0, &dev, &error))
      g_error ("%s", error->message));
  STEP (CHECK (cudaFree (NULL)));
  STEP (if (!(program = gst_cuda_box_blur_program_get (dev.major, dev.minor,
                  &error))) g_error ("%s", error->message));
  STEP (CHECK (cudaMallocManaged ((void **) &a, info.size,
              cudaMemAttachGlobal));
      CHECK (cudaMallocManaged ((void **) &b, info.size,
              cudaMemAttachGlobal));
      gst_cuda_box_blur_keep_on_host (a, info.size, 0);
      gst_cuda_box_blur_keep_on_host (b, info.size, 0));
  STEP (memset (a, 0x40, info.size));
  STEP (if (!(engine = gst_cuda_box_blur_engine_new (&dev, program, NULL,
                  &error)))
      g_error ("%s", error->message));
  gst_cuda_box_blur_frame_from_data (&in.frame, &info, a);
  gst_cuda_box_blur_frame_from_data (&out.frame, &info, b);
  gst_cuda_box_blur_job_init (&job);
  gst_cuda_box_blur_job_set (&job, &settings, &info, NULL, 0, NULL);
  STEP (if (!gst_cuda_box_blur_engine_blur (engine, &job, &in, &out, &error))
      g_error ("%s", error->message));
  STEP (if (!gst_cuda_box_blur_engine_blur (engine, &job, &in, &out, &error))
      g_error ("%s", error->message));
  gst_cuda_box_blur_job_clear (&job);
#undef STEP

  for (i = 0; i < G_N_ELEMENTS (startup_steps); i++)
    g_print ("%s %.3f\n", startup_steps[i], ms[i]);
  g_print ("nvrtc %d\n", nvrtc_mapped ());

  gst_cuda_box_blur_engine_free (engine);
  CHECK (cudaFree (a));
  CHECK (cudaFree (b));
#ifdef HAVE_GST_CUDA
  gst_cuda_context_pop (NULL);
#endif
  if (context)
    gst_object_unref (context);
  return 0;
}

/* Runs this program with @option in a new process with the kernel cache
 * @cache_dir; returns what it printed. */
gchar *
run_child (const gchar * self, const gchar * option, const gchar * cache_dir)
{
  gchar *argv[] = { (gchar *) self, (gchar *) option, NULL };
  gchar **envp = g_environ_setenv (g_get_environ (), "CUDABOXBLUR_CACHE_DIR",
      cache_dir, TRUE);
  gchar *out = NULL;
  GError *error = NULL;
  gint status;

  if (!g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out,
          NULL, &status, &error) || !g_spawn_check_wait_status (status,
          &error))
    g_error ("%s failed: %s", option, error ? error->message : out);
  g_strfreev (envp);
  return out;
}

/* Start-up with the kernel cache empty and warm, each in a fresh process,
 * for GRAY8 frames @width wide (16:9); then the steps of a start-up. */
static void
bench_startup_size (const gchar * self, gint width)
{
  const gint height = width * 9 / 16;
  gchar *dir = g_dir_make_tmp ("cudaboxblur-bench-cache-XXXXXX", NULL);
  gchar *option = g_strdup_printf ("--startup-child=%d", width);
  gdouble ctx[5], first[5], sink[5];
  gdouble steps[3][G_N_ELEMENTS (startup_steps)];
  gint i, nvrtc = 0, any_nvrtc = 0;
  guint j;

  for (i = 0; i < (gint) G_N_ELEMENTS (first); i++) {
    const gchar *what = i == 0 ? "cold" : "warm";
    gchar *out = run_child (self, option, dir);

    if (sscanf (out, "%lf %lf %lf %d", &ctx[i], &sink[i], &first[i],
            &nvrtc) != 4)
      g_error ("start-up run: %s", out);
    any_nvrtc |= nvrtc;
    g_print ("  %dx%d %s cache: context %6.1f ms, NULL to first buffer "
        "%6.1f ms (at the sink %6.1f ms), NVRTC %s\n", width, height, what,
        ctx[i], first[i], sink[i], nvrtc ? "loaded" : "not loaded");
    fprintf (csv, "startup,%d,%d,GRAY8,%s-first-buffer,1,%.3f,%.3f,%.3f,,,,"
        "\n", width, height, what, first[i], first[i], first[i]);
    fprintf (csv, "startup,%d,%d,GRAY8,%s-at-the-sink,1,%.3f,%.3f,%.3f,,,,"
        "\n", width, height, what, sink[i], sink[i], sink[i]);
    fprintf (csv, "startup,%d,%d,GRAY8,%s-context,1,%.3f,%.3f,%.3f,,,,\n",
        width, height, what, ctx[i], ctx[i], ctx[i]);
    g_free (out);
  }
  qsort (first + 1, G_N_ELEMENTS (first) - 1, sizeof (gdouble), cmp_double);
  qsort (sink + 1, G_N_ELEMENTS (sink) - 1, sizeof (gdouble), cmp_double);
  g_print ("  %dx%d: warm median %.1f ms (at the sink %.1f ms) against "
      "%.1f ms (%.1f ms) cold; NVRTC %s\n", width, height,
      first[G_N_ELEMENTS (first) / 2], sink[G_N_ELEMENTS (sink) / 2],
      first[0], sink[0], any_nvrtc ? "loaded" : "never loaded");

  g_free (option);
  option = g_strdup_printf ("--startup-steps-child=%d", width);
  for (i = 0; i < (gint) G_N_ELEMENTS (steps); i++) {
    gchar *out = run_child (self, option, dir);
    gchar **lines = g_strsplit (out, "\n", -1);

    for (j = 0; j < G_N_ELEMENTS (startup_steps); j++) {
      const gchar *value = lines[j] ? strrchr (lines[j], ' ') : NULL;

      if (!value || !g_str_has_prefix (lines[j], startup_steps[j]))
        g_error ("start-up steps: %s", out);
      steps[i][j] = g_ascii_strtod (value + 1, NULL);
    }
    g_strfreev (lines);
    g_free (out);
  }
  g_print ("  %dx%d, the steps with the GPU library alone, median of %d "
      "processes (ms):", width, height, (gint) G_N_ELEMENTS (steps));
  for (j = 0; j < G_N_ELEMENTS (startup_steps); j++) {
    gdouble v[G_N_ELEMENTS (steps)];
    Stats st;

    for (i = 0; i < (gint) G_N_ELEMENTS (steps); i++)
      v[i] = steps[i][j];
    st = stats_of (v, G_N_ELEMENTS (steps));
    g_print ("%s %s %.3f", j ? "," : "", startup_steps[j], st.median);
    fprintf (csv, "startup,%d,%d,GRAY8,step %s,1,%.3f,%.3f,%.3f,,,,\n",
        width, height, startup_steps[j], st.median, st.min, st.max);
  }
  g_print ("\n");

  g_free (option);
  gst_cuda_box_blur_cache_remove (dir);
  g_free (dir);
}

void
bench_startup (const gchar * self)
{
  g_print ("\nStart-up, GRAY8, each in a new process: the CUDA context timed "
      "apart, then NULL to the first blurred buffer\n");
  bench_startup_size (self, 1920);
  bench_startup_size (self, 320);
}

/* Frames per second of a whole pipeline from PLAYING to EOS, best of
 * @runs. */
gdouble
pipeline_fps (const gchar * desc, gint frames, gint runs)
{
  gdouble best = 0;
  gint run;

  for (run = 0; run < runs; run++) {
    GError *error = NULL;
    GstElement *pipeline = gst_parse_launch (desc, &error);
    GstMessage *msg;
    gint64 t0;

    if (!pipeline)
      g_error ("%s: %s", desc, error->message);
    t0 = g_get_monotonic_time ();
    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
        120 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (!msg || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS)
      g_error ("%s did not reach EOS", desc);
    best = MAX (best, frames / ((g_get_monotonic_time () - t0) * 1e-6));
    gst_message_unref (msg);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
  }
  return best;
}

/* Encodes @frames frames of @w x @h H.264 into a new temporary file. */
gchar *
make_clip (gint w, gint h, gint frames)
{
  gchar *dir = g_dir_make_tmp ("cudaboxblur-bench-XXXXXX", NULL);
  gchar *clip = g_build_filename (dir, "clip.mp4", NULL);
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%d pattern=ball "
      "! video/x-raw,format=I420,width=%d,height=%d,framerate=30/1 ! "
      "x264enc speed-preset=ultrafast key-int-max=30 ! h264parse ! mp4mux ! "
      "filesink location=\"%s\"", frames, w, h, clip);

  pipeline_fps (desc, frames, 1);
  g_free (desc);
  g_free (dir);
  return clip;
}

void
remove_clip (gchar * clip)
{
  gchar *dir = g_path_get_dirname (clip);

  g_unlink (clip);
  g_rmdir (dir);
  g_free (dir);
  g_free (clip);
}
