/* cudaboxblur: the object detections of GStreamer's analytics metas
 * through the element (1.24 and later)
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A detector that attaches only GstAnalyticsODMtd (GStreamer's own
 * analytics elements, newer detectors) has its faces redacted pixel for
 * pixel as one that attaches GstVideoRegionOfInterestMeta: each output
 * equals the reference's redaction of the same frame with region metas.
 * The audit messages name the meta; the analytics meta goes on with the
 * frame.  Built with gstreamer-analytics-1.0; exits with 77 (skipped) and
 * says why without a GPU.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/analytics/analytics.h>

#include "testutils.h"

/* Three detections, one over the frame's edge and one unsure; a plate. */
typedef struct
{
  gint x, y, w, h;
  const gchar *type;
  gfloat confidence;
} Box;

static const Box boxes[] = {
  {40, 30, 90, 110, "face", 0.9f},
  {250, 180, 120, 90, "face", 0.4f},
  {150, 20, 60, 30, "plate", 0.8f},
};

static void
add_od_metas (GstBuffer * buf)
{
  GstAnalyticsRelationMeta *meta = gst_buffer_add_analytics_relation_meta
      (buf);
  GstAnalyticsODMtd od;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (boxes); i++)
    fail_unless (gst_analytics_relation_meta_add_od_mtd (meta,
            g_quark_from_string (boxes[i].type), boxes[i].x, boxes[i].y,
            boxes[i].w, boxes[i].h, boxes[i].confidence, &od));
}

/* The same detections as DL Streamer's gvadetect attaches them. */
static void
add_roi_metas (GstBuffer * buf)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (boxes); i++) {
    GstVideoRegionOfInterestMeta *m =
        gst_buffer_add_video_region_of_interest_meta (buf, boxes[i].type,
        boxes[i].x, boxes[i].y, boxes[i].w, boxes[i].h);

    gst_video_region_of_interest_meta_add_param (m,
        gst_structure_new ("detection", "confidence", G_TYPE_DOUBLE,
            (gdouble) boxes[i].confidence, NULL));
  }
}

static void
settings_case (guint i, GstCudaBoxBlurSettings * s)
{
  gst_cuda_box_blur_settings_init (s);
  s->roi_meta = TRUE;
  s->radius_x = s->radius_y = 8;
  switch (i) {
    case 0:
      s->roi_padding = 4;
      break;
    case 1:
      s->mode = GST_CUDA_BOX_BLUR_MODE_PIXELATE;
      s->shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
      s->feather = 6;
      break;
    case 2:
      s->mode = GST_CUDA_BOX_BLUR_MODE_FILL;
      s->invert = TRUE;
      break;
    case 3:
      s->roi_min_confidence = 0.5;
      fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (s,
              "face"));
      break;
  }
}

#define N_CASES 4

/* For formats of each family, frames with only analytics metas: the
 * reference's redaction of the frame with the same region metas, and the
 * relation meta still on the output. */
GST_START_TEST (test_redacted_as_region_metas)
{
  static const gchar *const formats[] = { "NV12", "I420", "RGBA", "GRAY8" };
  const gint w = 321, height = 243;
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = test_harness_new (formats[f], w, height);

    for (i = 0; i < N_CASES; i++) {
      GstBuffer *in = test_buffer_new (NULL, formats[f], w, height, 0, i);
      GstBuffer *like = gst_buffer_copy (in);
      GstCudaBoxBlurSettings s;
      GstBuffer *out;

      settings_case (i, &s);
      test_apply_settings (h->element, &s);
      add_od_metas (in);
      add_roi_metas (like);
      out = gst_harness_push_and_pull (h, in);
      fail_unless (out != NULL, "%s case %u: no output", formats[f], i);
      fail_unless (gst_buffer_get_analytics_relation_meta (out) != NULL,
          "%s case %u: the analytics meta was not kept", formats[f], i);
      fail_if (gst_buffer_get_video_region_of_interest_meta (out));
      test_assert_output (like, out, formats[f], w, height, &s);
      gst_buffer_unref (out);
      gst_buffer_unref (like);
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* post-messages: each region of a frame with both kinds of metas names
 * the kind of its meta; a face attached both ways is listed once. */
GST_START_TEST (test_audit_names_the_meta)
{
  GstHarness *h = test_harness_new ("NV12", 320, 240);
  GstBus *bus = gst_bus_new ();
  GstBuffer *in = test_buffer_new (NULL, "NV12", 320, 240, 0, 7);
  GstAnalyticsRelationMeta *meta;
  GstAnalyticsODMtd od;
  const GValue *regions;
  const GstStructure *r;
  GstMessage *msg;

  g_object_set (h->element, "roi-meta", TRUE, "post-messages", TRUE, NULL);
  gst_element_set_bus (h->element, bus);
  gst_buffer_add_video_region_of_interest_meta (in, "face", 10, 10, 40, 40);
  meta = gst_buffer_add_analytics_relation_meta (in);
  gst_analytics_relation_meta_add_od_mtd (meta, g_quark_from_string ("face"),
      10, 10, 40, 40, 0.9f, &od);
  gst_analytics_relation_meta_add_od_mtd (meta, g_quark_from_string ("face"),
      200, 100, 40, 40, 0.9f, &od);
  gst_buffer_unref (gst_harness_push_and_pull (h, in));

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  regions = gst_structure_get_value (gst_message_get_structure (msg),
      "regions");
  fail_unless_equals_int (gst_value_list_get_size (regions), 2);
  r = gst_value_get_structure (gst_value_list_get_value (regions, 0));
  fail_unless_equals_string (gst_structure_get_string (r, "meta"),
      "GstVideoRegionOfInterestMeta");
  r = gst_value_get_structure (gst_value_list_get_value (regions, 1));
  fail_unless_equals_string (gst_structure_get_string (r, "meta"),
      "GstAnalyticsODMtd");
  gst_message_unref (msg);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
cudaboxblur_analytics_suite (void)
{
  Suite *s = suite_create ("cudaboxblur-analytics");
  TCase *tc = tcase_create ("analytics");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_redacted_as_region_metas);
  tcase_add_test (tc, test_audit_names_the_meta);
  return s;
}

TEST_GPU_CHECK_MAIN ("cudaboxblur-analytics", cudaboxblur_analytics_suite,
    NULL);
