/* cudaboxblur: the plan's choice of kernels, on the CPU
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the plan (plan/) launches for a window, on a GPU it is told about
 * (GstCudaBoxBlurTarget): the one pass where it wins and can go, the two
 * passes elsewhere; what a frame's plan copies around its launches; and
 * which tasks share a launch (the layers of regions, the pixel groups).
 * Frames in host memory: the plan makes no CUDA call, and nothing runs.
 * (That each variant blurs right is the kernels suite's, on a GPU.)
 */

#include <gst/check/gstcheck.h>

#include "cudaboxblur-frameplan.h"
#include "cudaboxblur-groups.h"
#include "cudaboxblur-plan.h"
#include "boxblur-args.h"
#include "testutils.h"

/* An H200: 132 multiprocessors of 228 KiB of shared memory, 1 KiB of it
 * reserved a block.  A T4 (Turing): 40 of 64 KiB, which hold one tile of
 * the one pass only. */
static const GstCudaBoxBlurTarget h200 = { 132, 233472, 1024 };
static const GstCudaBoxBlurTarget t4 = { 40, 65536, 0 };
static const GstCudaBoxBlurTarget unknown = { 0, 0, 0 };

/* The kernels the plan launches for @variant over a whole @w x @h plane
 * of @format, on @target: their number, and the first. */
static guint
plan_whole (const GstCudaBoxBlurTarget * target,
    GstCudaBoxBlurVariant variant, const gchar * format, gint w, gint h,
    gint rx, gint ry, GstCudaBoxBlurBorder border,
    GstCudaBoxBlurKernel * first)
{
  const GstCudaBoxBlurInfo info = test_info (format, w, h);
  GstCudaBoxBlurWindow window = { rx, ry, border, 0.0 };
  GstCudaBoxBlurPlan *plan = gst_cuda_box_blur_plan_new (target);
  GstCudaBoxBlurPlane src = { NULL, w, h, info.stride[0], info.comp[0].step };
  GstCudaBoxBlurPlane dst = src;
  guint n;

  src.data = g_malloc (info.size);
  dst.data = g_malloc (info.size);
  gst_cuda_box_blur_plan_reset (plan, info.type);
  gst_cuda_box_blur_plan_blur_variant (plan, variant, &src, &dst, &window,
      NULL);
  gst_cuda_box_blur_plan_end_batch (plan);
  n = gst_cuda_box_blur_plan_n_launches (plan);
  fail_unless (n > 0);
  *first = gst_cuda_box_blur_plan_get_launch (plan, 0)->kernel;
  g_free (src.data);
  g_free (dst.data);
  gst_cuda_box_blur_plan_free (plan);
  return n;
}

/* The one pass is what the plan takes where it is asked for, and on its
 * own for 8-bit, 16-bit and float32 windows up to its radius on GPUs of
 * the H200's shared memory (or unknown ones); two passes where it cannot
 * go: windows that wrap around the sides, more rows than its tiles take,
 * larger windows, and GPUs whose multiprocessors hold fewer than two of
 * its tiles. */
