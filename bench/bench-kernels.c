/* cudaboxblur-bench: the kernels on frames already on the GPU, whole and in regions
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bench.h"
#include <string.h>

#include "cudaboxblur-engine.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-launch.h"
#include "cudaboxblur-program.h"

#ifdef HAVE_NPP
#include <nppi_filtering_functions.h>
#endif

/* The copies d2d-copy-batched times between two events. */
#define COPY_BATCH 20

static void
run_copy (gpointer data, cudaStream_t stream)
{
  KernelJob *job = data;

  CHECK (cudaMemcpyAsync (job->dst.data, job->src.data, job->bytes,
          cudaMemcpyDeviceToDevice, stream));
}

/* Runs @work for @ms milliseconds. */
static void
warm_up (Work work, gpointer data, cudaStream_t stream, gint ms)
{
  const gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end) {
    work (data, stream);
    CHECK (cudaStreamSynchronize (stream));
  }
}

/* The job's window: its radius both ways, shrinking at the borders. */
static GstCudaBoxBlurWindow
job_window (const KernelJob * job)
{
  GstCudaBoxBlurWindow window = { job->radius, job->radius,
    GST_CUDA_BOX_BLUR_BORDER_SHRINK, 0
  };

  return window;
}

/* Plans and uploads the blur of the job's whole frame with @variant. */
static void
plan_blur (KernelJob * job, GstCudaBoxBlurVariant variant,
    cudaStream_t stream)
{
  const GstCudaBoxBlurWindow window = job_window (job);
  GError *error = NULL;

  gst_cuda_box_blur_plan_reset (job->plan, job->type);
  gst_cuda_box_blur_plan_blur_variant (job->plan, variant, &job->src,
      &job->dst, &window, NULL);
  if (!gst_cuda_box_blur_launcher_upload (job->launcher, job->plan, stream,
          &error))
    g_error ("%s", error->message);
  CHECK (cudaStreamSynchronize (stream));
}

/* The planned launches alone: the kernels' time. */
static void
run_blur (gpointer data, cudaStream_t stream)
{
  KernelJob *job = data;
  GError *error = NULL;

  if (!gst_cuda_box_blur_launcher_launch (job->launcher, job->plan, stream,
          &error))
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


void
bench_kernels (const GstCudaBoxBlurDevice * dev)
{
  /* 1080p and 4K, and another width asked for (--width) at 16:9 */
  const gint sizes[][2] = { {1920, 1080}, {3840, 2160},
  {only_width, only_width * 9 / 16}
  };
  const guint n_sizes = only_width > 0 && only_width != 1920
      && only_width != 3840 ? 3 : 2;
  const gint radii[] = { 1, 2, 3, 7, 15, 30, 63, 127 };
  /* planes of each sample type */
  const struct
  {
    const gchar *format;
    GstCudaBoxBlurSampleType type;
    gint bpp;
  } planes[] = {
    {"GRAY8", GST_CUDA_BOX_BLUR_U8, 1},
    {"GRAY16_LE", GST_CUDA_BOX_BLUR_U16, 2},
    {"GRAY32F", GST_CUDA_BOX_BLUR_F32, 4},
  };
  const GstCudaBoxBlurProgram *program;
  GstCudaBoxBlurLauncher *launcher;
  GError *error = NULL;
  cudaStream_t stream;
  guint s, f, r;

  program = gst_cuda_box_blur_program_get (dev->major, dev->minor, &error);
  if (!program)
    g_error ("%s", error->message);
  launcher = gst_cuda_box_blur_launcher_new (program, NULL);
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
#ifdef HAVE_NPP
  npp_context_init (dev->device_id);
#endif

  g_print ("\nKernels, data on the GPU; ms over %d launches; GB/s counts "
      "the frame read and written; x copy = time / device-to-device copy; "
      "x fastest = time / the faster of that copy and d2d-copy-batched "
      "(%d copies between two events, each one's share)\n", repeats,
      COPY_BATCH);
  g_print ("%-8s %-11s %-8s %-18s %4s %9s %9s %9s %8s %7s %9s\n", "part",
      "size", "format", "what", "r", "median", "min", "max", "GB/s", "x copy",
      "x fastest");

  for (s = 0; s < n_sizes; s++) {
    for (f = 0; f < G_N_ELEMENTS (planes); f++) {
      const gint w = sizes[s][0], h = sizes[s][1], bpp = planes[f].bpp;
      const gchar *fmt = planes[f].format;
      KernelJob job = { gst_cuda_box_blur_plan_new (&dev->target),
        launcher, planes[f].type
      };
      gsize bytes = (gsize) w * h * bpp;
      guint8 *host;
      gdouble copy_ms;
      Stats st, batched;
      GstCudaBoxBlurWindow window;
      gsize i;

      if (!wanted (w, fmt, 0)) {
        gst_cuda_box_blur_plan_free (job.plan);
        continue;
      }
      host = g_malloc (bytes);
      for (i = 0; i < bytes; i++)
        host[i] = job.type == GST_CUDA_BOX_BLUR_F32 ?
            (i % 4 == 3 ? 0x3f : (guint8) (i * 37)) : (guint8) i;
      job.bytes = bytes;
      job.src = (GstCudaBoxBlurPlane) { NULL, w, h, w * bpp, bpp };
      job.dst = job.src;
      CHECK (cudaMalloc ((void **) &job.src.data, bytes));
      CHECK (cudaMalloc ((void **) &job.dst.data, bytes));
      CHECK (cudaMemcpy (job.src.data, host, bytes, cudaMemcpyHostToDevice));

      /* the copy, the baseline of "x copy", timed after 100 ms of copies
       * (no kernel launch, which a profiler's --launch-skip would count),
       * so that the GPU's clocks are up as they are for the kernels; timed
       * again after them, for comparison */
      warm_up (run_copy, &job, stream, 100);
      st = time_gpu (run_copy, &job, stream);
      copy_ms = st.median;
      batched = time_gpu_batched (run_copy, &job, stream, COPY_BATCH);
      fastest_copy_ms = MIN (copy_ms, batched.median);
      report ("kernel", w, h, fmt, "d2d-copy", 0, st, 2 * bytes, copy_ms);
      report ("kernel", w, h, fmt, "d2d-copy-batched", 0, batched,
          2 * bytes, copy_ms);

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
        window = job_window (&job);
        plan_blur (&job, gst_cuda_box_blur_plan_choose_plane (job.plan,
                &job.src, &job.dst, &window, NULL), stream);
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
        plan_blur (&job, GST_CUDA_BOX_BLUR_STRIPS, stream);
        if (gst_cuda_box_blur_plan_get_launch (job.plan, 0)->kernel ==
            GST_CUDA_BOX_BLUR_KERNEL_STRIPS_U8)
          report ("kernel", w, h, fmt, "strips", job.radius,
              time_gpu (run_blur, &job, stream), 2 * bytes, copy_ms);
#ifdef HAVE_NPP
        if (job.type == GST_CUDA_BOX_BLUR_U16)
          continue;
        report ("kernel", w, h, fmt, "npp-box-border", job.radius,
            time_gpu (run_npp_plain, &job, stream), 2 * bytes, copy_ms);
        report ("kernel", w, h, fmt, "npp-box-advanced", job.radius,
            time_gpu (run_npp_advanced, &job, stream), 2 * bytes, copy_ms);
#endif
      }
      report ("kernel", w, h, fmt, "d2d-copy-after", 0,
          time_gpu (run_copy, &job, stream), 2 * bytes, copy_ms);
      fastest_copy_ms = 0;

#ifdef HAVE_NPP
      CHECK (cudaFree (npp_buffer));
#endif
      CHECK (cudaFree (job.src.data));
      CHECK (cudaFree (job.dst.data));
      gst_cuda_box_blur_plan_free (job.plan);
      g_free (host);
    }
  }
  gst_cuda_box_blur_launcher_free (launcher);
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
 * component, through the engine, into another frame): NV12, RGBA, RGB,
 * and the formats of cameras and decoders to hold against NV12 (YUY2,
 * P010), at 1080p and 4K, against a device copy of the frame. */
