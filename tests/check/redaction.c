/* cudaboxblur: the CPU reference's redaction against hand-computed
 * results: held regions, per-region settings, pixelate, shapes and
 * feathers, overlaps, fill colours, frames without a region, invert
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>
#include <math.h>
#include <string.h>

#include "boxblur-ref.h"
#include "cudaboxblur-params.h"
#include "testutils.h"

static void
hold_frame (GstCudaBoxBlurHold * hold, const GstCudaBoxBlurSettings * s,
    const gint (*metas)[3], guint n, const gint * want, guint n_want)
{
  const GstCudaBoxBlurInfo info = test_info ("GRAY8", 64, 48);
  GstBuffer *buf = gst_buffer_new ();
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  guint i;

  for (i = 0; i < n; i++) {
    GstVideoRegionOfInterestMeta *m =
        gst_buffer_add_video_region_of_interest_meta (buf,
        metas[i][2] ? "plate" : "face", metas[i][0], 10, 8, 8);
    m->id = metas[i][1];
  }
  fail_unless_equals_int (gst_cuda_box_blur_settings_held_regions (s, &info,
          buf, hold, regions, NULL), n_want);
  for (i = 0; i < n_want; i++) {
    const GstVideoRectangle *r = &g_array_index (regions, GstVideoRectangle,
        i);

    fail_unless (r->x == want[i] && r->y == 10 && r->w == 8 && r->h == 8,
        "region %u at %d,%d %dx%d, want x %d", i, r->x, r->y, r->w, r->h,
        want[i]);
  }
  g_array_unref (regions);
  gst_buffer_unref (buf);
}

/* roi-hold: a region outlives its meta by roi-hold frames with its last
 * rectangle; a region of a new frame continues a held one by id, or
 * without ids by type and overlap; a reset forgets everything. */
GST_START_TEST (test_roi_hold)
{
  const gint face[][3] = { {10, 0, 0} }, moved[][3] = { {12, 0, 0} };
  const gint far[][3] = { {40, 0, 0} }, plate[][3] = { {12, 0, 1} };
  const gint ids[][3] = { {10, 5, 0}, {40, 7, 0} }, swapped[][3] = {
    {11, 7, 0}
  };
  const gint at10[] = { 10 }, at12[] = { 12 }, at40_12[] = { 40, 12 };
  const gint at12_10[] = { 12, 10 }, at10_40[] = { 10, 40 };
  const gint at11_40[] = { 11, 40 };
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurHold hold;
  gint f;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.roi_hold = 2;
  s.roi_hold_motion = GST_CUDA_BOX_BLUR_HOLD_MOTION_NONE;
  gst_cuda_box_blur_hold_init (&hold);

  /* present in frames 0-4, gone in 5-7, back in 8: held in 5 and 6 */
  for (f = 0; f <= 8; f++) {
    const gboolean present = f <= 4 || f == 8;

    hold_frame (&hold, &s, face, present ? 1 : 0, at10,
        present || f <= 6 ? 1 : 0);
  }

  /* moved a little without ids: the same region, not a second one */
  hold_frame (&hold, &s, moved, 1, at12, 1);
  /* far away: a new region, and the old one held */
  hold_frame (&hold, &s, far, 1, at40_12, 2);
  /* the same place, another type: not the held face */
  gst_cuda_box_blur_hold_reset (&hold);
  hold_frame (&hold, &s, face, 1, at10, 1);
  hold_frame (&hold, &s, plate, 1, at12_10, 2);

  /* meta ids alone link nothing (producers number metas frame by frame):
   * id 7 onto id 5's place continues it, and id 7's last place is held */
  gst_cuda_box_blur_hold_reset (&hold);
  hold_frame (&hold, &s, ids, 2, at10_40, 2);
  hold_frame (&hold, &s, swapped, 1, at11_40, 2);

  /* roi-hold 0 holds nothing */
  s.roi_hold = 0;
  gst_cuda_box_blur_hold_reset (&hold);
  hold_frame (&hold, &s, face, 1, at10, 1);
  hold_frame (&hold, &s, face, 0, NULL, 0);

  gst_cuda_box_blur_hold_clear (&hold);
}

GST_END_TEST;

/* The settings of each region: the radius or sigma scaled to the meta's
 * size, then the meta's own parameters; bad parameters are ignored (with a
 * warning), and regions left untouched are left out. */
