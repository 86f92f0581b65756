/* cudaboxblur: every kernel the plan chooses, in every combination, against
 * the CPU reference
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The memory-safety sweep.  Each family of pixels (8-bit, 16-bit and
 * float32 samples, subsampled planes, pairs, pixels of three and of four,
 * rows not 4-byte aligned) goes through every kind of window (3x3, the
 * other direct windows, the one pass, the two passes, 32-bit column sums,
 * a Gaussian's boxes, pixelate, fill) with 1, 2, 3 and 8 passes, on the
 * whole frame, a static ROI, regions inside and on the edges (overlapping,
 * partly outside, 1 pixel wide or high, with shapes, feathers and radii of
 * their own), inverted, and no-region, on frames from 1x1 to 97x71, in
 * every border mode, into another frame and in place.  Every case runs on
 * an engine of its own, with its frames in device memory of their exact
 * size, so that compute-sanitizer (scripts/gpu-sanitize.sh) sees any read
 * outside them, or of memory nothing wrote; and every case is held
 * against the CPU reference.  test_every_kernel_reached checks that the
 * sweep launched every kernel of the plan's table, so that a new kernel
 * cannot be left out of it.  The memory checker's findings through the
 * element are cases of their own, and so are streams of random settings
 * and metas (test_random_frames).  Exits with 77 (skipped) and says why
 * when there is no usable GPU.
 *
 * With --plans (the suite sweep-plans, no GPU) every case is only
 * planned, on the CPU, for an H200, into another frame and in place, and
 * held to the memory rule (test_check_plan() in testplans.c): so are the
 * cases of every format the element takes besides the families, and
 * streams of random settings and metas; test_every_kernel_reached checks
 * the plans' kernels, so that the chooser's coverage of the kernel table
 * is checked on every machine.  It prints a digest of the plans (their
 * launches, arguments and copies, with pointers as offsets into the
 * memory they lie in): a change meant to leave every plan as it was must
 * leave the digests as they were.
 */

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

#include "testframes.h"
#include "testfuzz.h"
#include "testplans.h"

static GstCudaBoxBlurDevice device;
/* --plans: plan the cases, for an H200, and run none */
static gboolean plans_only;
static const GstCudaBoxBlurTarget h200 = { 132, 233472, 1024 };
static const GstCudaBoxBlurProgram *program;

/* The kernels the sweep launched, by GstCudaBoxBlurKernel; the families
 * it ran. */
static guint *launched;
static guint families_done;
/* --plans: a digest of every plan, its pointers as offsets into the
 * blocks of memory it works in (test_check_plan()) */
static GChecksum *digest;

typedef struct
{
  const gchar *format;
  gint pad;                     /* bytes past each row of the input */
  gint even;                    /* 1: its frames' widths rounded up to even */
} Family;

static const Family families[] = {
  {"GRAY8", 0},                 /* 8-bit samples of their own */
  {"GRAY16_LE", 0},
  {"GRAY32F", 0},
  {"I420", 0},                  /* subsampled planes, odd chroma sizes */
  {"NV12", 0},                  /* pairs */
  {"RGB", 0},                   /* pixels of three */
  {"RGBA", 0},                  /* pixels of four, whole */
  {"BGRx", 3},                  /* rows not 4-byte aligned: a component at
                                 * a time */
  {"P010_10LE", 0},             /* 16-bit pairs, 10 bits in the high bits
                                 * of each word */
  /* packed 4:2:2: luma and chroma of steps 2 and 4 in one plane; of an
   * even width in one pass (box_tiles_422), of an odd one a component at
   * a time, the last luma byte no pixel's */
  {"YUY2", 0, 1},
  {"UYVY", 0},
};

typedef struct
{
  const gchar *name;
  GstCudaBoxBlurMode mode;
  gint radius_x;
  gint radius_y;
  gdouble sigma;
  gint block_size;
  gint passes[4];               /* 0 ends the list */
} Window;

