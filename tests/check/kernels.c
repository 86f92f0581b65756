/* cudaboxblur: every kernel variant against the CPU reference
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The element picks one variant per window; this suite runs each of them
 * (the separable blur in two passes and, for 8-bit samples, in one; and
 * pixelate, for blocks narrower and wider than its threads) on
 * device memory for every radius class, so that a variant is proven
 * before the choice ever falls on it.  Exits with 77 (skipped) and says why
 * when there is no usable GPU.
 */

#include <gst/check/gstcheck.h>
#include <cuda_runtime_api.h>

#include "cudaboxblur-device.h"
#include "cudaboxblur-launch.h"
#include "cudaboxblur-plan.h"
#include "cudaboxblur-program.h"
#include "testutils.h"

static GstCudaBoxBlurDevice device;
static GstCudaBoxBlurLauncher *launcher;

/* The top left quarter of the frame in @buf (rows @stride bytes apart)
 * made bright: the largest 8- and 16-bit samples, float32 samples raised
 * by 10^6; the rest of 8- and 16-bit frames the largest sample or the one
 * below it.  Integer windows then have the largest sums there are, and
 * means on either side of a half; float32 windows and sliding sums pass
 * from 10^6 to samples of 1 and 1000, where only sums kept to more than
 * float32's precision stay within the tolerance. */
static void
make_extreme (GstBuffer * buf, const GstCudaBoxBlurInfo * info, gint stride)
{
  /* samples of the first plane's rows: RGBA's are four a pixel */
  const gint n = info->row_bytes[0] / info->sample_size;
  GstMapInfo map;
  gint x, y;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (y = 0; y < info->height; y++) {
    guint8 *row = map.data + (gsize) y * stride;

    for (x = 0; x < n; x++) {
      const gboolean bright = x < n / 2 && y < info->height / 2;
      const gint low = (x + 2 * y) % 3 == 0;

      if (info->type == GST_CUDA_BOX_BLUR_U8)
        row[x] = bright ? 255 : 255 - low;
      else if (info->type == GST_CUDA_BOX_BLUR_U16)
        ((guint16 *) row)[x] = bright ? 65535 : 65535 - low;
      else if (bright)
        ((gfloat *) row)[x] += 1e6f;
    }
  }
  gst_buffer_unmap (buf, &map);
}

/* One sample type, border mode and region of @variant on device memory
 * (for GST_CUDA_BOX_BLUR_PIXELATE blocks of @rx x @ry): the input with
 * rows padded by @pad bytes (with @extreme, made extreme by
 * make_extreme()), the output in the caps' layout.  A format of one plane
 * of pixels of four or three 8-bit samples (RGBA, RGB ...) has its
 * components blurred together, alpha too with @blur_alpha. */
