/* cudaboxblur-bench: the element on GStreamer's CUDA memory, behind nvh264dec, and the GPU memory of decode pipelines
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
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#endif

#ifdef HAVE_GST_CUDA
/* ---- GStreamer's CUDA memory ---- */

/* The element on frames already in CUDA memory (appsrc pushing pre-uploaded
 * GstCudaBufferPool buffers ! cudaboxblur ! fakesink), against the engine's
 * kernels on the same frames in the same context, timed with CUDA events. */
static void
bench_cuda_element (const GstCudaBoxBlurDevice * dev, const gchar * fmt,
    gint w, gint h, gint radius, gint n)
{
  enum
  { N_BUFFERS = 8 };
  GstCudaContext *context = gst_cuda_context_new (dev->device_id);
  GstContext *gst_context = gst_context_new_cuda_context (context);
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, fmt, "width", G_TYPE_INT, w, "height", G_TYPE_INT, h,
      "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
  GstBufferPool *pool = gst_cuda_buffer_pool_new (context);
  GstBuffer *frames[N_BUFFERS], *out = NULL;
  GstCudaBoxBlurSettings settings;
  GstCudaBoxBlurImage src, dst;
  GstCudaBoxBlurEngine *engine;
  GstCudaBoxBlurInfo info;
  GstVideoRectangle whole = { 0, 0, w, h };
  GstCudaBoxBlurJob job;
  GstMapInfo in_map, out_map;
  GstStructure *config;
  GstFlowReturn flow;
  BenchPipeline b;
  GError *error = NULL;
  cudaEvent_t e0, e1;
  gdouble *ms = g_new (gdouble, repeats), fps[2], frame_ms, pipe_ms;
  gint64 t0;
  Stats ks;
  gint i, run;

  gst_caps_set_features (caps, 0,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  gst_cuda_box_blur_info_from_caps (&info, caps);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, N_BUFFERS + 1,
      0);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)
      || !gst_buffer_pool_set_active (pool, TRUE))
    g_error ("no CUDA buffer pool for %s %dx%d", fmt, w, h);

  /* written on the host once, uploaded before anything is timed */
  for (i = 0; i < N_BUFFERS; i++) {
    if (gst_buffer_pool_acquire_buffer (pool, &frames[i], NULL) !=
        GST_FLOW_OK)
      g_error ("no CUDA buffer");
    gst_buffer_memset (frames[i], 0, (guint8) (i * 37),
        gst_buffer_get_size (frames[i]));
    if (!gst_buffer_map (frames[i], &in_map, GST_MAP_READ | GST_MAP_CUDA))
      g_error ("cannot upload a CUDA buffer");
    gst_buffer_unmap (frames[i], &in_map);
  }
  gst_buffer_pool_acquire_buffer (pool, &out, NULL);

  /* the kernels alone: one frame, device to device, in the same context */
  gst_cuda_box_blur_settings_init (&settings);
  settings.radius_x = settings.radius_y = radius;
  memset (&src, 0, sizeof (src));
  memset (&dst, 0, sizeof (dst));
  src.location = dst.location = GST_CUDA_BOX_BLUR_IN_DEVICE;
  gst_buffer_map (frames[0], &in_map, GST_MAP_READ | GST_MAP_CUDA);
  gst_buffer_map (out, &out_map, GST_MAP_WRITE | GST_MAP_CUDA);
  if (!gst_cuda_box_blur_frame_from_buffer (&src.frame, &info, frames[0],
          &in_map, &error)
      || !gst_cuda_box_blur_frame_from_buffer (&dst.frame, &info, out,
          &out_map, &error))
    g_error ("%s", error->message);
  gst_cuda_context_push (context);
  engine = gst_cuda_box_blur_engine_new (dev,
      gst_cuda_box_blur_program_get (dev->major, dev->minor, NULL), NULL,
      &error);
  if (!engine)
    g_error ("%s", error->message);
  CHECK (cudaEventCreate (&e0));
  CHECK (cudaEventCreate (&e1));
  gst_cuda_box_blur_job_init (&job);
  gst_cuda_box_blur_job_set (&job, &settings, &info, &whole, 1, NULL);
  for (i = -5; i < repeats; i++) {
    gfloat t;

    CHECK (cudaEventRecord (e0, gst_cuda_box_blur_engine_get_stream
            (engine)));
    if (!gst_cuda_box_blur_engine_blur (engine, &job, &src, &dst, &error))
      g_error ("%s", error->message);
    CHECK (cudaEventRecord (e1, gst_cuda_box_blur_engine_get_stream
            (engine)));
    CHECK (cudaEventSynchronize (e1));
    CHECK (cudaEventElapsedTime (&t, e0, e1));
    if (i >= 0)
      ms[i] = t;
  }
  ks = stats_of (ms, repeats);
  gst_cuda_box_blur_job_clear (&job);
  CHECK (cudaEventDestroy (e0));
  CHECK (cudaEventDestroy (e1));
  gst_cuda_box_blur_engine_free (engine);
  gst_cuda_context_pop (NULL);
  gst_buffer_unmap (out, &out_map);
  gst_buffer_unmap (frames[0], &in_map);
  gst_buffer_unref (out);

  /* the element streaming, then identity in its place: what the
   * pipeline costs around it */
  for (run = 0; run < 2; run++) {
    gchar *props = run ? g_strdup ("") : g_strdup_printf ("radius=%d",
        radius);

    bench_pipeline_open (&b, run ? "identity" : "cudaboxblur", props, caps,
        gst_context);
    g_free (props);
    for (i = 0; i < N_BUFFERS; i++)
      g_signal_emit_by_name (b.src, "push-buffer", frames[i], &flow);
    wait_for (&b.st, N_BUFFERS);
    t0 = g_get_monotonic_time ();
    for (i = 0; i < n; i++)
      g_signal_emit_by_name (b.src, "push-buffer", frames[i % N_BUFFERS],
          &flow);
    wait_for (&b.st, N_BUFFERS + n);
    fps[run] = n / ((b.st.last_out - t0) * 1e-6);
    bench_pipeline_close (&b, NULL);
  }
  frame_ms = 1000.0 / fps[0];
  pipe_ms = 1000.0 / fps[1];

  g_print ("%-8s %5dx%-5d %-8s %4d %9.1f %10.4f %10.4f %10.4f %7.2f\n",
      "cudamem", w, h, fmt, radius, fps[0], frame_ms, pipe_ms, ks.median,
      frame_ms / ks.median);
  fprintf (csv, "cudamem,%d,%d,%s,element vs kernels,%d,%.6f,%.6f,%.6f,,"
      "%.4f,%.1f,\n", w, h, fmt, radius, ks.median, ks.min, ks.max,
      frame_ms / ks.median, fps[0]);
  fprintf (csv, "cudamem,%d,%d,%s,identity,0,%.6f,,,,,%.1f,\n", w, h, fmt,
      pipe_ms, fps[1]);

  for (i = 0; i < N_BUFFERS; i++)
    gst_buffer_unref (frames[i]);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_caps_unref (caps);
  gst_context_unref (gst_context);
  gst_object_unref (context);
  g_free (ms);
}