GST_START_TEST (test_region_settings)
{
  const GstCudaBoxBlurInfo info = test_info ("I420", 640, 480);
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GArray *rs = g_array_new (FALSE, FALSE, sizeof (GstCudaBoxBlurSettings));
  GstBuffer *buf = gst_buffer_new ();
  GstVideoRegionOfInterestMeta *m;
  const GstCudaBoxBlurSettings *r;
  GstCudaBoxBlurSettings s;

  /* 0: a large face, scaled; 1: a small one with its own radius; 2: its
   * own mode and sigma; 3: bad fields; 4: radius 0 of its own */
  gst_buffer_add_video_region_of_interest_meta (buf, "face", 10, 10, 200,
      100);
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 300, 10, 20,
      40);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "radius", G_TYPE_INT, 7, NULL));
  m = gst_buffer_add_video_region_of_interest_meta (buf, "plate", 10, 200,
      60, 20);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "mode", G_TYPE_STRING, "gaussian",
          "sigma", G_TYPE_DOUBLE, 3.5, NULL));
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 300, 200,
      50, 50);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "radius", G_TYPE_STRING, "big",
          "mode", G_TYPE_STRING, "sharpen", "colour", G_TYPE_INT, 3, NULL));
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 400, 300,
      50, 50);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "radius", G_TYPE_UINT, 0, NULL));
  /* another element's parameters are not ours */
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("detection", "confidence", G_TYPE_DOUBLE, 0.9,
          NULL));

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.radius_scale = 0.1;
  fail_unless_equals_int (gst_cuda_box_blur_settings_held_regions (&s, &info,
          buf, NULL, regions, rs), 4);
  fail_unless_equals_int (rs->len, 4);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 0);
  fail_unless (r->radius_x == 10 && r->radius_y == 10);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 1);
  fail_unless (r->radius_x == 7 && r->mode == GST_CUDA_BOX_BLUR_MODE_BOX);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 2);
  fail_unless (r->mode == GST_CUDA_BOX_BLUR_MODE_GAUSSIAN && r->sigma == 3.5);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 3);
  fail_unless (r->radius_x == 5 && r->mode == GST_CUDA_BOX_BLUR_MODE_BOX);
  fail_unless_equals_int (g_array_index (regions, GstVideoRectangle, 3).x,
      300);

  /* a block size of its own, and one scaled to the region */
  m = gst_buffer_add_video_region_of_interest_meta (buf, "screen", 500, 300,
      80, 40);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "mode", G_TYPE_STRING, "pixelate",
          "block-size", G_TYPE_INT, 9, NULL));
  fail_unless_equals_int (gst_cuda_box_blur_settings_held_regions (&s, &info,
          buf, NULL, regions, rs), 5);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 4);
  fail_unless (r->mode == GST_CUDA_BOX_BLUR_MODE_PIXELATE
      && r->block_size == 9);
  s.mode = GST_CUDA_BOX_BLUR_MODE_PIXELATE;
  s.block_scale = 0.25;
  gst_cuda_box_blur_settings_held_regions (&s, &info, buf, NULL, regions, rs);
  fail_unless_equals_int (g_array_index (rs, GstCudaBoxBlurSettings,
          0).block_size, 25);
  s.mode = GST_CUDA_BOX_BLUR_MODE_BOX;
  s.block_scale = 0;

  /* sigma-scale in mode gaussian, clamped to 128 */
  s.radius_scale = 0;
  s.mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
  s.sigma_scale = 1;
  gst_cuda_box_blur_settings_held_regions (&s, &info, buf, NULL, regions, rs);
  fail_unless (g_array_index (rs, GstCudaBoxBlurSettings, 0).sigma == 100);
  s.roi_meta = FALSE;
  gst_cuda_box_blur_settings_held_regions (&s, &info, buf, NULL, regions, rs);
  fail_unless (g_array_index (rs, GstCudaBoxBlurSettings, 0).sigma == 128);

  /* a region too small for its scale still gets a redaction: radius 1,
   * a Gaussian whose last box has radius 1, blocks of 2 */
  {
    GstBuffer *tiny = gst_buffer_new ();
    GstCudaBoxBlurMode m;

    gst_buffer_add_video_region_of_interest_meta (tiny, "face", 20, 20, 4, 4);
    for (m = GST_CUDA_BOX_BLUR_MODE_BOX; m <= GST_CUDA_BOX_BLUR_MODE_PIXELATE;
        m++) {
      gst_cuda_box_blur_settings_init (&s);
      s.roi_meta = TRUE;
      s.mode = m;
      s.radius_scale = s.block_scale = 0.1;
      s.sigma_scale = 0.01;
      fail_unless_equals_int (gst_cuda_box_blur_settings_held_regions (&s,
              &info, tiny, NULL, regions, rs), 1);
      r = &g_array_index (rs, GstCudaBoxBlurSettings, 0);
      fail_unless_equals_int (m == GST_CUDA_BOX_BLUR_MODE_BOX ? r->radius_x :
          m == GST_CUDA_BOX_BLUR_MODE_PIXELATE ? r->block_size - 1 :
          gst_cuda_box_blur_gaussian_radius (r->sigma,
              gst_cuda_box_blur_settings_passes (r),
              gst_cuda_box_blur_settings_passes (r) - 1), 1);
    }
    gst_buffer_unref (tiny);
  }

  /* a radius of 0 and regions that take their radius from metas: no
   * passthrough, but only regions with a radius, a mode or a block size
   * of their own */
  gst_cuda_box_blur_settings_init (&s);
  s.radius_x = s.radius_y = 0;
  fail_unless (gst_cuda_box_blur_settings_blurs_nothing (&s, &info));
  s.roi_meta = TRUE;
  fail_if (gst_cuda_box_blur_settings_blurs_nothing (&s, &info));
  /* chroma only, of radius 0: no box changes it, but a meta may ask for a
   * fill or blocks */
  {
    GstCudaBoxBlurSettings chroma = s;

    chroma.planes = GST_CUDA_BOX_BLUR_PLANE_U | GST_CUDA_BOX_BLUR_PLANE_V;
    chroma.chroma_radius_x = chroma.chroma_radius_y = 0;
    fail_if (gst_cuda_box_blur_settings_blurs_nothing (&chroma, &info));
    chroma.roi_meta = FALSE;
    chroma.radius_x = chroma.radius_y = 5;
    fail_unless (gst_cuda_box_blur_settings_blurs_nothing (&chroma, &info));
  }
  fail_unless_equals_int (gst_cuda_box_blur_settings_held_regions (&s, &info,
          buf, NULL, regions, rs), 3);

  /* a sigma of an unsigned integer, clamped like the others */
  gst_buffer_unref (buf);
  buf = gst_buffer_new ();
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 10, 10, 40,
      40);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "mode", G_TYPE_STRING, "gaussian",
          "sigma", G_TYPE_UINT, 6, NULL));
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 100, 10, 40,
      40);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "sigma", G_TYPE_UINT, 1000, NULL));
  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  fail_unless_equals_int (gst_cuda_box_blur_settings_held_regions (&s, &info,
          buf, NULL, regions, rs), 2);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 0);
  fail_unless (r->mode == GST_CUDA_BOX_BLUR_MODE_GAUSSIAN && r->sigma == 6);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 1);
  fail_unless (r->sigma == GST_CUDA_BOX_BLUR_MAX_SIGMA);

  /* a sigma of NaN is ignored, one of infinity clamped */
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 200, 10, 40,
      40);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "mode", G_TYPE_STRING, "gaussian",
          "sigma", G_TYPE_DOUBLE, (gdouble) NAN, NULL));
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 300, 10, 40,
      40);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "mode", G_TYPE_STRING, "gaussian",
          "sigma", G_TYPE_DOUBLE, (gdouble) INFINITY, NULL));
  fail_unless_equals_int (gst_cuda_box_blur_settings_held_regions (&s, &info,
          buf, NULL, regions, rs), 4);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 2);
  fail_unless (r->mode == GST_CUDA_BOX_BLUR_MODE_GAUSSIAN && r->sigma == 2);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 3);
  fail_unless (r->sigma == GST_CUDA_BOX_BLUR_MAX_SIGMA);

  gst_buffer_unref (buf);
  g_array_unref (rs);
  g_array_unref (regions);
}