static const Window windows[] = {
  {"3x3", GST_CUDA_BOX_BLUR_MODE_BOX, 1, 1, 0, 0, {1, 2, 3, 8}},
  {"5x1 direct", GST_CUDA_BOX_BLUR_MODE_BOX, 2, 0, 0, 0, {1, 2, 3, 8}},
  {"11x7 one pass", GST_CUDA_BOX_BLUR_MODE_BOX, 5, 3, 0, 0, {1, 2, 3, 8}},
  {"41x35 two passes", GST_CUDA_BOX_BLUR_MODE_BOX, 20, 17, 0, 0,
      {1, 2, 3, 8}},
  {"5x261 32-bit sums", GST_CUDA_BOX_BLUR_MODE_BOX, 2, 130, 0, 0, {1, 2}},
  /* boxes of radius 1 with 3 passes, of radii 0 and 1 with 8 */
  {"gaussian", GST_CUDA_BOX_BLUR_MODE_GAUSSIAN, 0, 0, 1.5, 0, {3, 8}},
  {"pixelate", GST_CUDA_BOX_BLUR_MODE_PIXELATE, 0, 0, 0, 5, {1}},
  {"fill", GST_CUDA_BOX_BLUR_MODE_FILL, 0, 0, 0, 0, {1}},
};

static const gint sizes[][2] = {
  {1, 1}, {1, 9}, {9, 1}, {2, 2}, {37, 23}, {97, 71},
};

typedef enum
{
  LAYOUT_WHOLE,
  LAYOUT_ROI,                   /* the roi properties */
  LAYOUT_INSIDE,                /* metas inside the frame */
  LAYOUT_EDGES,                 /* metas on and across its edges */
  LAYOUT_EDGES_INVERTED,
  LAYOUT_NO_REGION,             /* metas wanted, none there: redacted */
  N_LAYOUTS,
} Layout;

static const gchar *const layout_names[] = { "whole frame", "roi",
  "regions inside", "regions on the edges", "inverted", "no region"
};

static const GstCudaBoxBlurBorder borders[] = {
  GST_CUDA_BOX_BLUR_BORDER_SHRINK, GST_CUDA_BOX_BLUR_BORDER_CLAMP,
  GST_CUDA_BOX_BLUR_BORDER_MIRROR, GST_CUDA_BOX_BLUR_BORDER_WRAP,
  GST_CUDA_BOX_BLUR_BORDER_CONSTANT,
};

/* A "face" meta of @buf at (@x, @y), @w x @h, clamped to unsigned
 * coordinates, with the cudaboxblur parameters of @params (NULL: none;
 * taken). */
static void
add_region (GstBuffer * buf, gint x, gint y, gint w, gint h,
    GstStructure * params)
{
  GstVideoRegionOfInterestMeta *m =
      gst_buffer_add_video_region_of_interest_meta (buf, "face", MAX (x, 0),
      MAX (y, 0), MAX (w, 1), MAX (h, 1));

  if (params)
    gst_video_region_of_interest_meta_add_param (m, params);
}

static GstStructure *
region_params (const gchar * first, ...)
{
  GstStructure *s;
  va_list args;

  va_start (args, first);
  s = gst_structure_new_valist (GST_CUDA_BOX_BLUR_META_PARAMS, first, args);
  va_end (args);
  return s;
}

/* Regions inside a @w x @h frame: two overlapping (the later an ellipse
 * feathered over 2 pixels), one 1 pixel wide, one 1 pixel high, one of
 * radius 1 of its own. */