/* nvh264dec into CUDA memory, blurred there, against the decoder alone and
 * against today's route through system memory. */
static void
bench_decode (gint frames)
{
  static const gchar *const middles[] = { "", "cudaboxblur radius=8 ! ",
    "cudadownload ! cudaboxblur radius=8 ! ",
    "cudadownload ! " PINNED " radius=8 ! ",
    "cudadownload ! "
  };
  gchar *clip = make_clip (1920, 1080, frames);
  gchar *desc;
  gdouble alone = 0;
  guint i;

  g_print ("\nDecode, 1080p H.264, %d frames; fps from PLAYING to EOS, best "
      "of two\n%-52s %9s %8s\n", frames, "pipeline", "fps", "ratio");
  for (i = 0; i < G_N_ELEMENTS (middles); i++) {
    gdouble fps;

    desc = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! h264parse ! "
        "nvh264dec ! %sfakesink sync=false", clip, middles[i]);
    fps = pipeline_fps (desc, frames, 2);
    if (i == 0)
      alone = fps;
    g_print ("nvh264dec ! %-40s %9.1f %8.3f\n", middles[i], fps,
        fps / alone);
    fprintf (csv, "decode,1920,1080,NV12,nvh264dec ! %s,8,,,,,%.4f,%.1f,\n",
        middles[i], fps / alone, fps);
    g_free (desc);
  }
  remove_clip (clip);
}

/* nvh264dec ! cudaboxblur ! fakesink for @frames 720p frames: GPU memory
 * free and the process's resident memory after 100 frames and at the
 * end. */