GST_END_TEST;

/* Pixelate by hand: blocks from the region's top left corner, cut short
 * at its edges, each the mean of its samples rounded half up; the
 * samples outside the region untouched; chroma blocks cover the same
 * pixels. */
GST_START_TEST (test_pixelate)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 5, 3);
  GstCudaBoxBlurInfo i420 = test_info ("I420", 64, 48);
  /* rows padded to a stride of 8 */
  guint8 src[24], out[24];
  const guint8 blocks2[3][5] = { {6, 6, 8, 8, 9}, {6, 6, 8, 8, 9},
  {21, 21, 23, 23, 24}
  };
  const guint8 blocks3[3][5] = { {0, 12, 12, 12, 14}, {10, 12, 12, 12, 14},
  {20, 12, 12, 12, 14}
  };
  const GstVideoRectangle whole = { 0, 0, 5, 3 }, part = { 1, 0, 4, 3 };
  GstCudaBoxBlurSettings settings;
  GstCudaBoxBlurFrame in, o;
  GstCudaBoxBlurWindow w;
  gint x, y;

  fail_unless_equals_int (info.stride[0], 8);
  for (y = 0; y < 3; y++)
    for (x = 0; x < 5; x++)
      src[y * 8 + x] = x + 10 * y;
  gst_cuda_box_blur_settings_init (&settings);
  settings.mode = GST_CUDA_BOX_BLUR_MODE_PIXELATE;
  settings.block_size = 2;
  settings.passes = 3;          /* pixelate runs once */
  gst_cuda_box_blur_frame_from_data (&in, &info, src);
  gst_cuda_box_blur_frame_from_data (&o, &info, out);
  box_blur_ref_frame (&info, &settings, &in, &o, &whole, 1, NULL);
  for (y = 0; y < 3; y++)
    for (x = 0; x < 5; x++)
      fail_unless_equals_int (out[y * 8 + x], blocks2[y][x]);

  settings.block_size = 3;
  box_blur_ref_frame (&info, &settings, &in, &o, &part, 1, NULL);
  for (y = 0; y < 3; y++)
    for (x = 0; x < 5; x++)
      fail_unless_equals_int (out[y * 8 + x], blocks3[y][x]);

  settings.block_size = 5;
  fail_unless (gst_cuda_box_blur_settings_window (&settings, &i420, 0, &w));
  fail_unless (w.work == GST_CUDA_BOX_BLUR_WORK_BLOCKS && w.block_w == 5
      && w.block_h == 5);
  fail_unless (gst_cuda_box_blur_settings_window (&settings, &i420, 1, &w));
  fail_unless (w.block_w == 3 && w.block_h == 3);
  settings.block_size = 1;
  fail_unless (gst_cuda_box_blur_settings_blurs_nothing (&settings, &i420));
}

