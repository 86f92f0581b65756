/* cudaboxblur: the resolve step
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What a frame's job says it gets: which components of which regions
 * change, where in each component's samples, with which passes; whether
 * the frame is blurred whole.  No GPU.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "cudaboxblur-job.h"
#include "testutils.h"

static const GstCudaBoxBlurTask *
task (const GstCudaBoxBlurJob * job, guint i)
{
  fail_unless (i < job->tasks->len);
  return &g_array_index (job->tasks, GstCudaBoxBlurTask, i);
}

/* A region at odd coordinates of an I420 frame: luma as given, chroma
 * rounded outwards to every sample that covers one of its pixels, with
 * the chroma radius the luma radius halved, rounded up. */
GST_START_TEST (test_region_per_component)
{
  GstCudaBoxBlurInfo info = test_info ("I420", 64, 48);
  GstVideoRectangle face = { 5, 7, 10, 9 };
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurJob job;
  gint c;

  gst_cuda_box_blur_settings_init (&s);
  s.radius_x = 5;
  s.radius_y = 3;
  gst_cuda_box_blur_job_init (&job);
  fail_unless_equals_int (gst_cuda_box_blur_job_set (&job, &s, &info, &face,
          1, NULL), 1);
  fail_unless_equals_int (job.tasks->len, 3);
  fail_unless_equals_int (job.n_passes, 1);
  fail_if (job.whole_frame);
  for (c = 0; c < 3; c++) {
    const GstCudaBoxBlurTask *t = task (&job, c);

    fail_unless_equals_int (t->region, 0);
    fail_unless_equals_int (t->component, c);
    fail_unless_equals_int (t->rect.x, c ? 2 : 5);
    fail_unless_equals_int (t->rect.y, c ? 3 : 7);
    /* luma 5..14 x 7..15; chroma 2..7 x 3..7 */
    fail_unless_equals_int (t->rect.w, c ? 6 : 10);
    fail_unless_equals_int (t->rect.h, c ? 5 : 9);
    fail_unless_equals_int (t->pass[0].radius_x, c ? 3 : 5);
    fail_unless_equals_int (t->pass[0].radius_y, c ? 2 : 3);
  }

  /* only the planes asked for */
  s.planes = GST_CUDA_BOX_BLUR_PLANE_Y;
  gst_cuda_box_blur_job_set (&job, &s, &info, &face, 1, NULL);
  fail_unless_equals_int (job.tasks->len, 1);
  fail_unless_equals_int (task (&job, 0)->component, 0);
  gst_cuda_box_blur_job_clear (&job);
}

GST_END_TEST;

/* The whole frame with hard edges is blurred whole; every byte of it is
 * written only where every component changes and no byte is padding. */
GST_START_TEST (test_whole_frame)
{
  GstCudaBoxBlurInfo rgba = test_info ("RGBA", 32, 16);
  GstCudaBoxBlurInfo rgbx = test_info ("RGBx", 32, 16);
  GstVideoRectangle whole = { 0, 0, 32, 16 }, part = { 0, 0, 31, 16 };
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurJob job;

  gst_cuda_box_blur_settings_init (&s);
  gst_cuda_box_blur_job_init (&job);
  gst_cuda_box_blur_job_set (&job, &s, &rgba, &whole, 1, NULL);
  fail_unless (job.whole_frame);
  /* alpha is left alone without blur-alpha */
  fail_unless_equals_int (job.tasks->len, 3);
  fail_if (job.covers);
  s.blur_alpha = TRUE;
  gst_cuda_box_blur_job_set (&job, &s, &rgba, &whole, 1, NULL);
  fail_unless (job.covers);
  gst_cuda_box_blur_job_set (&job, &s, &rgbx, &whole, 1, NULL);
  fail_unless (job.whole_frame);
  fail_if (job.covers);
  gst_cuda_box_blur_job_set (&job, &s, &rgba, &part, 1, NULL);
  fail_if (job.whole_frame);
  s.feather = 2;
  gst_cuda_box_blur_job_set (&job, &s, &rgba, &whole, 1, NULL);
  fail_if (job.whole_frame);
  fail_unless (gst_cuda_box_blur_job_in_place_helps (&job));
  gst_cuda_box_blur_job_clear (&job);
}

