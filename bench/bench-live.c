/* cudaboxblur-bench: the element's latency on a live source
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * videotestsrc is-live=true at 30 fps through the element (and identity,
 * for what the measurement itself costs), each in a child process run
 * with GStreamer's latency tracer (GST_TRACERS="latency(flags=element)"):
 * the element's own latency a frame, from the tracer's element-latency
 * records, median and 99th percentile.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bench.h"
#include <string.h>

/* The frames a measurement takes at 30 fps, and those left out at its
 * start (caps, pools and the first allocations). */
#define LIVE_FRAMES 90
#define LIVE_WARM_UP 10

typedef struct
{
  GArray *ms;                   /* gdouble, each frame's latency */
  const gchar *element;         /* whose records to keep */
} LatencyRecords;

/* Keeps the element-latency records of the element named @data's. */
static void
on_log (GstDebugCategory * category, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer data)
{
  LatencyRecords *records = data;
  const gchar *text;
  GstStructure *s;
  guint64 time;

  if (strcmp (gst_debug_category_get_name (category), "GST_TRACER") != 0)
    return;
  text = gst_debug_message_get (message);
  if (!text || !g_str_has_prefix (text, "element-latency"))
    return;
  s = gst_structure_from_string (text, NULL);
  if (s && g_strcmp0 (gst_structure_get_string (s, "element"),
          records->element) == 0
      && gst_structure_get_uint64 (s, "time", &time)) {
    const gdouble ms = time / 1e6;

    g_array_append_val (records->ms, ms);
  }
  if (s)
    gst_structure_free (s);
}

/**
 * live_child:
 * @arg: "FORMAT,WIDTH,HEIGHT,FILTER": FILTER is an element and its
 *   properties, named blur in the pipeline
 *
 * Runs in a process started with the latency tracer: plays the live
 * source through FILTER and prints "LATENCY n median p99" in ms, or
 * "ERROR message".
 */
gint
live_child (const gchar * arg)
{
  gchar **parts = g_strsplit (arg, ",", 4);
  LatencyRecords records = { g_array_new (FALSE, FALSE, sizeof (gdouble)),
    "blur"
  };
  GstElement *pipeline;
  GstMessage *msg;
  GError *error = NULL;
  gchar *desc;
  gint ret = 0;

  g_assert (g_strv_length (parts) == 4);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (on_log, &records, NULL);
  desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=%d ! "
      "video/x-raw,format=%s,width=%s,height=%s,framerate=30/1 ! %s "
      "name=blur ! fakesink sync=false", LIVE_FRAMES, parts[0], parts[1],
      parts[2], parts[3]);
  pipeline = gst_parse_launch (desc, &error);
  if (!pipeline)
    g_error ("%s: %s", desc, error->message);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      (LIVE_FRAMES / 30 + 20) * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_debug_remove_log_function (on_log);

  if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    if (msg)
      gst_message_parse_error (msg, &error, NULL);
    g_print ("ERROR %s\n", msg ? error->message : "no EOS");
    ret = 1;
  } else if (records.ms->len <= LIVE_WARM_UP) {
    g_print ("ERROR %u element-latency records of blur\n", records.ms->len);
    ret = 1;
  } else {
    gdouble *v = &g_array_index (records.ms, gdouble, LIVE_WARM_UP);
    const gint n = records.ms->len - LIVE_WARM_UP;

    qsort (v, n, sizeof (gdouble), cmp_double);
    g_print ("LATENCY %d %.4f %.4f\n", n, v[n / 2], percentile (v, n, 0.99));
  }
  if (msg)
    gst_message_unref (msg);
  g_clear_error (&error);
  gst_object_unref (pipeline);
  g_free (desc);
  g_strfreev (parts);
  g_array_unref (records.ms);
  return ret;
}

/* Runs one measurement in a child process of @self; prints its row. */
static void
live_one (const gchar * self, const gchar * format, gint w, gint h,
    const gchar * what, const gchar * filter)
{
  gchar *arg = g_strdup_printf ("--live-child=%s,%d,%d,%s", format, w, h,
      filter);
  gchar *argv[] = { (gchar *) self, arg, NULL };
  gchar **envp = g_get_environ ();
  gchar *out = NULL, *line;
  GError *error = NULL;
  gint status, n = 0;
  gdouble median = 0, p99 = 0;

  envp = g_environ_setenv (envp, "GST_TRACERS", "latency(flags=element)",
      TRUE);
  envp = g_environ_setenv (envp, "GST_DEBUG", "GST_TRACER:7", TRUE);
  /* the tracer's own lines go to stderr before the child takes them */
  if (!g_spawn_sync (NULL, argv, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
          NULL, &out, NULL, &status, &error))
    g_error ("%s", error->message);
  line = strstr (out, "LATENCY ");
  if (g_spawn_check_wait_status (status, NULL) && line
      && sscanf (line, "LATENCY %d %lf %lf", &n, &median, &p99) == 3) {
    g_print ("%-8s %5dx%-5d %-8s %-18s %6d %9.4f %9.4f\n", "live", w, h,
        format, what, n, median, p99);
    fprintf (csv, "live,%d,%d,%s,%s,0,%.6f,,,,,,%.6f\n", w, h, format, what,
        median, p99);
  } else {
    g_print ("%-8s %5dx%-5d %-8s %-18s failed: %s", "live", w, h, format,
        what, out ? out : "no output\n");
  }
  g_free (out);
  g_free (arg);
  g_strfreev (envp);
}

/**
 * bench_live:
 * @self: this program, run again for each measurement
 *
 * The element's latency a frame on a live 30 fps source, in each memory
 * mode, with identity as the floor of the measurement.
 */
void
bench_live (const gchar * self)
{
  const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  const gchar *const formats[] = { "I420", "RGBA", "YUY2" };
  const struct
  {
    const gchar *what, *filter;
  } filters[] = {
    {"identity", "identity"},
    {"auto", "cudaboxblur radius=8"},
    {"managed", MANAGED " radius=8"},
    {"pinned", PINNED " radius=8"},
  };
  guint s, f, i;

  g_print ("\nLive source, 30 fps, %d frames (the first %d left out): the "
      "element's latency a frame by GStreamer's latency tracer, ms\n",
      LIVE_FRAMES, LIVE_WARM_UP);
  g_print ("%-8s %-11s %-8s %-18s %6s %9s %9s\n", "part", "size", "format",
      "memory", "frames", "median", "p99");
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (f = 0; f < G_N_ELEMENTS (formats); f++)
      for (i = 0; i < G_N_ELEMENTS (filters); i++)
        live_one (self, formats[f], sizes[s][0], sizes[s][1],
            filters[i].what, filters[i].filter);
}
