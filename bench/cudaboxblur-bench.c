/* cudaboxblur-bench: how fast the kernels and the element are
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Prints tables and writes one CSV (--csv).  The parts:
 *  - kernels: data already on the GPU, CUDA events around each launch,
 *    against a device-to-device copy of the same frame (and NPP's box
 *    filters when NPP was found at build time);
 *  - element: appsrc ! cudaboxblur ! fakesink (and identity instead),
 *    frames per second and per-frame latency, input from the element's pool
 *    and from system memory, against a pinned host<->device copy;
 *  - start-up: NULL to the first output buffer, each start in a new
 *    process, and the steps of a start with the GPU library alone;
 *  - regions: face-sized regions of a 4K frame redacted in place in each
 *    mode, against the whole frame (--regions runs this part only);
 *  - CUDA memory (built with gstreamer-cuda-1.0): the element on frames in
 *    GStreamer's CUDA memory against its kernels, and behind nvh264dec.
 * --gpu-memory runs the last two only.  --memory N, run alone, reads the GPU
 * memory of decode pipelines with and without cudaboxblur from nvidia-smi.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudaboxblur-cache.h"
#include "cudaboxblur-device.h"
#include "cudaboxblur-engine.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-plan.h"
#include "cudaboxblur-program.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#endif

#ifdef HAVE_NPP
#include <nppi_filtering_functions.h>
#endif

#define CHECK(call) G_STMT_START { \
  cudaError_t _e = (call); \
  if (_e != cudaSuccess) \
    g_error ("%s: %s", #call, cudaGetErrorString (_e)); \
} G_STMT_END

#define PINNED "cudaboxblur memory-mode=pinned"
/* frames-in-flight of the streaming rows that keep several */
#define IN_FLIGHT 3

static FILE *csv;
static gint repeats = 50;
/* the kernels part times only the kernels the element picks */
static gboolean choice_only;
/* the kernels parts time only this width, format and radius (0, NULL:
 * every one), e.g. for one launch in a profiler */
static gint only_width, only_radius;
static gchar *only_format;

/* Whether the kernels parts time @format at @width (and with @radius > 0
 * that radius). */
static gboolean
wanted (gint width, const gchar * format, gint radius)
{
  return (only_width == 0 || width == only_width)
      && (only_format == NULL || strcmp (format, only_format) == 0)
      && (radius == 0 || only_radius == 0 || radius == only_radius);
}

typedef struct
{
  gdouble median, min, max;
} Stats;

static int
cmp_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

static Stats
stats_of (gdouble * v, gint n)
{
  Stats s;

  qsort (v, n, sizeof (gdouble), cmp_double);
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.min = v[0];
  s.max = v[n - 1];
  return s;
}

static gdouble
percentile (gdouble * sorted, gint n, gdouble p)
{
  gint i = (gint) (p * (n - 1) + 0.5);
  return sorted[CLAMP (i, 0, n - 1)];
}

/* What to time: one call queues the work on @stream. */
typedef void (*Work) (gpointer data, cudaStream_t stream);

/* Median/min/max in ms of @work over `repeats` runs after 5 warm-ups, each
 * run between two CUDA events. */
static Stats
time_gpu (Work work, gpointer data, cudaStream_t stream)
{
  cudaEvent_t a, b;
  gdouble *ms = g_new (gdouble, repeats);
  Stats s;
  gint i;

  CHECK (cudaEventCreate (&a));
  CHECK (cudaEventCreate (&b));
  for (i = 0; i < 5; i++)
    work (data, stream);
  for (i = 0; i < repeats; i++) {
    gfloat t;

    CHECK (cudaEventRecord (a, stream));
    work (data, stream);
    CHECK (cudaEventRecord (b, stream));
    CHECK (cudaEventSynchronize (b));
    CHECK (cudaEventElapsedTime (&t, a, b));
    ms[i] = t;
  }
  s = stats_of (ms, repeats);
  g_free (ms);
  CHECK (cudaEventDestroy (a));
  CHECK (cudaEventDestroy (b));
  return s;
}

