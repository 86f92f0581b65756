/* cudaboxblur: the faces a detector found in a photo, redacted on the GPU
 * as the CPU reference redacts them
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The photo is tests/files/astronaut.png and its faces those recorded in
 * tests/files/astronaut-faces.txt, which the facedetect suite checks
 * against OpenCV's facedetect: this suite needs no OpenCV.  Exits with 77
 * (skipped) and says why when there is no usable GPU or no pngdec.
 */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "cudaboxblur-params.h"
#include "testutils.h"

typedef struct
{
  GstCudaBoxBlurMode mode;
  gint strength;                /* radius, sigma or block size */
  gdouble sigma_scale;
  gint passes;
  GstCudaBoxBlurShape shape;
  gint feather;
  gint padding;
} Redaction;

static const Redaction redactions[] = {
  /* the facedetect suite's, which docs/facedetect.png shows, and the
   * README's file pipeline */
  {GST_CUDA_BOX_BLUR_MODE_PIXELATE, 16, 0, 1,
      GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0, 12},
  /* the README's webcam pipeline */
  {GST_CUDA_BOX_BLUR_MODE_GAUSSIAN, 2, 0.15, 3,
      GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0, 16},
  {GST_CUDA_BOX_BLUR_MODE_GAUSSIAN, 10, 0, 3, GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE,
      8, 12},
  {GST_CUDA_BOX_BLUR_MODE_BOX, 20, 0, 3, GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0,
      16},
};

static void
redaction_settings (const Redaction * r, GstCudaBoxBlurSettings * s)
{
  gst_cuda_box_blur_settings_init (s);
  s->roi_meta = TRUE;
  s->mode = r->mode;
  s->radius_x = s->radius_y = r->strength;
  s->sigma = r->strength;
  s->sigma_scale = r->sigma_scale;
  s->block_size = r->strength;
  s->passes = r->passes;
  s->shape = r->shape;
  s->feather = r->feather;
  s->roi_padding = r->padding;
}

/* The photo with a "face" meta for each recorded face. */
static GstBuffer *
photo_with_faces (gint * width, gint * height, guint * n_faces)
{
  GstBuffer *photo = test_png_rgb (TEST_PHOTO, width, height);
  GArray *faces = test_read_rectangles (TEST_PHOTO_FACES);
  guint i;

  fail_unless (faces->len > 0, "tests/files/%s records no face",
      TEST_PHOTO_FACES);
  photo = gst_buffer_make_writable (photo);
  for (i = 0; i < faces->len; i++) {
    const GstVideoRectangle *f = &g_array_index (faces, GstVideoRectangle,
        i);

    gst_buffer_add_video_region_of_interest_meta (photo, "face", f->x, f->y,
        f->w, f->h);
  }
  *n_faces = faces->len;
  g_array_unref (faces);
  return photo;
}

static guint
n_face_metas (GstBuffer * buf)
{
  gpointer state = NULL;
  GstMeta *meta;
  guint n = 0;

  while ((meta = gst_buffer_iterate_meta_filtered (buf, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)))
    n += ((GstVideoRegionOfInterestMeta *) meta)->roi_type ==
        g_quark_from_string ("face");
  return n;
}

/* The recorded faces pixelated, blurred by a Gaussian of a σ that follows
 * the face's size, by a feathered elliptic Gaussian and by three boxes:
 * each frame equal to the CPU reference, with its face metas passed on. */
GST_START_TEST (test_faces_redacted)
{
  gint width, height;
  guint n_faces, i;
  GstBuffer *in = photo_with_faces (&width, &height, &n_faces);

  for (i = 0; i < G_N_ELEMENTS (redactions); i++) {
    GstHarness *h = test_harness_new ("RGB", width, height);
    GstCudaBoxBlurSettings s;
    GstBuffer *out;

    redaction_settings (&redactions[i], &s);
    test_apply_settings (h->element, &s);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    fail_if (out == in, "redaction %u left the photo as it was", i);
    GST_INFO ("redaction %u: mode %d, strength %d", i, redactions[i].mode,
        redactions[i].strength);
    test_assert_output (in, out, "RGB", width, height, &s);
    fail_unless_equals_int (n_face_metas (out), n_faces);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
  gst_buffer_unref (in);
}

GST_END_TEST;

static Suite *
cudaboxblur_photo_suite (void)
{
  Suite *s = suite_create ("cudaboxblur-photo");
  TCase *tc = tcase_create ("photo");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_faces_redacted);
  return s;
}

static const gchar *const photo_elements[] = { "pngdec", "videoconvert" };

static const TestGpuNeeds needs = {
  .elements = photo_elements,
  .n_elements = G_N_ELEMENTS (photo_elements),
};

TEST_GPU_CHECK_MAIN ("cudaboxblur-photo", cudaboxblur_photo_suite, &needs);