static void
check_frame (GstCudaBoxBlurVariant variant, const gchar * format, gint w,
    gint h, gint rx, gint ry, GstCudaBoxBlurBorder border,
    const GstVideoRectangle * roi, gboolean extreme, gint pad,
    gboolean blur_alpha)
{
  const gboolean pixelate = variant == GST_CUDA_BOX_BLUR_PIXELATE;
  GstCudaBoxBlurInfo info = test_info (format, w, h);
  const gboolean pixels = info.comp[0].step >= 3
      && info.type == GST_CUDA_BOX_BLUR_U8;
  guint blurred = 0;
  gint c;
  GstBuffer *in, *out;
  GstCudaBoxBlurPlane src, dst;
  GstCudaBoxBlurWindow window = { rx, ry, border, 200.0 };
  GstCudaBoxBlurSettings settings;
  GstVideoRectangle region = { 0, 0, w, h };
  GstMapInfo map;
  GError *error = NULL;
  GstCudaBoxBlurPlan *plan = gst_cuda_box_blur_plan_new (&device.target);
  gsize in_size;

  if (pixelate) {
    window.radius_x = window.radius_y = 0;
    window.work = GST_CUDA_BOX_BLUR_WORK_BLOCKS;
    window.block_w = rx;
    window.block_h = ry;
  }
  if (roi) {
    region = *roi;
    region.w = MIN (region.w, w - region.x);
    region.h = MIN (region.h, h - region.y);
  }
  in = test_buffer_new (NULL, format, w, h, pad, w + h);
  if (extreme)
    make_extreme (in, &info, info.stride[0] + pad);
  in_size = gst_buffer_get_size (in);
  /* the output starts as a copy, so the pixels outside the region are
   * the input's */
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  src.width = dst.width = w;
  src.height = dst.height = h;
  src.step = dst.step = info.comp[0].step;
  src.shift = dst.shift = info.comp[0].shift;
  src.stride = info.stride[0] + pad;
  dst.stride = info.stride[0];

  fail_unless (cudaMalloc ((void **) &src.data, in_size) == 0);
  fail_unless (cudaMalloc ((void **) &dst.data, info.size) == 0);

  fail_unless (cudaMemset (dst.data, 0, info.size) == 0);
  fail_unless (gst_buffer_map (in, &map, GST_MAP_READ));
  fail_unless (cudaMemcpy (src.data, map.data, map.size,
          cudaMemcpyHostToDevice) == 0);
  fail_unless (cudaMemcpy2D (dst.data, dst.stride, map.data, src.stride,
          info.row_bytes[0], h, cudaMemcpyHostToDevice) == 0);
  gst_buffer_unmap (in, &map);

  gst_cuda_box_blur_plan_reset (plan, info.type);
  if (pixels) {
    for (c = 0; c < info.n_components; c++)
      if (info.comp[c].kind != GST_CUDA_BOX_BLUR_ALPHA || blur_alpha)
        blurred |= 1u << info.comp[c].offset;
    gst_cuda_box_blur_plan_blur_pixels (plan, variant, &src, &dst, &window,
        &region, blurred);
  } else {
    gst_cuda_box_blur_plan_blur_variant (plan, variant, &src, &dst, &window,
        &region);
  }
  fail_unless (gst_cuda_box_blur_launcher_run (launcher, plan, NULL,
          &error), "%s", error ? error->message : "");
  fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);

  fail_unless (gst_buffer_map (out, &map, GST_MAP_WRITE));
  fail_unless (cudaMemcpy (map.data, dst.data, map.size,
          cudaMemcpyDeviceToHost) == 0);
  gst_buffer_unmap (out, &map);

  gst_cuda_box_blur_settings_init (&settings);
  if (pixelate) {
    /* the reference takes square blocks */
    fail_unless_equals_int (rx, ry);
    settings.mode = GST_CUDA_BOX_BLUR_MODE_PIXELATE;
    settings.block_size = rx;
  } else {
    settings.radius_x = rx;
    settings.radius_y = ry;
  }
  settings.border = border;
  settings.border_value = window.border_value;
  settings.blur_alpha = blur_alpha;
  settings.roi = region;
  test_assert_output (in, out, format, w, h, &settings);

  cudaFree (src.data);
  cudaFree (dst.data);
  gst_cuda_box_blur_plan_free (plan);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

/* Bytes that pad the input's rows: four samples' worth. */
static gint
row_pad (const gchar * format)
{
  return 4 * test_info (format, 1, 1).sample_size;
}

static void
check_variant (GstCudaBoxBlurVariant variant, const gchar * format, gint w,
    gint h, gint rx, gint ry, GstCudaBoxBlurBorder border,
    const GstVideoRectangle * roi)
{
  check_frame (variant, format, w, h, rx, ry, border, roi, FALSE,
      row_pad (format), FALSE);
}

static const gchar *const sample_formats[] = { "GRAY8", "GRAY16_LE",
  "GRAY32F"
};

/* Whether @variant is worth running on sample_formats[@f]: the strip
 * walker takes 8-bit samples only (elsewhere the plan would take kernels
 * tested on their own again). */
static gboolean
runs_on (GstCudaBoxBlurVariant variant, guint f)
{
  return variant != GST_CUDA_BOX_BLUR_STRIPS || f == 0;
}