typedef struct
{
  GstCudaBoxBlurPlan *plan;
  GstCudaBoxBlurSampleType type;
  GstCudaBoxBlurPlane src, dst;
  gint radius;
  gsize bytes;
} KernelJob;

static void
run_copy (gpointer data, cudaStream_t stream)
{
  KernelJob *job = data;

  CHECK (cudaMemcpyAsync (job->dst.data, job->src.data, job->bytes,
          cudaMemcpyDeviceToDevice, stream));
}

/* Plans and uploads the blur of the job's whole frame with @variant. */
static void
plan_blur (KernelJob * job, GstCudaBoxBlurVariant variant,
    cudaStream_t stream)
{
  GstCudaBoxBlurWindow window = { job->radius, job->radius,
    GST_CUDA_BOX_BLUR_BORDER_SHRINK, 0
  };
  GError *error = NULL;

  gst_cuda_box_blur_plan_reset (job->plan, job->type);
  gst_cuda_box_blur_plan_blur_variant (job->plan, variant, &job->src,
      &job->dst, &window, NULL);
  if (!gst_cuda_box_blur_plan_upload (job->plan, stream, &error))
    g_error ("%s", error->message);
  CHECK (cudaStreamSynchronize (stream));
}

/* The planned launches alone: the kernels' time. */
static void
run_blur (gpointer data, cudaStream_t stream)
{
  KernelJob *job = data;
  GError *error = NULL;

  if (!gst_cuda_box_blur_plan_launch (job->plan, stream, &error))
    g_error ("%s", error->message);
}

#ifdef HAVE_NPP
static NppStreamContext npp_ctx;
static gpointer npp_buffer;

static void
npp_context_init (gint device)
{
  struct cudaDeviceProp props;

  CHECK (cudaGetDeviceProperties (&props, device));
  npp_ctx.nCudaDeviceId = device;
  npp_ctx.nMultiProcessorCount = props.multiProcessorCount;
  npp_ctx.nMaxThreadsPerMultiProcessor = props.maxThreadsPerMultiProcessor;
  npp_ctx.nMaxThreadsPerBlock = props.maxThreadsPerBlock;
  npp_ctx.nSharedMemPerBlock = props.sharedMemPerBlock;
  npp_ctx.nCudaDevAttrComputeCapabilityMajor = props.major;
  npp_ctx.nCudaDevAttrComputeCapabilityMinor = props.minor;
  npp_ctx.nStreamFlags = cudaStreamNonBlocking;
}

static void
run_npp (gpointer data, cudaStream_t stream, gboolean advanced)
{
  KernelJob *job = data;
  NppiSize size = { job->src.width, job->src.height };
  NppiSize mask = { 2 * job->radius + 1, 2 * job->radius + 1 };
  NppiPoint offset = { 0, 0 }, anchor = { job->radius, job->radius };
  NppStatus st;

  npp_ctx.hStream = stream;
  if (job->type == GST_CUDA_BOX_BLUR_U8)
    st = advanced ?
        nppiFilterBoxBorderAdvanced_8u_C1R_Ctx (job->src.data,
        job->src.stride, size, offset, job->dst.data, job->dst.stride, size,
        mask, anchor, NPP_BORDER_REPLICATE, npp_buffer, npp_ctx) :
        nppiFilterBoxBorder_8u_C1R_Ctx (job->src.data, job->src.stride, size,
        offset, job->dst.data, job->dst.stride, size, mask, anchor,
        NPP_BORDER_REPLICATE, npp_ctx);
  else
    st = advanced ?
        nppiFilterBoxBorderAdvanced_32f_C1R_Ctx ((const Npp32f *)
        job->src.data, job->src.stride, size, offset, (Npp32f *)
        job->dst.data, job->dst.stride, size, mask, anchor,
        NPP_BORDER_REPLICATE, npp_buffer, npp_ctx) :
        nppiFilterBoxBorder_32f_C1R_Ctx ((const Npp32f *) job->src.data,
        job->src.stride, size, offset, (Npp32f *) job->dst.data,
        job->dst.stride, size, mask, anchor, NPP_BORDER_REPLICATE, npp_ctx);
  if (st != NPP_SUCCESS)
    g_error ("NPP box filter failed: %d", st);
}

