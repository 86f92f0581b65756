/* cudaboxblur: the object detections of GStreamer's analytics metas
 * (1.24 and later) as regions
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A detector that attaches only GstAnalyticsODMtd gets the regions one
 * that attaches GstVideoRegionOfInterestMeta gets: the same rectangles,
 * types, confidences and held regions, its tracking ids matched as
 * gvatrack's object ids are; an object attached both ways is one region;
 * rotated and malformed boxes; the audit message names the meta.  No GPU:
 * the regions are what the element and the reference redact.
 */

#include <gst/check/gstcheck.h>
#include <gst/analytics/analytics.h>
#include <math.h>

#include "cudaboxblur-job.h"
#include "cudaboxblur-regions.h"
#include "testutils.h"

/* One detection: where, of what, how sure (below 0: as a region meta
 * without a detection structure, and an ODMtd of confidence -1), and a
 * tracker's id (0: none). */
typedef struct
{
  gint x, y, w, h;
  const gchar *type;
  gdouble confidence;
  guint64 track;
} Face;

/* @face as an ODMtd of @buf's relation meta, with a related tracking
 * mtd where it has a track. */
static void
add_od (GstBuffer * buf, const Face * face)
{
  GstAnalyticsRelationMeta *meta = gst_buffer_get_analytics_relation_meta
      (buf);
  GstAnalyticsODMtd od;
  GstAnalyticsTrackingMtd trk;

  if (!meta)
    meta = gst_buffer_add_analytics_relation_meta (buf);
  fail_unless (gst_analytics_relation_meta_add_od_mtd (meta,
          g_quark_from_string (face->type), face->x, face->y, face->w,
          face->h, face->confidence, &od));
  if (face->track == 0)
    return;
  fail_unless (gst_analytics_relation_meta_add_tracking_mtd (meta,
          face->track, 0, &trk));
  fail_unless (gst_analytics_relation_meta_set_relation (meta,
          GST_ANALYTICS_REL_TYPE_RELATE_TO, od.id, trk.id));
}

/* @face as DL Streamer's gvadetect and gvatrack attach it. */
static void
add_roi (GstBuffer * buf, const Face * face)
{
  GstVideoRegionOfInterestMeta *m =
      gst_buffer_add_video_region_of_interest_meta (buf, face->type,
      face->x, face->y, face->w, face->h);

  if (face->track > 0)
    gst_video_region_of_interest_meta_add_param (m,
        gst_structure_new ("object_id", "id", G_TYPE_UINT64, face->track,
            NULL));
  if (face->confidence >= 0)
    gst_video_region_of_interest_meta_add_param (m,
        gst_structure_new ("detection", "confidence", G_TYPE_DOUBLE,
            face->confidence, NULL));
}

/* The regions of the next frame, holding @faces the way @add attaches
 * them; their origins in @origins. */
static guint
frame_regions (const GstCudaBoxBlurSettings * s,
    const GstCudaBoxBlurInfo * info, GstCudaBoxBlurHold * hold,
    void (*add) (GstBuffer *, const Face *), const Face * faces, guint n,
    GArray * regions, GArray * origins)
{
  GstBuffer *buf = gst_buffer_new ();
  guint i, found;

  for (i = 0; i < n; i++)
    add (buf, &faces[i]);
  found = gst_cuda_box_blur_settings_find_regions (s, info, buf, hold,
      regions, NULL, origins);
  gst_buffer_unref (buf);
  return found;
}

static const GstCudaBoxBlurRegionOrigin *
origin (GArray * origins, guint i)
{
  return &g_array_index (origins, GstCudaBoxBlurRegionOrigin, i);
}

static void
assert_rect (GArray * regions, guint i, gint x, gint y, gint w, gint h)
{
  const GstVideoRectangle *r = &g_array_index (regions, GstVideoRectangle, i);

  fail_unless (r->x == x && r->y == y && r->w == w && r->h == h,
      "region %u at %d,%d %dx%d, want %d,%d %dx%d", i, r->x, r->y, r->w, r->h,
      x, y, w, h);
}

/* Streams of frames with @faces in each, as ODMtds and as region metas,
 * under @s: frame by frame the same regions (place, type, confidence,
 * reason, held frames), each from its own kind of meta.  @shift moves
 * every face on by that much a frame, @missed_from drops the metas from
 * that frame on, so that held regions move on. */
