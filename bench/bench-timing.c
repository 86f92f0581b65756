/* cudaboxblur-bench: timing on the GPU, statistics and the table
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bench.h"
#include <stdlib.h>
#include <string.h>

FILE *csv;
gint repeats = 50;
gboolean choice_only;
gint only_width, only_radius;
gchar *only_format;

/* Whether the kernels parts time @format at @width (and with @radius > 0
 * that radius). */
gboolean
wanted (gint width, const gchar * format, gint radius)
{
  return (only_width == 0 || width == only_width)
      && (only_format == NULL || strcmp (format, only_format) == 0)
      && (radius == 0 || only_radius == 0 || radius == only_radius);
}


int
cmp_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

Stats
stats_of (gdouble * v, gint n)
{
  Stats s;

  qsort (v, n, sizeof (gdouble), cmp_double);
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.min = v[0];
  s.max = v[n - 1];
  return s;
}

gdouble
percentile (gdouble * sorted, gint n, gdouble p)
{
  gint i = (gint) (p * (n - 1) + 0.5);
  return sorted[CLAMP (i, 0, n - 1)];
}


/* Median/min/max in ms of @work over `repeats` runs after 5 warm-ups, each
 * run between two CUDA events. */
Stats
time_gpu (Work work, gpointer data, cudaStream_t stream)
{
  return time_gpu_batched (work, data, stream, 1);
}

/* time_gpu () of @batch runs of @work back to back between the same two
 * events, each run's share: @work's time without most of the fixed cost
 * of a launch timed on its own. */
Stats
time_gpu_batched (Work work, gpointer data, cudaStream_t stream, gint batch)
{
  cudaEvent_t a, b;
  gdouble *ms = g_new (gdouble, repeats);
  Stats s;
  gint i, j;

  CHECK (cudaEventCreate (&a));
  CHECK (cudaEventCreate (&b));
  for (i = 0; i < 5; i++)
    work (data, stream);
  for (i = 0; i < repeats; i++) {
    gfloat t;

    CHECK (cudaEventRecord (a, stream));
    for (j = 0; j < batch; j++)
      work (data, stream);
    CHECK (cudaEventRecord (b, stream));
    CHECK (cudaEventSynchronize (b));
    CHECK (cudaEventElapsedTime (&t, a, b));
    ms[i] = t / batch;
  }
  s = stats_of (ms, repeats);
  g_free (ms);
  CHECK (cudaEventDestroy (a));
  CHECK (cudaEventDestroy (b));
  return s;
}

/* The fastest copy of the frame the kernels parts are timing, in ms, the
 * divisor of report ()'s "x fastest" column; 0 where there is none. */
gdouble fastest_copy_ms;

void
report (const gchar * section, gint w, gint h, const gchar * format,
    const gchar * what, gint radius, Stats s, gsize bytes, gdouble copy_ms)
{
  gdouble gbps = bytes / (s.median * 1e-3) / 1e9;

  g_print ("%-8s %5dx%-5d %-8s %-18s %4d %9.4f %9.4f %9.4f %8.1f %7.2f",
      section, w, h, format, what, radius, s.median, s.min, s.max, gbps,
      s.median / copy_ms);
  fprintf (csv, "%s,%d,%d,%s,%s,%d,%.6f,%.6f,%.6f,%.2f,%.4f,,,", section, w,
      h, format, what, radius, s.median, s.min, s.max, gbps,
      s.median / copy_ms);
  if (fastest_copy_ms > 0) {
    g_print (" %9.2f", s.median / fastest_copy_ms);
    fprintf (csv, "%.4f", s.median / fastest_copy_ms);
  }
  g_print ("\n");
  fprintf (csv, "\n");
}
