/* cudaboxblur-bench: the element in pipelines: frames per second, latency, soak
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bench.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- element level ---- */


void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, SinkState * st)
{
  g_mutex_lock (&st->lock);
  st->received++;
  st->last_out = g_get_monotonic_time ();
  g_cond_signal (&st->cond);
  g_mutex_unlock (&st->lock);
}

/* Waits for the sink to have had @n buffers; a pipeline that stalls (an
 * error upstream, say) ends the benchmark with a message instead of
 * hanging it. */
void
wait_for (SinkState * st, guint n)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;

  g_mutex_lock (&st->lock);
  while (st->received < n)
    if (!g_cond_wait_until (&st->cond, &st->lock, deadline))
      g_error ("no buffer out of the pipeline for 60 s (%u of %u): run with "
          "GST_DEBUG=2 to see why", st->received, n);
  g_mutex_unlock (&st->lock);
}

/* A pool from @element's answer to the allocation query (it answers once
 * its caps are negotiated), or a pool of system memory; active. */
static GstBufferPool *
input_pool (GstElement * element, GstCaps * caps, gsize size,
    gboolean offered)
{
  GstBufferPool *pool = NULL;
  GstStructure *config;

  if (offered) {
    GstPad *pad = gst_element_get_static_pad (element, "sink");
    GstQuery *query = gst_query_new_allocation (caps, TRUE);

    if (gst_pad_query (pad, query)
        && gst_query_get_n_allocation_pools (query) > 0)
      gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL,
          NULL);
    gst_query_unref (query);
    gst_object_unref (pad);
    if (!pool)
      return NULL;
  } else {
    pool = gst_buffer_pool_new ();
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, 4, 0);
  if (!gst_buffer_pool_set_config (pool, config)
      || !gst_buffer_pool_set_active (pool, TRUE))
    gst_clear_object (&pool);
  return pool;
}

/* A frame from @pool, written by the CPU as a source would, but cheaply:
 * one byte in every 4 KiB page, so that each page is the CPU's again (for
 * managed memory) and the producer is never what limits the frame rate. */
static GstBuffer *
produce (GstBufferPool * pool, gsize size, gint i)
{
  GstBuffer *buf = NULL;
  GstMapInfo map;
  gsize off;

  if (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) != GST_FLOW_OK)
    g_error ("no buffer from the input pool");
  if (!gst_buffer_map (buf, &map, GST_MAP_WRITE))
    g_error ("cannot map a buffer of the input pool");
  for (off = 0; off < MIN (size, map.size); off += 4096)
    map.data[off] = (guint8) i;
  gst_buffer_unmap (buf, &map);
  return buf;
}


