/* cudaboxblur: every format, border mode, pass count and region option on a
 * real GPU against the CPU reference
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Exits with 77 (skipped) and says why when there is no usable GPU.
 */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "cudaboxblur-params.h"
#include "testutils.h"

typedef struct
{
  gint radius;
  gint passes;
  GstCudaBoxBlurBorder border;
  gboolean roi;                 /* a static rectangle */
  gboolean roi_meta;            /* two rectangles from metas */
  gboolean blur_alpha;
  gboolean from_pool;           /* else system memory with padded rows */
  gdouble sigma;                /* above 0: mode gaussian, radius unused */
  gint block;                   /* above 0: mode pixelate, this block size */
} Config;

static const Config configs[] = {
  {1, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE, FALSE, FALSE, TRUE},
  {5, 3, GST_CUDA_BOX_BLUR_BORDER_CLAMP, FALSE, FALSE, TRUE, FALSE},
  {63, 1, GST_CUDA_BOX_BLUR_BORDER_MIRROR, FALSE, FALSE, FALSE, TRUE},
  {5, 1, GST_CUDA_BOX_BLUR_BORDER_WRAP, FALSE, FALSE, FALSE, FALSE},
  {1, 3, GST_CUDA_BOX_BLUR_BORDER_CONSTANT, FALSE, FALSE, FALSE, TRUE},
  {5, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, TRUE, FALSE, FALSE, FALSE},
  {7, 3, GST_CUDA_BOX_BLUR_BORDER_MIRROR, FALSE, TRUE, TRUE, TRUE},
  {63, 1, GST_CUDA_BOX_BLUR_BORDER_CONSTANT, FALSE, TRUE, FALSE, FALSE},
  {0, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE, FALSE, FALSE, TRUE},
  {0, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE, FALSE, FALSE, TRUE, 6.0},
  {0, 4, GST_CUDA_BOX_BLUR_BORDER_MIRROR, FALSE, TRUE, TRUE, FALSE, 2.5},
  {0, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE, FALSE, FALSE, TRUE, 0, 16},
  {0, 3, GST_CUDA_BOX_BLUR_BORDER_SHRINK, FALSE, TRUE, TRUE, FALSE, 0, 7},
};

static guint
count_regions (GstBuffer * buf)
{
  return gst_buffer_get_n_meta (buf,
      GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE);
}

/* Pushes @in through the element set to @s and checks what comes out:
 * the input itself when nothing is to be blurred, else the reference. */
