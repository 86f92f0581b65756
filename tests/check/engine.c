/* cudaboxblur: the GPU engine on whole frames against the CPU reference
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The engine takes the same arguments as box_blur_ref_frame(), so every
 * format, setting and memory kind (host, managed, device; source and
 * destination apart) is checked here with no pipeline in between.  Exits
 * with 77 (skipped) and says why when there is no usable GPU.
 */

#include <gst/check/gstcheck.h>
#include <cuda_runtime_api.h>
#include <string.h>

#include "testframes.h"

static GstCudaBoxBlurDevice device;
static GstCudaBoxBlurEngine *engine;

static void add_regions (GstBuffer * buf, gint w, gint h);

/* @settings on one @format frame from @src_location memory (rows padded
 * by @pad bytes) into @dst_location memory, against the reference; the
 * frame carries add_regions()' metas with @metas. */
static void
check_frame_metas (const gchar * format, gint w, gint h, gint pad,
    const GstCudaBoxBlurSettings * settings,
    GstCudaBoxBlurLocation src_location, GstCudaBoxBlurLocation dst_location,
    gboolean metas)
{
  GstCudaBoxBlurInfo info = test_info (format, w, h);
  GstBuffer *in = test_buffer_new (NULL, format, w, h, pad, w * 7 + h);
  GstCudaBoxBlurJob job;
  GstCudaBoxBlurImage src = { 0, }, dst = { 0, };
  guint8 *src_mem, *dst_mem;
  GError *error = NULL;

  GST_INFO ("%dx%d %s pad %d radius %d,%d passes %d border %d, %s -> %s", w,
      h, format, pad, settings->radius_x, settings->radius_y,
      settings->passes, settings->border, test_location_names[src_location],
      test_location_names[dst_location]);
  if (metas)
    add_regions (in, w, h);

  src_mem = test_place_buffer (&src, &info, src_location, in);
  dst_mem = test_place_frame (&dst, &info, dst_location, NULL);

  gst_cuda_box_blur_job_init (&job);
  gst_cuda_box_blur_job_resolve (&job, settings, &info, in, NULL);
  fail_unless (gst_cuda_box_blur_engine_blur (engine, &job, &src, &dst,
          &error), "%s", error ? error->message : "");
  gst_cuda_box_blur_job_clear (&job);
  test_assert_frame (in, dst_mem, format, w, h, settings);

  test_release (src_location, src_mem);
  test_release (dst_location, dst_mem);
  gst_buffer_unref (in);
}

static void
check_frame (const gchar * format, gint w, gint h, gint pad,
    const GstCudaBoxBlurSettings * settings,
    GstCudaBoxBlurLocation src_location, GstCudaBoxBlurLocation dst_location)
{
  check_frame_metas (format, w, h, pad, settings, src_location, dst_location,
      FALSE);
}

/* The settings every format is checked with: the direct and separable
 * kernels, several passes, a border mode and a region. */
static void
settings_case (guint i, GstCudaBoxBlurSettings * s)
{
  gst_cuda_box_blur_settings_init (s);
  switch (i) {
    case 0:
      break;
    case 1:
      s->radius_x = s->radius_y = 8;
      s->border = GST_CUDA_BOX_BLUR_BORDER_MIRROR;
      break;
    case 2:
      s->radius_x = 3;
      s->radius_y = 2;
      s->passes = 3;
      s->roi.x = 9;
      s->roi.y = 5;
      s->roi.w = 31;
      s->roi.h = 20;
      break;
    case 3:
      s->radius_x = s->radius_y = 63;
      s->passes = 2;
      s->border = GST_CUDA_BOX_BLUR_BORDER_CLAMP;
      break;
    case 4:                    /* boxes of radii 2, 2, 3 */
      s->mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
      s->sigma = 3;
      s->border = GST_CUDA_BOX_BLUR_BORDER_MIRROR;
      break;
    case 5:                    /* blocks that do not divide the frame */
      s->mode = GST_CUDA_BOX_BLUR_MODE_PIXELATE;
      s->block_size = 6;
      break;
    case 6:                    /* the whole frame in a feathered ellipse */
      s->mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
      s->sigma = 3;
      s->shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
      s->feather = 5;
      break;
    case 7:                    /* a feathered fill, alpha too */
      s->mode = GST_CUDA_BOX_BLUR_MODE_FILL;
      s->fill_color = 0x80ff8000;
      s->blur_alpha = TRUE;
      s->feather = 4;
      s->roi.x = 9;
      s->roi.y = 5;
      s->roi.w = 31;
      s->roi.h = 20;
      break;
    case 8:                    /* no region at all: a copy */
      s->roi_meta = TRUE;
      break;
    case 9:                    /* everything but a feathered ellipse */
      s->invert = TRUE;
      s->mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
      s->sigma = 3;
      s->shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
      s->feather = 5;
      s->roi.x = 9;
      s->roi.y = 5;
      s->roi.w = 31;
      s->roi.h = 20;
      break;
    case 10:                   /* a fill around a corner whose feather
                                 * reaches past the frame */
      s->invert = TRUE;
      s->mode = GST_CUDA_BOX_BLUR_MODE_FILL;
      s->fill_color = 0x80ff8000;
      s->blur_alpha = TRUE;
      s->shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
      s->feather = 6;
      s->roi.w = 12;
      s->roi.h = 10;
      break;
    case 11:                   /* invert without a region: the whole frame */
      s->invert = TRUE;
      s->roi_meta = TRUE;
      s->mode = GST_CUDA_BOX_BLUR_MODE_PIXELATE;
      s->block_size = 6;
      break;
  }
}