static void
check_all_sizes (GstCudaBoxBlurVariant variant, gint max_window)
{
  const gint sizes[][2] = { {1, 1}, {3, 2}, {1, 517}, {517, 1}, {17, 13},
  {323, 241}, {4097, 7}, {5, 600}, {1920, 1080}
  };
  /* 22 x 22 and 0 x 63: the largest windows of the one pass, by samples
   * (TILE_WINDOW) and by rows (TILE_RADIUS_Y); 8 x 3, 5 x 1 and 1 x 127,
   * windows of the strip walker two words a lane wide and of the most rows */
  const gint radii[][2] = { {1, 1}, {2, 2}, {3, 0}, {0, 4}, {7, 7},
  {22, 22}, {0, 63}, {30, 30}, {127, 5}, {5, 127}, {255, 255}, {8, 3},
  {5, 1}, {1, 127}
  };
  guint s, r, f;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (r = 0; r < G_N_ELEMENTS (radii); r++)
      for (f = 0; f < G_N_ELEMENTS (sample_formats); f++) {
        gint rx = radii[r][0], ry = radii[r][1];

        if ((2 * rx + 1) * (2 * ry + 1) > max_window || !runs_on (variant, f))
          continue;
        /* small float32 windows must match the sample bit for bit, which
         * only the direct kernels promise (the element uses nothing else
         * there) */
        if (variant != GST_CUDA_BOX_BLUR_DIRECT
            && gst_cuda_box_blur_window_is_direct (rx, ry) && f == 2)
          continue;
        GST_INFO ("variant %d %dx%d %s radius %d,%d", variant, sizes[s][0],
            sizes[s][1], sample_formats[f], rx, ry);
        check_variant (variant, sample_formats[f], sizes[s][0], sizes[s][1],
            rx, ry, GST_CUDA_BOX_BLUR_BORDER_SHRINK, NULL);
      }
}

/* Every border mode, on whole frames and on regions that touch the edges
 * or sit inside, with windows smaller and larger than the frame. */
static void
check_borders (GstCudaBoxBlurVariant variant, gint max_window)
{
  const gint sizes[][2] = { {1, 1}, {2, 3}, {37, 23}, {323, 241} };
  const gint radii[][2] = { {1, 1}, {3, 0}, {4, 4}, {40, 9}, {7, 2} };
  const GstVideoRectangle rois[] = { {0, 0, 5, 4}, {10, 5, 20, 12},
  {200, 180, 400, 400}
  };
  GstCudaBoxBlurBorder border;
  guint s, r, f, i;

  for (border = GST_CUDA_BOX_BLUR_BORDER_SHRINK;
      border <= GST_CUDA_BOX_BLUR_BORDER_CONSTANT; border++)
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (r = 0; r < G_N_ELEMENTS (radii); r++)
        for (f = 0; f < G_N_ELEMENTS (sample_formats); f++) {
          const gint w = sizes[s][0], h = sizes[s][1];
          const gint rx = radii[r][0], ry = radii[r][1];

          if ((2 * rx + 1) * (2 * ry + 1) > max_window
              || !runs_on (variant, f))
            continue;
          if (variant != GST_CUDA_BOX_BLUR_DIRECT
              && gst_cuda_box_blur_window_is_direct (rx, ry) && f == 2)
            continue;
          check_variant (variant, sample_formats[f], w, h, rx, ry, border,
              NULL);
          for (i = 0; i < G_N_ELEMENTS (rois); i++)
            if (rois[i].x < w && rois[i].y < h)
              check_variant (variant, sample_formats[f], w, h, rx, ry,
                  border, &rois[i]);
        }
}

GST_START_TEST (test_direct)
{
  /* the direct kernels take (2r+1)^2 reads a pixel: windows up to 15x15 */
  check_all_sizes (GST_CUDA_BOX_BLUR_DIRECT, 225);
}

GST_END_TEST;

GST_START_TEST (test_two_pass)
{
  check_all_sizes (GST_CUDA_BOX_BLUR_TWO_PASS, G_MAXINT);
}

GST_END_TEST;

GST_START_TEST (test_one_pass)
{
  check_all_sizes (GST_CUDA_BOX_BLUR_ONE_PASS, G_MAXINT);
}

GST_END_TEST;

GST_START_TEST (test_strips)
{
  check_all_sizes (GST_CUDA_BOX_BLUR_STRIPS, G_MAXINT);
}

GST_END_TEST;

/* Blocks of one sample up to the widest, narrower and wider than a
 * pixelate_* block's threads, on whole frames and on regions partly
 * outside the frame. */