static void
assert_same_regions (const GstCudaBoxBlurSettings * s, const Face * faces,
    guint n, gint shift, guint missed_from, guint n_frames)
{
  const GstCudaBoxBlurInfo info = test_info ("I420", 160, 120);
  GArray *regions[2], *origins[2];
  GstCudaBoxBlurHold hold[2];
  Face *moved = g_new (Face, n);
  guint f, i, k, count[2];

  for (k = 0; k < 2; k++) {
    regions[k] = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
    origins[k] = g_array_new (FALSE, FALSE,
        sizeof (GstCudaBoxBlurRegionOrigin));
    gst_cuda_box_blur_hold_init (&hold[k]);
  }
  for (f = 0; f < n_frames; f++) {
    const guint in_frame = f < missed_from ? n : 0;

    for (i = 0; i < n; i++) {
      moved[i] = faces[i];
      moved[i].x += shift * f;
    }
    count[0] = frame_regions (s, &info, &hold[0], add_od, moved, in_frame,
        regions[0], origins[0]);
    count[1] = frame_regions (s, &info, &hold[1], add_roi, moved, in_frame,
        regions[1], origins[1]);
    fail_unless_equals_int (count[0], count[1]);
    for (i = 0; i < count[0]; i++) {
      const GstVideoRectangle *r = &g_array_index (regions[1],
          GstVideoRectangle, i);
      const GstCudaBoxBlurRegionOrigin *od = origin (origins[0], i);
      const GstCudaBoxBlurRegionOrigin *roi = origin (origins[1], i);

      assert_rect (regions[0], i, r->x, r->y, r->w, r->h);
      fail_unless_equals_int (od->reason, roi->reason);
      fail_unless_equals_int (od->type, roi->type);
      fail_unless_equals_int (od->held, roi->held);
      fail_unless_equals_int (od->predicted, roi->predicted);
      fail_unless (fabs (od->confidence - roi->confidence) < 1e-6,
          "frame %u region %u: confidence %g and %g", f, i, od->confidence,
          roi->confidence);
      fail_unless_equals_int (od->source,
          GST_CUDA_BOX_BLUR_SOURCE_ANALYTICS_OD);
      fail_unless_equals_int (roi->source,
          GST_CUDA_BOX_BLUR_SOURCE_VIDEO_ROI);
    }
  }
  for (k = 0; k < 2; k++) {
    gst_cuda_box_blur_hold_clear (&hold[k]);
    g_array_unref (regions[k]);
    g_array_unref (origins[k]);
  }
  g_free (moved);
}

/* Faces, a plate and an unsure face, partly outside the frame too: the
 * same regions from either meta with padding, types, exclusions and a
 * minimum confidence; and held while missed, still and moving on. */
GST_START_TEST (test_like_region_metas)
{
  const Face faces[] = {
    {10, 12, 30, 34, "face", 0.9, 0},
    {60, 20, 24, 24, "plate", -1, 0},
    {100, 70, 20, 20, "face", 0.3, 0},
    {-8, 90, 20, 40, "face", 0.6, 0},
  };
  GstCudaBoxBlurSettings s;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  assert_same_regions (&s, faces, G_N_ELEMENTS (faces), 0, 1, 1);
  s.roi_padding = 3;
  s.roi_min_confidence = 0.5;
  assert_same_regions (&s, faces, G_N_ELEMENTS (faces), 0, 1, 1);
  fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (&s, "face"));
  assert_same_regions (&s, faces, G_N_ELEMENTS (faces), 0, 1, 1);
  fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (&s, "!face"));
  assert_same_regions (&s, faces, G_N_ELEMENTS (faces), 0, 1, 1);
  fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (&s, NULL));
  s.roi_hold = 3;
  s.roi_hold_motion = GST_CUDA_BOX_BLUR_HOLD_MOTION_NONE;
  assert_same_regions (&s, faces, G_N_ELEMENTS (faces), 0, 2, 6);
  s.roi_hold_motion = GST_CUDA_BOX_BLUR_HOLD_MOTION_LINEAR;
  assert_same_regions (&s, faces, G_N_ELEMENTS (faces), 5, 3, 6);
}

GST_END_TEST;

/* A tracking id related to a detection matches it across frames as
 * gvatrack's object id does: track 3 seen far from its last place is the
 * same face (nothing held besides it), track 4 in track 3's place is
 * another (track 3 held). */