GST_END_TEST;

/* Regions of their own settings: the frame takes the most passes any of
 * them takes, and a region of fewer copies in the passes after its own. */
GST_START_TEST (test_passes_per_region)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 64, 48);
  GstVideoRectangle r[2] = { {0, 0, 8, 8}, {20, 20, 8, 8} };
  GstCudaBoxBlurSettings s, rs[2];
  GstCudaBoxBlurJob job;
  gint pass;

  gst_cuda_box_blur_settings_init (&s);
  rs[0] = s;
  rs[0].radius_x = rs[0].radius_y = 4;
  rs[1] = s;
  rs[1].mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
  rs[1].sigma = 3.0;
  gst_cuda_box_blur_job_init (&job);
  gst_cuda_box_blur_job_set (&job, &s, &info, r, 2, rs);
  fail_unless_equals_int (job.n_passes,
      gst_cuda_box_blur_settings_passes (&rs[1]));
  fail_unless_equals_int (job.tasks->len, 2);
  fail_unless_equals_int (task (&job, 0)->pass[0].radius_x, 4);
  for (pass = 1; pass < job.n_passes; pass++)
    fail_unless_equals_int (task (&job, 0)->pass[pass].radius_x, 0);
  for (pass = 0; pass < job.n_passes; pass++)
    fail_unless_equals_int (task (&job, 1)->pass[pass].radius_x,
        gst_cuda_box_blur_gaussian_radius (3.0, job.n_passes, pass));
  /* the widest pass bounds what the region reads */
  fail_unless_equals_int (task (&job, 1)->window.radius_x,
      task (&job, 1)->pass[job.n_passes - 1].radius_x);
  gst_cuda_box_blur_job_clear (&job);
}

GST_END_TEST;

/* A frame's job from its metas: a region whose parameters change nothing
 * is left out, a fill carries its colour, and the job prints. */
GST_START_TEST (test_resolve_metas)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 64, 48);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  GstVideoRegionOfInterestMeta *meta;
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurJob job;
  gchar *text;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  meta = gst_buffer_add_video_region_of_interest_meta (buf, "face", 4, 4,
      10, 10);
  gst_video_region_of_interest_meta_add_param (meta,
      gst_structure_new (GST_CUDA_BOX_BLUR_META_PARAMS, "radius", G_TYPE_INT,
          0, NULL));
  meta = gst_buffer_add_video_region_of_interest_meta (buf, "plate", 30, 20,
      12, 6);
  gst_video_region_of_interest_meta_add_param (meta,
      gst_structure_new (GST_CUDA_BOX_BLUR_META_PARAMS, "mode", G_TYPE_STRING,
          "fill", "fill-color", G_TYPE_UINT, 0xffffffff, NULL));

  gst_cuda_box_blur_job_init (&job);
  fail_unless_equals_int (gst_cuda_box_blur_job_resolve (&job, &s, &info,
          buf, NULL), 1);
  fail_unless_equals_int (job.tasks->len, 1);
  fail_unless (task (&job, 0)->window.work == GST_CUDA_BOX_BLUR_WORK_FILL);
  fail_unless_equals_float (task (&job, 0)->window.fill_value, 255.0);
  fail_unless_equals_int (task (&job, 0)->rect.x, 30);

  text = gst_cuda_box_blur_job_to_string (&job);
  fail_unless (strstr (text, "region 0: 12x6 at 30,20, fill") != NULL, "%s",
      text);
  g_free (text);

  gst_cuda_box_blur_job_clear (&job);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* Metas whose rectangles overflow 32 bits or a gint: those that start
 * past the frame are none of it, however far they reach (x + width wraps
 * round G_MAXUINT); one that starts inside and reaches past G_MAXUINT is
 * clipped to the frame's edge, after padding. */