static void
add_regions_inside (GstBuffer * buf, gint w, gint h)
{
  add_region (buf, w / 5, h / 5, w / 3 + 1, h / 3 + 1, NULL);
  add_region (buf, w / 5 + w / 6, h / 5 + h / 6, w / 3 + 1, h / 3 + 1,
      region_params ("shape", G_TYPE_STRING, "ellipse", "feather",
          G_TYPE_INT, 2, NULL));
  add_region (buf, w * 3 / 4, h / 4, 1, h / 2 + 1, NULL);
  add_region (buf, w / 4, h * 3 / 4, w / 2 + 1, 1, NULL);
  add_region (buf, w / 2, h / 2, w / 4 + 1, h / 4 + 1,
      region_params ("radius", G_TYPE_INT, 1, NULL));
}

/* Regions on each edge of a @w x @h frame, at a corner, and partly outside
 * it (one an ellipse feathered over 3 pixels, one far wider than the
 * frame). */
static void
add_regions_on_edges (GstBuffer * buf, gint w, gint h)
{
  add_region (buf, 0, h / 3, w / 4 + 1, h / 3 + 1, NULL);
  add_region (buf, w / 3, 0, w / 3 + 1, h / 4 + 1, NULL);
  add_region (buf, w - w / 4 - 1, h / 3, w / 4 + 1, h / 3 + 1, NULL);
  add_region (buf, w / 3, h - h / 4 - 1, w / 3 + 1, h / 4 + 1, NULL);
  add_region (buf, 0, 0, 2, 2, NULL);
  add_region (buf, w - 2, h - 2, 10, 10, region_params ("shape",
          G_TYPE_STRING, "ellipse", "feather", G_TYPE_INT, 3, NULL));
  add_region (buf, w / 2, h / 2, 4 * w, 1, NULL);
}

/* Sets @s and @in's metas for @layout. */
static void
apply_layout (Layout layout, GstCudaBoxBlurSettings * s, GstBuffer * in,
    gint w, gint h)
{
  switch (layout) {
    case LAYOUT_WHOLE:
      break;
    case LAYOUT_ROI:
      s->roi.x = w / 4;
      s->roi.y = h / 3;
      s->roi.w = w / 2 + 1;
      s->roi.h = h / 3 + 1;
      break;
    case LAYOUT_INSIDE:
      s->roi_meta = TRUE;
      add_regions_inside (in, w, h);
      break;
    case LAYOUT_EDGES_INVERTED:
      s->invert = TRUE;
      /* fall through */
    case LAYOUT_EDGES:
      s->roi_meta = TRUE;
      add_regions_on_edges (in, w, h);
      break;
    case LAYOUT_NO_REGION:
      s->roi_meta = TRUE;
      s->no_region = GST_CUDA_BOX_BLUR_NO_REGION_REDACT;
      break;
    case N_LAYOUTS:
      g_assert_not_reached ();
  }
}

/* Counts the kernels of @engine's last frame. */
static void
count_launches (const GstCudaBoxBlurEngine * engine)
{
  guint i;

  for (i = 0; i < gst_cuda_box_blur_engine_n_launches (engine); i++) {
    launched[gst_cuda_box_blur_engine_launch_kernel (engine, i)]++;
  }
}

/* Frame @in of @format, @w x @h, with @settings (and @hold: NULL, or the
 * regions held from earlier frames) on an engine of its own: into another
 * frame, and in place where the element would take it; with --plans,
 * their plans alone. */