GST_END_TEST;

/* @settings over a GRAY8 frame of zeros, @w x @h with rows padded to
 * @info's stride, into @out. */
static void
ref_gray8_zeros (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurSettings * settings, GstBuffer * metas, guint8 * out)
{
  guint8 *zeros = g_malloc0 (info->size);
  GstBuffer *buf = metas ? gst_buffer_ref (metas) : gst_buffer_new ();
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GArray *rs = g_array_new (FALSE, FALSE, sizeof (GstCudaBoxBlurSettings));
  GstCudaBoxBlurFrame in, o;

  gst_cuda_box_blur_frame_from_data (&in, info, zeros);
  gst_cuda_box_blur_frame_from_data (&o, info, out);
  gst_cuda_box_blur_settings_held_regions (settings, info, buf, NULL,
      regions, rs);
  box_blur_ref_frame (info, settings, &in, &o,
      (const GstVideoRectangle *) regions->data, regions->len,
      (const GstCudaBoxBlurSettings *) rs->data);
  g_array_unref (regions);
  g_array_unref (rs);
  gst_buffer_unref (buf);
  g_free (zeros);
}

/* Shapes and feathers by hand: white filled onto black. */
GST_START_TEST (test_shapes)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 7, 5);
  /* the ellipse inscribed in 7 x 5: (2x - 6)^2 / 49 + (2y - 4)^2 / 25 <= 1 */
  const guint8 ellipse[5][7] = {
    {0, 1, 1, 1, 1, 1, 0}, {1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1},
    {1, 1, 1, 1, 1, 1, 1}, {0, 1, 1, 1, 1, 1, 0}
  };
  /* feather 2: a third, two thirds, all, rounded half up */
  const guint8 feathered[5][7] = {
    {85, 85, 85, 85, 85, 85, 85}, {85, 170, 170, 170, 170, 170, 85},
    {85, 170, 255, 255, 255, 170, 85}, {85, 170, 170, 170, 170, 170, 85},
    {85, 85, 85, 85, 85, 85, 85}
  };
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurWindow w = { 0, };
  guint8 out[40];
  gint x, y;

  fail_unless_equals_int (info.stride[0], 8);
  gst_cuda_box_blur_settings_init (&s);
  s.mode = GST_CUDA_BOX_BLUR_MODE_FILL;
  s.fill_color = 0xffffffff;
  s.shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
  ref_gray8_zeros (&info, &s, NULL, out);
  for (y = 0; y < 5; y++)
    for (x = 0; x < 7; x++)
      fail_unless_equals_int (out[y * 8 + x], 255 * ellipse[y][x]);

  s.shape = GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE;
  s.feather = 2;
  ref_gray8_zeros (&info, &s, NULL, out);
  for (y = 0; y < 5; y++)
    for (x = 0; x < 7; x++)
      fail_unless_equals_int (out[y * 8 + x], feathered[y][x]);

  /* the feathered ellipse: the centre whole, the corners untouched, the
   * weights never growing towards the edge */
  w.shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
  w.feather = 3;
  fail_unless_equals_int (box_blur_ref_weight (&w, 10, 10, 21, 21), 4);
  fail_unless_equals_int (box_blur_ref_weight (&w, 0, 0, 21, 21), 0);
  fail_unless_equals_int (box_blur_ref_weight (&w, 0, 10, 21, 21), 1);
  fail_unless_equals_int (box_blur_ref_weight (&w, 1, 10, 21, 21), 2);
  fail_unless_equals_int (box_blur_ref_weight (&w, 2, 10, 21, 21), 3);
  fail_unless_equals_int (box_blur_ref_weight (&w, 3, 10, 21, 21), 4);
  for (x = 0; x < 10; x++)
    fail_unless (box_blur_ref_weight (&w, x, x, 21, 21) <=
        box_blur_ref_weight (&w, x + 1, x + 1, 21, 21));
  /* a 1 x 1 region is its own ellipse */
  fail_unless_equals_int (box_blur_ref_weight (&w, 0, 0, 1, 1), 1);
}