static void
run_npp_plain (gpointer data, cudaStream_t stream)
{
  run_npp (data, stream, FALSE);
}

static void
run_npp_advanced (gpointer data, cudaStream_t stream)
{
  run_npp (data, stream, TRUE);
}
#endif

static void
report (const gchar * section, gint w, gint h, const gchar * format,
    const gchar * what, gint radius, Stats s, gsize bytes, gdouble copy_ms)
{
  gdouble gbps = bytes / (s.median * 1e-3) / 1e9;

  g_print ("%-8s %5dx%-5d %-8s %-18s %4d %9.4f %9.4f %9.4f %8.1f %7.2f\n",
      section, w, h, format, what, radius, s.median, s.min, s.max, gbps,
      s.median / copy_ms);
  fprintf (csv, "%s,%d,%d,%s,%s,%d,%.6f,%.6f,%.6f,%.2f,%.4f,,\n", section, w,
      h, format, what, radius, s.median, s.min, s.max, gbps,
      s.median / copy_ms);
}

static void
bench_kernels (const GstCudaBoxBlurDevice * dev)
{
  const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  const gint radii[] = { 1, 2, 3, 7, 15, 30, 63, 127 };
  const GstCudaBoxBlurProgram *program;
  GError *error = NULL;
  cudaStream_t stream;
  guint s, f, r;

  program = gst_cuda_box_blur_program_get (dev->major, dev->minor, &error);
  if (!program)
    g_error ("%s", error->message);
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
#ifdef HAVE_NPP
  npp_context_init (dev->device_id);
#endif

  g_print ("\nKernels, data on the GPU; ms over %d launches; GB/s counts "
      "the frame read and written; x copy = time / device-to-device copy\n",
      repeats);
  g_print ("%-8s %-11s %-8s %-18s %4s %9s %9s %9s %8s %7s\n", "part", "size",
      "format", "what", "r", "median", "min", "max", "GB/s", "x copy");

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (f = 0; f < 2; f++) {
      const gint w = sizes[s][0], h = sizes[s][1], bpp = f ? 4 : 1;
      const gchar *fmt = f ? "GRAY32F" : "GRAY8";
      KernelJob job = { gst_cuda_box_blur_plan_new (program, NULL),
        f ? GST_CUDA_BOX_BLUR_F32 : GST_CUDA_BOX_BLUR_U8
      };
      gsize bytes = (gsize) w * h * bpp;
      guint8 *host;
      gdouble copy_ms;
      Stats st;
      gsize i;

      if (!wanted (w, fmt, 0)) {
        gst_cuda_box_blur_plan_free (job.plan);
        continue;
      }
      host = g_malloc (bytes);
      for (i = 0; i < bytes; i++)
        host[i] = f ? (i % 4 == 3 ? 0x3f : (guint8) (i * 37)) : (guint8) i;
      job.bytes = bytes;
      job.src = (GstCudaBoxBlurPlane) { NULL, w, h, w * bpp, bpp };
      job.dst = job.src;
      CHECK (cudaMalloc ((void **) &job.src.data, bytes));
      CHECK (cudaMalloc ((void **) &job.dst.data, bytes));
      CHECK (cudaMemcpy (job.src.data, host, bytes, cudaMemcpyHostToDevice));

      st = time_gpu (run_copy, &job, stream);
      copy_ms = st.median;
      report ("kernel", w, h, fmt, "d2d-copy", 0, st, 2 * bytes, copy_ms);

#ifdef HAVE_NPP
      {
        NppiSize roi = { w, h };
        int nbuf = 0;

        if (nppiFilterBoxBorderAdvancedGetDeviceBufferSize (roi, 1, &nbuf)
            != NPP_SUCCESS)
          g_error ("nppiFilterBoxBorderAdvancedGetDeviceBufferSize failed");
        CHECK (cudaMalloc (&npp_buffer, MAX (nbuf, 1)));
      }
#endif

      for (r = 0; r < G_N_ELEMENTS (radii); r++) {
        if (!wanted (w, fmt, radii[r]))
          continue;
        job.radius = radii[r];
        plan_blur (&job, gst_cuda_box_blur_window_is_direct (job.radius,
                job.radius) ? GST_CUDA_BOX_BLUR_DIRECT :
            GST_CUDA_BOX_BLUR_SEPARABLE, stream);
        report ("kernel", w, h, fmt, "cudaboxblur", job.radius,
            time_gpu (run_blur, &job, stream), 2 * bytes, copy_ms);

        /* every variant, to show why the choice is what it is; the direct
         * kernel only while it takes less than a few ms */
        if (choice_only)
          continue;
        if (job.radius <= 15) {
          plan_blur (&job, GST_CUDA_BOX_BLUR_DIRECT, stream);
          report ("kernel", w, h, fmt, "direct", job.radius,
              time_gpu (run_blur, &job, stream), 2 * bytes, copy_ms);
        }
        plan_blur (&job, GST_CUDA_BOX_BLUR_TWO_PASS, stream);
        report ("kernel", w, h, fmt, "two-pass", job.radius,
            time_gpu (run_blur, &job, stream), 2 * bytes, copy_ms);
        /* only where the one pass takes the window: elsewhere the plan
         * falls back to the two passes, timed above */
        plan_blur (&job, GST_CUDA_BOX_BLUR_ONE_PASS, stream);
        if (gst_cuda_box_blur_plan_n_launches (job.plan) == 1)
          report ("kernel", w, h, fmt, "one-pass", job.radius,
              time_gpu (run_blur, &job, stream), 2 * bytes, copy_ms);
#ifdef HAVE_NPP
        report ("kernel", w, h, fmt, "npp-box-border", job.radius,
            time_gpu (run_npp_plain, &job, stream), 2 * bytes, copy_ms);
        report ("kernel", w, h, fmt, "npp-box-advanced", job.radius,
            time_gpu (run_npp_advanced, &job, stream), 2 * bytes, copy_ms);
#endif
      }

#ifdef HAVE_NPP
      CHECK (cudaFree (npp_buffer));
#endif
      CHECK (cudaFree (job.src.data));
      CHECK (cudaFree (job.dst.data));
      gst_cuda_box_blur_plan_free (job.plan);
      g_free (host);
    }
  }
  CHECK (cudaStreamDestroy (stream));
}