static void
run_frame (const gchar * format, const GstCudaBoxBlurSettings * settings,
    GstBuffer * in, gint w, gint h, GstCudaBoxBlurHold * hold)
{
  GstCudaBoxBlurInfo info = test_info (format, w, h);
  GstCudaBoxBlurImage src = { 0, }, dst = { 0, };
  GstCudaBoxBlurEngine *engine;
  GstCudaBoxBlurJob job;
  GError *error = NULL;
  guint8 *src_mem, *dst_mem;

  gst_cuda_box_blur_job_init (&job);
  gst_cuda_box_blur_job_resolve (&job, settings, &info, in, hold);
  if (GST_LEVEL_DEBUG <= _gst_debug_min) {
    gchar *description = gst_cuda_box_blur_job_to_string (&job);

    GST_DEBUG ("%s", description);
    g_free (description);
  }
  if (plans_only) {
    src_mem = test_place_buffer (&src, &info, GST_CUDA_BOX_BLUR_IN_HOST, in);
    dst_mem = test_place_frame (&dst, &info, GST_CUDA_BOX_BLUR_IN_HOST, NULL);
    test_check_plan (&h200, &job, &src, gst_buffer_get_size (in), &dst,
        info.size, launched, digest);
    if (gst_cuda_box_blur_job_in_place_helps (&job))
      test_check_plan (&h200, &job, &src, gst_buffer_get_size (in), NULL, 0,
          launched, digest);
    test_release (GST_CUDA_BOX_BLUR_IN_HOST, src_mem);
    test_release (GST_CUDA_BOX_BLUR_IN_HOST, dst_mem);
    gst_cuda_box_blur_job_clear (&job);
    return;
  }
  engine = gst_cuda_box_blur_engine_new (&device, program, NULL, &error);
  fail_unless (engine != NULL, "%s", error ? error->message : "");

  src_mem = test_place_buffer (&src, &info, GST_CUDA_BOX_BLUR_IN_DEVICE, in);
  dst_mem = test_place_frame (&dst, &info, GST_CUDA_BOX_BLUR_IN_DEVICE, NULL);
  fail_unless (gst_cuda_box_blur_engine_blur (engine, &job, &src, &dst,
          &error), "%s", error ? error->message : "");
  count_launches (engine);
  test_assert_frame (in, dst_mem, format, w, h, settings);
  test_release (GST_CUDA_BOX_BLUR_IN_DEVICE, dst_mem);

  if (gst_cuda_box_blur_job_in_place_helps (&job)) {
    fail_unless (gst_cuda_box_blur_engine_blur_in_place (engine, &job, &src,
            &error), "%s", error ? error->message : "");
    count_launches (engine);
    test_assert_in_place (in, src_mem, format, w, h, settings);
  }

  test_release (GST_CUDA_BOX_BLUR_IN_DEVICE, src_mem);
  gst_cuda_box_blur_job_clear (&job);
  gst_cuda_box_blur_engine_free (engine);
}

/* One case of @family in @layout (run_frame()). */
static void
run_case (const Family * family, const GstCudaBoxBlurSettings * s,
    Layout layout, gint w, gint h, guint seed)
{
  GstBuffer *in = test_buffer_new (NULL, family->format, w, h, family->pad,
      seed);
  GstCudaBoxBlurSettings settings = *s;

  apply_layout (layout, &settings, in, w, h);
  GST_DEBUG ("%s %dx%d mode %d r %d,%d passes %d border %d, %s",
      family->format, w, h, settings.mode, settings.radius_x,
      settings.radius_y, settings.passes, settings.border,
      layout_names[layout]);
  run_frame (family->format, &settings, in, w, h, NULL);
  gst_buffer_unref (in);
}

/* Every window, pass count (the first of each window's only, where
 * @first_passes), layout and size of @family, each border mode in turn. */
static void
sweep (const Family * family, gboolean first_passes)
{
  guint wi, p, layout, z, cases = 0;

  for (wi = 0; wi < G_N_ELEMENTS (windows); wi++) {
    const Window *win = &windows[wi];

    for (p = 0; p < (first_passes ? 1 : G_N_ELEMENTS (win->passes))
        && win->passes[p]; p++)
      for (layout = 0; layout < N_LAYOUTS; layout++)
        for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
          GstCudaBoxBlurSettings s;

          gst_cuda_box_blur_settings_init (&s);
          s.mode = win->mode;
          s.radius_x = win->radius_x;
          s.radius_y = win->radius_y;
          if (win->sigma > 0)
            s.sigma = win->sigma;
          if (win->block_size > 0)
            s.block_size = win->block_size;
          s.passes = win->passes[p];
          s.fill_color = 0x80ff8000;
          s.blur_alpha = z % 2;
          s.border = borders[(wi + p + layout + z) % G_N_ELEMENTS (borders)];
          s.border_value = g_str_equal (family->format, "GRAY32F") ? 0.25 : 100;
          run_case (family, &s, layout, sizes[z][0] + (family->even
                  && sizes[z][0] % 2), sizes[z][1], cases++);
        }
  }
  GST_INFO ("%s, rows %d bytes longer: %u cases", family->format,
      family->pad, cases);
}