void
decode_soak (gint frames)
{
  gchar *clip = make_clip (1280, 720, frames);
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! "
      "h264parse ! nvh264dec ! cudaboxblur radius=8 ! fakesink name=sink "
      "sync=false signal-handoffs=true", clip);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gsize gpu_free[2], rss[2], total;
  SinkState st = { 0, };
  GstMessage *msg;
  gint64 t0;

  g_mutex_init (&st.lock);
  g_cond_init (&st.cond);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &st);
  t0 = g_get_monotonic_time ();
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  wait_for (&st, 100);
  CHECK (cudaMemGetInfo (&gpu_free[0], &total));
  rss[0] = resident_bytes ();
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      600 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS)
    g_error ("decode soak: no EOS");
  gst_message_unref (msg);
  CHECK (cudaMemGetInfo (&gpu_free[1], &total));
  rss[1] = resident_bytes ();

  g_print ("\nDecode soak: %u frames 1280x720 through nvh264dec ! cudaboxblur "
      "in %.1f s; after 100 frames / at the end: GPU free %" G_GSIZE_FORMAT
      " / %" G_GSIZE_FORMAT " bytes, process resident %" G_GSIZE_FORMAT
      " / %" G_GSIZE_FORMAT " bytes\n", st.received,
      (g_get_monotonic_time () - t0) * 1e-6, gpu_free[0], gpu_free[1], rss[0],
      rss[1]);
  fprintf (csv, "decode-soak,1280,720,NV12,gpu free after 100 / at the end,"
      "8,,,,,,%" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT "\n", gpu_free[0],
      gpu_free[1]);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_mutex_clear (&st.lock);
  g_cond_clear (&st.cond);
  g_free (desc);
  remove_clip (clip);
}

void
bench_cuda_memory (const GstCudaBoxBlurDevice * dev, gint frames)
{
  g_print ("\nCUDA memory, %d frames: the element on pre-uploaded frames "
      "against its kernels on one frame; identity-ms: identity in its "
      "place\n%-8s %-11s %-8s %4s %9s %10s %10s %10s %7s\n", frames, "part",
      "size", "format", "r", "fps", "frame-ms", "identity-ms", "kernel-ms",
      "ratio");
  bench_cuda_element (dev, "NV12", 1920, 1080, 8, frames);
  bench_cuda_element (dev, "NV12", 3840, 2160, 30, frames);
  bench_cuda_element (dev, "RGBA", 1920, 1080, 8, frames);
  bench_decode (frames);
}
#endif

/* ---- GPU memory ---- */

/* What nvidia-smi prints for @query (one value a line), or NULL without
 * nvidia-smi. */
static gchar *
nvidia_smi (const gchar * query)
{
  gchar *argv[] = { (gchar *) "nvidia-smi", (gchar *) query,
    (gchar *) "--format=csv,noheader,nounits", NULL
  };
  gchar *out = NULL;
  gint status;

  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
          G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL))
    g_clear_pointer (&out, g_free);
  return out;
}

/* The GPU memory in use on device 0, in MiB; -1 without nvidia-smi. */
static gint
device_memory_mib (void)
{
  gchar *out = nvidia_smi ("--query-gpu=memory.used");
  gint mib = out ? atoi (out) : -1;

  g_free (out);
  return mib;
}

/* The GPU memory this process holds, in MiB, by nvidia-smi: its own line of
 * --query-compute-apps, or, where nvidia-smi lists no processes (in a
 * container, say), the memory in use on device 0 less @baseline. */
static gint
process_memory_mib (gint baseline, gboolean * per_process)
{
  gchar *out = nvidia_smi ("--query-compute-apps=pid,used_memory");
  gchar **lines = g_strsplit (out ? out : "", "\n", -1);
  gint mib = -1, i;

  for (i = 0; lines[i]; i++) {
    gint pid, used;

    if (sscanf (lines[i], "%d, %d", &pid, &used) == 2 && pid == getpid ())
      mib = used;
  }
  g_strfreev (lines);
  g_free (out);
  *per_process = mib >= 0;
  return mib >= 0 ? mib : device_memory_mib () - baseline;
}

/* Plays @n copies of the pipeline @desc, each a GstPipeline of its own, in
 * this process (run as a child by bench_memory()), and prints the GPU
 * memory it holds once each has shown @n frames. */