GST_START_TEST (test_one_pass_choice)
{
  const struct
  {
    const GstCudaBoxBlurTarget *target;
    GstCudaBoxBlurVariant variant;
    gint rx, ry;
    GstCudaBoxBlurBorder border;
    gboolean one_pass;
  } cases[] = {
    {&h200, GST_CUDA_BOX_BLUR_ONE_PASS, 7, 7, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
        TRUE},
    {&h200, GST_CUDA_BOX_BLUR_ONE_PASS, 40, 9,
        GST_CUDA_BOX_BLUR_BORDER_MIRROR, TRUE},
    {&h200, GST_CUDA_BOX_BLUR_ONE_PASS, 2, 63,
        GST_CUDA_BOX_BLUR_BORDER_SHRINK, TRUE},
    {&h200, GST_CUDA_BOX_BLUR_ONE_PASS, 2, 64,
        GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE},
    {&h200, GST_CUDA_BOX_BLUR_ONE_PASS, 7, 7, GST_CUDA_BOX_BLUR_BORDER_WRAP,
        FALSE},
    {&h200, GST_CUDA_BOX_BLUR_SEPARABLE, 15, 15,
        GST_CUDA_BOX_BLUR_BORDER_SHRINK, TRUE},
    {&h200, GST_CUDA_BOX_BLUR_SEPARABLE, 16, 16,
        GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE},
    {&t4, GST_CUDA_BOX_BLUR_SEPARABLE, 7, 7, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
        FALSE},
    {&t4, GST_CUDA_BOX_BLUR_ONE_PASS, 7, 7, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
        TRUE},
    {&unknown, GST_CUDA_BOX_BLUR_SEPARABLE, 7, 7,
        GST_CUDA_BOX_BLUR_BORDER_SHRINK, TRUE},
  };
  const struct
  {
    const gchar *format;
    GstCudaBoxBlurKernel tiles, columns;
  } formats[] = {
    {"GRAY8", GST_CUDA_BOX_BLUR_KERNEL_TILES_U8,
        GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_U8_16},
    {"GRAY16_LE", GST_CUDA_BOX_BLUR_KERNEL_TILES_U16,
        GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_U16},
    {"GRAY32F", GST_CUDA_BOX_BLUR_KERNEL_TILES_F32,
        GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_F32},
  };
  GstCudaBoxBlurKernel kernel;
  guint f, c;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      const guint n = plan_whole (cases[c].target, cases[c].variant,
          formats[f].format, 1920, 1080, cases[c].rx, cases[c].ry,
          cases[c].border, &kernel);

      GST_INFO ("%s case %u: %u launches, first %s", formats[f].format, c, n,
          gst_cuda_box_blur_kernel_name (kernel));
      fail_unless_equals_int (n, cases[c].one_pass ? 1 : 2);
      fail_unless_equals_string (gst_cuda_box_blur_kernel_name (kernel),
          gst_cuda_box_blur_kernel_name (cases[c].one_pass ?
              formats[f].tiles : formats[f].columns));
    }
}

GST_END_TEST;

/* The window's rule (gst_cuda_box_blur_plan_choose()): blocks are
 * pixelated, small boxes take the direct kernels (3x3 unrolled), larger
 * ones the separable passes. */
GST_START_TEST (test_window_rule)
{
  GstCudaBoxBlurKernel kernel;
  GstCudaBoxBlurWindow blocks = { 0, };

  blocks.work = GST_CUDA_BOX_BLUR_WORK_BLOCKS;
  blocks.block_w = blocks.block_h = 8;
  fail_unless_equals_int (gst_cuda_box_blur_plan_choose (&blocks),
      GST_CUDA_BOX_BLUR_PIXELATE);

  fail_unless_equals_int (plan_whole (&h200, GST_CUDA_BOX_BLUR_DIRECT,
          "GRAY8", 640, 480, 1, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, &kernel),
      1);
  fail_unless_equals_string (gst_cuda_box_blur_kernel_name (kernel),
      "box_blur3_u8");
  fail_unless_equals_int (plan_whole (&h200, GST_CUDA_BOX_BLUR_DIRECT,
          "GRAY16_LE", 640, 480, 2, 0, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
          &kernel), 1);
  fail_unless_equals_string (gst_cuda_box_blur_kernel_name (kernel),
      "box_blur_u16");
}

GST_END_TEST;

/* The strip walker, where it is asked for: 8-bit planes of their own
 * with windows of up to STRIP_MAX_RADIUS_X columns and STRIP_MAX_RADIUS_Y
 * rows either side and TILE_WINDOW samples, rows 4-byte aligned, no wrap
 * around the sides; the window's own choice elsewhere. */
GST_START_TEST (test_strips)
{
  const struct
  {
    const gchar *format;
    gint w, rx, ry;
    GstCudaBoxBlurBorder border;
    const gchar *kernel;
  } cases[] = {
    {"GRAY8", 1920, 1, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, "box_strips_u8"},
    {"GRAY8", 1920, 0, 9, GST_CUDA_BOX_BLUR_BORDER_CLAMP, "box_strips_u8"},
    {"GRAY8", 1920, 8, 8, GST_CUDA_BOX_BLUR_BORDER_MIRROR, "box_strips_u8"},
    {"GRAY8", 1918, 5, 2, GST_CUDA_BOX_BLUR_BORDER_CONSTANT,
        "box_strips_u8"},
    {"GRAY8", 1920, 3, 127, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
        "box_strips_u8"},
    /* windows too wide, too tall, too large; wrapping round */
    {"GRAY8", 1920, 9, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
        "box_tiles_u8"},
    {"GRAY8", 1920, 1, 128, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
        "box_columns_u8_16"},
    {"GRAY8", 1920, 8, 61, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
        "box_columns_u8_16"},
    {"GRAY8", 1920, 1, 1, GST_CUDA_BOX_BLUR_BORDER_WRAP, "box_blur3_u8"},
    {"GRAY16_LE", 1920, 1, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
        "box_blur3_u16"},
    {"GRAY32F", 1920, 2, 2, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
        "box_tiles_f32"},
  };
  GstCudaBoxBlurKernel kernel;
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    plan_whole (&h200, GST_CUDA_BOX_BLUR_STRIPS, cases[c].format, cases[c].w,
        1080, cases[c].rx, cases[c].ry, cases[c].border, &kernel);
    fail_unless_equals_string (gst_cuda_box_blur_kernel_name (kernel),
        cases[c].kernel);
  }
  /* a frame one sample wide */
  fail_unless (plan_whole (&h200, GST_CUDA_BOX_BLUR_STRIPS, "GRAY8", 1, 64,
          1, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, &kernel) == 1);
  fail_unless_equals_string (gst_cuda_box_blur_kernel_name (kernel),
      "box_strips_u8");
}