#define N_SETTINGS 12

/* Every format with every setting, host to host, managed to managed and
 * device to device, on an odd size with padded input rows. */
GST_START_TEST (test_every_format)
{
  static const GstCudaBoxBlurLocation same[] = { GST_CUDA_BOX_BLUR_IN_HOST,
    GST_CUDA_BOX_BLUR_IN_MANAGED, GST_CUDA_BOX_BLUR_IN_DEVICE
  };
  GstCudaBoxBlurSettings settings;
  guint f, i, l;

  for (f = 0; f < test_n_formats; f++)
    for (i = 0; i < N_SETTINGS; i++)
      for (l = 0; l < G_N_ELEMENTS (same); l++) {
        GstCudaBoxBlurInfo info = test_info (test_formats[f], 67, 45);

        settings_case (i, &settings);
        check_frame (test_formats[f], 67, 45, 4 * info.sample_size,
            &settings, same[l], same[l]);
      }
}

GST_END_TEST;

/* Every pair of memory kinds, source and destination apart. */
GST_START_TEST (test_memory_pairs)
{
  GstCudaBoxBlurSettings settings;
  guint a, b, i;

  for (a = GST_CUDA_BOX_BLUR_IN_HOST; a <= GST_CUDA_BOX_BLUR_IN_DEVICE; a++)
    for (b = GST_CUDA_BOX_BLUR_IN_HOST; b <= GST_CUDA_BOX_BLUR_IN_DEVICE; b++)
      for (i = 0; i < N_SETTINGS; i++) {
        settings_case (i, &settings);
        check_frame ("NV12", 1920, 1080, 0, &settings, a, b);
        check_frame ("GRAY32F", 323, 241, 64, &settings, a, b);
      }
}

GST_END_TEST;

/* One engine blurs frames of changing sizes and formats in turn, growing
 * its scratch memory as needed. */
GST_START_TEST (test_changing_frames)
{
  static const gint sizes[][2] = { {16, 16}, {1920, 1080}, {3, 2},
  {3840, 2160}, {640, 480}
  };
  GstCudaBoxBlurSettings settings;
  guint s;

  settings_case (3, &settings);
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    check_frame (s % 2 ? "I420" : "RGBA", sizes[s][0], sizes[s][1], 0,
        &settings, GST_CUDA_BOX_BLUR_IN_DEVICE, GST_CUDA_BOX_BLUR_IN_DEVICE);
  }
}

GST_END_TEST;

/* Three face-sized regions: two that overlap, one at the bottom right
 * corner. */
static void
add_regions (GstBuffer * buf, gint w, gint h)
{
  gst_buffer_add_video_region_of_interest_meta (buf, "face", 5, 4, 20, 16);
  gst_buffer_add_video_region_of_interest_meta (buf, "face", 15, 10, 21, 17);
  gst_buffer_add_video_region_of_interest_meta (buf, "plate", w - 13, h - 9,
      13, 9);
}