GST_START_TEST (test_pixelate)
{
  const gint sizes[][2] = { {1, 1}, {3, 2}, {1, 517}, {517, 1}, {17, 13},
  {323, 241}, {4097, 7}, {5, 600}
  };
  const gint block_sizes[] = { 1, 2, 3, 16, 100, 128, 129, 200, 256 };
  const GstVideoRectangle roi = { 2, 1, 300, 250 };
  guint s, b, f;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (b = 0; b < G_N_ELEMENTS (block_sizes); b++)
      for (f = 0; f < G_N_ELEMENTS (sample_formats); f++) {
        const gint w = sizes[s][0], h = sizes[s][1], n = block_sizes[b];

        GST_INFO ("pixelate %dx%d %s blocks of %d", w, h, sample_formats[f],
            n);
        check_variant (GST_CUDA_BOX_BLUR_PIXELATE, sample_formats[f], w, h, n,
            n, GST_CUDA_BOX_BLUR_BORDER_SHRINK, NULL);
        if (roi.x < w && roi.y < h)
          check_variant (GST_CUDA_BOX_BLUR_PIXELATE, sample_formats[f], w, h,
              n, n, GST_CUDA_BOX_BLUR_BORDER_SHRINK, &roi);
      }
}

GST_END_TEST;

/* Frames of extremes (make_extreme()), every variant: the largest 16-bit
 * sums (511 x 511 windows of 65535) and means on either side of a half
 * through the reciprocal and its remainder correction, and float32 sums
 * sliding from samples of 10^6 into samples of 1; and the separable
 * passes on a 4K frame. */
static void
check_extreme (GstCudaBoxBlurVariant variant, const gchar * format, gint w,
    gint h, gint rx, gint ry)
{
  check_frame (variant, format, w, h, rx, ry, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
      NULL, TRUE, row_pad (format), FALSE);
}

GST_START_TEST (test_extremes)
{
  const gint sizes[][2] = { {17, 13}, {323, 241}, {1920, 1080} };
  const gint radii[][2] = { {1, 1}, {2, 2}, {7, 7}, {22, 22}, {30, 30},
  {127, 5}, {255, 255}
  };
  guint s, r, f;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (r = 0; r < G_N_ELEMENTS (radii); r++)
      for (f = 0; f < G_N_ELEMENTS (sample_formats); f++) {
        const gint w = sizes[s][0], h = sizes[s][1];
        const gint rx = radii[r][0], ry = radii[r][1];

        GST_INFO ("extremes %dx%d %s radius %d,%d", w, h, sample_formats[f],
            rx, ry);
        if ((2 * rx + 1) * (2 * ry + 1) <= 225)
          check_extreme (GST_CUDA_BOX_BLUR_DIRECT, sample_formats[f], w, h,
              rx, ry);
        if (!gst_cuda_box_blur_window_is_direct (rx, ry) || f != 2)
          check_extreme (GST_CUDA_BOX_BLUR_TWO_PASS, sample_formats[f], w,
              h, rx, ry);
        if (runs_on (GST_CUDA_BOX_BLUR_ONE_PASS, f)
            && (!gst_cuda_box_blur_window_is_direct (rx, ry) || f != 2))
          check_extreme (GST_CUDA_BOX_BLUR_ONE_PASS, sample_formats[f], w,
              h, rx, ry);
        if (runs_on (GST_CUDA_BOX_BLUR_STRIPS, f))
          check_extreme (GST_CUDA_BOX_BLUR_STRIPS, sample_formats[f], w, h,
              rx, ry);
        if (rx == ry && rx > 1)
          check_extreme (GST_CUDA_BOX_BLUR_PIXELATE, sample_formats[f], w,
              h, rx, ry);
      }

  /* a 4K frame, whose column pass has warps enough for runs of 32 rows
   * on a GPU of as many multiprocessors as the H200's, where the smaller
   * frames above take runs of 16 (the plan's column-run rule): float32
   * runs of 32 whose first window's core is added in plain parts; and
   * 8-bit, 16-bit and float32 tiles of the most columns */
  for (f = 0; f < G_N_ELEMENTS (sample_formats); f++) {
    GST_INFO ("extremes 3840x2160 %s radius 30", sample_formats[f]);
    check_extreme (GST_CUDA_BOX_BLUR_TWO_PASS, sample_formats[f], 3840, 2160,
        30, 30);
  }
  check_extreme (GST_CUDA_BOX_BLUR_ONE_PASS, "GRAY8", 3840, 2160, 7, 7);
  check_extreme (GST_CUDA_BOX_BLUR_STRIPS, "GRAY8", 3840, 2160, 1, 1);
  check_extreme (GST_CUDA_BOX_BLUR_STRIPS, "GRAY8", 3840, 2160, 7, 7);
  check_extreme (GST_CUDA_BOX_BLUR_ONE_PASS, "GRAY16_LE", 3840, 2160, 7, 7);
  check_extreme (GST_CUDA_BOX_BLUR_ONE_PASS, "GRAY32F", 3840, 2160, 7, 7);
}