/* Whether CUDABOXBLUR_SWEEP_FAMILIES, a comma-separated list of the
 * families' formats, picks @family: a run under a tool that must end
 * within a time limit (the sanitizers) can take the families in parts.
 * All of them where it is not set. */
static gboolean
family_picked (const Family * family)
{
  const gchar *list = g_getenv ("CUDABOXBLUR_SWEEP_FAMILIES");
  gchar **names;
  gboolean picked;

  if (!list)
    return TRUE;
  names = g_strsplit (list, ",", -1);
  picked = g_strv_contains ((const gchar * const *) names, family->format);
  g_strfreev (names);
  return picked;
}

static void
sweep_family (guint f)
{
  if (family_picked (&families[f]))
    sweep (&families[f], FALSE);
  else
    g_print ("sweep: %s left out: CUDABOXBLUR_SWEEP_FAMILIES picks "
        "others\n", families[f].format);
  families_done |= 1u << f;
}

GST_START_TEST (test_sweep)
{
  sweep_family (__i__);
}

GST_END_TEST;

/* --plans: the cases of every format the element takes, each window with
 * its first pass count (the families take the others), rows tight and
 * rows a sample longer (8-bit ones 3 bytes: not 4-byte aligned), planned
 * and checked as the families' are. */
GST_START_TEST (test_every_format_planned)
{
  guint i;

  g_checksum_reset (digest);
  for (i = 0; i < test_n_formats; i++) {
    const gint size = test_info (test_formats[i], 1, 1).sample_size;
    const Family tight = { test_formats[i], 0 };
    const Family longer = { test_formats[i], size == 1 ? 3 : size };

    sweep (&tight, TRUE);
    sweep (&longer, TRUE);
  }
  g_print ("every format: plans' digest %s\n", g_checksum_get_string (digest));
}

GST_END_TEST;

/* The streams test_random_frames runs: CUDABOXBLUR_SWEEP_RANDOM where set;
 * else 500 planned, 60 on a GPU, none there when
 * CUDABOXBLUR_SWEEP_FAMILIES picks families (a sanitizer run in parts
 * takes them in a part of their own). */
static guint
random_streams (void)
{
  const gchar *env = g_getenv ("CUDABOXBLUR_SWEEP_RANDOM");

  if (env)
    return (guint) g_ascii_strtoull (env, NULL, 10);
  if (plans_only)
    return 500;
  return g_getenv ("CUDABOXBLUR_SWEEP_FAMILIES") ? 0 : 60;
}

/* Streams of random redaction settings and region metas (those of the
 * element's redaction fuzz, testfuzz.h), each of a random format, size and
 * row padding, as the memory checker's run that found the 3x3 kernels'
 * reads was.  With --plans six frames a stream, with roi-hold up to 3 so
 * that regions are held and move between frames, each frame planned and
 * held to the memory rule; on a GPU three frames a stream without
 * roi-hold (the reference knows no held regions), each blurred into
 * another frame and in place against the reference, under the sanitizers
 * in scripts/gpu-sanitize.sh. */