GST_END_TEST;

/* Regions laid in their order: where two overlap, the later one shows;
 * per-region shape, feather and fill colour. */
GST_START_TEST (test_overlap_and_fill_params)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 8, 4);
  GstBuffer *buf = gst_buffer_new ();
  GstVideoRegionOfInterestMeta *m;
  GstCudaBoxBlurSettings s;
  guint8 out[32];
  gint x, y;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.mode = GST_CUDA_BOX_BLUR_MODE_FILL;
  s.fill_color = 0xff646464;    /* gray 100 */
  gst_buffer_add_video_region_of_interest_meta (buf, "face", 0, 0, 5, 4);
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 3, 0, 5, 4);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "fill-color", G_TYPE_UINT,
          0xffc8c8c8, NULL));
  ref_gray8_zeros (&info, &s, buf, out);
  for (y = 0; y < 4; y++)
    for (x = 0; x < 8; x++)
      fail_unless_equals_int (out[y * 8 + x], x < 3 ? 100 : 200);

  /* the later region an ellipse: the earlier one shows at its corners */
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "shape", G_TYPE_STRING, "ellipse",
          "feather", G_TYPE_INT, 0, NULL));
  gst_buffer_unref (buf);
  buf = gst_buffer_new ();
  gst_buffer_add_video_region_of_interest_meta (buf, "face", 0, 0, 5, 4);
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 3, 0, 5, 4);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "fill-color", G_TYPE_UINT,
          0xffc8c8c8, "shape", G_TYPE_STRING, "ellipse", NULL));
  ref_gray8_zeros (&info, &s, buf, out);
  /* 5 x 4 ellipse: (2x - 4)^2 / 25 + (2y - 3)^2 / 16 <= 1 leaves out the
   * corners (x 0 and 4 of rows 0 and 3) */
  fail_unless_equals_int (out[0 * 8 + 3], 100);
  fail_unless_equals_int (out[0 * 8 + 4], 200);
  fail_unless_equals_int (out[0 * 8 + 7], 0);
  fail_unless_equals_int (out[1 * 8 + 3], 200);
  fail_unless_equals_int (out[1 * 8 + 7], 200);
  fail_unless_equals_int (out[3 * 8 + 3], 100);
  fail_unless_equals_int (out[3 * 8 + 7], 0);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* The fill colour in each format's own terms, against the published
 * values: BT.601 and BT.709 limited range (the caps' defaults for SD and
 * HD YUV), full range gray, RGB and alpha as they are. */