GST_END_TEST;

/* Packed pixels of four or three 8-bit samples, blurred together
 * (gst_cuda_box_blur_plan_blur_pixels()): every variant and border mode,
 * whole frames and regions, alpha (or RGBx's padding byte) kept or
 * blurred, rows 4-byte aligned (pixels of four whole a load) or not (each
 * component on its own, but pixels of three still in the one pass),
 * extremes. */
GST_START_TEST (test_pixels)
{
  const gchar *const formats[] = { "RGBA", "BGRx", "AYUV", "ARGB", "RGB",
    "BGR"
  };
  const gint sizes[][2] = { {1, 1}, {3, 2}, {1, 517}, {517, 1}, {37, 23},
  {323, 241}
  };
  const gint radii[][2] = { {1, 1}, {3, 0}, {0, 4}, {2, 2}, {7, 7},
  {40, 9}, {5, 127}, {255, 255}
  };
  const GstVideoRectangle roi = { 10, 5, 300, 200 };
  GstCudaBoxBlurBorder border;
  guint f, s, r;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (r = 0; r < G_N_ELEMENTS (radii); r++) {
        const gint w = sizes[s][0], h = sizes[s][1];
        const gint rx = radii[r][0], ry = radii[r][1];
        const gboolean alpha = (s + r) % 2 == 0;
        const gboolean direct = gst_cuda_box_blur_window_is_direct (rx, ry);

        GST_INFO ("pixels %s %dx%d radius %d,%d", formats[f], w, h, rx, ry);
        for (border = GST_CUDA_BOX_BLUR_BORDER_SHRINK;
            border <= GST_CUDA_BOX_BLUR_BORDER_CONSTANT; border++) {
          if (direct)
            check_frame (GST_CUDA_BOX_BLUR_DIRECT, formats[f], w, h, rx, ry,
                border, NULL, FALSE, 4, alpha);
          check_frame (GST_CUDA_BOX_BLUR_SEPARABLE, formats[f], w, h, rx, ry,
              border, roi.x < w && roi.y < h ? &roi : NULL, FALSE, 4, alpha);
        }
        /* rows not 4-byte aligned */
        check_frame (GST_CUDA_BOX_BLUR_SEPARABLE, formats[f], w, h, rx, ry,
            GST_CUDA_BOX_BLUR_BORDER_SHRINK, NULL, FALSE, 1, alpha);
        check_frame (GST_CUDA_BOX_BLUR_SEPARABLE, formats[f], w, h, rx, ry,
            GST_CUDA_BOX_BLUR_BORDER_SHRINK, NULL, TRUE, 4, !alpha);
        if (direct)
          check_frame (GST_CUDA_BOX_BLUR_DIRECT, formats[f], w, h, rx, ry,
              GST_CUDA_BOX_BLUR_BORDER_SHRINK, NULL, TRUE, 4, !alpha);
        if (rx == ry && rx > 0) {
          check_frame (GST_CUDA_BOX_BLUR_PIXELATE, formats[f], w, h, rx, ry,
              GST_CUDA_BOX_BLUR_BORDER_SHRINK, roi.x < w
              && roi.y < h ? &roi : NULL, FALSE, 4, alpha);
          check_frame (GST_CUDA_BOX_BLUR_PIXELATE, formats[f], w, h, rx, ry,
              GST_CUDA_BOX_BLUR_BORDER_SHRINK, NULL, TRUE, 4, !alpha);
        }
      }
}

GST_END_TEST;

/* Planes of pairs (NV12's or P010's UV, @w x @h pixels of two 8-bit or
 * 16-bit samples of @format) in the one pass, both samples side by side
 * (gst_cuda_box_blur_plan_blur_pixels() with step 2 samples), of the
 * whole plane or with @edge > 0 of its last @edge columns: the frame's Y
 * plane is left alone, and its chroma must equal the CPU reference's blur
 * of U and V with the same window. */