void
bench_kernel_formats (const GstCudaBoxBlurDevice * dev)
{
  const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  const struct
  {
    const gchar *format;
    gint radius;
  } cases[] = { {"NV12", 1}, {"NV12", 8}, {"RGBA", 1}, {"RGBA", 2},
  {"RGBA", 7}, {"RGBA", 15}, {"RGB", 1}, {"RGB", 2}, {"RGB", 7}, {"RGB", 15},
  {"YUY2", 1}, {"YUY2", 8}, {"P010_10LE", 1}, {"P010_10LE", 8}
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
      Stats copy, batched;

      if (!wanted (w, cases[c].format, cases[c].radius))
        continue;
      region_job_frames (&job, cases[c].format, w, h);
      gst_cuda_box_blur_settings_init (&job.settings);
      job.settings.radius_x = job.settings.radius_y = cases[c].radius;
      g_array_set_size (job.regions, 0);
      g_array_append_val (job.regions, whole);

      copy = time_gpu (run_frame_copy, &job,
          gst_cuda_box_blur_engine_get_stream (job.engine));
      batched = time_gpu_batched (run_frame_copy, &job,
          gst_cuda_box_blur_engine_get_stream (job.engine), COPY_BATCH);
      fastest_copy_ms = MIN (copy.median, batched.median);
      if (w != copied_w || strcmp (cases[c].format, copied) != 0) {
        report ("kernel", w, h, cases[c].format, "d2d-copy", 0, copy,
            2 * job.info.size, copy.median);
        report ("kernel", w, h, cases[c].format, "d2d-copy-batched", 0,
            batched, 2 * job.info.size, copy.median);
      }
      copied = cases[c].format;
      copied_w = w;
      report ("kernel", w, h, cases[c].format, "cudaboxblur",
          cases[c].radius, time_regions (&job), 2 * job.info.size,
          copy.median);
      region_job_free_frames (&job);
    }
  fastest_copy_ms = 0;
  region_job_clear (&job);
}

/* Each redaction on the whole of a 4K NV12 frame in device memory (into
 * another frame) and on 1, 10 and 100 face-sized regions of it (96x96,
 * in place, and the 100 into another frame too); GPU time of the
 * engine's call. */
void
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