static void
push_and_check (GstHarness * h, GstBuffer * in, const gchar * format, gint w,
    gint height, const GstCudaBoxBlurSettings * s, gboolean untouched)
{
  GstBuffer *out;

  test_apply_settings (h->element, s);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  if (untouched) {
    fail_unless (out == in, "%s: a frame with nothing to blur was not "
        "passed through", format);
  } else {
    fail_unless (out != in);
    test_assert_output (in, out, format, w, height, s);
    /* the regions stay on the frame for whoever comes next */
    fail_unless_equals_int (count_regions (out), count_regions (in));
  }
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

static void
add_two_regions (GstBuffer * buf, gint w, gint height)
{
  /* one touching the top left corner, one inside */
  gst_buffer_add_video_region_of_interest_meta (buf, "face", 0, 0, w / 4 + 1,
      height / 3 + 1);
  gst_buffer_add_video_region_of_interest_meta (buf, "plate", w / 2,
      height / 2, w / 5 + 1, height / 7 + 1);
}

static void
check_format (const gchar * format, gint w, gint height)
{
  GstCudaBoxBlurInfo info = test_info (format, w, height);
  GstHarness *h = test_harness_new (format, w, height);
  guint c;

  for (c = 0; c < G_N_ELEMENTS (configs); c++) {
    const Config *cfg = &configs[c];
    GstCudaBoxBlurSettings s;
    GstBuffer *in;

    GST_INFO ("%s %dx%d config %u", format, w, height, c);
    gst_cuda_box_blur_settings_init (&s);
    s.radius_x = s.radius_y = cfg->radius;
    s.passes = cfg->passes;
    if (cfg->sigma > 0) {
      s.mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
      s.sigma = cfg->sigma;
    }
    if (cfg->block > 0) {
      s.mode = GST_CUDA_BOX_BLUR_MODE_PIXELATE;
      s.block_size = cfg->block;
    }
    s.border = cfg->border;
    s.border_value = 77;
    s.blur_alpha = cfg->blur_alpha;
    if (cfg->roi) {
      s.roi.x = 100;
      s.roi.y = 50;
      s.roi.w = 333;
      s.roi.h = 211;
    }
    s.roi_meta = cfg->roi_meta;
    s.roi_padding = cfg->roi_meta ? 4 : 0;

    in = cfg->from_pool ? test_pool_buffer (h, &info, c) :
        test_buffer_new (NULL, format, w, height, 8 * info.sample_size, c);
    if (cfg->roi_meta)
      add_two_regions (in, w, height);
    push_and_check (h, in, format, w, height, &s, cfg->radius == 0
        && cfg->sigma == 0 && cfg->block == 0);
  }
  gst_harness_teardown (h);
}

GST_START_TEST (test_every_format_1080p)
{
  guint f;

  for (f = 0; f < test_n_formats; f++)
    check_format (test_formats[f], 1920, 1080);
}

GST_END_TEST;

GST_START_TEST (test_every_format_odd_size)
{
  guint f;

  for (f = 0; f < test_n_formats; f++)
    check_format (test_formats[f], 323, 241);
}

GST_END_TEST;

/* With roi-meta, a frame without a (matching) region goes out untouched,
 * with no GPU work; one with a region is blurred there only. */
GST_START_TEST (test_roi_meta_filters)
{
  const gint w = 320, height = 240;
  GstHarness *h = test_harness_new ("NV12", w, height);
  GstCudaBoxBlurSettings s;
  GstBuffer *in;

  gst_cuda_box_blur_settings_init (&s);
  s.radius_x = s.radius_y = 9;
  s.roi_meta = TRUE;

  push_and_check (h, test_buffer_new (NULL, "NV12", w, height, 0, 1),
      "NV12", w, height, &s, TRUE);

  gst_cuda_box_blur_settings_set_roi_meta_types (&s, "plate");
  in = test_buffer_new (NULL, "NV12", w, height, 0, 2);
  gst_buffer_add_video_region_of_interest_meta (in, "face", 10, 10, 50, 50);
  push_and_check (h, in, "NV12", w, height, &s, TRUE);

  in = test_buffer_new (NULL, "NV12", w, height, 0, 3);
  add_two_regions (in, w, height);
  push_and_check (h, in, "NV12", w, height, &s, FALSE);

  /* a region entirely outside the frame */
  s.roi_meta = FALSE;
  s.roi.x = w;
  push_and_check (h, test_buffer_new (NULL, "NV12", w, height, 0, 4),
      "NV12", w, height, &s, TRUE);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The planes property, chroma radii and blur-alpha select what changes. */
GST_START_TEST (test_planes_chroma_and_alpha)
{
  const gint w = 331, height = 199;
  static const struct
  {
    const gchar *format;
    guint planes;
    gint chroma_x, chroma_y;
    gboolean alpha;
  } cases[] = {
    {"I420", GST_CUDA_BOX_BLUR_PLANE_Y, -1, -1, FALSE},
    {"I420", GST_CUDA_BOX_BLUR_PLANE_U | GST_CUDA_BOX_BLUR_PLANE_V, 4, 0,
        FALSE},
    {"NV21", GST_CUDA_BOX_BLUR_PLANES_ALL, 0, 9, FALSE},
    {"Y42B", GST_CUDA_BOX_BLUR_PLANE_V, -1, 3, FALSE},
    {"RGBA", GST_CUDA_BOX_BLUR_PLANE_R | GST_CUDA_BOX_BLUR_PLANE_B, -1, -1,
        TRUE},
    {"xBGR", GST_CUDA_BOX_BLUR_PLANE_G, -1, -1, TRUE},
    {"AYUV", GST_CUDA_BOX_BLUR_PLANE_Y, 2, 2, TRUE},
    {"RGB", GST_CUDA_BOX_BLUR_PLANE_R | GST_CUDA_BOX_BLUR_PLANE_G, -1, -1,
        FALSE},
    {"BGR", GST_CUDA_BOX_BLUR_PLANES_ALL, -1, -1, FALSE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = test_harness_new (cases[i].format, w, height);
    GstCudaBoxBlurSettings s;

    gst_cuda_box_blur_settings_init (&s);
    s.radius_x = 6;
    s.radius_y = 2;
    s.planes = cases[i].planes;
    s.chroma_radius_x = cases[i].chroma_x;
    s.chroma_radius_y = cases[i].chroma_y;
    s.blur_alpha = cases[i].alpha;
    push_and_check (h, test_buffer_new (NULL, cases[i].format, w, height, 0,
            i), cases[i].format, w, height, &s, FALSE);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Radius, passes, border and region changed before every frame: each frame
 * is blurred with the values set before it was pushed. */
GST_START_TEST (test_changes_every_frame)
{
  const gint w = 640, height = 360;
  static const gchar *formats[] = { "NV12", "RGBA", "RGB", "GRAY32F" };
  guint f;
  gint i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = test_harness_new (formats[f], w, height);
    GstCudaBoxBlurSettings s;

    gst_cuda_box_blur_settings_init (&s);
    for (i = 0; i < 30; i++) {
      s.radius_x = (i * 7) % 23 + 1;
      s.radius_y = (i * 5) % 11;
      s.passes = 1 + i % 3;
      s.border = i % 5;
      s.roi.x = (i * 37) % w;
      s.roi.y = (i * 23) % height;
      s.roi.w = (i % 4) ? 50 + (i * 13) % 200 : 0;
      s.roi.h = (i % 3) ? 40 + (i * 11) % 150 : 0;
      push_and_check (h, test_buffer_new (NULL, formats[f], w, height, 0, i),
          formats[f], w, height, &s, FALSE);
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Regions with settings of their own: a radius scaled to each region's
 * size, and a radius, modes, a sigma, a block size, a shape, feathers and
 * a fill colour from the metas' "cudaboxblur" parameters, all in one
 * frame, some overlapping. */
GST_START_TEST (test_region_parameters)
{
  static const gchar *const formats[] = { "NV12", "I420", "RGBA",
    "GRAY16_LE", "GRAY32F"
  };
  const gint w = 320, height = 240;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstCudaBoxBlurInfo info = test_info (formats[f], w, height);
    GstHarness *h = test_harness_new (formats[f], w, height);
    GstCudaBoxBlurSettings s;
    GstVideoRegionOfInterestMeta *m;
    GstBuffer *in;

    gst_cuda_box_blur_settings_init (&s);
    s.roi_meta = TRUE;
    s.radius_scale = 0.1;
    in = test_pool_buffer (h, &info, f);
    gst_buffer_add_video_region_of_interest_meta (in, "face", 10, 10, 120,
        90);
    m = gst_buffer_add_video_region_of_interest_meta (in, "face", 200, 20,
        40, 60);
    gst_video_region_of_interest_meta_add_param (m,
        gst_structure_new ("cudaboxblur", "radius", G_TYPE_INT, 12, NULL));
    m = gst_buffer_add_video_region_of_interest_meta (in, "plate", 30, 150,
        150, 40);
    gst_video_region_of_interest_meta_add_param (m,
        gst_structure_new ("cudaboxblur", "mode", G_TYPE_STRING, "gaussian",
            "sigma", G_TYPE_DOUBLE, 4.0, NULL));
    m = gst_buffer_add_video_region_of_interest_meta (in, "screen", 200,
        120, 101, 77);
    gst_video_region_of_interest_meta_add_param (m,
        gst_structure_new ("cudaboxblur", "mode", G_TYPE_STRING, "pixelate",
            "block-size", G_TYPE_INT, 9, NULL));
    /* a feathered elliptic face over the first, and a filled plate over
     * the screen */
    m = gst_buffer_add_video_region_of_interest_meta (in, "face", 60, 40, 71,
        95);
    gst_video_region_of_interest_meta_add_param (m,
        gst_structure_new ("cudaboxblur", "mode", G_TYPE_STRING, "gaussian",
            "sigma", G_TYPE_DOUBLE, 5.0, "shape", G_TYPE_STRING, "ellipse",
            "feather", G_TYPE_INT, 6, NULL));
    m = gst_buffer_add_video_region_of_interest_meta (in, "plate", 250, 150,
        63, 21);
    gst_video_region_of_interest_meta_add_param (m,
        gst_structure_new ("cudaboxblur", "mode", G_TYPE_STRING, "fill",
            "fill-color", G_TYPE_UINT, 0xff20c040, "feather", G_TYPE_INT, 3,
            NULL));
    push_and_check (h, in, formats[f], w, height, &s, FALSE);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Pinned mode stages every plane through device memory the same way. */
GST_START_TEST (test_pinned_mode_colour)
{
  static const gchar *formats[] = { "NV12", "RGB", "Y444", "GRAY16_LE" };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstElement *blur =
        gst_object_ref_sink (gst_element_factory_make ("cudaboxblur", NULL));
    GstHarness *h;
    GstCudaBoxBlurSettings s;
    GstBuffer *in;

    g_object_set (blur, "memory-mode", 1 /* pinned */ , NULL);
    h = gst_harness_new_with_element (blur, "sink", "src");
    gst_harness_set_src_caps (h, test_caps_new (formats[f], 1921, 1081));
    gst_cuda_box_blur_settings_init (&s);
    s.radius_x = s.radius_y = 11;
    s.passes = 2;
    s.roi_meta = TRUE;
    in = test_buffer_new (NULL, formats[f], 1921, 1081, 0, f);
    add_two_regions (in, 1921, 1081);
    push_and_check (h, in, formats[f], 1921, 1081, &s, FALSE);

    s.roi_meta = FALSE;
    s.passes = 1;
    push_and_check (h, test_buffer_new (NULL, formats[f], 1921, 1081, 0, f),
        formats[f], 1921, 1081, &s, FALSE);
    gst_harness_teardown (h);
    gst_object_unref (blur);
  }
}

GST_END_TEST;

static Suite *
cudaboxblur_formats_suite (void)
{
  Suite *s = suite_create ("cudaboxblur-formats");
  TCase *tc = tcase_create ("formats");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_format_1080p);
  tcase_add_test (tc, test_every_format_odd_size);
  tcase_add_test (tc, test_roi_meta_filters);
  tcase_add_test (tc, test_planes_chroma_and_alpha);
  tcase_add_test (tc, test_changes_every_frame);
  tcase_add_test (tc, test_pinned_mode_colour);
  tcase_add_test (tc, test_region_parameters);
  return s;
}

TEST_GPU_CHECK_MAIN ("cudaboxblur-formats", cudaboxblur_formats_suite, NULL);
