/* cudaboxblur: a real detector's faces on a real photo, redacted by the
 * CPU reference
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * OpenCV's facedetect (Debian: gstreamer1.0-opencv, its cascades in
 * opencv-data) finds the face in tests/files/astronaut.png; the element's
 * own resolve step makes the regions of its metas, and the CPU reference
 * redacts them.  No GPU: the suite elements/cudaboxblur-photo holds the
 * element to the same reference with the faces recorded in
 * tests/files/astronaut-faces.txt, and this suite checks the recording
 * against what facedetect finds.  Exits with 77 (skipped), saying why,
 * where facedetect, its face cascade or pngdec is missing.
 *
 * With CUDABOXBLUR_FACEDETECT_PNG set to a path, the redacted photo is
 * written there as PNG (docs/facedetect.png).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <string.h>

#include "boxblur-ref.h"
#include "cudaboxblur-job.h"
#include "testutils.h"

/* Where the face is in the photo: its middle, and the sides a box round
 * eyes and mouth has.  The tolerances leave room for another detector's
 * box. */
#define FACE_CENTER_X 224
#define FACE_CENTER_Y 112
#define FACE_CENTER_TOLERANCE 24
#define FACE_MIN_SIZE 60
#define FACE_MAX_SIZE 160

/* The photo through facedetect, with the metas of the faces found; its size
 * in @width and @height. */
static GstBuffer *
detect_faces (GstBuffer * photo, gint width, gint height)
{
  GstHarness *h = gst_harness_new ("facedetect");
  GstBuffer *out;

  /* with display=true it draws ellipses round the faces */
  g_object_set (h->element, "display", FALSE, NULL);
  gst_harness_set_src_caps (h, test_caps_new ("RGB", width, height));
  out = gst_harness_push_and_pull (h, gst_buffer_ref (photo));
  fail_unless (out != NULL);
  gst_harness_teardown (h);
  return out;
}

/* The rectangles of @buf's metas of type "face", in their order. */
static GArray *
face_metas (GstBuffer * buf)
{
  GArray *faces = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  gpointer state = NULL;
  GstMeta *meta;

  while ((meta = gst_buffer_iterate_meta_filtered (buf, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;
    GstVideoRectangle r = { roi->x, roi->y, roi->w, roi->h };

    if (roi->roi_type == g_quark_from_string ("face"))
      g_array_append_val (faces, r);
  }
  return faces;
}

static gchar *
rectangles_to_string (const GArray * rects)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < rects->len; i++) {
    const GstVideoRectangle *r = &g_array_index (rects, GstVideoRectangle,
        i);

    g_string_append_printf (s, "%s%d %d %d %d", i ? ", " : "", r->x, r->y,
        r->w, r->h);
  }
  return g_string_free (s, FALSE);
}

static gboolean
rect_contains (const GstVideoRectangle * r, gint x, gint y)
{
  return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

/* facedetect finds the one face where it is, and nothing else; the faces
 * recorded for the GPU suite are what it finds. */
GST_START_TEST (test_face_found)
{
  GstBuffer *photo, *detected;
  GArray *faces, *recorded;
  GstMapInfo a, b;
  gchar *found, *want;
  gint width, height;
  guint i, near = 0;

  photo = test_png_rgb (TEST_PHOTO, &width, &height);
  detected = detect_faces (photo, width, height);
  faces = face_metas (detected);
  found = rectangles_to_string (faces);
  GST_INFO ("facedetect found %s", found);

  fail_unless (faces->len > 0, "facedetect found no face in %s", TEST_PHOTO);
  for (i = 0; i < faces->len; i++) {
    const GstVideoRectangle *r = &g_array_index (faces, GstVideoRectangle,
        i);

    if (ABS (r->x + r->w / 2 - FACE_CENTER_X) <= FACE_CENTER_TOLERANCE
        && ABS (r->y + r->h / 2 - FACE_CENTER_Y) <= FACE_CENTER_TOLERANCE
        && r->w >= FACE_MIN_SIZE && r->w <= FACE_MAX_SIZE
        && r->h >= FACE_MIN_SIZE && r->h <= FACE_MAX_SIZE)
      near++;
  }
  fail_unless (near == 1 && faces->len == 1, "facedetect found %s in %s, "
      "not one face of %d to %d pixels a side centred within %d pixels of "
      "%d,%d", found, TEST_PHOTO, FACE_MIN_SIZE, FACE_MAX_SIZE,
      FACE_CENTER_TOLERANCE, FACE_CENTER_X, FACE_CENTER_Y);

  /* display=false leaves the pixels alone */
  fail_unless (gst_buffer_map (photo, &a, GST_MAP_READ));
  fail_unless (gst_buffer_map (detected, &b, GST_MAP_READ));
  fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
      "facedetect display=false changed the picture");
  gst_buffer_unmap (detected, &b);
  gst_buffer_unmap (photo, &a);

  recorded = test_read_rectangles (TEST_PHOTO_FACES);
  want = rectangles_to_string (recorded);
  fail_unless (strcmp (found, want) == 0, "facedetect finds %s in %s, "
      "tests/files/%s records %s: record what it finds", found, TEST_PHOTO,
      TEST_PHOTO_FACES, want);

  g_free (want);
  g_free (found);
  g_array_unref (recorded);
  g_array_unref (faces);
  gst_buffer_unref (detected);
  gst_buffer_unref (photo);
}