/* The region settings blurred in place. */
static gboolean
in_place_case (guint i, GstCudaBoxBlurSettings * s)
{
  gst_cuda_box_blur_settings_init (s);
  switch (i) {
    case 0:                    /* one rectangle inside, 3x3 */
      s->roi.x = 9;
      s->roi.y = 5;
      s->roi.w = 31;
      s->roi.h = 20;
      return TRUE;
    case 1:                    /* the same, three passes, separable */
      settings_case (2, s);
      return TRUE;
    case 2:                    /* at the corner, mirrored */
      s->radius_x = s->radius_y = 8;
      s->border = GST_CUDA_BOX_BLUR_BORDER_MIRROR;
      s->roi.w = 20;
      s->roi.h = 15;
      return TRUE;
    case 3:                    /* overlapping metas, clamped */
      s->radius_x = s->radius_y = 5;
      s->border = GST_CUDA_BOX_BLUR_BORDER_CLAMP;
      s->roi_meta = TRUE;
      s->roi_padding = 2;
      return TRUE;
    case 4:                    /* a large window, constant border */
      s->radius_x = s->radius_y = 63;
      s->border = GST_CUDA_BOX_BLUR_BORDER_CONSTANT;
      s->border_value = 100;
      s->roi.x = 30;
      s->roi.y = 20;
      s->roi.w = 7;
      s->roi.h = 30;
      return TRUE;
    case 5:                    /* a Gaussian of unequal boxes (0, 0, 1) */
      s->mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
      s->sigma = 1;
      s->roi.x = 9;
      s->roi.y = 5;
      s->roi.w = 31;
      s->roi.h = 20;
      return TRUE;
    case 6:                    /* metas, each of its own radius */
      s->roi_meta = TRUE;
      s->radius_scale = 0.25;
      return TRUE;
    case 7:                    /* metas pixelated, blocks of their size */
      s->roi_meta = TRUE;
      s->mode = GST_CUDA_BOX_BLUR_MODE_PIXELATE;
      s->block_scale = 0.3;
      return TRUE;
    case 8:                    /* overlapping feathered ellipses, 2 passes */
      s->roi_meta = TRUE;
      s->radius_x = s->radius_y = 4;
      s->passes = 2;
      s->shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
      s->feather = 3;
      return TRUE;
    case 9:                    /* filled ellipses */
      s->roi_meta = TRUE;
      s->mode = GST_CUDA_BOX_BLUR_MODE_FILL;
      s->fill_color = 0xff2040c0;
      s->shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
      return TRUE;
    case 10:                   /* wrapping round the frame, two passes */
      s->roi_meta = TRUE;
      s->radius_x = s->radius_y = 6;
      s->passes = 2;
      s->border = GST_CUDA_BOX_BLUR_BORDER_WRAP;
      return TRUE;
  }
  return FALSE;
}

/* @settings' regions of @format blurred in place in @location memory. */
static void
check_in_place (const gchar * format, gint w, gint h,
    const GstCudaBoxBlurSettings * settings, GstCudaBoxBlurLocation location)
{
  GstCudaBoxBlurInfo info = test_info (format, w, h);
  GstBuffer *in = test_buffer_new (NULL, format, w, h, 0, w + h);
  GstCudaBoxBlurJob job;
  GstCudaBoxBlurImage image = { 0, };
  GError *error = NULL;
  guint8 *mem;

  GST_INFO ("%dx%d %s radius %d,%d passes %d border %d in place, %s", w, h,
      format, settings->radius_x, settings->radius_y, settings->passes,
      settings->border, test_location_names[location]);
  add_regions (in, w, h);
  gst_cuda_box_blur_job_init (&job);
  gst_cuda_box_blur_job_resolve (&job, settings, &info, in, NULL);
  fail_unless (gst_cuda_box_blur_job_in_place_helps (&job));

  mem = test_place_frame (&image, &info, location, in);
  fail_unless (gst_cuda_box_blur_engine_blur_in_place (engine, &job, &image,
          &error), "%s", error ? error->message : "");
  test_assert_frame (in, mem, format, w, h, settings);

  test_release (location, mem);
  gst_cuda_box_blur_job_clear (&job);
  gst_buffer_unref (in);
}

/* Regions blurred where they are equal the same regions blurred into
 * another frame, in every memory kind. */