/* ---- regions blurred in place ---- */

typedef struct
{
  GstCudaBoxBlurEngine *engine;
  GstCudaBoxBlurInfo info;
  GstCudaBoxBlurSettings settings;
  GstCudaBoxBlurImage src, dst;
  GArray *regions;
  gboolean in_place;
  GstCudaBoxBlurJob blur;        /* of the regions, resolved before timing */
} RegionJob;

static void
run_regions (gpointer data, cudaStream_t stream)
{
  RegionJob *job = data;
  GError *error = NULL;
  gboolean ok = job->in_place ?
      gst_cuda_box_blur_engine_blur_in_place (job->engine, &job->blur,
      &job->dst, &error) :
      gst_cuda_box_blur_engine_blur (job->engine, &job->blur, &job->src,
      &job->dst, &error);

  if (!ok)
    g_error ("%s", error->message);
}

/* The redactions the regions part compares. */
static const struct
{
  const gchar *name;
  GstCudaBoxBlurMode mode;
  GstCudaBoxBlurShape shape;
  gint feather;
} region_modes[] = {
  {"box r8", GST_CUDA_BOX_BLUR_MODE_BOX, GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0},
  {"gaussian s6", GST_CUDA_BOX_BLUR_MODE_GAUSSIAN,
      GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0},
  {"pixelate 16", GST_CUDA_BOX_BLUR_MODE_PIXELATE,
      GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0},
  {"fill", GST_CUDA_BOX_BLUR_MODE_FILL, GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0},
  {"box r8 ellipse f8", GST_CUDA_BOX_BLUR_MODE_BOX,
      GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE, 8},
  {"gaussian s6 ellipse f8", GST_CUDA_BOX_BLUR_MODE_GAUSSIAN,
      GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE, 8},
};