void
bench_pipeline_open (BenchPipeline * b, const gchar * filter,
    const gchar * props, GstCaps * caps, GstContext * context)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time block=true "
      "max-buffers=4 ! %s %s name=elem ! fakesink name=sink sync=false "
      "signal-handoffs=true", filter, props);

  memset (b, 0, sizeof (*b));
  b->pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  b->src = gst_bin_get_by_name (GST_BIN (b->pipeline), "src");
  b->sink = gst_bin_get_by_name (GST_BIN (b->pipeline), "sink");
  b->elem = gst_bin_get_by_name (GST_BIN (b->pipeline), "elem");
  g_object_set (b->src, "caps", caps, NULL);
  g_mutex_init (&b->st.lock);
  g_cond_init (&b->st.cond);
  g_signal_connect (b->sink, "handoff", G_CALLBACK (on_handoff), &b->st);
  if (context)
    gst_element_set_context (b->pipeline, context);
  if (gst_element_set_state (b->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    g_error ("cannot start %s", filter);
}

/* Stops the pipeline, and deactivates and drops @pool if there is one. */
void
bench_pipeline_close (BenchPipeline * b, GstBufferPool * pool)
{
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  gst_element_set_state (b->pipeline, GST_STATE_NULL);
  gst_object_unref (b->src);
  gst_object_unref (b->sink);
  gst_object_unref (b->elem);
  gst_object_unref (b->pipeline);
  g_mutex_clear (&b->st.lock);
  g_cond_clear (&b->st.cond);
}

/* Frames per second streaming @n frames, then per-frame latency pushing one
 * frame at a time. */
static void
bench_pipeline_in_flight (const gchar * filter, const gchar * fmt, gint w,
    gint h, gboolean from_pool, gint radius, gint n, gdouble pinned_ms,
    guint in_flight)
{
  GstCudaBoxBlurInfo info;
  BenchPipeline b;
  GstBufferPool *pool = NULL;
  GstBuffer *frame;
  GstCaps *caps;
  GstFlowReturn flow;
  gdouble *lat = g_new (gdouble, n), fps;
  gint64 t0;
  gchar *props, *label = in_flight > 1 ?
      g_strdup_printf ("%s frames-in-flight=%u", filter, in_flight) :
      g_strdup (filter);
  Stats ls;
  gint i;

  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, fmt,
      "width", G_TYPE_INT, w, "height", G_TYPE_INT, h, "framerate",
      GST_TYPE_FRACTION, 0, 1, NULL);
  gst_cuda_box_blur_info_from_caps (&info, caps);
  props = g_str_has_prefix (filter, "cudaboxblur") ?
      g_strdup_printf ("radius=%d", radius) : g_strdup ("");
  bench_pipeline_open (&b, filter, props, caps, NULL);
  g_free (props);

  /* one frame first, so that caps are negotiated */
  frame = gst_buffer_new_allocate (NULL, info.size, NULL);
  g_signal_emit_by_name (b.src, "push-buffer", frame, &flow);
  gst_buffer_unref (frame);
  wait_for (&b.st, 1);
  b.st.received = 0;
  if (in_flight > 1)
    g_object_set (b.elem, "frames-in-flight", in_flight, NULL);

  pool = input_pool (b.elem, caps, info.size, from_pool);
  if (!pool) {
    g_print ("%s offers no pool: skipped\n", filter);
    goto done;
  }

  /* throughput: with frames in flight, the last frames push out the n
   * timed ones */
  t0 = g_get_monotonic_time ();
  for (i = 0; i < n + (gint) MAX (in_flight, 1) - 1; i++) {
    GstBuffer *buf = produce (pool, info.size, i);

    g_signal_emit_by_name (b.src, "push-buffer", buf, &flow);
    gst_buffer_unref (buf);
  }
  wait_for (&b.st, n);
  fps = n / ((b.st.last_out - t0) * 1e-6);
  if (in_flight > 1) {
    /* the frames held back come out with one more, one frame in flight;
     * the latency they add is frames-in-flight - 1 frame periods */
    GstBuffer *buf = produce (pool, info.size, 0);

    g_object_set (b.elem, "frames-in-flight", 1, NULL);
    g_signal_emit_by_name (b.src, "push-buffer", buf, &flow);
    gst_buffer_unref (buf);
    wait_for (&b.st, n + in_flight);
    g_print ("%-8s %5dx%-5d %-8s %-50s %-7s %4d %9.1f %9s %9s %10.1f\n",
        "element", w, h, fmt, label, from_pool ? "pool" : "system", radius,
        fps, "-", "-", 1000.0 / pinned_ms);
    fprintf (csv, "element,%d,%d,%s,%s %s,%d,,,,,%.4f,%.1f,\n", w, h, fmt,
        label, from_pool ? "pool" : "system", radius,
        fps * pinned_ms / 1000.0, fps);
    goto done;
  }

  /* latency, one frame in flight, from push to the sink */
  for (i = 0; i < n; i++) {
    GstBuffer *buf = produce (pool, info.size, i);
    gint64 t = g_get_monotonic_time ();

    g_signal_emit_by_name (b.src, "push-buffer", buf, &flow);
    gst_buffer_unref (buf);
    wait_for (&b.st, n + i + 1);
    lat[i] = (b.st.last_out - t) * 1e-3;
  }
  ls = stats_of (lat, n);

  g_print ("%-8s %5dx%-5d %-8s %-50s %-7s %4d %9.1f %9.3f %9.3f %10.1f\n",
      "element", w, h, fmt, label, from_pool ? "pool" : "system", radius, fps,
      ls.median, percentile (lat, n, 0.99), 1000.0 / pinned_ms);
  /* ratio: against the frame rate pinned copies alone would allow */
  fprintf (csv, "element,%d,%d,%s,%s %s,%d,%.6f,%.6f,%.6f,,%.4f,%.1f,%.6f\n",
      w, h, fmt, label, from_pool ? "pool" : "system", radius, ls.median,
      ls.min, ls.max, fps * pinned_ms / 1000.0, fps,
      percentile (lat, n, 0.99));

done:
  bench_pipeline_close (&b, pool);
  gst_caps_unref (caps);
  g_free (lat);
  g_free (label);
}