GST_START_TEST (test_in_place)
{
  static const gchar *const formats[] = { "GRAY8", "GRAY16_LE", "GRAY32F",
    "NV12", "I420", "Y444", "RGBA", "RGB"
  };
  GstCudaBoxBlurSettings settings;
  guint f, i, l;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (i = 0; in_place_case (i, &settings); i++)
      for (l = GST_CUDA_BOX_BLUR_IN_HOST; l <= GST_CUDA_BOX_BLUR_IN_DEVICE;
          l++)
        check_in_place (formats[f], 67, 45, &settings, l);
}

GST_END_TEST;

/* In place is taken for any regions but one hard-edged whole frame. */
/* invert around overlapping regions, one at the frame's corner, with their
 * feathers, in every memory kind. */
GST_START_TEST (test_invert_regions)
{
  static const gchar *const formats[] = { "GRAY8", "GRAY16_LE", "GRAY32F",
    "NV12", "I420", "Y444", "RGBA", "RGB"
  };
  GstCudaBoxBlurSettings s;
  guint f, l;

  gst_cuda_box_blur_settings_init (&s);
  s.invert = TRUE;
  s.roi_meta = TRUE;
  s.roi_padding = 2;
  s.shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
  s.feather = 4;
  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (l = GST_CUDA_BOX_BLUR_IN_HOST; l <= GST_CUDA_BOX_BLUR_IN_DEVICE; l++) {
      s.mode = f % 2 ? GST_CUDA_BOX_BLUR_MODE_GAUSSIAN :
          GST_CUDA_BOX_BLUR_MODE_BOX;
      s.radius_x = s.radius_y = 5;
      s.sigma = 4;
      check_frame_metas (formats[f], 67, 45, 0, &s, l, l, TRUE);
    }
}

GST_END_TEST;

GST_START_TEST (test_in_place_refused)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 64, 48);
  GstVideoRectangle whole = { 0, 0, 64, 48 };
  GstVideoRectangle edge = { 0, 10, 8, 8 };
  GstCudaBoxBlurSettings s;

  GstCudaBoxBlurJob job;

  gst_cuda_box_blur_settings_init (&s);
  gst_cuda_box_blur_job_init (&job);
  s.radius_x = s.radius_y = 3;
  gst_cuda_box_blur_job_set (&job, &s, &info, &whole, 0, NULL);
  fail_if (gst_cuda_box_blur_job_in_place_helps (&job));
  gst_cuda_box_blur_job_set (&job, &s, &info, &whole, 1, NULL);
  fail_if (gst_cuda_box_blur_job_in_place_helps (&job));
  s.border = GST_CUDA_BOX_BLUR_BORDER_WRAP;
  gst_cuda_box_blur_job_set (&job, &s, &info, &edge, 1, NULL);
  fail_unless (gst_cuda_box_blur_job_in_place_helps (&job));
  s.shape = GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE;
  gst_cuda_box_blur_job_set (&job, &s, &info, &whole, 1, NULL);
  fail_unless (gst_cuda_box_blur_job_in_place_helps (&job));
  /* the frame around a region is no region's work */
  s.invert = TRUE;
  gst_cuda_box_blur_job_set (&job, &s, &info, &edge, 1, NULL);
  fail_if (gst_cuda_box_blur_job_in_place_helps (&job));
  s.mode = GST_CUDA_BOX_BLUR_MODE_FILL;
  gst_cuda_box_blur_job_set (&job, &s, &info, &edge, 1, NULL);
  fail_if (gst_cuda_box_blur_job_in_place_helps (&job));
  gst_cuda_box_blur_job_clear (&job);
}

GST_END_TEST;

/* @n regions of every size from 1 x 1 up, many across the frame's right
 * and bottom edges, with parameters of their own in turn: every mode and
 * shape, feathers, fill colours. */
static void
add_many_regions (GstBuffer * buf, gint w, gint h, guint n)
{
  static const gchar *const modes[] = { "box", "gaussian", "pixelate",
    "fill"
  };
  GRand *rand = g_rand_new_with_seed (n);
  guint i;

  for (i = 0; i < n; i++) {
    const gint rw = g_rand_int_range (rand, 1, 48);
    const gint rh = g_rand_int_range (rand, 1, 48);
    GstVideoRegionOfInterestMeta *m =
        gst_buffer_add_video_region_of_interest_meta (buf, "face",
        g_rand_int_range (rand, 0, w), g_rand_int_range (rand, 0, h), rw, rh);

    gst_video_region_of_interest_meta_add_param (m,
        gst_structure_new ("cudaboxblur", "mode", G_TYPE_STRING,
            modes[i % G_N_ELEMENTS (modes)], "radius", G_TYPE_INT, 1 + i % 9,
            "sigma", G_TYPE_DOUBLE, 1.0 + i % 5, "block-size", G_TYPE_INT,
            2 + i % 6, "shape", G_TYPE_STRING,
            i % 2 ? "ellipse" : "rectangle", "feather", G_TYPE_INT, i % 4,
            "fill-color", G_TYPE_UINT, 0xff000000 | g_rand_int (rand), NULL));
  }
  g_rand_free (rand);
}