/* GPU ms of the engine's call for @job. */
static Stats
time_regions (RegionJob * job)
{
  gst_cuda_box_blur_job_set (&job->blur, &job->settings, &job->info,
      (const GstVideoRectangle *) job->regions->data, job->regions->len, NULL);
  return time_gpu (run_regions, job, gst_cuda_box_blur_engine_get_stream
      (job->engine));
}

/* @job with an engine of @dev and no frames yet. */
static void
region_job_init (RegionJob * job, const GstCudaBoxBlurDevice * dev)
{
  GError *error = NULL;

  memset (job, 0, sizeof (*job));
  job->engine = gst_cuda_box_blur_engine_new (dev,
      gst_cuda_box_blur_program_get (dev->major, dev->minor, NULL), NULL,
      &error);
  if (!job->engine)
    g_error ("%s", error->message);
  job->regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  gst_cuda_box_blur_job_init (&job->blur);
  job->src.location = job->dst.location = GST_CUDA_BOX_BLUR_IN_DEVICE;
}

static void
region_job_clear (RegionJob * job)
{
  g_array_unref (job->regions);
  gst_cuda_box_blur_job_clear (&job->blur);
  gst_cuda_box_blur_engine_free (job->engine);
}

/* @job's frames: @format, @w x @h, the source filled with 77s and the
 * destination, in device memory (cudaFree() both). */
static void
region_job_frames (RegionJob * job, const gchar * format, gint w, gint h)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, format, "width", G_TYPE_INT, w, "height", G_TYPE_INT, h,
      NULL);
  guint8 *a, *b;

  gst_cuda_box_blur_info_from_caps (&job->info, caps);
  gst_caps_unref (caps);
  CHECK (cudaMalloc ((void **) &a, job->info.size));
  CHECK (cudaMalloc ((void **) &b, job->info.size));
  CHECK (cudaMemset (a, 77, job->info.size));
  gst_cuda_box_blur_frame_from_data (&job->src.frame, &job->info, a);
  gst_cuda_box_blur_frame_from_data (&job->dst.frame, &job->info, b);
}

static void
region_job_free_frames (RegionJob * job)
{
  CHECK (cudaFree (job->src.frame.data[0]));
  CHECK (cudaFree (job->dst.frame.data[0]));
}

/* The engine's stream copying the frame, for kernel_formats' "x copy". */
static void
run_frame_copy (gpointer data, cudaStream_t stream)
{
  RegionJob *job = data;

  CHECK (cudaMemcpyAsync (job->dst.frame.data[0], job->src.frame.data[0],
          job->info.size, cudaMemcpyDeviceToDevice, stream));
}

/* Box blurs of whole colour frames in device memory (every plane and
 * component, through the engine, into another frame): NV12, RGBA and RGB
 * at 1080p and 4K, against a device copy of the frame. */
static void
bench_kernel_formats (const GstCudaBoxBlurDevice * dev)
{
  const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  const struct
  {
    const gchar *format;
    gint radius;
  } cases[] = { {"NV12", 1}, {"NV12", 8}, {"RGBA", 1}, {"RGBA", 2},
  {"RGBA", 7}, {"RGBA", 15}, {"RGB", 1}, {"RGB", 2}, {"RGB", 7}, {"RGB", 15}
  };
  RegionJob job;
  /* the format and width whose copy was last reported */
  const gchar *copied = "";
  gint copied_w = 0;
  guint s, c;

  region_job_init (&job, dev);
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      const gint w = sizes[s][0], h = sizes[s][1];
      GstVideoRectangle whole = { 0, 0, w, h };
      Stats copy;

      if (!wanted (w, cases[c].format, cases[c].radius))
        continue;
      region_job_frames (&job, cases[c].format, w, h);
      gst_cuda_box_blur_settings_init (&job.settings);
      job.settings.radius_x = job.settings.radius_y = cases[c].radius;
      g_array_set_size (job.regions, 0);
      g_array_append_val (job.regions, whole);

      copy = time_gpu (run_frame_copy, &job,
          gst_cuda_box_blur_engine_get_stream (job.engine));
      if (w != copied_w || strcmp (cases[c].format, copied) != 0)
        report ("kernel", w, h, cases[c].format, "d2d-copy", 0, copy,
            2 * job.info.size, copy.median);
      copied = cases[c].format;
      copied_w = w;
      report ("kernel", w, h, cases[c].format, "cudaboxblur",
          cases[c].radius, time_regions (&job), 2 * job.info.size,
          copy.median);
      region_job_free_frames (&job);
    }
  region_job_clear (&job);
}