static void
check_pairs (const gchar * format, gint w, gint h, gint rx, gint ry,
    GstCudaBoxBlurBorder border, gint edge)
{
  const GstVideoRectangle region = { w - edge, 0, edge, h };
  const GstCudaBoxBlurInfo info = test_info (format, 2 * w, 2 * h);
  const GstCudaBoxBlurComponent *u = &info.comp[1];
  GstBuffer *in = test_buffer_new (NULL, format, 2 * w, 2 * h, 0, w + rx);
  GstBuffer *out = gst_buffer_new_allocate (NULL, info.size, NULL);
  /* the border value as the settings give it (at P010's depth, in the high
   * bits: gst_cuda_box_blur_settings_pass_window()) */
  const gdouble border_value = 200.0;
  GstCudaBoxBlurWindow window = { rx, ry, border,
    border_value * (1 << u->shift)
  };
  GstCudaBoxBlurPlane src, dst;
  GstCudaBoxBlurSettings settings;
  GstCudaBoxBlurPlan *plan = gst_cuda_box_blur_plan_new (&device.target);
  GError *error = NULL;
  guint8 *mem;
  GstMapInfo map;

  fail_unless_equals_int (u->step, 2 * info.sample_size);
  fail_unless (cudaMalloc ((void **) &mem, 2 * info.size) == 0);
  fail_unless (gst_buffer_map (in, &map, GST_MAP_READ));
  fail_unless (cudaMemcpy (mem, map.data, info.size,
          cudaMemcpyHostToDevice) == 0);
  fail_unless (cudaMemcpy (mem + info.size, map.data, info.size,
          cudaMemcpyHostToDevice) == 0);
  gst_buffer_unmap (in, &map);

  src = (GstCudaBoxBlurPlane) {
  mem + info.offset[u->plane], u->width, u->height,
        info.stride[u->plane], u->step, u->shift};
  dst = src;
  dst.data += info.size;
  gst_cuda_box_blur_plan_reset (plan, info.type);
  gst_cuda_box_blur_plan_blur_pixels (plan, GST_CUDA_BOX_BLUR_ONE_PASS, &src,
      &dst, &window, edge > 0 ? &region : NULL, (1u << u->step) - 1);
  fail_unless (gst_cuda_box_blur_launcher_run (launcher, plan, NULL,
          &error), "%s", error ? error->message : "");
  fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_WRITE));
  fail_unless (cudaMemcpy (map.data, mem + info.size, info.size,
          cudaMemcpyDeviceToHost) == 0);
  gst_buffer_unmap (out, &map);

  gst_cuda_box_blur_settings_init (&settings);
  settings.planes = GST_CUDA_BOX_BLUR_PLANE_U | GST_CUDA_BOX_BLUR_PLANE_V;
  settings.chroma_radius_x = rx;
  settings.chroma_radius_y = ry;
  settings.border = border;
  settings.border_value = border_value;
  if (edge > 0)
    settings.roi = (GstVideoRectangle) {
    2 * region.x, 0, 2 * edge, 2 * h};
  test_assert_output (in, out, format, 2 * w, 2 * h, &settings);

  cudaFree (mem);
  gst_cuda_box_blur_plan_free (plan);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

/* Pairs in the one pass, 8-bit (NV12's) and 16-bit (P010's, 10 bits in
 * the high ones): sizes from one pixel, windows wider than the frame,
 * every border mode (wrap around the sides takes each sample's two
 * passes). */
GST_START_TEST (test_one_pass_pairs)
{
  const gchar *const formats[] = { "NV12", "P010_10LE" };
  const gint sizes[][2] = { {1, 1}, {3, 2}, {1, 517}, {517, 1}, {37, 23},
  {323, 241}, {960, 540}
  };
  const gint radii[][2] = { {2, 2}, {7, 7}, {15, 3}, {3, 15}, {40, 9},
  {22, 22}
  };
  GstCudaBoxBlurBorder border;
  guint f, s, r;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (border = GST_CUDA_BOX_BLUR_BORDER_SHRINK;
        border <= GST_CUDA_BOX_BLUR_BORDER_CONSTANT; border++)
      for (s = 0; s < G_N_ELEMENTS (sizes); s++)
        for (r = 0; r < G_N_ELEMENTS (radii); r++) {
          GST_INFO ("%s pairs %dx%d radius %d,%d border %d", formats[f],
              sizes[s][0], sizes[s][1], radii[r][0], radii[r][1], border);
          check_pairs (formats[f], sizes[s][0], sizes[s][1], radii[r][0],
              radii[r][1], border, 0);
        }
    /* a last tile near the right edge under a mirror
     * (test_one_pass_borders) */
    check_pairs (formats[f], 964, 540, 4, 4, GST_CUDA_BOX_BLUR_BORDER_MIRROR,
        0);
  }
}