GST_START_TEST (test_fill_colors)
{
  GstCudaBoxBlurInfo sd = test_info ("I420", 64, 48);
  GstCudaBoxBlurInfo hd = test_info ("NV12", 1920, 1080);
  GstCudaBoxBlurInfo rgba = test_info ("RGBA", 8, 8);
  GstCudaBoxBlurInfo argb = test_info ("ARGB", 8, 8);
  GstCudaBoxBlurInfo gray16 = test_info ("GRAY16_LE", 8, 8);
  GstCudaBoxBlurInfo gray32f = test_info ("GRAY32F", 8, 8);
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurWindow w;
  const guint32 red = 0xffff0000, white = 0xffffffff, black = 0xff000000;
  gint c;

  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&sd, 0, white),
      235);
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&sd, 1, white),
      128);
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&sd, 0, black),
      16);
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&sd, 0, red),
      81);
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&sd, 1, red),
      90);
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&sd, 2, red),
      240);
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&hd, 0, red),
      63);
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&hd, 1, red),
      102);
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&hd, 2, red),
      240);
  for (c = 0; c < 4; c++) {
    static const gint rgba_values[] = { 0x11, 0x22, 0x33, 0x80 };

    fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&rgba, c,
            0x80112233), rgba_values[c]);
  }
  /* ARGB: the components in R, G, B, A order whatever the bytes' */
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&argb, 3,
          0x80112233), 0x80);
  fail_unless_equals_int (gst_cuda_box_blur_info_color_sample (&gray16, 0,
          white), 65535);
  fail_unless (fabs (gst_cuda_box_blur_info_color_sample (&gray32f, 0,
              0xff808080) - 128) < 1e-9);

  /* the windows of mode fill carry it */
  gst_cuda_box_blur_settings_init (&s);
  s.mode = GST_CUDA_BOX_BLUR_MODE_FILL;
  s.fill_color = red;
  fail_unless (gst_cuda_box_blur_settings_window (&s, &sd, 2, &w));
  fail_unless (w.work == GST_CUDA_BOX_BLUR_WORK_FILL && w.fill_value == 240);
  fail_unless_equals_int (gst_cuda_box_blur_settings_passes (&s), 1);
  fail_if (gst_cuda_box_blur_settings_blurs_nothing (&s, &sd));
  /* alpha only with blur-alpha */
  fail_if (gst_cuda_box_blur_settings_window (&s, &rgba, 3, &w));
  s.planes = GST_CUDA_BOX_BLUR_PLANE_Y;
  fail_unless (gst_cuda_box_blur_settings_blurs_nothing (&s, &rgba));
}

GST_END_TEST;

/* Shape, feather and fill-color from a meta's parameters; ill-typed ones
 * ignored. */
GST_START_TEST (test_shape_params)
{
  GstCudaBoxBlurInfo info = test_info ("I420", 640, 480);
  GstBuffer *buf = gst_buffer_new ();
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GArray *rs = g_array_new (FALSE, FALSE, sizeof (GstCudaBoxBlurSettings));
  GstVideoRegionOfInterestMeta *m;
  const GstCudaBoxBlurSettings *r;
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurWindow w;

  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 10, 10, 40,
      40);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "shape", G_TYPE_STRING, "ellipse",
          "feather", G_TYPE_UINT, 7, "mode", G_TYPE_STRING, "fill",
          "fill-color", G_TYPE_INT, 0x7f00ff00, NULL));
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 100, 10, 40,
      40);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new ("cudaboxblur", "shape", G_TYPE_STRING, "star",
          "feather", G_TYPE_STRING, "soft", "fill-color", G_TYPE_DOUBLE, 1.0,
          NULL));

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.feather = 2;
  fail_unless_equals_int (gst_cuda_box_blur_settings_held_regions (&s, &info,
          buf, NULL, regions, rs), 2);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 0);
  fail_unless (r->shape == GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE && r->feather == 7
      && r->mode == GST_CUDA_BOX_BLUR_MODE_FILL
      && r->fill_color == 0x7f00ff00);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 1);
  fail_unless (r->shape == GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE
      && r->feather == 2 && r->fill_color == s.fill_color);

  /* chroma feathers over half the width, rounded up */
  s.feather = 7;
  fail_unless (gst_cuda_box_blur_settings_window (&s, &info, 0, &w));
  fail_unless_equals_int (w.feather, 7);
  fail_unless (gst_cuda_box_blur_settings_window (&s, &info, 1, &w));
  fail_unless_equals_int (w.feather, 4);

  gst_buffer_unref (buf);
  g_array_unref (rs);
  g_array_unref (regions);
}

GST_END_TEST;