GST_START_TEST (test_random_frames)
{
  const guint streams = random_streams ();
  const guint frames = plans_only ? 6 : 3;
  guint32 seed;
  GRand *rand = test_fuzz_rand_new ("frames", &seed);
  guint stream, frame;
  gint n;

  if (digest)                   /* random plans: no digest to compare */
    g_checksum_reset (digest);
  for (stream = 0; stream < streams; stream++) {
    const gchar *format =
        test_formats[g_rand_int_range (rand, 0, test_n_formats)];
    const gint size = test_info (format, 1, 1).sample_size;
    const gint w = g_rand_int_range (rand, 1, 130);
    const gint h = g_rand_int_range (rand, 1, 100);
    const gint pad = g_rand_int_range (rand, 0, 9) * size;
    GstCudaBoxBlurSettings s;
    GstCudaBoxBlurHold hold;

    test_fuzz_settings (&s, rand, w, h);
    s.roi_hold = plans_only ? g_rand_int_range (rand, 0, 4) : 0;
    GST_DEBUG ("stream %u (seed %u): %s %dx%d, rows %d bytes longer",
        stream, seed, format, w, h, pad);
    gst_cuda_box_blur_hold_init (&hold);
    for (frame = 0; frame < frames; frame++) {
      GstBuffer *in = test_buffer_new (NULL, format, w, h, pad, frame);

      for (n = g_rand_int_range (rand, 0, 5); n > 0; n--)
        test_fuzz_meta_add (in, rand, w, h);
      run_frame (format, &s, in, w, h, plans_only ? &hold : NULL);
      gst_buffer_unref (in);
    }
    gst_cuda_box_blur_hold_clear (&hold);
  }
  g_print ("random frames: %u streams of %u frames\n", streams, frames);
  g_rand_free (rand);
}

GST_END_TEST;

/* Every kernel of the program was launched by the sweep (which runs here
 * for the families not run yet, when tests are picked by GST_CHECKS). */
GST_START_TEST (test_every_kernel_reached)
{
  GString *missing;
  guint f, k;

  if (g_getenv ("CUDABOXBLUR_SWEEP_FAMILIES")) {
    g_print ("test_every_kernel_reached: skipped: CUDABOXBLUR_SWEEP_FAMILIES "
        "picks some families only\n");
    return;
  }
  missing = g_string_new (NULL);
  for (f = 0; f < G_N_ELEMENTS (families); f++)
    if (!(families_done & (1u << f)))
      sweep_family (f);
  for (k = 0; k < GST_CUDA_BOX_BLUR_N_KERNELS; k++) {
    GST_INFO ("%s: %u launches", gst_cuda_box_blur_kernel_name (k),
        launched[k]);
    /* the strip walker runs only where it is asked for (slower than the
     * one pass so far: docs/kernels.md, "Strips"); the kernels suite's
     * test_strips and test_strips_borders hold it to the reference, and
     * scripts/gpu-sanitize.sh runs them as the kernels suite */
    if (launched[k] == 0 && k != GST_CUDA_BOX_BLUR_KERNEL_STRIPS_U8)
      g_string_append_printf (missing, " %s",
          gst_cuda_box_blur_kernel_name (k));
  }
  if (plans_only)
    g_print ("families: plans' digest %s\n", g_checksum_get_string (digest));
  fail_unless (missing->len == 0, "the sweep never %s:%s",
      plans_only ? "planned" : "launched", missing->str);
  g_string_free (missing, TRUE);
}

GST_END_TEST;

/* One frame of @format through the element with @s and the metas
 * @add_metas (may be NULL) adds, against the reference. */
static void
check_element (const gchar * format, gint w, gint h,
    const GstCudaBoxBlurSettings * s, void (*add_metas) (GstBuffer *))
{
  GstHarness *harness = test_harness_new (format, w, h);
  GstBuffer *in = test_buffer_new (NULL, format, w, h, 0, w + h);
  GstBuffer *out;

  test_apply_settings (harness->element, s);
  if (add_metas)
    add_metas (in);
  out = gst_harness_push_and_pull (harness, gst_buffer_ref (in));
  fail_unless (out != NULL);
  test_assert_output (in, out, format, w, h, s);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (harness);
}

static void
one_region (GstBuffer * buf)
{
  add_region (buf, 5, 5, 40, 30, NULL);
}

