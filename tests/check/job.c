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

/* Metas whose rectangles overflow 32 bits or a gint: a position past
 * G_MAXINT is a negative one written into the unsigned field (x + width
 * wraps round G_MAXUINT), whose part in the frame is redacted; one at
 * -2^31 is none of it; one that starts inside and reaches past G_MAXUINT
 * is clipped to the frame's edge, after padding. */
GST_START_TEST (test_overflowing_metas)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 64, 48);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurJob job;
  const GstVideoRectangle want[] = { {0, 0, 64, 14}, {0, 0, 14, 5},
  {6, 1, 58, 47}
  };
  guint i;

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
          buf, NULL), G_N_ELEMENTS (want));
  for (i = 0; i < G_N_ELEMENTS (want); i++) {
    const GstVideoRectangle *r = &g_array_index (job.regions,
        GstVideoRectangle, i);

    fail_unless (r->x == want[i].x && r->y == want[i].y
        && r->w == want[i].w && r->h == want[i].h, "region %u: %d,%d %dx%d",
        i, r->x, r->y, r->w, r->h);
  }

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

/* A flood of metas whose copies would take more than
 * GST_CUDA_BOX_BLUR_MAX_REGION_FRAMES frames' worth redacts the whole
 * frame instead, with the element's settings, and says why; as many
 * regions as fit are each redacted as they are. */
GST_START_TEST (test_many_regions)
{
  GstCudaBoxBlurInfo info = test_info ("I420", 64, 48);
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurJob job;
  const GstCudaBoxBlurRegionOrigin *o;
  guint n, fit = 0, i;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.radius_x = s.radius_y = 2;
  gst_cuda_box_blur_job_init (&job);
  for (n = 2; n <= 4 * GST_CUDA_BOX_BLUR_MAX_REGION_FRAMES; n++) {
    GstBuffer *buf = gst_buffer_new ();

    /* each region a little smaller than the frame, so each is one */
    for (i = 0; i < n; i++)
      gst_buffer_add_video_region_of_interest_meta (buf, "face", i % 2,
          i % 3, 60, 44);
    gst_cuda_box_blur_job_resolve (&job, &s, &info, buf, NULL);
    o = &g_array_index (job.origins, GstCudaBoxBlurRegionOrigin, 0);
    if (job.regions->len == n) {
      fail_unless_equals_int (o->reason, GST_CUDA_BOX_BLUR_REASON_META);
      fit = n;
    } else {
      fail_unless_equals_int (job.regions->len, 1);
      fail_unless (job.whole_frame);
      fail_unless_equals_int (o->reason,
          GST_CUDA_BOX_BLUR_REASON_MANY_REGIONS);
    }
    gst_buffer_unref (buf);
  }
  /* regions of about a frame each: as many as the frames' worth, less
   * their reach */
  fail_unless (fit >= GST_CUDA_BOX_BLUR_MAX_REGION_FRAMES / 2
      && fit <= GST_CUDA_BOX_BLUR_MAX_REGION_FRAMES, "%u regions fit", fit);

  /* the element's settings change nothing (radius 0), the metas' own
   * parameters do: the whole frame is redacted as the first region is */
  {
    GstBuffer *buf = gst_buffer_new ();

    s.radius_x = s.radius_y = 0;
    for (i = 0; i < 4 * GST_CUDA_BOX_BLUR_MAX_REGION_FRAMES; i++)
      gst_video_region_of_interest_meta_add_param
          (gst_buffer_add_video_region_of_interest_meta (buf, "face", 0, 0,
              60, 44), gst_structure_new ("cudaboxblur", "radius",
              G_TYPE_INT, 8, "shape", G_TYPE_STRING, "ellipse", NULL));
    gst_cuda_box_blur_job_resolve (&job, &s, &info, buf, NULL);
    fail_unless_equals_int (job.regions->len, 1);
    fail_unless (job.whole_frame);
    fail_unless (gst_cuda_box_blur_job_redacts (&job));
    fail_unless_equals_int (g_array_index (job.region_settings,
            GstCudaBoxBlurSettings, 0).radius_x, 8);
    gst_buffer_unref (buf);
  }
  gst_cuda_box_blur_job_clear (&job);
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
  tcase_add_test (tc, test_many_regions);
  return s;
}

GST_CHECK_MAIN (job);