GST_END_TEST;

static void
write_png (GstBuffer * frame, gint width, gint height, const gchar * path)
{
  GstHarness *h = gst_harness_new_parse ("pngenc compression-level=9");
  GstBuffer *png;
  GstMapInfo map;
  GError *error = NULL;

  gst_harness_set_src_caps (h, test_caps_new ("RGB", width, height));
  png = gst_harness_push_and_pull (h, gst_buffer_ref (frame));
  fail_unless (png != NULL);
  fail_unless (gst_buffer_map (png, &map, GST_MAP_READ));
  fail_unless (g_file_set_contents (path, (const gchar *) map.data,
          map.size, &error), "%s", error ? error->message : path);
  g_print ("wrote %s\n", path);
  gst_buffer_unmap (png, &map);
  gst_buffer_unref (png);
  gst_harness_teardown (h);
}

/* The face facedetect found, pixelated as `cudaboxblur roi-meta=true
 * roi-padding=12 mode=pixelate` does it: the element's resolve step
 * makes one region of the face meta, grown by the padding, and the CPU
 * reference changes the pixels of the face and none outside the region.
 * The redacted face is no face to facedetect any more. */
GST_START_TEST (test_face_redacted)
{
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurInfo info;
  GstCudaBoxBlurFrame src, want;
  GstCudaBoxBlurJob job;
  GstBuffer *photo, *detected, *redacted, *again;
  GArray *faces, *found_again;
  GError *error = NULL;
  GstMapInfo map;
  const gchar *png;
  guint8 *want_mem;
  gint width, height, x, y;
  guint i;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.roi_padding = 12;
  s.mode = GST_CUDA_BOX_BLUR_MODE_PIXELATE;

  photo = test_png_rgb (TEST_PHOTO, &width, &height);
  detected = detect_faces (photo, width, height);
  faces = face_metas (detected);
  fail_unless (faces->len > 0, "facedetect found no face in %s", TEST_PHOTO);
  info = test_info ("RGB", width, height);

  gst_cuda_box_blur_job_init (&job);
  fail_unless_equals_int (gst_cuda_box_blur_job_resolve (&job, &s, &info,
          detected, NULL), faces->len);
  for (i = 0; i < faces->len; i++) {
    const GstVideoRectangle *f = &g_array_index (faces, GstVideoRectangle,
        i);
    const GstVideoRectangle *r = &g_array_index (job.regions,
        GstVideoRectangle, i);
    const gint x0 = MAX (f->x - s.roi_padding, 0);
    const gint y0 = MAX (f->y - s.roi_padding, 0);

    fail_unless (r->x == x0 && r->y == y0
        && r->w == MIN (f->x + f->w + s.roi_padding, width) - x0
        && r->h == MIN (f->y + f->h + s.roi_padding, height) - y0,
        "face %d,%d %dx%d gave region %d,%d %dx%d", f->x, f->y, f->w, f->h,
        r->x, r->y, r->w, r->h);
  }

  fail_unless (gst_buffer_map (detected, &map, GST_MAP_READ));
  fail_unless (gst_cuda_box_blur_frame_from_buffer (&src, &info, detected,
          &map, &error), "%s", error ? error->message : "");
  want_mem = g_malloc (info.size);
  gst_cuda_box_blur_frame_from_data (&want, &info, want_mem);
  box_blur_ref_frame (&info, &s, &src, &want,
      (const GstVideoRectangle *) job.regions->data, job.regions->len,
      (const GstCudaBoxBlurSettings *) job.region_settings->data);

  /* most pixels of each face changed, and not one byte outside the
   * regions */
  for (i = 0; i < faces->len; i++) {
    const GstVideoRectangle *f = &g_array_index (faces, GstVideoRectangle,
        i);
    gint changed = 0;

    for (y = f->y; y < f->y + f->h; y++)
      for (x = f->x; x < f->x + f->w; x++)
        changed += memcmp (src.data[0] + y * src.stride[0] + 3 * x,
            want.data[0] + y * want.stride[0] + 3 * x, 3) != 0;
    fail_unless (changed >= f->w * f->h * 3 / 4, "only %d of the %d pixels "
        "of face %d,%d %dx%d changed", changed, f->w * f->h, f->x, f->y,
        f->w, f->h);
  }
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      gboolean inside = FALSE;

      for (i = 0; i < job.regions->len && !inside; i++)
        inside = rect_contains (&g_array_index (job.regions,
                GstVideoRectangle, i), x, y);
      fail_unless (inside || memcmp (src.data[0] + y * src.stride[0] + 3 * x,
              want.data[0] + y * want.stride[0] + 3 * x, 3) == 0,
          "pixel %d,%d outside the regions changed", x, y);
    }
  gst_buffer_unmap (detected, &map);

  redacted = gst_buffer_new_wrapped (want_mem, info.size);
  again = detect_faces (redacted, width, height);
  found_again = face_metas (again);
  fail_unless_equals_int (found_again->len, 0);

  png = g_getenv ("CUDABOXBLUR_FACEDETECT_PNG");
  if (png && *png)
    write_png (redacted, width, height, png);

  g_array_unref (found_again);
  gst_buffer_unref (again);
  gst_buffer_unref (redacted);
  gst_cuda_box_blur_job_clear (&job);
  g_array_unref (faces);
  gst_buffer_unref (detected);
  gst_buffer_unref (photo);
}