/* bench_pipeline_in_flight() with one frame in flight: throughput, then
 * latency. */
static void
bench_pipeline (const gchar * filter, const gchar * fmt, gint w, gint h,
    gboolean from_pool, gint radius, gint n, gdouble pinned_ms)
{
  bench_pipeline_in_flight (filter, fmt, w, h, from_pool, radius, n,
      pinned_ms, 1);
}

/* H2D then D2H of one frame, as one timed unit. */
static void
run_roundtrip (gpointer data, cudaStream_t stream)
{
  KernelJob *job = data;

  CHECK (cudaMemcpyAsync (job->dst.data, job->src.data, job->bytes,
          cudaMemcpyHostToDevice, stream));
  CHECK (cudaMemcpyAsync (job->src.data, job->dst.data, job->bytes,
          cudaMemcpyDeviceToHost, stream));
}

/* One frame host -> device -> host through pinned memory: the cost any
 * explicit-copy design pays per frame. */
static gdouble
pinned_roundtrip_ms (gsize bytes)
{
  cudaStream_t stream;
  KernelJob job = { 0, };
  Stats s;

  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  CHECK (cudaMallocHost ((void **) &job.src.data, bytes));
  CHECK (cudaMalloc ((void **) &job.dst.data, bytes));
  memset (job.src.data, 1, bytes);
  job.bytes = bytes;
  s = time_gpu (run_roundtrip, &job, stream);
  CHECK (cudaFree (job.dst.data));
  CHECK (cudaFreeHost (job.src.data));
  CHECK (cudaStreamDestroy (stream));
  return s.median;
}

