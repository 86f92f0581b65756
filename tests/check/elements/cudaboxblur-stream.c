/* cudaboxblur: what the element does with the stream around the frames:
 * controlled properties at each frame's stream time, through segments and
 * seeks, regions held across frames, and which metas it passes on
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Exits with 77 (skipped) and says why when there is no usable GPU.
 */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>
#include <gst/video/video.h>

#include "testutils.h"

#define W 64
#define H 48

/* Binds @property of @element to a linear ramp from @v0 at @t0 seconds to
 * @v1 at @t1 seconds, in the property's own units. */
static void
bind_ramp (GstElement * element, const gchar * property, gdouble t0,
    gdouble v0, gdouble t1, gdouble v1)
{
  GstControlSource *source = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *timed = GST_TIMED_VALUE_CONTROL_SOURCE (source);

  g_object_set (source, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  fail_unless (gst_timed_value_control_source_set (timed,
          (GstClockTime) (t0 * GST_SECOND), v0));
  fail_unless (gst_timed_value_control_source_set (timed,
          (GstClockTime) (t1 * GST_SECOND), v1));
  fail_unless (gst_object_add_control_binding (GST_OBJECT (element),
          gst_direct_control_binding_new_absolute (GST_OBJECT (element),
              property, source)));
  gst_object_unref (source);
}

/* Pushes a frame with timestamp @pts seconds and checks that it comes out
 * blurred with @settings. */
static void
push_at (GstHarness * h, const gchar * format, gdouble pts,
    const GstCudaBoxBlurSettings * settings, guint seed)
{
  GstBuffer *in = test_buffer_new (NULL, format, W, H, 0, seed), *out;

  GST_BUFFER_PTS (in) = (GstClockTime) (pts * GST_SECOND);
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  GST_INFO ("frame at %.1f s: radius %d,%d, passes %d, roi-x %d", pts,
      settings->radius_x, settings->radius_y, settings->passes,
      settings->roi.x);
  test_assert_output (in, out, format, W, H, settings);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

static void
push_segment (GstHarness * h, gdouble start, gdouble time)
{
  GstSegment segment;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = (GstClockTime) (start * GST_SECOND);
  segment.position = segment.start;
  segment.time = (GstClockTime) (time * GST_SECOND);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
}

/* A property bound to a ramp, value = first + per_second * stream time in
 * seconds from 0 to 9 s, and where a value of it goes in the settings. */
typedef struct
{
  const gchar *format;
  const gchar *property;
  gint first;
  gint per_second;
  void (*set) (GstCudaBoxBlurSettings * settings, gint value);
} Ramp;

static void
set_radius (GstCudaBoxBlurSettings * settings, gint value)
{
  settings->radius_x = settings->radius_y = value;
}

static void
set_roi_x (GstCudaBoxBlurSettings * settings, gint value)
{
  settings->roi.x = value;
}

static void
set_passes (GstCudaBoxBlurSettings * settings, gint value)
{
  settings->passes = value;
}

static void
set_sigma (GstCudaBoxBlurSettings * settings, gint value)
{
  settings->sigma = value;
}

static const Ramp radius_ramp = { "GRAY8", "radius", 0, 1, set_radius };

/* A harness whose element has @settings, with @ramp bound. */
static GstHarness *
ramp_harness (const Ramp * ramp, const GstCudaBoxBlurSettings * settings)
{
  GstHarness *h = test_harness_new (ramp->format, W, H);

  test_apply_settings (h->element, settings);
  bind_ramp (h->element, ramp->property, 0, ramp->first, 9,
      ramp->first + 9 * ramp->per_second);
  return h;
}

/* Pushes @n frames, one a second from timestamp @pts, whose stream time
 * starts at @stream, and checks each against the value of @ramp then. */
static void
push_ramp (GstHarness * h, const Ramp * ramp,
    GstCudaBoxBlurSettings * settings, gdouble pts, gint stream, gint n)
{
  gint k;

  for (k = 0; k < n; k++) {
    ramp->set (settings, ramp->first + ramp->per_second * (stream + k));
    push_at (h, ramp->format, pts + k, settings, stream + k);
  }
}

/* One ramp over frames from stream time 0 to @n - 1 s, in the default
 * segment (stream time = timestamp). */
static void
check_ramp (const Ramp * ramp, GstCudaBoxBlurSettings * settings, gint n)
{
  GstHarness *h = ramp_harness (ramp, settings);

  push_ramp (h, ramp, settings, 0, 0, n);
  gst_harness_teardown (h);
}

/* radius from 0 at 0 s to 9 at 9 s: each frame gets its own, passthrough
 * at 0 included, and the property reads the last value. */
GST_START_TEST (test_controlled_radius)
{
  GstCudaBoxBlurSettings settings;
  GstHarness *h;
  guint radius;

  gst_cuda_box_blur_settings_init (&settings);
  h = ramp_harness (&radius_ramp, &settings);
  push_ramp (h, &radius_ramp, &settings, 0, 0, 10);
  g_object_get (h->element, "radius", &radius, NULL);
  fail_unless_equals_int (radius, 9);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* roi-x from 0 at 0 s, 10 pixels a second, on a 16-pixel-wide region. */
GST_START_TEST (test_controlled_roi_x)
{
  const Ramp ramp = { "I420", "roi-x", 0, 10, set_roi_x };
  GstCudaBoxBlurSettings settings;

  gst_cuda_box_blur_settings_init (&settings);
  set_radius (&settings, 3);
  settings.roi.w = 16;
  check_ramp (&ramp, &settings, 5);
}

GST_END_TEST;

/* passes from 1 at 0 s, one more a second. */
GST_START_TEST (test_controlled_passes)
{
  const Ramp ramp = { "NV12", "passes", 1, 1, set_passes };
  GstCudaBoxBlurSettings settings;

  gst_cuda_box_blur_settings_init (&settings);
  set_radius (&settings, 2);
  check_ramp (&ramp, &settings, 3);
}

GST_END_TEST;

/* sigma of mode gaussian from 1 at 0 s, one more a second: the boxes
 * change from pass to pass and frame to frame. */
GST_START_TEST (test_controlled_sigma)
{
  const Ramp ramp = { "I420", "sigma", 1, 1, set_sigma };
  GstCudaBoxBlurSettings settings;

  gst_cuda_box_blur_settings_init (&settings);
  settings.mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
  check_ramp (&ramp, &settings, 4);
}

GST_END_TEST;

/* A segment that starts at 100 s and calls it stream time 0: frames at
 * 100 + k s get the value at k s, not at their timestamp. */
GST_START_TEST (test_control_follows_stream_time)
{
  GstCudaBoxBlurSettings settings;
  GstHarness *h;

  gst_cuda_box_blur_settings_init (&settings);
  h = ramp_harness (&radius_ramp, &settings);
  push_segment (h, 100, 0);
  push_ramp (h, &radius_ramp, &settings, 101, 1, 4);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A flushing seek to 5 s: the new segment maps timestamps from 0 to stream
 * time 5 s on, and the controller follows. */
GST_START_TEST (test_control_after_seek)
{
  GstCudaBoxBlurSettings settings;
  GstHarness *h;

  gst_cuda_box_blur_settings_init (&settings);
  h = ramp_harness (&radius_ramp, &settings);
  push_ramp (h, &radius_ramp, &settings, 1, 1, 2);

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  push_segment (h, 0, 5);
  push_ramp (h, &radius_ramp, &settings, 0, 5, 4);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Pushes frame @seed of NV12 with a face meta or not, and checks it is
 * blurred as if it had one (@redacted) or comes back untouched. */
static void
push_face (GstHarness * h, const GstCudaBoxBlurSettings * settings,
    gboolean meta, gboolean redacted, guint seed)
{
  GstBuffer *in = test_buffer_new (NULL, "NV12", W, H, 0, seed), *out;

  if (meta)
    gst_buffer_add_video_region_of_interest_meta (in, "face", 8, 6, 20, 16);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  if (redacted) {
    /* what the frame with its meta gives */
    GstBuffer *with = gst_buffer_copy (in);

    if (!meta)
      gst_buffer_add_video_region_of_interest_meta (with, "face", 8, 6, 20,
          16);
    fail_if (out == in, "frame %u was not redacted", seed);
    test_assert_output (with, out, "NV12", W, H, settings);
    gst_buffer_unref (with);
  } else {
    fail_unless (out == in, "frame %u was changed", seed);
  }
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* roi-hold=2: a face present in frames 0-4, missing in 5-7 and back in 8
 * is redacted in 5 and 6 too, not in 7.  A flush forgets it. */
GST_START_TEST (test_roi_hold)
{
  GstHarness *h = test_harness_new ("NV12", W, H);
  GstCudaBoxBlurSettings settings;
  guint f;

  gst_cuda_box_blur_settings_init (&settings);
  set_radius (&settings, 4);
  settings.roi_meta = TRUE;
  settings.roi_hold = 2;
  /* held where the face last was */
  settings.roi_hold_motion = GST_CUDA_BOX_BLUR_HOLD_MOTION_NONE;
  test_apply_settings (h->element, &settings);

  for (f = 0; f <= 8; f++)
    push_face (h, &settings, f <= 4 || f == 8, f <= 6 || f == 8, f);

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  push_segment (h, 0, 0);
  push_face (h, &settings, FALSE, FALSE, 9);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The one region of element message @msg, which lists exactly one. */
static const GstStructure *
only_region (GstMessage * msg)
{
  const GValue *regions = gst_structure_get_value (gst_message_get_structure
      (msg), "regions");

  fail_unless (regions && GST_VALUE_HOLDS_LIST (regions));
  fail_unless_equals_int (gst_value_list_get_size (regions), 1);
  return gst_value_get_structure (gst_value_list_get_value (regions, 0));
}

/* Pops the element message of @bus's next redacted frame and checks its
 * times and its one region. */
static void
assert_audit (GstBus * bus, GstClockTime pts, guint x, guint y, guint w,
    guint h, const gchar * type, gint id, const gchar * mode,
    const gchar * reason)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  const GstStructure *s, *region;
  GstClockTime t;
  guint u;
  gint i;

  fail_unless (msg != NULL, "no message for the frame at %" GST_TIME_FORMAT,
      GST_TIME_ARGS (pts));
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "cudaboxblur"));
  fail_unless (gst_structure_get_uint64 (s, "timestamp", &t) && t == pts);
  /* a segment from 0: stream and running time are the timestamp */
  fail_unless (gst_structure_get_uint64 (s, "stream-time", &t) && t == pts);
  fail_unless (gst_structure_get_uint64 (s, "running-time", &t) && t == pts);
  fail_unless (gst_structure_get_uint64 (s, "duration", &t)
      && t == GST_SECOND / 30);
  region = only_region (msg);
  fail_unless (gst_structure_get_uint (region, "x", &u) && u == x);
  fail_unless (gst_structure_get_uint (region, "y", &u) && u == y);
  fail_unless (gst_structure_get_uint (region, "width", &u) && u == w);
  fail_unless (gst_structure_get_uint (region, "height", &u) && u == h);
  fail_unless_equals_string (gst_structure_get_string (region, "type"),
      type);
  fail_unless (gst_structure_get_int (region, "id", &i) && i == id);
  fail_unless_equals_string (gst_structure_get_string (region, "mode"),
      mode);
  fail_unless_equals_string (gst_structure_get_string (region, "reason"),
      reason);
  gst_message_unref (msg);
}

/* Pushes NV12 frame @f at @f thirtieths of a second, with a face meta at
 * the frame's left edge or none, and checks the output against the
 * reference: of the frame with the face where it has its @meta or the
 * element holds it (@held), else of the frame as it is. */
static void
push_audited (GstHarness * h, const GstCudaBoxBlurSettings * settings,
    gboolean meta, gboolean held, guint f)
{
  GstBuffer *in = test_buffer_new (NULL, "NV12", W, H, 0, f), *out, *want;
  GstVideoRegionOfInterestMeta *m;

  GST_BUFFER_PTS (in) = f * GST_SECOND / 30;
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;
  if (meta) {
    m = gst_buffer_add_video_region_of_interest_meta (in, "face", 1, 6, 20,
        16);
    m->id = 5;
  }
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  fail_if (out == in, "frame %u was not redacted", f);
  want = gst_buffer_copy (in);
  if (held)
    gst_buffer_add_video_region_of_interest_meta (want, "face", 1, 6, 20, 16);
  test_assert_output (want, out, "NV12", W, H, settings);
  gst_buffer_unref (want);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* no-region=redact with roi-hold=1 and post-messages: a face (padded,
 * clipped at the left edge) is redacted and said so; the next frame
 * without it holds it; the one after has no region and is redacted whole.
 * Each redacted frame posts one message with what was redacted and
 * why. */
GST_START_TEST (test_no_region_and_audit)
{
  GstHarness *h = test_harness_new ("NV12", W, H);
  GstBus *bus = gst_bus_new ();
  GstCudaBoxBlurSettings settings;

  gst_cuda_box_blur_settings_init (&settings);
  set_radius (&settings, 3);
  settings.roi_meta = TRUE;
  settings.roi_padding = 2;
  settings.roi_hold = 1;
  settings.roi_hold_motion = GST_CUDA_BOX_BLUR_HOLD_MOTION_NONE;
  settings.no_region = GST_CUDA_BOX_BLUR_NO_REGION_REDACT;
  test_apply_settings (h->element, &settings);
  g_object_set (h->element, "post-messages", TRUE, NULL);
  gst_element_set_bus (h->element, bus);

  push_audited (h, &settings, TRUE, FALSE, 0);
  assert_audit (bus, 0, 0, 4, 23, 20, "face", 5, "box", "meta");
  push_audited (h, &settings, FALSE, TRUE, 1);
  assert_audit (bus, GST_SECOND / 30, 0, 4, 23, 20, "face", 5, "box",
      "held");
  /* the reference of a frame with no region: the whole frame */
  push_audited (h, &settings, FALSE, FALSE, 2);
  assert_audit (bus, 2 * GST_SECOND / 30, 0, 0, W, H, "", 0, "box",
      "no-region");

  /* without post-messages, none */
  g_object_set (h->element, "post-messages", FALSE, NULL);
  push_audited (h, &settings, FALSE, FALSE, 3);
  fail_if (gst_bus_have_pending (bus), "a message without post-messages");

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Pops the element message of @bus's next frame and returns its one
 * region, checked to be of the face of id 7 and boxed for @reason. */
static GstStructure *
pop_region (GstBus * bus, guint f, const gchar * reason)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  GstStructure *region;
  gint id;

  fail_unless (msg != NULL, "frame %u: no message", f);
  region = gst_structure_copy (only_region (msg));
  gst_message_unref (msg);
  fail_unless_equals_string (gst_structure_get_string (region, "type"),
      "face");
  fail_unless (gst_structure_get_int (region, "id", &id) && id == 7);
  fail_unless_equals_string (gst_structure_get_string (region, "reason"),
      reason);
  return region;
}

/* A face moving right 4 px a frame, detected with a confidence of 0.75 in
 * frames 0-2 and missed from frame 3, with roi-hold=2: the messages of
 * frames 3 and 4 say it is held (1 and 2 frames), and with
 * roi-hold-motion=linear predicted further right each frame and no
 * smaller, with none where it was last seen; each frame is redacted where
 * its message says; frame 5 is left as it came, with no message. */
GST_START_TEST (test_held_region_audit)
{
  const GstCudaBoxBlurHoldMotion motions[] = {
    GST_CUDA_BOX_BLUR_HOLD_MOTION_LINEAR, GST_CUDA_BOX_BLUR_HOLD_MOTION_NONE
  };
  guint m, f;

  for (m = 0; m < G_N_ELEMENTS (motions); m++) {
    GstHarness *h = test_harness_new ("NV12", W, H);
    GstBus *bus = gst_bus_new ();
    GstCudaBoxBlurSettings settings;
    guint last_x = 0, last_w = 0;

    gst_cuda_box_blur_settings_init (&settings);
    set_radius (&settings, 3);
    settings.roi_meta = TRUE;
    settings.roi_hold = 2;
    settings.roi_hold_motion = motions[m];
    test_apply_settings (h->element, &settings);
    g_object_set (h->element, "post-messages", TRUE, NULL);
    gst_element_set_bus (h->element, bus);

    for (f = 0; f <= 5; f++) {
      GstBuffer *in = test_buffer_new (NULL, "NV12", W, H, 0, f), *out, *want;
      GstStructure *region = NULL;
      guint x, y, w, hh, held;
      gboolean predicted;
      gdouble confidence;

      GST_BUFFER_PTS (in) = f * GST_SECOND / 30;
      GST_BUFFER_DURATION (in) = GST_SECOND / 30;
      if (f <= 2) {
        GstVideoRegionOfInterestMeta *meta =
            gst_buffer_add_video_region_of_interest_meta (in, "face",
            4 + 4 * f, 10, 12, 10);

        meta->id = 7;
        gst_video_region_of_interest_meta_add_param (meta,
            gst_structure_new ("detection", "confidence", G_TYPE_DOUBLE,
                0.75, NULL));
      }
      out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
      fail_unless (out != NULL);
      /* with the detection's meta, where the message says it is */
      want = gst_buffer_copy (in);

      if (f <= 4) {
        region = pop_region (bus, f, f <= 2 ? "meta" : "held");
        fail_unless (gst_structure_get_uint (region, "x", &x)
            && gst_structure_get_uint (region, "y", &y)
            && gst_structure_get_uint (region, "width", &w)
            && gst_structure_get_uint (region, "height", &hh));
        fail_unless (gst_structure_get_double (region, "confidence",
                &confidence) && confidence == 0.75, "frame %u", f);
        if (f <= 2) {
          fail_unless_equals_int (x, 4 + 4 * f);
          fail_unless_equals_int (w, 12);
          fail_if (gst_structure_has_field (region, "held-frames"));
        } else {
          fail_unless (gst_structure_get_uint (region, "held-frames", &held)
              && held == f - 2, "frame %u", f);
          fail_unless (gst_structure_get_boolean (region, "predicted",
                  &predicted));
          fail_unless_equals_int (predicted,
              motions[m] == GST_CUDA_BOX_BLUR_HOLD_MOTION_LINEAR);
          if (predicted) {
            fail_unless (x + w / 2 > last_x + last_w / 2 && w >= last_w,
                "frame %u: %u+%u after %u+%u", f, x, w, last_x, last_w);
          } else {
            fail_unless (x == 12 && y == 10 && w == 12 && hh == 10);
          }
        }
        last_x = x;
        last_w = w;
        if (f > 2)
          gst_buffer_add_video_region_of_interest_meta (want, "face", x, y, w,
              hh);
        gst_structure_free (region);
      } else {
        fail_if (gst_bus_have_pending (bus), "frame %u: a message", f);
      }
      /* redacted where the message says, and nowhere else */
      test_assert_output (want, out, "NV12", W, H, &settings);
      gst_buffer_unref (want);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }

    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* invert: the frame around a face is redacted, the face kept clear, as the
 * reference makes it; the message lists the face as kept. */
GST_START_TEST (test_invert)
{
  GstHarness *h = test_harness_new ("NV12", W, H);
  GstBus *bus = gst_bus_new ();
  GstCudaBoxBlurSettings settings;
  GstMessage *msg;
  gboolean invert;

  gst_cuda_box_blur_settings_init (&settings);
  settings.mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
  settings.sigma = 3;
  settings.roi_meta = TRUE;
  settings.invert = TRUE;
  settings.shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
  settings.feather = 3;
  test_apply_settings (h->element, &settings);
  g_object_set (h->element, "post-messages", TRUE, NULL);
  gst_element_set_bus (h->element, bus);

  push_audited (h, &settings, TRUE, FALSE, 0);
  assert_audit (bus, 0, 1, 6, 20, 16, "face", 5, "keep", "meta");
  /* no region: the whole frame, and an empty list */
  push_audited (h, &settings, FALSE, FALSE, 1);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  fail_unless (gst_structure_get_boolean (gst_message_get_structure (msg),
          "invert", &invert) && invert);
  fail_unless_equals_int (gst_value_list_get_size (gst_structure_get_value
          (gst_message_get_structure (msg), "regions")), 0);
  gst_message_unref (msg);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Test metas: one tied to the memory, one of no tags. */
static gboolean
test_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  return TRUE;
}

static gboolean
test_meta_copy (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  return gst_buffer_add_meta (dest, meta->info, NULL) != NULL;
}

static const GstMetaInfo *
test_meta_info (const gchar * name, const gchar ** tags)
{
  gchar *api_name = g_strconcat (name, "API", NULL);
  GType api = gst_meta_api_type_register (api_name, tags);
  const GstMetaInfo *info = gst_meta_register (api, name, sizeof (GstMeta),
      test_meta_init, NULL, test_meta_copy);

  g_free (api_name);
  return info;
}

static gboolean
has_meta (GstBuffer * buffer, const GstMetaInfo * info)
{
  return gst_buffer_get_meta (buffer, info->api) != NULL;
}

/* The blurred frame keeps the regions of interest and untagged metas, and
 * drops metas tied to the input's memory. */
GST_START_TEST (test_metas_passed_on)
{
  static const gchar *memory_tags[] = { GST_META_TAG_MEMORY_STR, NULL };
  static const gchar *no_tags[] = { NULL };
  const GstMetaInfo *memory_meta = test_meta_info ("CudaBoxBlurTestMemory",
      memory_tags);
  const GstMetaInfo *plain_meta = test_meta_info ("CudaBoxBlurTestPlain",
      no_tags);
  GstHarness *h = test_harness_new ("GRAY8", W, H);
  GstBuffer *in = test_buffer_new (NULL, "GRAY8", W, H, 0, 1), *out;
  GstVideoRegionOfInterestMeta *roi;

  gst_buffer_add_meta (in, memory_meta, NULL);
  gst_buffer_add_meta (in, plain_meta, NULL);
  gst_buffer_add_video_region_of_interest_meta (in, "face", 4, 5, 20, 10);

  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL && out != in);
  test_assert_blurred (in, out, "GRAY8", W, H, 1, 1);
  fail_unless (has_meta (out, plain_meta), "an untagged meta was dropped");
  fail_if (has_meta (out, memory_meta), "a memory meta was copied");
  roi = gst_buffer_get_video_region_of_interest_meta (out);
  fail_unless (roi != NULL, "the region of interest was dropped");
  fail_unless_equals_string (g_quark_to_string (roi->roi_type), "face");
  fail_unless (roi->x == 4 && roi->y == 5 && roi->w == 20 && roi->h == 10);

  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---- frames in flight ---- */

/* Frame @i of a stream: its own pixels, timestamp and region of interest
 * (id i + 1), from the element's pool or from system memory. */
static GstBuffer *
flight_frame (GstHarness * h, const gchar * format, gint w, gint hgt,
    guint i, gboolean pool)
{
  GstCudaBoxBlurInfo info = test_info (format, w, hgt);
  GstBuffer *in = pool ? test_pool_buffer (h, &info, 100 + i) :
      test_buffer_new (NULL, format, w, hgt, 0, 100 + i);
  GstVideoRegionOfInterestMeta *roi;

  GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;
  roi = gst_buffer_add_video_region_of_interest_meta (in, "face", 3 + i % 7,
      4, 20, 14);
  roi->id = i + 1;
  return in;
}

/* Pulls the next frame and checks it is @in blurred with @settings, with
 * its timestamp and region of interest. */
static void
pull_flight_frame (GstHarness * h, GstBuffer * in, const gchar * format,
    gint w, gint hgt, const GstCudaBoxBlurSettings * settings)
{
  GstBuffer *out = gst_harness_pull (h);
  GstVideoRegionOfInterestMeta *roi_in, *roi_out;

  fail_unless (out != NULL);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in));
  roi_in = gst_buffer_get_video_region_of_interest_meta (in);
  roi_out = gst_buffer_get_video_region_of_interest_meta (out);
  fail_unless (roi_out != NULL && roi_out->id == roi_in->id,
      "frame %d came out of order", roi_in->id);
  test_assert_output (in, out, format, w, hgt, settings);
  gst_buffer_unref (out);
}

/* Pushes frames @first .. @first + @n - 1 and keeps copies of them in
 * @ins: the element gets the only reference, so that it may blur regions
 * in place. */
static void
push_flight_frames (GstHarness * h, GPtrArray * ins, const gchar * format,
    gint w, gint hgt, guint first, guint n, gboolean pool)
{
  guint i;

  for (i = first; i < first + n; i++) {
    GstBuffer *in = flight_frame (h, format, w, hgt, i, pool);

    g_ptr_array_add (ins, gst_buffer_copy_deep (in));
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
}

/* With frames-in-flight=3 the element holds two frames back: after n
 * frames n - 2 came out, and EOS pushes the last two before itself.
 * Every frame in order, with its own pixels, timestamp and metas, in
 * managed and in pinned memory, from the pool (whole frames, and regions
 * blurred in place) and from system memory. */
GST_START_TEST (test_frames_in_flight_order)
{
  static const gchar *const modes[] = { "managed", "pinned" };
  guint m, roi, pool;

  for (m = 0; m < G_N_ELEMENTS (modes); m++)
    for (roi = 0; roi < 2; roi++)
      for (pool = 0; pool < 2; pool++) {
        GstElement *blur;
        GstHarness *h;
        GstCudaBoxBlurSettings s;
        GPtrArray *ins;
        GstEvent *event;
        gboolean eos = FALSE;
        guint i;

        ins = g_ptr_array_new_with_free_func ((GDestroyNotify)
            gst_buffer_unref);
        blur = gst_object_ref_sink (gst_element_factory_make ("cudaboxblur",
                NULL));
        gst_util_set_object_arg (G_OBJECT (blur), "memory-mode", modes[m]);
        h = gst_harness_new_with_element (blur, "sink", "src");
        gst_harness_set_src_caps (h, test_caps_new ("NV12", W, H));
        gst_cuda_box_blur_settings_init (&s);
        s.radius_x = s.radius_y = 3;
        s.roi_meta = roi;
        test_apply_settings (h->element, &s);
        g_object_set (h->element, "frames-in-flight", 3, NULL);

        push_flight_frames (h, ins, "NV12", W, H, 0, 12, pool);
        fail_unless_equals_int (gst_harness_buffers_received (h), 10);
        fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
        fail_unless_equals_int (gst_harness_buffers_received (h), 12);
        for (i = 0; i < ins->len; i++)
          pull_flight_frame (h, g_ptr_array_index (ins, i), "NV12", W, H, &s);
        /* EOS after the frames */
        while (!eos && (event = gst_harness_try_pull_event (h))) {
          eos = GST_EVENT_TYPE (event) == GST_EVENT_EOS;
          gst_event_unref (event);
        }
        fail_unless (eos);
        g_ptr_array_unref (ins);
        gst_harness_teardown (h);
        gst_object_unref (blur);
      }
}

GST_END_TEST;

/* A flush drops the frames in flight; new caps push them first; a smaller
 * frames-in-flight while playing lets the held frames out; a stop with
 * frames in flight frees them. */
GST_START_TEST (test_frames_in_flight_events)
{
  GstHarness *h = test_harness_new ("GRAY8", W, H);
  GPtrArray *ins = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GstCudaBoxBlurSettings s;
  GstSegment segment;
  guint i;

  gst_cuda_box_blur_settings_init (&s);
  g_object_set (h->element, "frames-in-flight", 4, NULL);

  /* flushed: nothing comes out, and frames after it do */
  push_flight_frames (h, ins, "GRAY8", W, H, 0, 2, FALSE);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  g_ptr_array_set_size (ins, 0);

  /* new caps: the two frames in flight come out before them */
  push_flight_frames (h, ins, "GRAY8", W, H, 2, 2, FALSE);
  gst_harness_set_src_caps (h, test_caps_new ("GRAY8", W + 16, H + 12));
  fail_unless_equals_int (gst_harness_buffers_received (h), 2);
  for (i = 0; i < 2; i++)
    pull_flight_frame (h, g_ptr_array_index (ins, i), "GRAY8", W, H, &s);
  g_ptr_array_set_size (ins, 0);

  /* down to one frame in flight while playing: the three held come out
   * with the next, in order */
  push_flight_frames (h, ins, "GRAY8", W + 16, H + 12, 4, 3, FALSE);
  fail_unless_equals_int (gst_harness_buffers_received (h), 2);
  g_object_set (h->element, "frames-in-flight", 1, NULL);
  push_flight_frames (h, ins, "GRAY8", W + 16, H + 12, 7, 1, FALSE);
  fail_unless_equals_int (gst_harness_buffers_received (h), 6);
  for (i = 0; i < ins->len; i++)
    pull_flight_frame (h, g_ptr_array_index (ins, i), "GRAY8", W + 16,
        H + 12, &s);
  g_ptr_array_set_size (ins, 0);

  /* stopped with frames in flight */
  g_object_set (h->element, "frames-in-flight", 8, NULL);
  push_flight_frames (h, ins, "GRAY8", W + 16, H + 12, 8, 5, FALSE);
  fail_unless_equals_int (gst_harness_buffers_received (h), 6);
  g_ptr_array_unref (ins);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The latency query counts the frames held back. */
GST_START_TEST (test_frames_in_flight_latency)
{
  GstHarness *h = test_harness_new ("GRAY8", W, H);
  GstClockTime one;

  gst_harness_set_upstream_latency (h, 0);
  one = gst_harness_query_latency (h);
  g_object_set (h->element, "frames-in-flight", 3, NULL);
  fail_unless_equals_uint64 (gst_harness_query_latency (h),
      one + gst_util_uint64_scale (2, GST_SECOND, 30));
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A change of frames-in-flight while playing changes the latency: the
 * element posts a latency message so that the pipeline asks again.  The
 * same value again, or a change before the element starts, posts none. */
GST_START_TEST (test_frames_in_flight_latency_message)
{
  GstElement *blur = gst_object_ref_sink (gst_element_factory_make
      ("cudaboxblur", NULL));
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GstHarness *h;

  gst_element_set_bus (blur, bus);
  g_object_set (blur, "frames-in-flight", 2, NULL);
  fail_if (gst_bus_have_pending (bus), "a latency message while stopped");

  h = gst_harness_new_with_element (blur, "sink", "src");
  gst_harness_set_src_caps (h, test_caps_new ("GRAY8", W, H));
  gst_bus_set_flushing (bus, TRUE);
  gst_bus_set_flushing (bus, FALSE);

  g_object_set (blur, "frames-in-flight", 3, NULL);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_LATENCY);
  fail_unless (msg != NULL, "no latency message");
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (blur));
  gst_message_unref (msg);

  g_object_set (blur, "frames-in-flight", 3, NULL);
  fail_if (gst_bus_have_pending (bus), "a latency message for no change");

  g_object_set (blur, "frames-in-flight", 1, NULL);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_LATENCY);
  fail_unless (msg != NULL, "no latency message");
  gst_message_unref (msg);

  gst_harness_teardown (h);
  gst_element_set_bus (blur, NULL);
  gst_object_unref (bus);
  gst_object_unref (blur);
}

GST_END_TEST;

static Suite *
cudaboxblur_stream_suite (void)
{
  Suite *s = suite_create ("cudaboxblur-stream");
  TCase *tc = tcase_create ("stream");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_controlled_radius);
  tcase_add_test (tc, test_controlled_roi_x);
  tcase_add_test (tc, test_controlled_passes);
  tcase_add_test (tc, test_controlled_sigma);
  tcase_add_test (tc, test_control_follows_stream_time);
  tcase_add_test (tc, test_control_after_seek);
  tcase_add_test (tc, test_roi_hold);
  tcase_add_test (tc, test_no_region_and_audit);
  tcase_add_test (tc, test_held_region_audit);
  tcase_add_test (tc, test_invert);
  tcase_add_test (tc, test_metas_passed_on);
  tcase_add_test (tc, test_frames_in_flight_order);
  tcase_add_test (tc, test_frames_in_flight_events);
  tcase_add_test (tc, test_frames_in_flight_latency);
  tcase_add_test (tc, test_frames_in_flight_latency_message);
  return s;
}

TEST_GPU_CHECK_MAIN ("cudaboxblur-stream", cudaboxblur_stream_suite, NULL);