GST_START_TEST (test_overflowing_metas)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 64, 48);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurJob job;
  const GstVideoRectangle *r;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.roi_padding = 4;
  gst_buffer_add_video_region_of_interest_meta (buf, "face", G_MAXUINT - 10,
      0, 100, 10);
  gst_buffer_add_video_region_of_interest_meta (buf, "face", 0,
      G_MAXUINT, 10, 2);
  gst_buffer_add_video_region_of_interest_meta (buf, "face",
      (guint) G_MAXINT + 1, 0, 10, 10);
  gst_buffer_add_video_region_of_interest_meta (buf, "face", 10, 5,
      G_MAXUINT, G_MAXUINT);

  gst_cuda_box_blur_job_init (&job);
  fail_unless_equals_int (gst_cuda_box_blur_job_resolve (&job, &s, &info,
          buf, NULL), 1);
  r = &g_array_index (job.regions, GstVideoRectangle, 0);
  fail_unless (r->x == 6 && r->y == 1 && r->w == 58 && r->h == 47,
      "%d,%d %dx%d", r->x, r->y, r->w, r->h);

  gst_cuda_box_blur_job_clear (&job);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* invert: the whole frame's tasks with the element's settings, and for
 * each region a keep of each changed component, grown by its feather; a
 * frame without a region is still redacted. */
GST_START_TEST (test_invert)
{
  GstCudaBoxBlurInfo info = test_info ("I420", 64, 48);
  GstVideoRectangle face = { 2, 8, 20, 16 };
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurJob job;
  const GstCudaBoxBlurTask *k;

  gst_cuda_box_blur_settings_init (&s);
  s.invert = TRUE;
  s.radius_x = s.radius_y = 4;
  s.shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
  s.feather = 5;
  gst_cuda_box_blur_job_init (&job);
  gst_cuda_box_blur_job_set (&job, &s, &info, &face, 1, NULL);
  fail_unless (job.invert && job.whole_frame);
  fail_unless_equals_int (job.tasks->len, 3);
  fail_unless_equals_int (task (&job, 0)->rect.w, 64);
  fail_unless_equals_int (task (&job, 0)->window.feather, 0);
  fail_unless_equals_int (job.keeps->len, 3);
  k = &g_array_index (job.keeps, GstCudaBoxBlurTask, 0);
  /* luma: 5 pixels out, past the frame's left edge */
  fail_unless (k->rect.x == -3 && k->rect.y == 3 && k->rect.w == 30
      && k->rect.h == 26);
  fail_unless_equals_int (k->window.shape, GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE);
  fail_unless (k->window.work != GST_CUDA_BOX_BLUR_WORK_FILL);
  /* chroma: 1..10 x 4..11, grown by 3 */
  k = &g_array_index (job.keeps, GstCudaBoxBlurTask, 1);
  fail_unless (k->rect.x == -2 && k->rect.y == 1 && k->rect.w == 16
      && k->rect.h == 14);
  fail_if (gst_cuda_box_blur_job_in_place_helps (&job));

  gst_cuda_box_blur_job_set (&job, &s, &info, NULL, 0, NULL);
  fail_unless (gst_cuda_box_blur_job_redacts (&job));
  fail_unless_equals_int (job.keeps->len, 0);
  gst_cuda_box_blur_job_clear (&job);
}

GST_END_TEST;

/* The audit message's structure of three frames of a face in a segment
 * that starts at 1 s: seen with a confidence at x 10 and then 16, then
 * missed and held, moved on to 22; the times in stream and running time,
 * the held region's frames, prediction and confidence. */