/* With roi-meta, no-region=redact redacts the whole frame, hard-edged,
 * when no region of a matching meta (nor a held one) lies in it; a region
 * that asks to be left alone still counts as one.  Each region says where
 * it comes from. */
GST_START_TEST (test_no_region)
{
  GstCudaBoxBlurInfo info = test_info ("NV12", 100, 60);
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GArray *rs = g_array_new (FALSE, FALSE, sizeof (GstCudaBoxBlurSettings));
  GArray *origins = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurRegionOrigin));
  GstBuffer *buf = gst_buffer_new ();
  GstCudaBoxBlurHold hold;
  GstVideoRegionOfInterestMeta *m;
  const GstCudaBoxBlurRegionOrigin *o;
  const GstCudaBoxBlurSettings *r;
  GstCudaBoxBlurSettings s;
  GstVideoRectangle *rect;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
  s.feather = 4;
  s.radius_scale = 0.1;
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, NULL, regions, rs, origins), 0);

  s.no_region = GST_CUDA_BOX_BLUR_NO_REGION_REDACT;
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, NULL, regions, rs, origins), 1);
  rect = &g_array_index (regions, GstVideoRectangle, 0);
  fail_unless (rect->x == 0 && rect->y == 0 && rect->w == 100
      && rect->h == 60);
  r = &g_array_index (rs, GstCudaBoxBlurSettings, 0);
  fail_unless_equals_int (r->shape, GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE);
  fail_unless_equals_int (r->feather, 0);
  /* the scales take the frame's size */
  fail_unless_equals_int (r->radius_x, 6);
  o = &g_array_index (origins, GstCudaBoxBlurRegionOrigin, 0);
  fail_unless_equals_int (o->reason, GST_CUDA_BOX_BLUR_REASON_NO_REGION);

  /* a meta of another type, or outside the frame, is no region */
  gst_buffer_add_video_region_of_interest_meta (buf, "plate", 10, 10, 8, 8);
  gst_buffer_add_video_region_of_interest_meta (buf, "face", 100, 10, 8, 8);
  gst_cuda_box_blur_settings_set_roi_meta_types (&s, "face");
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, NULL, regions, rs, origins), 1);
  fail_unless_equals_int (g_array_index (regions, GstVideoRectangle, 0).w,
      100);

  /* a face whose parameters leave it alone is a region: nothing redacted */
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 40, 20, 10,
      10);
  gst_video_region_of_interest_meta_add_param (m,
      gst_structure_new (GST_CUDA_BOX_BLUR_META_PARAMS, "radius", G_TYPE_INT,
          0, NULL));
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, NULL, regions, rs, origins), 0);

  /* a face of this frame, then held in the next */
  gst_buffer_unref (buf);
  buf = gst_buffer_new ();
  m = gst_buffer_add_video_region_of_interest_meta (buf, "face", 40, 20, 10,
      10);
  m->id = 7;
  s.roi_hold = 2;
  s.roi_hold_motion = GST_CUDA_BOX_BLUR_HOLD_MOTION_NONE;
  gst_cuda_box_blur_hold_init (&hold);
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, &hold, regions, rs, origins), 1);
  o = &g_array_index (origins, GstCudaBoxBlurRegionOrigin, 0);
  fail_unless_equals_int (o->reason, GST_CUDA_BOX_BLUR_REASON_META);
  fail_unless_equals_int (o->type, g_quark_from_string ("face"));
  fail_unless_equals_int (o->id, 7);
  gst_buffer_unref (buf);
  buf = gst_buffer_new ();
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, &hold, regions, rs, origins), 1);
  o = &g_array_index (origins, GstCudaBoxBlurRegionOrigin, 0);
  fail_unless_equals_int (o->reason, GST_CUDA_BOX_BLUR_REASON_HELD);
  fail_unless_equals_int (o->id, 7);
  fail_unless_equals_int (g_array_index (regions, GstVideoRectangle, 0).x,
      40);
  /* once the hold is over, the whole frame */
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, &hold, regions, rs, origins), 1);
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, &hold, regions, rs, origins), 1);
  o = &g_array_index (origins, GstCudaBoxBlurRegionOrigin, 0);
  fail_unless_equals_int (o->reason, GST_CUDA_BOX_BLUR_REASON_NO_REGION);

  /* without roi-meta, the roi rectangle */
  s.roi_meta = FALSE;
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, NULL, regions, rs, origins), 1);
  o = &g_array_index (origins, GstCudaBoxBlurRegionOrigin, 0);
  fail_unless_equals_int (o->reason, GST_CUDA_BOX_BLUR_REASON_ROI);

  /* at most GST_CUDA_BOX_BLUR_MAX_ROI_META_TYPES types; a longer list
   * leaves the settings as they were */
  fail_if (gst_cuda_box_blur_settings_set_roi_meta_types (&s,
          "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q"));
  fail_unless_equals_int (s.n_roi_meta_types, 1);
  fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (&s,
          "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p"));
  fail_unless_equals_int (s.n_roi_meta_types, 16);

  gst_cuda_box_blur_hold_clear (&hold);
  g_array_unref (regions);
  g_array_unref (rs);
  g_array_unref (origins);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* invert: inside the region's shape the input, far from it the whole
 * frame's redaction, and over the feather outside the shape a blend that
 * fades from one to the other; where two kept regions overlap, clear
 * where either is.  Against the reference's own whole-frame blur. */