GST_END_TEST;

/* Pixels of three (RGB) and four (RGBA ...) in the one pass, their
 * samples side by side: sizes from one pixel, windows wider than the frame
 * and up to the one pass's widest (5 x 63 for pixels of four: the largest
 * column sums their lanes take two at a time), every border mode (wrap
 * around the sides takes the two passes), alpha kept or blurred, rows not
 * 4-byte aligned (pixels of four then take each component's two passes),
 * extremes; and regions of one to five pixels at the right edge under a
 * mirror, whose lanes' reads past their last sample it folds back the
 * furthest before the tile (8-bit and 16-bit pairs, 8-bit, 16-bit and
 * float32 samples too). */
GST_START_TEST (test_one_pass_pixels)
{
  const gchar *const formats[] = { "RGB", "BGR", "RGBA", "BGRx", "AYUV",
    "ARGB"
  };
  const gint sizes[][2] = { {1, 1}, {3, 2}, {1, 517}, {517, 1}, {37, 23},
  {323, 241}, {964, 540}
  };
  const gint radii[][2] = { {1, 1}, {2, 2}, {7, 7}, {15, 3}, {3, 15},
  {40, 9}, {22, 22}, {2, 31}
  };
  const gchar *const edge_formats[] = { "RGB", "RGBA", "GRAY8", "GRAY16_LE",
    "GRAY32F"
  };
  GstCudaBoxBlurBorder border;
  guint f, s, r;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (r = 0; r < G_N_ELEMENTS (radii); r++) {
        const gint w = sizes[s][0], h = sizes[s][1];
        const gint rx = radii[r][0], ry = radii[r][1];
        const gboolean alpha = (s + r) % 2 == 0;

        GST_INFO ("one pass %s %dx%d radius %d,%d", formats[f], w, h, rx, ry);
        for (border = GST_CUDA_BOX_BLUR_BORDER_SHRINK;
            border <= GST_CUDA_BOX_BLUR_BORDER_CONSTANT; border++)
          check_frame (GST_CUDA_BOX_BLUR_ONE_PASS, formats[f], w, h, rx, ry,
              border, NULL, FALSE, 4, alpha);
        check_frame (GST_CUDA_BOX_BLUR_ONE_PASS, formats[f], w, h, rx, ry,
            GST_CUDA_BOX_BLUR_BORDER_SHRINK, NULL, FALSE, 1, alpha);
        check_frame (GST_CUDA_BOX_BLUR_ONE_PASS, formats[f], w, h, rx, ry,
            GST_CUDA_BOX_BLUR_BORDER_SHRINK, NULL, TRUE, 4, !alpha);
      }

  for (f = 0; f < G_N_ELEMENTS (edge_formats); f++)
    for (s = 1; s <= 5; s += 2) {
      const GstVideoRectangle edge = { 323 - s, 0, s, 64 };

      check_frame (GST_CUDA_BOX_BLUR_ONE_PASS, edge_formats[f], 323, 64, 3,
          2, GST_CUDA_BOX_BLUR_BORDER_MIRROR, &edge, FALSE, 4, FALSE);
    }
  for (s = 1; s <= 5; s += 2) {
    check_pairs ("NV12", 323, 64, 3, 2, GST_CUDA_BOX_BLUR_BORDER_MIRROR, s);
    check_pairs ("P010_10LE", 323, 64, 3, 2, GST_CUDA_BOX_BLUR_BORDER_MIRROR,
        s);
  }
}

GST_END_TEST;

GST_START_TEST (test_direct_borders)
{
  check_borders (GST_CUDA_BOX_BLUR_DIRECT, 81);
}