static void
two_regions (GstBuffer * buf)
{
  add_region (buf, 5, 5, 40, 30, NULL);
  add_region (buf, 30, 20, 50, 41, NULL);
}

static void
gaussian_regions (GstBuffer * buf)
{
  add_region (buf, 7, 3, 120, 90, region_params ("mode", G_TYPE_STRING,
          "gaussian", NULL));
  add_region (buf, 300, 60, 97, 91, region_params ("mode", G_TYPE_STRING,
          "gaussian", "sigma", G_TYPE_DOUBLE, 1.0, NULL));
}

static void
box_radius_1_region (GstBuffer * buf)
{
  add_region (buf, 9, 4, 33, 21, region_params ("mode", G_TYPE_STRING,
          "box", "radius", G_TYPE_INT, 1, NULL));
}

/* What a memory checker found through the element before the 3x3
 * kernels kept their reads to the rows their windows take: 3x3 boxes in
 * regions with more than one pass read up to two rows past the region's
 * halo copy. */
GST_START_TEST (test_memory_checker_findings)
{
  GstCudaBoxBlurSettings s;

  /* the reproduction: 36 reads past the halo copy in box_blur3_f32 */
  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.passes = 2;
  check_element ("GRAY32F", 97, 71, &s, one_region);

  /* regions' own Gaussians on pixels of four (box_blur3_px4) */
  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  check_element ("xBGR", 640, 151, &s, gaussian_regions);

  /* a Gaussian of five boxes on two regions (box_blur3_f32) */
  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
  s.sigma = 2;
  s.passes = 5;
  check_element ("GRAY32F", 97, 71, &s, two_regions);

  /* a region's own 3x3 box, three passes (box_tiles_u8) */
  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.radius_x = s.radius_y = 6;
  s.passes = 3;
  check_element ("GRAY8", 61, 47, &s, box_radius_1_region);

  /* uninitialised rows of the halo copies read by the 3x3 box */
  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
  s.sigma = 1.5;
  check_element ("Y444", 97, 71, &s, two_regions);
  check_element ("YV12", 97, 71, &s, two_regions);
}

GST_END_TEST;

static Suite *
sweep_suite (void)
{
  Suite *s = suite_create ("sweep");
  TCase *tc = tcase_create ("sweep");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_sweep, 0, G_N_ELEMENTS (families));
  tcase_add_test (tc, test_every_kernel_reached);
  tcase_add_test (tc, test_random_frames);
  if (plans_only)
    tcase_add_test (tc, test_every_format_planned);
  else
    tcase_add_test (tc, test_memory_checker_findings);
  return s;
}

static void
sweep_setup (void)
{
  GError *error = NULL;

  if (!gst_cuda_box_blur_device_open (0, &device, &error)
      || !(program = gst_cuda_box_blur_program_get (device.major,
              device.minor, &error)))
    g_error ("%s", error->message);
  launched = g_new0 (guint, GST_CUDA_BOX_BLUR_N_KERNELS);
}

static void
sweep_teardown (void)
{
  g_free (launched);
}

static const TestGpuNeeds needs = {
  .setup = sweep_setup,
  .teardown = sweep_teardown,
};

int
main (int argc, char **argv)
{
  gint ret;

  if (argc < 2 || strcmp (argv[1], "--plans") != 0)
    return test_gpu_check_main (argc, argv, "sweep", sweep_suite, &needs,
        __FILE__);
  plans_only = TRUE;
  argv[1] = argv[0];
  argc--;
  argv++;
  gst_check_init (&argc, &argv);
  launched = g_new0 (guint, GST_CUDA_BOX_BLUR_N_KERNELS);
  digest = g_checksum_new (G_CHECKSUM_SHA256);
  ret = gst_check_run_suite (sweep_suite (), "sweep-plans", __FILE__);
  g_checksum_free (digest);
  g_free (launched);
  return ret;
}