void
bench_elements (gint frames)
{
  const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  static const gchar *const colour[] = { "NV12", "I420", "RGBA", "RGB" };
  guint s, f;

  g_print ("\nElement, %d frames; fps streaming; latency ms one frame in "
      "flight; copy fps = 1000 / pinned H2D+D2H ms of one frame\n", frames);
  g_print ("%-8s %-11s %-8s %-50s %-7s %4s %9s %9s %9s %10s\n", "part",
      "size", "format", "filter", "input", "r", "fps", "lat-med", "lat-p99",
      "copy-fps");
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (f = 0; f < 2; f++) {
      const gint w = sizes[s][0], h = sizes[s][1];
      const gchar *fmt = f ? "GRAY32F" : "GRAY8";
      gdouble pinned = pinned_roundtrip_ms ((gsize) w * h * (f ? 4 : 1));

      bench_pipeline ("identity", fmt, w, h, FALSE, 0, frames, pinned);
      bench_pipeline (MANAGED, fmt, w, h, TRUE, 3, frames, pinned);
      bench_pipeline (MANAGED, fmt, w, h, FALSE, 3, frames, pinned);
      bench_pipeline (PINNED, fmt, w, h, TRUE, 3, frames, pinned);
      bench_pipeline (PINNED, fmt, w, h, FALSE, 3, frames, pinned);
      bench_pipeline_in_flight (MANAGED, fmt, w, h, TRUE, 3, frames,
          pinned, IN_FLIGHT);
      bench_pipeline_in_flight (PINNED, fmt, w, h, TRUE, 3, frames, pinned,
          IN_FLIGHT);
      bench_pipeline_in_flight (PINNED, fmt, w, h, FALSE, 3, frames, pinned,
          IN_FLIGHT);
    }
  }

  /* colour at 1080p: every plane or component blurred, pinned mode */
  for (f = 0; f < G_N_ELEMENTS (colour); f++) {
    GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
        G_TYPE_STRING, colour[f], "width", G_TYPE_INT, 1920, "height",
        G_TYPE_INT, 1080, NULL);
    GstCudaBoxBlurInfo info;
    gdouble pinned;

    gst_cuda_box_blur_info_from_caps (&info, caps);
    gst_caps_unref (caps);
    pinned = pinned_roundtrip_ms (info.size);
    bench_pipeline ("identity", colour[f], 1920, 1080, FALSE, 0, frames,
        pinned);
    bench_pipeline (PINNED, colour[f], 1920, 1080, TRUE, 3, frames, pinned);
    bench_pipeline (PINNED, colour[f], 1920, 1080, TRUE, 15, frames, pinned);
    bench_pipeline_in_flight (PINNED, colour[f], 1920, 1080, TRUE, 3, frames,
        pinned, IN_FLIGHT);
  }
}

gsize
resident_bytes (void)
{
  gchar *statm = NULL;
  gsize pages = 0;

  if (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL))
    sscanf (statm, "%*s %" G_GSIZE_FORMAT, &pages);
  g_free (statm);
  return pages * 4096;
}

/* A long run of 1080p GRAY8 frames: GPU and host memory after the first
 * 100 frames and at the end must match. */
void
soak (gint frames, const gchar * filter)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "GRAY8", "width", G_TYPE_INT, 1920, "height",
      G_TYPE_INT, 1080, "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
  BenchPipeline b;
  GstBufferPool *pool;
  gsize gpu_free[2] = { 0, }, rss[2] = { 0, }, total;
  gint64 t0;
  gint i;

  bench_pipeline_open (&b, filter, "radius=7", caps, NULL);
  pool = input_pool (b.elem, caps, 1920 * 1080, FALSE);

  t0 = g_get_monotonic_time ();
  for (i = 0; i < frames; i++) {
    GstBuffer *buf = produce (pool, 1920 * 1080, i);
    GstFlowReturn flow;

    g_signal_emit_by_name (b.src, "push-buffer", buf, &flow);
    gst_buffer_unref (buf);
    if (flow != GST_FLOW_OK)
      g_error ("soak: frame %d: %s", i, gst_flow_get_name (flow));
    if (i == 100 || i == frames - 1) {
      wait_for (&b.st, i + 1);
      CHECK (cudaMemGetInfo (&gpu_free[i != 100], &total));
      rss[i != 100] = resident_bytes ();
    }
  }
  g_print ("\nSoak: %d frames 1920x1080 GRAY8 through %s in %.1f s; after "
      "100 frames / at the end: GPU free %" G_GSIZE_FORMAT " / %"
      G_GSIZE_FORMAT " bytes, process resident %" G_GSIZE_FORMAT " / %"
      G_GSIZE_FORMAT " bytes\n", frames, filter,
      (g_get_monotonic_time () - t0) * 1e-6, gpu_free[0], gpu_free[1], rss[0],
      rss[1]);

  bench_pipeline_close (&b, pool);
  gst_caps_unref (caps);
}

/* TRUE when an NVRTC library is mapped into this process. */