GST_END_TEST;

GST_START_TEST (test_two_pass_borders)
{
  check_borders (GST_CUDA_BOX_BLUR_TWO_PASS, G_MAXINT);
}

GST_END_TEST;

GST_START_TEST (test_one_pass_borders)
{
  /* a last tile within a few samples of the right edge, whose lanes'
   * reads past their last sample a mirror folds back to before the
   * tile's first column (on a GPU of the H200's 132 multiprocessors,
   * which sets the tiles' width) */
  const GstVideoRectangle edge = { 1912, 0, 8, 64 };

  const gchar *const formats[] = { "GRAY8", "GRAY16_LE", "GRAY32F" };
  guint f;

  check_borders (GST_CUDA_BOX_BLUR_ONE_PASS, G_MAXINT);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    check_variant (GST_CUDA_BOX_BLUR_ONE_PASS, formats[f], 1030, 64, 5, 5,
        GST_CUDA_BOX_BLUR_BORDER_MIRROR, NULL);
    check_variant (GST_CUDA_BOX_BLUR_ONE_PASS, formats[f], 3848, 2160, 15,
        15, GST_CUDA_BOX_BLUR_BORDER_MIRROR, NULL);
    check_variant (GST_CUDA_BOX_BLUR_ONE_PASS, formats[f], 1920, 64, 5, 5,
        GST_CUDA_BOX_BLUR_BORDER_MIRROR, &edge);
  }
}

GST_END_TEST;

/* The strip walker's edges: regions that start and end inside a lane's
 * word, narrower than a word, wider than a strip, and a strip that ends
 * past the frame's right edge, with windows one word and two words a lane
 * wide, in every border mode. */
GST_START_TEST (test_strips_borders)
{
  const GstVideoRectangle rois[] = { {1, 3, 2, 5}, {119, 1, 3, 2},
  {121, 0, 240, 64}, {5, 7, 362, 57}
  };
  const gint radii[] = { 1, 4, 5, 8 };
  GstCudaBoxBlurBorder border;
  guint i, r;

  check_borders (GST_CUDA_BOX_BLUR_STRIPS, G_MAXINT);
  for (border = GST_CUDA_BOX_BLUR_BORDER_SHRINK;
      border <= GST_CUDA_BOX_BLUR_BORDER_CONSTANT; border++)
    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      check_variant (GST_CUDA_BOX_BLUR_STRIPS, "GRAY8", 367, 64, radii[r],
          3, border, NULL);
      for (i = 0; i < G_N_ELEMENTS (rois); i++)
        check_variant (GST_CUDA_BOX_BLUR_STRIPS, "GRAY8", 367, 64,
            radii[r], 3, border, &rois[i]);
    }
}

GST_END_TEST;

static Suite *
kernels_suite (void)
{
  Suite *s = suite_create ("kernels");
  TCase *tc = tcase_create ("variants");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_direct);
  tcase_add_test (tc, test_two_pass);
  tcase_add_test (tc, test_one_pass);
  tcase_add_test (tc, test_strips);
  tcase_add_test (tc, test_strips_borders);
  tcase_add_test (tc, test_direct_borders);
  tcase_add_test (tc, test_two_pass_borders);
  tcase_add_test (tc, test_one_pass_borders);
  tcase_add_test (tc, test_one_pass_pairs);
  tcase_add_test (tc, test_one_pass_pixels);
  tcase_add_test (tc, test_pixelate);
  tcase_add_test (tc, test_extremes);
  tcase_add_test (tc, test_pixels);
  return s;
}

/* The launcher every test uses, of the program for device 0. */
static void
kernels_setup (void)
{
  const GstCudaBoxBlurProgram *program;
  GError *error = NULL;

  if (!gst_cuda_box_blur_device_open (0, &device, &error)
      || !(program = gst_cuda_box_blur_program_get (device.major,
              device.minor, &error)))
    g_error ("%s", error->message);
  launcher = gst_cuda_box_blur_launcher_new (program, NULL);
}

static void
kernels_teardown (void)
{
  gst_cuda_box_blur_launcher_free (launcher);
}

static const TestGpuNeeds needs = {
  .setup = kernels_setup,
  .teardown = kernels_teardown,
};

TEST_GPU_CHECK_MAIN ("kernels", kernels_suite, &needs);
