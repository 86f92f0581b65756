/* cudaboxblur-bench: what the parts share
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>
#include <stdio.h>

#include "cudaboxblur-device.h"
#include "cudaboxblur-launch.h"
#include "cudaboxblur-plan.h"

G_BEGIN_DECLS

#define CHECK(call) G_STMT_START { \
  cudaError_t _e = (call); \
  if (_e != cudaSuccess) \
    g_error ("%s: %s", #call, cudaGetErrorString (_e)); \
} G_STMT_END

#define PINNED "cudaboxblur memory-mode=pinned"
#define MANAGED "cudaboxblur memory-mode=managed"
/* frames-in-flight of the streaming rows that keep several */
#define IN_FLIGHT 3

/* the CSV every part writes (--csv) */
extern FILE *csv;
/* timed launches per kernel measurement (--repeats) */
extern gint repeats;
/* the kernels part times only the kernels the element picks */
extern gboolean choice_only;
/* the kernels parts time only this width, format and radius (0, NULL:
 * every one), e.g. for one launch in a profiler */
extern gint only_width, only_radius;
extern gchar *only_format;
/* the kernels parts' divisor of "x fastest" (bench-timing.c) */
extern gdouble fastest_copy_ms;

typedef struct
{
  gdouble median, min, max;
} Stats;

/* What to time: one call queues the work on @stream. */
typedef void (*Work) (gpointer data, cudaStream_t stream);

typedef struct
{
  GstCudaBoxBlurPlan *plan;
  GstCudaBoxBlurLauncher *launcher;
  GstCudaBoxBlurSampleType type;
  GstCudaBoxBlurPlane src, dst;
  gint radius;
  gsize bytes;
} KernelJob;

typedef struct
{
  GMutex lock;
  GCond cond;
  guint received;
  gint64 last_out;              /* monotonic us */
} SinkState;

/* appsrc ! FILTER PROPS ! fakesink, playing, counting what reaches the
 * sink. */
typedef struct
{
  GstElement *pipeline, *src, *elem, *sink;
  SinkState st;
} BenchPipeline;

/* the timing and the table (bench-timing.c) */
gboolean
wanted (gint width, const gchar * format, gint radius);

Stats
stats_of (gdouble * v, gint n);

gdouble
percentile (gdouble * sorted, gint n, gdouble p);

Stats
time_gpu (Work work, gpointer data, cudaStream_t stream);

Stats
time_gpu_batched (Work work, gpointer data, cudaStream_t stream, gint batch);

void
report (const gchar * section, gint w, gint h, const gchar * format,
    const gchar * what, gint radius, Stats s, gsize bytes, gdouble copy_ms);

int
cmp_double (const void *a, const void *b);

/* the kernels parts (bench-kernels.c) */
void
bench_kernels (const GstCudaBoxBlurDevice * dev);

void
bench_kernel_formats (const GstCudaBoxBlurDevice * dev);

void
bench_regions (const GstCudaBoxBlurDevice * dev);

/* the element in pipelines (bench-element.c) */
void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, SinkState * st);

void
wait_for (SinkState * st, guint n);

void
bench_pipeline_open (BenchPipeline * b, const gchar * filter,
    const gchar * props, GstCaps * caps, GstContext * context);

void
bench_pipeline_close (BenchPipeline * b, GstBufferPool * pool);

void
bench_elements (gint frames);

gsize
resident_bytes (void);

void
soak (gint frames, const gchar * filter);

/* start-up (bench-startup.c) */
gint
startup_child (gint width);

gint
startup_steps_child (gint width);

gchar *
run_child (const gchar * self, const gchar * option, const gchar * cache_dir);

void
bench_startup (const gchar * self);

gdouble
pipeline_fps (const gchar * desc, gint frames, gint runs);

gchar *
make_clip (gint w, gint h, gint frames);

void
remove_clip (gchar * clip);

/* GStreamer's CUDA memory, decoding and GPU memory (bench-cuda.c) */
void
decode_soak (gint frames);

void
bench_cuda_memory (const GstCudaBoxBlurDevice * dev, gint frames);

gint
memory_child (const gchar * arg);

void
bench_memory (const gchar * self, gint n);

/* a live source and the latency tracer (bench-live.c) */
gint
live_child (const gchar * arg);

void
bench_live (const gchar * self);

G_END_DECLS