GST_END_TEST;

/* The names of the kernels plan_frame()'s plan launches, each with a space
 * either side: " box_blur3_u8 box_tiles_u8 ". */
static gchar *frame_kernels;

static void
frame_kernels_of (const GstCudaBoxBlurPlan * plan)
{
  GString *names = g_string_new (" ");
  guint i;

  for (i = 0; i < gst_cuda_box_blur_plan_n_launches (plan); i++)
    g_string_append_printf (names, "%s ", gst_cuda_box_blur_kernel_name
        (gst_cuda_box_blur_plan_get_launch (plan, i)->kernel));
  g_free (frame_kernels);
  frame_kernels = g_string_free (names, FALSE);
}

/* The plan of a frame of @format, @w x @h with rows @pad bytes longer,
 * blurred whole with @s into another frame, or in place where @in_place;
 * a copy of the result to a third frame after the launches where
 * @deliver.  Returns what it measured, and the copies before and after
 * the launches. */
static GstCudaBoxBlurFrameNeeds
plan_frame (const gchar * format, gint w, gint h, gint pad,
    const GstCudaBoxBlurSettings * s, gboolean with_region, gboolean in_place,
    gboolean deliver, guint * before, guint * after)
{
  const GstCudaBoxBlurInfo info = test_info (format, w, h);
  GstBuffer *buf = test_buffer_new (NULL, format, w, h, pad, 1);
  GstCudaBoxBlurFramePlan *frame = gst_cuda_box_blur_frame_plan_new (&h200,
      NULL);
  GstCudaBoxBlurFrame in, out, to;
  GstCudaBoxBlurFrameNeeds needs;
  GstCudaBoxBlurJob job;
  GstMapInfo map;
  guint8 *scratch, *halos, *out_mem = g_malloc (info.size);
  guint8 *to_mem = g_malloc (info.size);

  if (with_region)
    gst_buffer_add_video_region_of_interest_meta (buf, "face", w / 4, h / 4,
        w / 2, h / 2);
  gst_cuda_box_blur_job_init (&job);
  gst_cuda_box_blur_job_resolve (&job, s, &info, buf, NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless (gst_cuda_box_blur_frame_from_buffer (&in, &info, buf, &map,
          NULL));
  gst_cuda_box_blur_frame_from_data (&out, &info, out_mem);
  gst_cuda_box_blur_frame_from_data (&to, &info, to_mem);

  gst_cuda_box_blur_frame_plan_measure (frame, &job, in_place ? NULL : &out,
      &needs);
  scratch = g_malloc (needs.scratch);
  halos = g_malloc (needs.halos);
  gst_cuda_box_blur_frame_plan_make (frame, &job, &in, in_place ? NULL :
      &out, scratch, halos, deliver ? &to : NULL);
  gst_cuda_box_blur_frame_plan_get_copies (frame, FALSE, before);
  gst_cuda_box_blur_frame_plan_get_copies (frame, TRUE, after);
  frame_kernels_of (gst_cuda_box_blur_frame_plan_get_launches (frame));

  g_free (scratch);
  g_free (halos);
  gst_cuda_box_blur_frame_plan_free (frame);
  gst_cuda_box_blur_job_clear (&job);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
  g_free (out_mem);
  g_free (to_mem);
  return needs;
}

/* What a frame's plan copies besides its launches: nothing first where
 * the blur writes every byte of the output (the job covers it; whole
 * pixels of four carry their kept byte along when their rows are 4-byte
 * aligned), the planes it leaves bytes of otherwise (an unselected plane;
 * RGBx rows not 4-byte aligned), into the scratch frame too with several
 * passes; every plane after the launches where the result goes on to a
 * host frame; nothing first for regions, whose halos it measures. */
GST_START_TEST (test_frame_copies)
{
  GstCudaBoxBlurFrameNeeds needs;
  GstCudaBoxBlurSettings s;
  guint before, after;

  gst_cuda_box_blur_settings_init (&s);
  s.radius_x = s.radius_y = 3;

  needs = plan_frame ("GRAY8", 64, 48, 0, &s, FALSE, FALSE, FALSE, &before,
      &after);
  fail_unless_equals_int (before, 0);
  fail_unless_equals_int (after, 0);
  fail_unless_equals_int (needs.scratch, 0);
  fail_unless_equals_int (needs.halos, 0);

  plan_frame ("RGBx", 64, 48, 0, &s, FALSE, FALSE, FALSE, &before, &after);
  fail_unless_equals_int (before, 0);
  plan_frame ("RGBx", 64, 48, 3, &s, FALSE, FALSE, FALSE, &before, &after);
  fail_unless_equals_int (before, 1);

  s.planes = GST_CUDA_BOX_BLUR_PLANE_Y;
  plan_frame ("I420", 64, 48, 0, &s, FALSE, FALSE, TRUE, &before, &after);
  fail_unless_equals_int (before, 2);
  fail_unless_equals_int (after, 3);

  s.passes = 3;
  needs = plan_frame ("I420", 64, 48, 0, &s, FALSE, FALSE, FALSE, &before,
      &after);
  fail_unless_equals_int (before, 4);
  fail_unless_equals_uint64 (needs.scratch, test_info ("I420", 64, 48).size);

  gst_cuda_box_blur_settings_init (&s);
  s.radius_x = s.radius_y = 3;
  s.roi_meta = TRUE;
  needs = plan_frame ("NV12", 64, 48, 0, &s, TRUE, FALSE, FALSE, &before,
      &after);
  fail_unless_equals_int (before, 2);
  fail_unless (needs.halos > 0);
  needs = plan_frame ("NV12", 64, 48, 0, &s, TRUE, TRUE, TRUE, &before,
      &after);
  fail_unless_equals_int (before, 0);
  fail_unless_equals_int (after, 2);
  fail_unless (needs.halos > 0);
}

GST_END_TEST;

/* More entries of one kernel than a launch takes (gridDim.z's 65535)
 * are split over launches, every entry in one of them, in order. */
GST_START_TEST (test_many_entries)
{
  GstCudaBoxBlurPlan *plan = gst_cuda_box_blur_plan_new (&h200);
  guint8 *data = g_malloc (64 * 64);
  GstCudaBoxBlurPlane plane = { data, 64, 64, 64, 1 };
  GstCudaBoxBlurWindow fill = { 0, };
  const GstCudaBoxBlurLaunch *l;
  guint i, n = 70000, total = 0;

  fill.work = GST_CUDA_BOX_BLUR_WORK_FILL;
  fill.fill_value = 9;
  gst_cuda_box_blur_plan_reset (plan, GST_CUDA_BOX_BLUR_U8);
  for (i = 0; i < n; i++) {
    const GstVideoRectangle r = { i % 64, i / 64 % 64, 1, 1 };

    gst_cuda_box_blur_plan_compose (plan, NULL, &plane, &fill, &r);
  }
  gst_cuda_box_blur_plan_end_batch (plan);
  fail_unless_equals_int (gst_cuda_box_blur_plan_n_launches (plan), 2);
  for (i = 0; i < 2; i++) {
    l = gst_cuda_box_blur_plan_get_launch (plan, i);
    fail_unless_equals_int (l->first, total);
    fail_unless (l->count <= 65535);
    total += l->count;
  }
  fail_unless_equals_int (total, n);
  g_free (data);
  gst_cuda_box_blur_plan_free (plan);
}

GST_END_TEST;

/* The layers of a job's regions: regions that share no pixel share a
 * layer in GRAY8; in I420 two that share only a chroma sample (pixels 2
 * and 3 lie in chroma column 1) do not; a region over both comes after
 * both; one apart is in layer 0. */
GST_START_TEST (test_layers)
{
  const GstVideoRectangle regions[] = { {0, 0, 3, 4}, {3, 0, 4, 4},
  {1, 2, 5, 1}, {20, 20, 2, 2}
  };
  const guint gray_layers[] = { 0, 0, 1, 0 };
  const guint i420_layers[] = { 0, 1, 2, 0 };
  const gchar *const formats[] = { "GRAY8", "I420" };
  const guint *const want[] = { gray_layers, i420_layers };
  GArray *layers = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *rounded = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurJob job;
  guint f, i, n;

  gst_cuda_box_blur_settings_init (&s);
  gst_cuda_box_blur_job_init (&job);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstCudaBoxBlurInfo info = test_info (formats[f], 32, 32);

    gst_cuda_box_blur_job_set (&job, &s, &info, regions,
        G_N_ELEMENTS (regions), NULL);
    n = gst_cuda_box_blur_plan_layers (&job, layers, rounded);
    fail_unless_equals_int (n, want[f][2] + 1);
    for (i = 0; i < G_N_ELEMENTS (regions); i++)
      fail_unless (g_array_index (layers, guint, i) == want[f][i],
          "%s: region %u in layer %u, want %u", formats[f], i,
          g_array_index (layers, guint, i), want[f][i]);
  }
  gst_cuda_box_blur_job_clear (&job);
  g_array_unref (layers);
  g_array_unref (rounded);
}