GST_END_TEST;

/* NULL when facedetect can find faces here, else why not. */
static gchar *
why_not_usable (void)
{
  static const gchar *const elements[] = { "facedetect", "pngdec",
    "videoconvert", "pngenc"
  };
  GstElement *detect;
  gchar *profile = NULL, *reason = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (elements); i++) {
    GstElementFactory *factory = gst_element_factory_find (elements[i]);

    if (!factory)
      return g_strdup_printf ("GStreamer element %s is not installed%s",
          elements[i], i == 0 ? " (Debian: gstreamer1.0-opencv)" : "");
    gst_object_unref (factory);
  }

  /* without its face cascade facedetect passes frames on without looking */
  detect = gst_element_factory_make ("facedetect", NULL);
  if (!detect)
    return g_strdup ("cannot make a facedetect element");
  g_object_get (detect, "profile", &profile, NULL);
  if (!profile || !g_file_test (profile, G_FILE_TEST_IS_REGULAR))
    reason = g_strdup_printf ("facedetect's face cascade %s is missing "
        "(Debian: opencv-data)", profile ? profile : "(none)");
  g_free (profile);
  gst_object_unref (detect);
  return reason;
}

static Suite *
facedetect_suite (void)
{
  Suite *s = suite_create ("facedetect");
  TCase *tc = tcase_create ("facedetect");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_face_found);
  tcase_add_test (tc, test_face_redacted);
  return s;
}

int
main (int argc, char **argv)
{
  gchar *reason;

  /* facedetect also loads nose, mouth and eye cascades that Debian does not
   * ship, and that it needs only for features this suite does not use:
   * keep OpenCV from logging each one as an error */
  g_setenv ("OPENCV_LOG_LEVEL", "FATAL", FALSE);
  gst_check_init (&argc, &argv);
  reason = why_not_usable ();
  if (reason) {
    g_print ("SKIP: facedetect: %s\n", reason);
    g_free (reason);
    return TEST_EXIT_SKIP;
  }
  return gst_check_run_suite (facedetect_suite (), "facedetect", __FILE__);
}