GST_START_TEST (test_tracking_ids)
{
  const GstCudaBoxBlurInfo info = test_info ("GRAY8", 128, 96);
  const Face first = { 10, 10, 20, 20, "face", 0.9, 3 };
  const Face moved = { 60, 50, 20, 20, "face", 0.9, 3 };
  const Face other = { 60, 50, 20, 20, "face", 0.9, 4 };
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GArray *origins = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurRegionOrigin));
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurHold hold;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.roi_hold = 2;
  gst_cuda_box_blur_hold_init (&hold);

  frame_regions (&s, &info, &hold, add_od, &first, 1, regions, origins);
  fail_unless_equals_int (frame_regions (&s, &info, &hold, add_od, &moved, 1,
          regions, origins), 1);
  fail_unless_equals_int (frame_regions (&s, &info, &hold, add_od, &other, 1,
          regions, origins), 2);
  assert_rect (regions, 0, 60, 50, 20, 20);
  fail_unless_equals_int (origin (origins, 1)->reason,
      GST_CUDA_BOX_BLUR_REASON_HELD);

  /* without the tracking ids, the far one is a new face and the first one
   * is held beside it */
  gst_cuda_box_blur_hold_reset (&hold);
  {
    Face a = first, b = moved;

    a.track = b.track = 0;
    frame_regions (&s, &info, &hold, add_od, &a, 1, regions, origins);
    fail_unless_equals_int (frame_regions (&s, &info, &hold, add_od, &b, 1,
            regions, origins), 2);
  }

  gst_cuda_box_blur_hold_clear (&hold);
  g_array_unref (regions);
  g_array_unref (origins);
}

GST_END_TEST;

/* An object a producer attaches both ways is one region, the region
 * meta's, which takes the detection's tracking id: seen next only as a
 * tracked detection far away, it is that face (nothing held).  It is as
 * sure as the surer of the two, and unknown where either is, so never
 * left out where one of them alone would be redacted.  A detection of
 * another place or type beside it is a region of its own. */
GST_START_TEST (test_both_ways_once)
{
  const GstCudaBoxBlurInfo info = test_info ("GRAY8", 128, 96);
  const Face face = { 10, 10, 20, 20, "face", -1, 0 };
  const Face tracked = { 10, 10, 20, 20, "face", 0.8, 9 };
  const Face unsure = { 10, 10, 20, 20, "face", 0.3, 0 };
  const Face far = { 70, 50, 20, 20, "face", 0.8, 9 };
  const Face plate = { 10, 10, 20, 20, "plate", 0.8, 0 };
  const Face shifted = { 11, 10, 20, 20, "face", 0.8, 0 };
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GArray *origins = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurRegionOrigin));
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurHold hold;
  GstBuffer *buf;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.roi_hold = 2;
  gst_cuda_box_blur_hold_init (&hold);

  buf = gst_buffer_new ();
  add_roi (buf, &face);
  add_od (buf, &tracked);
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, &hold, regions, NULL, origins), 1);
  gst_buffer_unref (buf);
  fail_unless_equals_int (origin (origins, 0)->source,
      GST_CUDA_BOX_BLUR_SOURCE_VIDEO_ROI);
  fail_unless (origin (origins, 0)->confidence < 0);
  fail_unless_equals_int (frame_regions (&s, &info, &hold, add_od, &far, 1,
          regions, origins), 1);
  assert_rect (regions, 0, 70, 50, 20, 20);

  /* unsure as a region meta, sure as a detection: redacted */
  s.roi_min_confidence = 0.5;
  buf = gst_buffer_new ();
  add_roi (buf, &unsure);
  add_od (buf, &tracked);
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, NULL, regions, NULL, origins), 1);
  gst_buffer_unref (buf);
  fail_unless_equals_float (origin (origins, 0)->confidence, 0.8f);
  s.roi_min_confidence = 0;

  buf = gst_buffer_new ();
  add_roi (buf, &face);
  add_od (buf, &plate);
  add_od (buf, &shifted);
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, NULL, regions, NULL, origins), 3);
  gst_buffer_unref (buf);
  fail_unless_equals_int (origin (origins, 1)->source,
      GST_CUDA_BOX_BLUR_SOURCE_ANALYTICS_OD);
  fail_unless_equals_int (origin (origins, 2)->source,
      GST_CUDA_BOX_BLUR_SOURCE_ANALYTICS_OD);

  gst_cuda_box_blur_hold_clear (&hold);
  g_array_unref (regions);
  g_array_unref (origins);
}

GST_END_TEST;

/* Boxes as producers may give them: a negative width or height spans the
 * pixels between its corners; a confidence that is NaN, or below 0, is
 * unknown and stays above any minimum; above 1 is 1; from 1.26, a box rotated about its centre is
 * redacted through the axis-aligned box around all of it. */