/* Each redaction on the whole of a 4K NV12 frame in device memory (into
 * another frame) and on 1, 10 and 100 face-sized regions of it (96x96,
 * in place, and the 100 into another frame too); GPU time of the
 * engine's call. */
static void
bench_regions (const GstCudaBoxBlurDevice * dev)
{
  const gint w = 3840, h = 2160, counts[] = { 1, 10, 100 };
  GstVideoRectangle whole = { 0, 0, w, h };
  RegionJob job;
  Stats st;
  guint m, c;
  gint i;

  region_job_init (&job, dev);
  region_job_frames (&job, "NV12", w, h);

  g_print ("\nRegions of a 3840x2160 NV12 frame, 96x96 each, median GPU ms "
      "a frame\n%-24s %9s %9s %9s %9s %12s\n", "redaction", "frame", "1",
      "10", "100", "100 apart");
  for (m = 0; m < G_N_ELEMENTS (region_modes); m++) {
    gst_cuda_box_blur_settings_init (&job.settings);
    job.settings.radius_x = job.settings.radius_y = 8;
    job.settings.sigma = 6;
    job.settings.mode = region_modes[m].mode;
    job.settings.shape = region_modes[m].shape;
    job.settings.feather = region_modes[m].feather;

    job.in_place = FALSE;
    g_array_set_size (job.regions, 0);
    g_array_append_val (job.regions, whole);
    st = time_regions (&job);
    g_print ("%-24s %9.4f", region_modes[m].name, st.median);
    fprintf (csv, "regions,%d,%d,NV12,%s whole frame,8,%.6f,%.6f,%.6f,,,,\n",
        w, h, region_modes[m].name, st.median, st.min, st.max);

    for (c = 0; c <= G_N_ELEMENTS (counts); c++) {
      const gint n = counts[MIN (c, G_N_ELEMENTS (counts) - 1)];

      job.in_place = c < G_N_ELEMENTS (counts);
      g_array_set_size (job.regions, 0);
      for (i = 0; i < n; i++) {
        GstVideoRectangle r = { 64 + (i % 10) * 360, 64 + (i / 10) * 200, 96,
          96
        };
        g_array_append_val (job.regions, r);
      }
      st = time_regions (&job);
      g_print (" %*.4f", job.in_place ? 9 : 12, st.median);
      fprintf (csv, "regions,%d,%d,NV12,%s %d %s,8,%.6f,%.6f,%.6f,,,,\n", w,
          h, region_modes[m].name, n, job.in_place ? "in place" :
          "into another frame", st.median, st.min, st.max);
    }
    g_print ("\n");
  }

  /* invert: the frame around 1 to 10 feathered face ellipses (160x200),
   * against the same Gaussian over the whole frame */
  g_print ("\ninvert, gaussian s8, feathered ellipses (feather 16) kept "
      "clear, median GPU ms a frame\n%-24s %9s %9s %9s %9s\n", "", "frame",
      "1", "3", "10");
  gst_cuda_box_blur_settings_init (&job.settings);
  job.settings.mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
  job.settings.sigma = 8;
  job.in_place = FALSE;
  g_array_set_size (job.regions, 0);
  g_array_append_val (job.regions, whole);
  st = time_regions (&job);
  g_print ("%-24s %9.4f", "gaussian s8", st.median);
  fprintf (csv, "regions,%d,%d,NV12,gaussian s8 whole frame,8,%.6f,%.6f,"
      "%.6f,,,,\n", w, h, st.median, st.min, st.max);
  job.settings.invert = TRUE;
  job.settings.shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
  job.settings.feather = 16;
  for (c = 0; c < 3; c++) {
    const gint n = c == 0 ? 1 : c == 1 ? 3 : 10;

    g_array_set_size (job.regions, 0);
    for (i = 0; i < n; i++) {
      GstVideoRectangle r = { 100 + (i % 5) * 720, 300 + (i / 5) * 900, 160,
        200
      };
      g_array_append_val (job.regions, r);
    }
    st = time_regions (&job);
    g_print (" %9.4f", st.median);
    fprintf (csv, "regions,%d,%d,NV12,gaussian s8 invert %d ellipses,8,%.6f,"
        "%.6f,%.6f,,,,\n", w, h, n, st.median, st.min, st.max);
  }
  g_print ("\n");

  region_job_free_frames (&job);
  region_job_clear (&job);
}

