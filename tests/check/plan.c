/* cudaboxblur: the plan's choice of kernels, on the CPU
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the plan (plan/) launches for a window, on a GPU it is told about
 * (GstCudaBoxBlurTarget): the one pass where it wins and can go, the two
 * passes elsewhere.  Frames in host memory: the plan makes no CUDA call,
 * and nothing runs.  (That each variant blurs right is the kernels
 * suite's, on a GPU.)
 */

#include <gst/check/gstcheck.h>

#include "cudaboxblur-plan.h"
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
 * own for 8-bit and float32 windows up to its radius on GPUs of the
 * H200's shared memory (or unknown ones); two passes where it cannot go:
 * 16-bit samples, windows that wrap around the sides, more rows than its
 * tiles take, larger windows, and GPUs whose multiprocessors hold fewer
 * than two of its tiles. */
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
  fail_unless_equals_int (plan_whole (&h200, GST_CUDA_BOX_BLUR_ONE_PASS,
          "GRAY16_LE", 1920, 1080, 7, 7, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
          &kernel), 2);
  fail_unless_equals_string (gst_cuda_box_blur_kernel_name (kernel),
      "box_columns_u16");
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

static Suite *
plan_suite (void)
{
  Suite *s = suite_create ("plan");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_one_pass_choice);
  tcase_add_test (tc, test_window_rule);
  return s;
}

GST_CHECK_MAIN (plan);