GST_START_TEST (test_audit)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 64, 48);
  const gint xs[] = { 10, 16, -1 };
  const gchar *const reasons[] = { "meta", "meta", "held" };
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurHold hold;
  GstCudaBoxBlurJob job;
  GstSegment segment;
  guint i;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.roi_hold = 2;
  s.roi_hold_grow = 0;
  gst_cuda_box_blur_hold_init (&hold);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = segment.time = GST_SECOND;
  gst_cuda_box_blur_job_init (&job);

  for (i = 0; i < G_N_ELEMENTS (xs); i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, info.size, NULL);
    const GValue *regions;
    const GstStructure *r;
    GstStructure *a;
    guint64 t;
    guint u;
    gint id;
    gdouble confidence;
    gboolean predicted;

    GST_BUFFER_PTS (buf) = GST_SECOND + i * 40 * GST_MSECOND;
    GST_BUFFER_DURATION (buf) = 40 * GST_MSECOND;
    if (xs[i] >= 0) {
      GstVideoRegionOfInterestMeta *meta =
          gst_buffer_add_video_region_of_interest_meta (buf, "face", xs[i],
          10, 12, 12);

      meta->id = 3;
      gst_video_region_of_interest_meta_add_param (meta,
          gst_structure_new ("detection", "confidence", G_TYPE_DOUBLE, 0.75,
              NULL));
    }
    fail_unless_equals_int (gst_cuda_box_blur_job_resolve (&job, &s, &info,
            buf, &hold), 1);
    a = gst_cuda_box_blur_job_audit (&job, &segment, buf);
    fail_unless (gst_structure_has_name (a, "cudaboxblur"));
    fail_unless (gst_structure_get_uint64 (a, "timestamp", &t));
    fail_unless_equals_uint64 (t, GST_BUFFER_PTS (buf));
    fail_unless (gst_structure_get_uint64 (a, "stream-time", &t));
    fail_unless_equals_uint64 (t, GST_BUFFER_PTS (buf));
    fail_unless (gst_structure_get_uint64 (a, "running-time", &t));
    fail_unless_equals_uint64 (t, i * 40 * GST_MSECOND);
    fail_unless (gst_structure_get_uint64 (a, "duration", &t));
    fail_unless_equals_uint64 (t, 40 * GST_MSECOND);

    regions = gst_structure_get_value (a, "regions");
    fail_unless_equals_int (gst_value_list_get_size (regions), 1);
    r = gst_value_get_structure (gst_value_list_get_value (regions, 0));
    fail_unless_equals_string (gst_structure_get_string (r, "reason"),
        reasons[i]);
    fail_unless_equals_string (gst_structure_get_string (r, "type"), "face");
    fail_unless_equals_string (gst_structure_get_string (r, "mode"), "box");
    fail_unless (gst_structure_get_int (r, "id", &id) && id == 3);
    fail_unless (gst_structure_get_uint (r, "x", &u));
    fail_unless_equals_int (u, xs[i] >= 0 ? xs[i] : 22);
    fail_unless (gst_structure_get_double (r, "confidence", &confidence));
    fail_unless_equals_float (confidence, 0.75);
    if (xs[i] >= 0) {
      fail_if (gst_structure_has_field (r, "held-frames"));
      fail_if (gst_structure_has_field (r, "predicted"));
    } else {
      fail_unless (gst_structure_get_uint (r, "held-frames", &u) && u == 1);
      fail_unless (gst_structure_get_boolean (r, "predicted", &predicted)
          && predicted);
    }
    gst_structure_free (a);
    gst_buffer_unref (buf);
  }
  gst_cuda_box_blur_job_clear (&job);
  gst_cuda_box_blur_hold_clear (&hold);
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
    n = gst_cuda_box_blur_job_layers (&job, layers, rounded);
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

/* The groups of tasks that blur whole pixels: RGBA's colour (alpha kept)
 * or all four, NV12's UV pairs but not its luma, AYUV's chroma with a
 * radius of its own not (it would race with luma in the same pixels),
 * RGBA's red alone and GRAY8 never, with no bytes; and at a region's edge
 * a group stops. */
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
    {"AYUV", FALSE, -1, ALL, {3, 0, 0}, {0xe}},
    {"AYUV", FALSE, 5, ALL, {1, 1, 1}, {0, 0, 0}},
    {"GRAY8", FALSE, -1, ALL, {1}, {0}},
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

      n = gst_cuda_box_blur_job_pixel_group (&job, t, 0, &blurred);
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

static Suite *
job_suite (void)
{
  Suite *s = suite_create ("job");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_region_per_component);
  tcase_add_test (tc, test_whole_frame);
  tcase_add_test (tc, test_passes_per_region);
  tcase_add_test (tc, test_resolve_metas);
  tcase_add_test (tc, test_overflowing_metas);
  tcase_add_test (tc, test_invert);
  tcase_add_test (tc, test_audit);
  tcase_add_test (tc, test_layers);
  tcase_add_test (tc, test_pixel_groups);
  return s;
}

GST_CHECK_MAIN (job);