/* ---- element level ---- */

typedef struct
{
  GMutex lock;
  GCond cond;
  guint received;
  gint64 last_out;              /* monotonic us */
} SinkState;

static void
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
static void
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

/* appsrc ! FILTER PROPS ! fakesink, playing, counting what reaches the
 * sink. */
typedef struct
{
  GstElement *pipeline, *src, *elem, *sink;
  SinkState st;
} BenchPipeline;

static void
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
static void
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

static void
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
      bench_pipeline ("cudaboxblur", fmt, w, h, TRUE, 3, frames, pinned);
      bench_pipeline ("cudaboxblur", fmt, w, h, FALSE, 3, frames, pinned);
      bench_pipeline (PINNED, fmt, w, h, TRUE, 3, frames, pinned);
      bench_pipeline (PINNED, fmt, w, h, FALSE, 3, frames, pinned);
      bench_pipeline_in_flight ("cudaboxblur", fmt, w, h, TRUE, 3, frames,
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

static gsize
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
static void
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
static gint
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

static gint
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
static gchar *
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

static void
bench_startup (const gchar * self)
{
  g_print ("\nStart-up, GRAY8, each in a new process: the CUDA context timed "
      "apart, then NULL to the first blurred buffer\n");
  bench_startup_size (self, 1920);
  bench_startup_size (self, 320);
}

/* Frames per second of a whole pipeline from PLAYING to EOS, best of
 * @runs. */
static gdouble
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
static gchar *
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

static void
remove_clip (gchar * clip)
{
  gchar *dir = g_path_get_dirname (clip);

  g_unlink (clip);
  g_rmdir (dir);
  g_free (dir);
  g_free (clip);
}

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
static void
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

static void
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
static gint
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
static void
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

int
main (int argc, char **argv)
{
  gchar *csv_path = NULL;
  gint frames = 300;
  gboolean kernels_only = FALSE, gpu_only = FALSE, startup_only = FALSE;
  gboolean regions_only = FALSE, elements_only = FALSE;
  gint child = 0, steps_child = 0, memory_pipelines = 0;
  gchar *memory_arg = NULL;
  GstElementFactory *factory;
  gint soak_frames = 0;
  GOptionEntry entries[] = {
    {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path,
        "Write the results here (default bench.csv)", "FILE"},
    {"repeats", 0, 0, G_OPTION_ARG_INT, &repeats,
        "Timed launches per kernel measurement (default 50)", "N"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames,
        "Frames per element measurement (default 300)", "N"},
    {"kernels-only", 0, 0, G_OPTION_ARG_NONE, &kernels_only,
        "Only the kernels on whole frames", NULL},
    {"choice-only", 0, 0, G_OPTION_ARG_NONE, &choice_only,
        "In the kernels part, only the kernels the element picks (no "
          "other variant, no NPP)", NULL},
    {"width", 0, 0, G_OPTION_ARG_INT, &only_width,
        "In the kernels parts, only frames of this width (1920 or 3840)",
        "W"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &only_format,
        "In the kernels parts, only this format (GRAY8, GRAY32F, NV12, "
          "RGBA or RGB)", "FORMAT"},
    {"radius", 0, 0, G_OPTION_ARG_INT, &only_radius,
        "In the kernels parts, only this radius", "R"},
    {"gpu-memory", 0, 0, G_OPTION_ARG_NONE, &gpu_only,
        "Only the parts on frames in GPU memory: regions in place, "
          "GStreamer's CUDA memory and nvh264dec", NULL},
    {"regions", 0, 0, G_OPTION_ARG_NONE, &regions_only,
        "Only the regions of a 4K frame, in each mode", NULL},
    {"elements", 0, 0, G_OPTION_ARG_NONE, &elements_only,
        "Only the element in pipelines, in each memory mode", NULL},
    {"startup", 0, 0, G_OPTION_ARG_NONE, &startup_only,
        "Only start-up, with the kernel cache cold and warm", NULL},
    {"startup-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &child,
        NULL, NULL},
    {"startup-steps-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT,
        &steps_child, NULL, NULL},
    {"memory", 0, 0, G_OPTION_ARG_INT, &memory_pipelines,
        "Only the GPU memory of decode pipelines with and without "
          "cudaboxblur, by nvidia-smi, one and N in a process", "N"},
    {"memory-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING,
        &memory_arg, NULL, NULL},
    {"soak", 0, 0, G_OPTION_ARG_INT, &soak_frames,
        "Only a soak run of N 1080p frames, in each memory mode (and of N "
          "720p frames decoded by nvh264dec into CUDA memory)", "N"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- benchmark cudaboxblur");
  GstCudaBoxBlurDevice dev;
  GError *error = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    g_error ("%s", error->message);
  g_option_context_free (ctx);
  repeats = MAX (repeats, 1);
  frames = MAX (frames, 1);
  /* progress line by line, also into a pipe or a log */
  setvbuf (stdout, NULL, _IOLBF, 0);

  factory = gst_element_factory_find ("cudaboxblur");
  if (!factory) {
    g_printerr ("cudaboxblur-bench: no cudaboxblur element: run it with "
        "`meson compile -C BUILD bench`, or point GST_PLUGIN_PATH_1_0 at "
        "BUILD/gst\n");
    return 1;
  }
  gst_object_unref (factory);
  if (child > 0)
    return startup_child (child);
  if (steps_child > 0)
    return startup_steps_child (steps_child);
  if (memory_arg)
    return memory_child (memory_arg);

  csv = fopen (csv_path ? csv_path : "bench.csv", "w");
  if (!csv)
    g_error ("cannot write %s", csv_path ? csv_path : "bench.csv");
  fprintf (csv, "part,width,height,format,what,radius,median_ms,min_ms,"
      "max_ms,gbps,ratio,fps,p99_ms\n");

  /* before this process holds a CUDA context of its own */
  if (memory_pipelines > 0) {
    bench_memory (argv[0], memory_pipelines);
    fclose (csv);
    return 0;
  }

  if (!gst_cuda_box_blur_device_open (0, &dev, &error))
    g_error ("%s", error->message);
  g_print ("Device: %s, sm_%d%d%s\n", dev.name, dev.major, dev.minor,
#ifdef HAVE_NPP
      ", NPP found"
#else
      ", NPP not found (no comparison)"
#endif
      );

  if (startup_only) {
    bench_startup (argv[0]);
    fclose (csv);
    return 0;
  }

  if (soak_frames > 0) {
    soak (soak_frames, PINNED);
    soak (soak_frames, "cudaboxblur");
#ifdef HAVE_GST_CUDA
    decode_soak (soak_frames);
#endif
    fclose (csv);
    return 0;
  }

  if (elements_only) {
    bench_elements (frames);
    fclose (csv);
    return 0;
  }

  if (!kernels_only)
    bench_regions (&dev);
  if (regions_only) {
    fclose (csv);
    return 0;
  }
#ifdef HAVE_GST_CUDA
  if (!kernels_only) {
    if (!gst_cuda_load_library ())
      g_error ("cannot load the CUDA driver library");
    gst_cuda_memory_init_once ();
    bench_cuda_memory (&dev, frames);
  }
#endif
  if (gpu_only) {
    fclose (csv);
    return 0;
  }

  if (!kernels_only)
    bench_startup (argv[0]);
  bench_kernels (&dev);
  bench_kernel_formats (&dev);
  if (!kernels_only)
    bench_elements (frames);

  fclose (csv);
  g_free (csv_path);
  g_free (only_format);
  return 0;
}