GST_END_TEST;

/* The kernels of a whole frame's 3x3 box: the one pass for 8-bit planes
 * of their own (the unrolled kernel where a wrapping border takes them
 * round the sides), for NV12's UV pairs, side by side, and for the
 * macropixels of packed 4:2:2; the unrolled kernels for other planes of
 * their own and pixels of four. */
GST_START_TEST (test_box3_kernels)
{
  const struct
  {
    const gchar *format;
    const gchar *has, *also, *lacks;
  } cases[] = {
    {"RGBA", " box_blur3_px4 ", NULL, " box_tiles_px4 "},
    {"RGB", " box_tiles_px3 ", NULL, " box_blur3_u8 "},
    {"GRAY16_LE", " box_blur3_u16 ", NULL, " box_columns_u16 "},
    {"GRAY32F", " box_blur3_f32 ", NULL, " box_tiles_f32 "},
  };
  /* every plane in one launch of the one pass: no unrolled kernel, no
   * two passes */
  const gchar *const one_pass[] = { "GRAY8", "I420", "NV12", "NV21" };
  const gchar *const packed_422[] = { "YUY2", "UYVY", "YVYU" };
  GstCudaBoxBlurSettings s;
  guint before, after, c;

  gst_cuda_box_blur_settings_init (&s);
  fail_unless_equals_int (s.radius_x, 1);
  fail_unless_equals_int (s.radius_y, 1);
  for (c = 0; c < G_N_ELEMENTS (one_pass); c++) {
    plan_frame (one_pass[c], 640, 480, 0, &s, FALSE, FALSE, FALSE, &before,
        &after);
    fail_unless_equals_string (frame_kernels, " box_tiles_u8 ");
  }
  for (c = 0; c < G_N_ELEMENTS (packed_422); c++) {
    plan_frame (packed_422[c], 640, 480, 0, &s, FALSE, FALSE, FALSE, &before,
        &after);
    fail_unless_equals_string (frame_kernels, " box_tiles_422 ");
  }
  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    plan_frame (cases[c].format, 640, 480, 0, &s, FALSE, FALSE, FALSE,
        &before, &after);
    GST_INFO ("%s:%s", cases[c].format, frame_kernels);
    fail_unless (strstr (frame_kernels, cases[c].has) != NULL
        && (!cases[c].also || strstr (frame_kernels, cases[c].also) != NULL)
        && strstr (frame_kernels, cases[c].lacks) == NULL,
        "%s at radius 1:%s", cases[c].format, frame_kernels);
  }
  /* wrapping round the sides, which the one pass does not take */
  s.border = GST_CUDA_BOX_BLUR_BORDER_WRAP;
  plan_frame ("GRAY8", 640, 480, 0, &s, FALSE, FALSE, FALSE, &before, &after);
  fail_unless_equals_string (frame_kernels, " box_blur3_u8 ");
  g_clear_pointer (&frame_kernels, g_free);
}