gint
memory_child (const gchar * arg)
{
  gchar **parts = g_strsplit (arg, ":", 3);
  gint n = atoi (parts[0]), baseline = atoi (parts[1]), i, mib;
  GstElement **pipelines = g_new0 (GstElement *, n);
  SinkState *st = g_new0 (SinkState, n);
  gboolean per_process;

  for (i = 0; i < n; i++) {
    GstElement *sink;
    GError *error = NULL;

    pipelines[i] = gst_parse_launch (parts[2], &error);
    if (!pipelines[i])
      g_error ("%s: %s", parts[2], error->message);
    sink = gst_bin_get_by_name (GST_BIN (pipelines[i]), "sink");
    g_mutex_init (&st[i].lock);
    g_cond_init (&st[i].cond);
    g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &st[i]);
    gst_object_unref (sink);
    if (gst_element_set_state (pipelines[i], GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE)
      g_error ("cannot play %s", parts[2]);
  }
  for (i = 0; i < n; i++)
    wait_for (&st[i], 10);
  mib = process_memory_mib (baseline, &per_process);
  g_print ("%d %d\n", mib, per_process);

  for (i = 0; i < n; i++) {
    gst_element_set_state (pipelines[i], GST_STATE_NULL);
    gst_object_unref (pipelines[i]);
    g_mutex_clear (&st[i].lock);
    g_cond_clear (&st[i].cond);
  }
  g_free (st);
  g_free (pipelines);
  g_strfreev (parts);
  return 0;
}

/* GPU memory of nvh264dec ! fakesink against nvh264dec ! cudaboxblur !
 * fakesink (and of cudaboxblur on system memory alone), by nvidia-smi,
 * for 1 and @n pipelines in one process, each run in a fresh process. */
void
bench_memory (const gchar * self, gint n)
{
  static const struct
  {
    const gchar *name, *desc;
  } pipelines[] = {
    {"nvh264dec", "filesrc location=\"%s\" ! qtdemux ! h264parse ! "
          "nvh264dec ! fakesink name=sink sync=true signal-handoffs=true"},
    {"nvh264dec ! cudaboxblur", "filesrc location=\"%s\" ! qtdemux ! "
          "h264parse ! nvh264dec ! cudaboxblur radius=8 ! fakesink name=sink "
          "sync=true signal-handoffs=true"},
    {"cudaboxblur, system memory", "videotestsrc is-live=true ! "
          "video/x-raw,format=NV12,width=1280,height=720,framerate=30/1 ! "
          "cudaboxblur radius=8 ! fakesink name=sink sync=true "
          "signal-handoffs=true"},
  };
  const gint counts[] = { 1, n };
  gchar *clip = make_clip (1280, 720, 300);
  gchar *dir = g_dir_make_tmp ("cudaboxblur-bench-cache-XXXXXX", NULL);
  gint baseline = device_memory_mib (), mib[2][3] = { {0} };
  guint c, p;

  g_print ("\nGPU memory by nvidia-smi, 720p H.264 played in real time, "
      "each row in a fresh process (MiB)\n%-28s %9s %9s\n", "pipeline",
      "1", "x N");
  if (baseline < 0) {
    g_print ("  nvidia-smi not found: not measured\n");
    g_free (dir);
    remove_clip (clip);
    return;
  }
  for (c = 0; c < G_N_ELEMENTS (counts); c++) {
    for (p = 0; p < G_N_ELEMENTS (pipelines); p++) {
      gchar *desc = g_strdup_printf (pipelines[p].desc, clip);
      gchar *option = g_strdup_printf ("--memory-child=%d:%d:%s", counts[c],
          baseline, desc);
      gchar *out = run_child (self, option, dir);
      gint per_process = 0;

      if (sscanf (out, "%d %d", &mib[c][p], &per_process) != 2)
        g_error ("memory run: %s", out);
      if (c == 0 && p == 0 && !per_process)
        g_print ("  (nvidia-smi lists no processes here: the device's "
            "memory in use, less %d MiB before)\n", baseline);
      g_free (out);
      g_free (option);
      g_free (desc);
    }
  }
  for (p = 0; p < G_N_ELEMENTS (pipelines); p++) {
    g_print ("%-28s %9d %9d   (N = %d)\n", pipelines[p].name, mib[0][p],
        mib[1][p], n);
    fprintf (csv, "memory,1280,720,NV12,%s,8,,,,,,%d,%d\n", pipelines[p].name,
        mib[0][p], mib[1][p]);
  }
  g_print ("cudaboxblur adds %d MiB to one decode, %d MiB to %d\n",
      mib[0][1] - mib[0][0], mib[1][1] - mib[1][0], n);
  gst_cuda_box_blur_cache_remove (dir);
  g_free (dir);
  remove_clip (clip);
}