GST_START_TEST (test_odd_boxes)
{
  const GstCudaBoxBlurInfo info = test_info ("GRAY8", 200, 160);
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GArray *origins = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurRegionOrigin));
  const GQuark face = g_quark_from_static_string ("face");
  GstAnalyticsRelationMeta *meta;
  GstCudaBoxBlurSettings s;
  GstAnalyticsODMtd od;
  GstBuffer *buf;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.roi_min_confidence = 0.99;

  buf = gst_buffer_new ();
  meta = gst_buffer_add_analytics_relation_meta (buf);
  gst_analytics_relation_meta_add_od_mtd (meta, face, 30, 40, -10, -20, -1,
      &od);
  gst_analytics_relation_meta_add_od_mtd (meta, face, 50, 0, 10, 10, NAN,
      &od);
  gst_analytics_relation_meta_add_od_mtd (meta, face, 70, 0, 10, 10, 1.5,
      &od);
  gst_analytics_relation_meta_add_od_mtd (meta, face, 90, 0, 0, 10, 1, &od);
  gst_analytics_relation_meta_add_od_mtd (meta, face, 110, 0, 10, 10, 0.5,
      &od);
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, NULL, regions, NULL, origins), 3);
  gst_buffer_unref (buf);
  assert_rect (regions, 0, 20, 20, 10, 20);
  fail_unless (origin (origins, 0)->confidence < 0);
  assert_rect (regions, 1, 50, 0, 10, 10);
  fail_unless (origin (origins, 1)->confidence < 0);
  assert_rect (regions, 2, 70, 0, 10, 10);
  fail_unless_equals_float (origin (origins, 2)->confidence, 1);

#if GST_CHECK_VERSION (1, 26, 0)
  /* 100 x 20 about 150, 110 turned by 45 degrees: 84.85 pixels square */
  buf = gst_buffer_new ();
  meta = gst_buffer_add_analytics_relation_meta (buf);
  gst_analytics_relation_meta_add_oriented_od_mtd (meta, face, 100, 100, 100,
      20, G_PI / 4, 1, &od);
  fail_unless_equals_int (gst_cuda_box_blur_settings_find_regions (&s, &info,
          buf, NULL, regions, NULL, origins), 1);
  gst_buffer_unref (buf);
  assert_rect (regions, 0, 107, 67, 86, 86);
#endif

  g_array_unref (regions);
  g_array_unref (origins);
}

GST_END_TEST;

/* The audit message names the meta each region came from, held ones too;
 * the roi properties' region none. */
GST_START_TEST (test_audit_names_the_meta)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 64, 48);
  const Face od = { 4, 4, 10, 10, "face", 0.9, 0 };
  const Face roi = { 30, 20, 10, 10, "face", 0.9, 0 };
  const gchar *const want[][2] = {
    {"GstVideoRegionOfInterestMeta", "GstAnalyticsODMtd"},
    {"GstVideoRegionOfInterestMeta", "GstAnalyticsODMtd"},
    {"", NULL},
  };
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurHold hold;
  GstCudaBoxBlurJob job;
  GstSegment segment;
  guint i, k;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.roi_hold = 1;
  s.roi_hold_motion = GST_CUDA_BOX_BLUR_HOLD_MOTION_NONE;
  gst_cuda_box_blur_hold_init (&hold);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_cuda_box_blur_job_init (&job);

  for (i = 0; i < G_N_ELEMENTS (want); i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, info.size, NULL);
    const gchar *const reason = i == 0 ? "meta" : i == 1 ? "held" : "roi";
    const GValue *regions;
    GstStructure *a;

    if (i == 0) {
      add_roi (buf, &roi);
      add_od (buf, &od);
    }
    if (i == 2)
      s.roi_meta = FALSE;
    gst_cuda_box_blur_job_resolve (&job, &s, &info, buf, &hold);
    a = gst_cuda_box_blur_job_audit (&job, &segment, buf);
    regions = gst_structure_get_value (a, "regions");
    for (k = 0; k < 2 && want[i][k]; k++) {
      const GstStructure *r = gst_value_get_structure
          (gst_value_list_get_value (regions, k));

      fail_unless_equals_string (gst_structure_get_string (r, "meta"),
          want[i][k]);
      fail_unless_equals_string (gst_structure_get_string (r, "reason"),
          reason);
    }
    fail_unless_equals_int (gst_value_list_get_size (regions), k);
    gst_structure_free (a);
    gst_buffer_unref (buf);
  }

  gst_cuda_box_blur_job_clear (&job);
  gst_cuda_box_blur_hold_clear (&hold);
}

GST_END_TEST;

static Suite *
analytics_suite (void)
{
  Suite *s = suite_create ("analytics");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_like_region_metas);
  tcase_add_test (tc, test_tracking_ids);
  tcase_add_test (tc, test_both_ways_once);
  tcase_add_test (tc, test_odd_boxes);
  tcase_add_test (tc, test_audit_names_the_meta);
  return s;
}

GST_CHECK_MAIN (analytics);