GST_END_TEST;

/* The groups of tasks that blur whole pixels: RGBA's colour (alpha kept)
 * or all four, NV12's and P010's UV pairs (all four bytes of P010's) but
 * not their luma nor P016's U alone, AYUV's chroma with a
 * radius of its own not (it would race with luma in the same pixels),
 * RGBA's red alone and GRAY8 never, with no bytes; YUY2's three
 * components, but not with chroma windows of other rows (UYVY's chroma
 * radius 0) nor with a component left out (YVYU's V); and at a region's
 * edge a group stops. */
GST_START_TEST (test_pixel_groups)
{
#define ALL GST_CUDA_BOX_BLUR_PLANES_ALL
  const struct
  {
    const gchar *format;
    gboolean blur_alpha;
    gint chroma_radius;
    guint planes;
    guint n[4];                 /* each task's group, 0: inside one */
    guint blurred[4];
  } cases[] = {
    {"RGBA", FALSE, -1, ALL, {3, 0, 0}, {0x7}},
    {"RGBA", TRUE, -1, ALL, {4, 0, 0, 0}, {0xf}},
    {"RGBA", FALSE, -1, GST_CUDA_BOX_BLUR_PLANE_R, {1}, {0}},
    {"NV12", FALSE, -1, ALL, {1, 2, 0}, {0, 0x3}},
    {"P010_10LE", FALSE, -1, ALL, {1, 2, 0}, {0, 0xf}},
    {"P016_LE", FALSE, -1, GST_CUDA_BOX_BLUR_PLANE_U, {1}, {0}},
    {"AYUV", FALSE, -1, ALL, {3, 0, 0}, {0xe}},
    {"AYUV", FALSE, 5, ALL, {1, 1, 1}, {0, 0, 0}},
    {"GRAY8", FALSE, -1, ALL, {1}, {0}},
    {"YUY2", FALSE, -1, ALL, {3, 0, 0}, {0xf}},
    {"UYVY", FALSE, 0, ALL, {1, 1, 1}, {0, 0, 0}},
    {"YVYU", FALSE, -1, GST_CUDA_BOX_BLUR_PLANE_Y | GST_CUDA_BOX_BLUR_PLANE_U,
        {1, 1}, {0, 0}},
  };
  const GstVideoRectangle regions[] = { {2, 2, 8, 6}, {12, 2, 8, 6} };
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurJob job;
  guint c, t, n, blurred;

  gst_cuda_box_blur_job_init (&job);
  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstCudaBoxBlurInfo info = test_info (cases[c].format, 32, 16);
    guint per_region;

    gst_cuda_box_blur_settings_init (&s);
    s.radius_x = s.radius_y = 2;
    s.blur_alpha = cases[c].blur_alpha;
    s.chroma_radius_x = s.chroma_radius_y = cases[c].chroma_radius;
    s.planes = cases[c].planes;
    gst_cuda_box_blur_job_set (&job, &s, &info, regions, 2, NULL);
    per_region = job.tasks->len / 2;
    for (t = 0; t < job.tasks->len; t += n) {
      const guint i = t % per_region;

      n = gst_cuda_box_blur_plan_pixel_group (&job, t, 0, &blurred);
      fail_unless (n == cases[c].n[i] && blurred == cases[c].blurred[i],
          "%s, task %u: a group of %u (bytes 0x%x), want %u (0x%x)",
          cases[c].format, t, n, blurred, cases[c].n[i],
          cases[c].blurred[i]);
    }
  }
  gst_cuda_box_blur_job_clear (&job);