/* 500 regions in one frame, 1 x 1 ones and ones across the edges among
 * them, into another frame and in place (in a frame large enough that
 * they stay regions: GST_CUDA_BOX_BLUR_MAX_REGION_FRAMES). */
GST_START_TEST (test_many_regions)
{
  static const gchar *const formats[] = { "NV12", "GRAY32F", "RGBA" };
  const gint w = 480, h = 360;
  GstCudaBoxBlurSettings s;
  guint f, l;

  gst_cuda_box_blur_settings_init (&s);
  s.roi_meta = TRUE;
  s.blur_alpha = TRUE;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstCudaBoxBlurInfo info = test_info (formats[f], w, h);
    GstBuffer *in = test_buffer_new (NULL, formats[f], w, h, 0, 500 + f);
    GstCudaBoxBlurJob job;
    GstCudaBoxBlurImage src = { 0, }, dst = { 0, };
    GError *error = NULL;

    add_many_regions (in, w, h, 500);
    gst_cuda_box_blur_job_init (&job);
    fail_unless_equals_int (gst_cuda_box_blur_job_resolve (&job, &s, &info,
            in, NULL), 500);

    for (l = GST_CUDA_BOX_BLUR_IN_MANAGED; l <= GST_CUDA_BOX_BLUR_IN_DEVICE;
        l++) {
      guint8 *src_mem, *dst_mem;

      src_mem = test_place_frame (&src, &info, l, in);
      dst_mem = test_place_frame (&dst, &info, l, NULL);

      fail_unless (gst_cuda_box_blur_engine_blur (engine, &job, &src, &dst,
              &error), "%s", error ? error->message : "");
      test_assert_frame (in, dst_mem, formats[f], w, h, &s);
      fail_unless (gst_cuda_box_blur_engine_blur_in_place (engine, &job,
              &src, &error), "%s", error ? error->message : "");
      test_assert_frame (in, src_mem, formats[f], w, h, &s);
      test_release (l, src_mem);
      test_release (l, dst_mem);
    }
    gst_cuda_box_blur_job_clear (&job);
    gst_buffer_unref (in);
  }
}

GST_END_TEST;

/* @n regions of 20x20 pixels 30 apart on a 640x480 NV12 frame in device
 * memory, redacted in place with @settings and checked against the
 * reference; returns the kernel launches it took. */
static guint
launches_for (const GstCudaBoxBlurSettings * settings, guint n,
    gboolean overlap)
{
  const gint w = 640, h = 480;
  GstCudaBoxBlurInfo info = test_info ("NV12", w, h);
  GstBuffer *in = test_buffer_new (NULL, "NV12", w, h, 0, n);
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GstCudaBoxBlurJob job;
  GstCudaBoxBlurImage image = { 0, };
  GError *error = NULL;
  guint i, launches;
  guint8 *mem;

  for (i = 0; i < n; i++) {
    GstVideoRectangle r = { 5 + (i % 20) * 30, 5 + (i / 20) * 30, 20, 20 };

    /* with overlap, each region reaches into the one before it */
    if (overlap)
      r.x -= 12 * (i % 20 > 0);
    g_array_append_val (regions, r);
    gst_buffer_add_video_region_of_interest_meta (in, "face", r.x, r.y, r.w,
        r.h);
  }
  mem = test_place_frame (&image, &info, GST_CUDA_BOX_BLUR_IN_DEVICE, in);
  gst_cuda_box_blur_job_init (&job);
  gst_cuda_box_blur_job_set (&job, settings, &info,
      (const GstVideoRectangle *) regions->data, regions->len, NULL);
  fail_unless (gst_cuda_box_blur_engine_blur_in_place (engine, &job, &image,
          &error), "%s", error ? error->message : "");
  gst_cuda_box_blur_job_clear (&job);
  launches = gst_cuda_box_blur_engine_n_launches (engine);
  test_assert_frame (in, mem, "NV12", w, h, settings);

  test_release (GST_CUDA_BOX_BLUR_IN_DEVICE, mem);
  g_array_unref (regions);
  gst_buffer_unref (in);
  return launches;
}