GST_START_TEST (test_invert)
{
  const gint w = 60, h = 40, f = 4;
  GstCudaBoxBlurInfo info = test_info ("GRAY8", w, h);
  const GstVideoRectangle regions[2] = { {10, 8, 16, 12}, {20, 12, 16, 12} };
  guint8 *in = g_malloc (info.size), *blurred = g_malloc (info.size);
  guint8 *out = g_malloc (info.size);
  GstCudaBoxBlurFrame fin, fblurred, fout;
  const GstVideoRectangle whole = { 0, 0, w, h };
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurWindow shape = { 0, };
  gint x, y, faded = 0;

  test_fill_data (&info, in, 11);
  gst_cuda_box_blur_frame_from_data (&fin, &info, in);
  gst_cuda_box_blur_frame_from_data (&fblurred, &info, blurred);
  gst_cuda_box_blur_frame_from_data (&fout, &info, out);
  gst_cuda_box_blur_settings_init (&s);
  s.radius_x = s.radius_y = 4;
  box_blur_ref_frame (&info, &s, &fin, &fblurred, &whole, 1, NULL);

  s.invert = TRUE;
  s.shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
  s.feather = f;
  box_blur_ref_frame (&info, &s, &fin, &fout, regions, 1, NULL);
  shape.shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const gint i = y * info.stride[0] + x;
      const gint dx = x - regions[0].x, dy = y - regions[0].y;
      const gboolean inside = dx >= 0 && dy >= 0 && dx < regions[0].w
          && dy < regions[0].h
          && box_blur_ref_weight (&shape, dx, dy, regions[0].w,
          regions[0].h) > 0;
      const gboolean near = x >= regions[0].x - f && y >= regions[0].y - f
          && x < regions[0].x + regions[0].w + f
          && y < regions[0].y + regions[0].h + f;

      if (inside) {
        fail_unless_equals_int (out[i], in[i]);
      } else if (!near) {
        fail_unless_equals_int (out[i], blurred[i]);
      } else {
        /* between the two, both included */
        fail_unless (out[i] >= MIN (in[i], blurred[i])
            && out[i] <= MAX (in[i], blurred[i]), "%d,%d", x, y);
        faded += out[i] != in[i] && out[i] != blurred[i];
      }
    }
  fail_unless (faded > 0, "no sample in the feather is a blend");

  /* two regions: clear in both; the element's settings alone redact */
  s.feather = 0;
  s.shape = GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE;
  s.mode = GST_CUDA_BOX_BLUR_MODE_BOX;
  box_blur_ref_frame (&info, &s, &fin, &fout, regions, 2, NULL);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const gint i = y * info.stride[0] + x;
      const gboolean kept = (x >= 10 && x < 26 && y >= 8 && y < 20)
          || (x >= 20 && x < 36 && y >= 12 && y < 24);

      fail_unless_equals_int (out[i], kept ? in[i] : blurred[i]);
    }

  g_free (in);
  g_free (blurred);
  g_free (out);
}

GST_END_TEST;

static Suite *
redaction_suite (void)
{
  Suite *s = suite_create ("redaction");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_roi_hold);
  tcase_add_test (tc, test_region_settings);
  tcase_add_test (tc, test_pixelate);
  tcase_add_test (tc, test_shapes);
  tcase_add_test (tc, test_overlap_and_fill_params);
  tcase_add_test (tc, test_fill_colors);
  tcase_add_test (tc, test_shape_params);
  tcase_add_test (tc, test_no_region);
  tcase_add_test (tc, test_invert);
  return s;
}

GST_CHECK_MAIN (redaction);