#undef ALL
}

GST_END_TEST;

/* Packed 4:2:2 takes the one pass over its macropixels, one launch and
 * no copy first, wherever its samples' windows fit it: radii up to 15,
 * the luma's or the chroma's (chroma-radius-x apart from the luma's);
 * two passes for every component at larger ones, for windows wrapping
 * round the sides, chroma windows of other rows and frames of an odd
 * width.  A region at an even column takes it too, one at an odd column
 * (whose luma starts within a macropixel) the two passes. */
GST_START_TEST (test_macropixels)
{
  const struct
  {
    gint width, radius, chroma_x, chroma_y;
    GstCudaBoxBlurBorder border;
    gboolean one_pass;
  } cases[] = {
    {640, 8, -1, -1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, TRUE},
    {640, 15, -1, -1, GST_CUDA_BOX_BLUR_BORDER_MIRROR, TRUE},
    {640, 15, 15, -1, GST_CUDA_BOX_BLUR_BORDER_CLAMP, TRUE},
    {640, 3, 0, -1, GST_CUDA_BOX_BLUR_BORDER_CONSTANT, TRUE},
    {640, 16, -1, -1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE},
    {640, 2, 16, -1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE},
    {640, 4, -1, 2, GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE},
    {640, 4, -1, -1, GST_CUDA_BOX_BLUR_BORDER_WRAP, FALSE},
    {641, 4, -1, -1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE},
  };
  const GstVideoRectangle regions[] = { {64, 32, 96, 64}, {65, 32, 96, 64} };
  GstCudaBoxBlurInfo info = test_info ("YUY2", 640, 480);
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurJob job;
  guint before, after, c, n, blurred;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    gst_cuda_box_blur_settings_init (&s);
    s.radius_x = s.radius_y = cases[c].radius;
    s.chroma_radius_x = cases[c].chroma_x;
    s.chroma_radius_y = cases[c].chroma_y;
    s.border = cases[c].border;
    plan_frame ("YUY2", cases[c].width, 480, 0, &s, FALSE, FALSE, FALSE,
        &before, &after);
    GST_INFO ("case %u:%s", c, frame_kernels);
    if (cases[c].one_pass) {
      fail_unless_equals_string (frame_kernels, " box_tiles_422 ");
      fail_unless_equals_int (before, 0);
    } else {
      fail_unless (strstr (frame_kernels, " box_tiles_422 ") == NULL
          && strstr (frame_kernels, " box_columns_u8_16 ") != NULL,
          "case %u:%s", c, frame_kernels);
    }
  }
  g_clear_pointer (&frame_kernels, g_free);

  gst_cuda_box_blur_settings_init (&s);
  s.radius_x = s.radius_y = 4;
  gst_cuda_box_blur_job_init (&job);
  for (c = 0; c < G_N_ELEMENTS (regions); c++) {
    gst_cuda_box_blur_job_set (&job, &s, &info, &regions[c], 1, NULL);
    n = gst_cuda_box_blur_plan_pixel_group (&job, 0, 0, &blurred);
    fail_unless_equals_int (n, c == 0 ? 3 : 1);
  }
  gst_cuda_box_blur_job_clear (&job);
}