/* All the regions of a frame take the launches of one: one per kind of
 * kernel and pass; regions that overlap take one more round each. */
GST_START_TEST (test_launches_per_pass)
{
  static const GstCudaBoxBlurMode modes[] = { GST_CUDA_BOX_BLUR_MODE_BOX,
    GST_CUDA_BOX_BLUR_MODE_GAUSSIAN, GST_CUDA_BOX_BLUR_MODE_PIXELATE,
    GST_CUDA_BOX_BLUR_MODE_FILL
  };
  GstCudaBoxBlurSettings s;
  guint m, one;

  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    gst_cuda_box_blur_settings_init (&s);
    s.roi_meta = TRUE;
    s.mode = modes[m];
    s.radius_x = s.radius_y = 8;
    s.sigma = 4;
    s.block_size = 6;
    s.shape = m % 2 ? GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE :
        GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE;
    s.feather = 3 * (m % 2);
    one = launches_for (&s, 1, FALSE);
    GST_INFO ("mode %d: %u launches", modes[m], one);
    fail_unless_equals_int (launches_for (&s, 300, FALSE), one);
    /* overlapping: a second layer writes after the first */
    fail_unless (launches_for (&s, 40, TRUE) > one);
  }
}

GST_END_TEST;

/* Column sums past the plan's budget: a whole 2560x2560 Y444 frame with a
 * radius of 130 (32-bit column sums, 26 MB a plane) takes two rounds of
 * launches instead of one, and the same pixels.  RGBA's components,
 * blurred as whole pixels, are one entry of 105 MB: one round. */
GST_START_TEST (test_column_sums_budget)
{
  GstCudaBoxBlurSettings s;

  gst_cuda_box_blur_settings_init (&s);
  s.radius_x = s.radius_y = 130;
  check_frame ("Y444", 2560, 2560, 0, &s, GST_CUDA_BOX_BLUR_IN_DEVICE,
      GST_CUDA_BOX_BLUR_IN_DEVICE);
  fail_unless_equals_int (gst_cuda_box_blur_engine_n_launches (engine), 4);
  check_frame ("Y444", 256, 256, 0, &s, GST_CUDA_BOX_BLUR_IN_DEVICE,
      GST_CUDA_BOX_BLUR_IN_DEVICE);
  fail_unless_equals_int (gst_cuda_box_blur_engine_n_launches (engine), 2);
  check_frame ("RGBA", 2560, 2560, 0, &s, GST_CUDA_BOX_BLUR_IN_DEVICE,
      GST_CUDA_BOX_BLUR_IN_DEVICE);
  fail_unless_equals_int (gst_cuda_box_blur_engine_n_launches (engine), 2);
}

GST_END_TEST;

static Suite *
engine_suite (void)
{
  Suite *s = suite_create ("engine");
  TCase *tc = tcase_create ("frames");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_format);
  tcase_add_test (tc, test_memory_pairs);
  tcase_add_test (tc, test_changing_frames);
  tcase_add_test (tc, test_in_place);
  tcase_add_test (tc, test_in_place_refused);
  tcase_add_test (tc, test_invert_regions);
  tcase_add_test (tc, test_many_regions);
  tcase_add_test (tc, test_launches_per_pass);
  tcase_add_test (tc, test_column_sums_budget);
  return s;
}

/* The engine every test uses, on device 0. */
static void
engine_setup (void)
{
  const GstCudaBoxBlurProgram *program;
  GError *error = NULL;

  if (!gst_cuda_box_blur_device_open (0, &device, &error)
      || !(program = gst_cuda_box_blur_program_get (device.major,
              device.minor, &error))
      || !(engine = gst_cuda_box_blur_engine_new (&device, program, NULL,
              &error)))
    g_error ("%s", error->message);
}

static void
engine_teardown (void)
{
  gst_cuda_box_blur_engine_free (engine);
}

static const TestGpuNeeds needs = {
  .setup = engine_setup,
  .teardown = engine_teardown,
};

TEST_GPU_CHECK_MAIN ("engine", engine_suite, &needs);