GST_END_TEST;

/* 16-bit frames take the one pass up to its radius (15): every plane,
 * P010's and P016's UV pairs side by side, in one launch and no copy
 * first; the two passes past it. */
GST_START_TEST (test_one_pass_16bit)
{
  const gchar *const formats[] = { "GRAY16_LE", "I420_10LE", "Y444_16LE",
    "P010_10LE", "P016_LE"
  };
  GstCudaBoxBlurSettings s;
  guint before, after, c;

  gst_cuda_box_blur_settings_init (&s);
  for (c = 0; c < G_N_ELEMENTS (formats); c++) {
    s.radius_x = s.radius_y = 8;
    plan_frame (formats[c], 640, 480, 0, &s, FALSE, FALSE, FALSE, &before,
        &after);
    GST_INFO ("%s:%s", formats[c], frame_kernels);
    fail_unless_equals_string (frame_kernels, " box_tiles_u16 ");
    fail_unless_equals_int (before, 0);

    /* I420_10LE's chroma radius: 16 */
    s.radius_x = s.radius_y = 32;
    plan_frame (formats[c], 640, 480, 0, &s, FALSE, FALSE, FALSE, &before,
        &after);
    fail_unless (strstr (frame_kernels, " box_tiles_u16 ") == NULL
        && strstr (frame_kernels, " box_columns_u16 ") != NULL,
        "%s at radius 32:%s", formats[c], frame_kernels);
  }
  g_clear_pointer (&frame_kernels, g_free);
}

GST_END_TEST;

static Suite *
plan_suite (void)
{
  Suite *s = suite_create ("plan");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_one_pass_choice);
  tcase_add_test (tc, test_window_rule);
  tcase_add_test (tc, test_frame_copies);
  tcase_add_test (tc, test_many_entries);
  tcase_add_test (tc, test_layers);
  tcase_add_test (tc, test_pixel_groups);
  tcase_add_test (tc, test_box3_kernels);
  tcase_add_test (tc, test_macropixels);
  tcase_add_test (tc, test_one_pass_16bit);
  tcase_add_test (tc, test_strips);
  return s;
}

GST_CHECK_MAIN (plan);
