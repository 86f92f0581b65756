/* cudaboxblur: the CPU reference's blurs against hand-computed windows
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>
#include <math.h>
#include <string.h>

#include "boxblur-ref.h"
#include "cudaboxblur-params.h"
#include "testutils.h"

static const GstCudaBoxBlurBorder borders[] = {
  GST_CUDA_BOX_BLUR_BORDER_SHRINK, GST_CUDA_BOX_BLUR_BORDER_CLAMP,
  GST_CUDA_BOX_BLUR_BORDER_MIRROR, GST_CUDA_BOX_BLUR_BORDER_WRAP,
  GST_CUDA_BOX_BLUR_BORDER_CONSTANT,
};

static GstCudaBoxBlurPlane
plane_new (gpointer data, gint width, gint height, gint stride, gint step)
{
  GstCudaBoxBlurPlane p = { data, width, height, stride, step };
  return p;
}

static GstCudaBoxBlurWindow
window_new (gint rx, gint ry, GstCudaBoxBlurBorder border, gdouble value)
{
  GstCudaBoxBlurWindow w = { rx, ry, border, value };
  return w;
}

/* The direct loops over a tight GRAY8 frame in @border mode. */
static void
ref_gray8 (const guint8 * src, gint width, gint height, gint rx, gint ry,
    GstCudaBoxBlurBorder border, gdouble value, guint8 * out)
{
  GstCudaBoxBlurPlane in = plane_new ((gpointer) src, width, height, width, 1);
  GstCudaBoxBlurPlane o = plane_new (out, width, height, width, 1);
  GstCudaBoxBlurWindow w = window_new (rx, ry, border, value);

  box_blur_ref_plane (GST_CUDA_BOX_BLUR_U8, &in, &o, &w, NULL);
}

static void
assert_gray8_mode (const guint8 * src, gint width, gint height, gint rx,
    gint ry, GstCudaBoxBlurBorder border, gdouble value,
    const guint8 * expected)
{
  guint8 *out = g_malloc0 (width * height);
  gint i;

  ref_gray8 (src, width, height, rx, ry, border, value, out);
  for (i = 0; i < width * height; i++)
    fail_unless (out[i] == expected[i], "border %d, pixel %d is %u, expected "
        "%u", border, i, out[i], expected[i]);
  g_free (out);
}

static void
assert_gray8 (const guint8 * src, gint width, gint height, gint rx, gint ry,
    const guint8 * expected)
{
  assert_gray8_mode (src, width, height, rx, ry,
      GST_CUDA_BOX_BLUR_BORDER_SHRINK, 0, expected);
}

static void
assert_gray32f (const gfloat * src, gint width, gint height, gint rx, gint ry,
    const gfloat * expected)
{
  gfloat *out = g_new0 (gfloat, width * height);
  GstCudaBoxBlurPlane in = plane_new ((gpointer) src, width, height,
      width * 4, 4);
  GstCudaBoxBlurPlane o = plane_new (out, width, height, width * 4, 4);
  GstCudaBoxBlurWindow w = window_new (rx, ry,
      GST_CUDA_BOX_BLUR_BORDER_SHRINK, 0);
  gint i;

  box_blur_ref_plane (GST_CUDA_BOX_BLUR_F32, &in, &o, &w, NULL);
  for (i = 0; i < width * height; i++)
    fail_unless (memcmp (&out[i], &expected[i], 4) == 0,
        "pixel %d is %.9g, expected %.9g", i, out[i], expected[i]);
  g_free (out);
}

/* Corners average 4 pixels, edges 6, the centre 9; halves round up. */
GST_START_TEST (test_gray8_3x3_borders)
{
  const guint8 src[] = {
    1, 2, 3,
    4, 5, 6,
    7, 8, 9,
  };
  const guint8 expected[] = {
    3 /* 12/4 */ , 4 /* 21/6 = 3.5 */ , 4 /* 16/4 */ ,
    5 /* 27/6 = 4.5 */ , 5 /* 45/9 */ , 6 /* 33/6 = 5.5 */ ,
    6 /* 24/4 */ , 7 /* 39/6 = 6.5 */ , 7 /* 28/4 */ ,
  };

  assert_gray8 (src, 3, 3, 1, 1, expected);
}

GST_END_TEST;

GST_START_TEST (test_gray8_rounding)
{
  const guint8 src[] = { 0, 1, 255, 254 };
  /* (0+1)/2 = 0.5 -> 1, (0+1+255)/3 = 85.33 -> 85, (1+255+254)/3 = 170,
   * (255+254)/2 = 254.5 -> 255 */
  const guint8 expected[] = { 1, 85, 170, 255 };

  assert_gray8 (src, 4, 1, 1, 0, expected);
}

GST_END_TEST;

GST_START_TEST (test_gray8_1x1)
{
  const guint8 src[] = { 77 };

  assert_gray8 (src, 1, 1, 0, 0, src);
  assert_gray8 (src, 1, 1, 1, 1, src);
  assert_gray8 (src, 1, 1, 255, 255, src);
}

GST_END_TEST;

GST_START_TEST (test_gray8_row_and_column)
{
  const guint8 src[] = { 0, 10, 20, 30, 40 };
  const guint8 r1[] = { 5, 10, 20, 30, 35 };
  /* radius 2: 30/3, 60/4, 100/5, 100/4, 90/3 */
  const guint8 r2[] = { 10, 15, 20, 25, 30 };

  /* 1xN and Nx1 give the same numbers; the radius across the single pixel
   * direction changes nothing. */
  assert_gray8 (src, 5, 1, 1, 1, r1);
  assert_gray8 (src, 1, 5, 1, 1, r1);
  assert_gray8 (src, 5, 1, 2, 7, r2);
  assert_gray8 (src, 1, 5, 7, 2, r2);
  /* radius along the line only */
  assert_gray8 (src, 5, 1, 0, 3, src);
}

GST_END_TEST;

GST_START_TEST (test_gray8_window_larger_than_image)
{
  const guint8 src[] = { 1, 2, 3, 4, 5, 6 };
  const guint8 expected[] = { 4, 4, 4, 4, 4, 4 };   /* 21/6 = 3.5 */

  assert_gray8 (src, 3, 2, 5, 5, expected);
}

GST_END_TEST;

/* Odd size with padded rows: the padding must never be read. */
GST_START_TEST (test_gray8_odd_size_strided)
{
  const gint w = 5, h = 3, stride = 8;
  guint8 src[3 * 8], tight[5 * 3], out[3 * 8], out_tight[5 * 3];
  gint x, y;

  memset (src, 0xff, sizeof (src));
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      tight[y * w + x] = src[y * stride + x] = (guint8) (x * 7 + y * 31);

  memset (out, 0xaa, sizeof (out));
  {
    GstCudaBoxBlurPlane in = plane_new (src, w, h, stride, 1);
    GstCudaBoxBlurPlane o = plane_new (out, w, h, stride, 1);
    GstCudaBoxBlurWindow win = window_new (2, 1,
        GST_CUDA_BOX_BLUR_BORDER_SHRINK, 0);

    box_blur_ref_plane (GST_CUDA_BOX_BLUR_U8, &in, &o, &win, NULL);
  }
  ref_gray8 (tight, w, h, 2, 1, GST_CUDA_BOX_BLUR_BORDER_SHRINK, 0,
      out_tight);
  for (y = 0; y < h; y++) {
    fail_unless (memcmp (out + y * stride, out_tight + y * w, w) == 0);
    /* and the output padding is left alone */
    for (x = w; x < stride; x++)
      fail_unless_equals_int_hex (out[y * stride + x], 0xaa);
  }

  /* top-left: rows 0..1, columns 0..2 */
  fail_unless_equals_int (out[0], (0 + 7 + 14 + 31 + 38 + 45 + 3) / 6);
}

GST_END_TEST;

GST_START_TEST (test_gray32f_3x3_sample_order)
{
  const gfloat src[] = {
    0.1f, 0.2f, 0.3f,
    0.4f, 0.5f, 0.6f,
    0.7f, 0.8f, 0.9f,
  };
  /* float sums in window order: rows outer, columns inner */
  const gfloat expected[] = {
    (((0.1f + 0.2f) + 0.4f) + 0.5f) / 4.0f,
    (((((0.1f + 0.2f) + 0.3f) + 0.4f) + 0.5f) + 0.6f) / 6.0f,
    (((0.2f + 0.3f) + 0.5f) + 0.6f) / 4.0f,
    (((((0.1f + 0.2f) + 0.4f) + 0.5f) + 0.7f) + 0.8f) / 6.0f,
    ((((((((0.1f + 0.2f) + 0.3f) + 0.4f) + 0.5f) + 0.6f) + 0.7f) + 0.8f) +
        0.9f) / 9.0f,
    (((((0.2f + 0.3f) + 0.5f) + 0.6f) + 0.8f) + 0.9f) / 6.0f,
    (((0.4f + 0.5f) + 0.7f) + 0.8f) / 4.0f,
    (((((0.4f + 0.5f) + 0.6f) + 0.7f) + 0.8f) + 0.9f) / 6.0f,
    (((0.5f + 0.6f) + 0.8f) + 0.9f) / 4.0f,
  };

  assert_gray32f (src, 3, 3, 1, 1, expected);
}

GST_END_TEST;

GST_START_TEST (test_gray32f_order_matters)
{
  /* 1e8 + 1 - 1e8 is 0 in float when summed left to right: a reference that
   * summed in another order (or in double) would give 1/3. */
  const gfloat src[] = { 1e8f, 1.0f, -1e8f };
  const gfloat expected[] = {
    (1e8f + 1.0f) / 2.0f,
    ((1e8f + 1.0f) + -1e8f) / 3.0f,
    (1.0f + -1e8f) / 2.0f,
  };

  fail_unless (expected[1] == 0.0f);
  assert_gray32f (src, 3, 1, 1, 0, expected);
  assert_gray32f (src, 1, 3, 0, 1, expected);
}

GST_END_TEST;

GST_START_TEST (test_gray32f_1x1)
{
  const gfloat src[] = { -3.25f };

  assert_gray32f (src, 1, 1, 7, 7, src);
}

GST_END_TEST;

static void
fill_random (guint8 * data, gsize size, guint32 seed)
{
  gsize i;

  for (i = 0; i < size; i++) {
    seed = seed * 1664525u + 1013904223u;
    data[i] = seed >> 24;
  }
}

/* Each border mode on a line of 10, 20, 40 with a 3-pixel window, worked
 * out by hand (halves round up). */
GST_START_TEST (test_border_modes)
{
  const guint8 src[] = { 10, 20, 40 };
  /* 30/2, 70/3, 60/2 */
  const guint8 shrink[] = { 15, 23, 30 };
  /* (10+10+20)/3, 70/3, (20+40+40)/3 */
  const guint8 clamp[] = { 13, 23, 33 };
  /* (20+10+20)/3, 70/3, (20+40+20)/3 */
  const guint8 mirror[] = { 17, 23, 27 };
  /* (40+10+20)/3, 70/3, (20+40+10)/3 */
  const guint8 wrap[] = { 23, 23, 23 };
  /* (100+10+20)/3, 70/3, (20+40+100)/3 */
  const guint8 constant[] = { 43, 23, 53 };

  assert_gray8_mode (src, 3, 1, 1, 0, GST_CUDA_BOX_BLUR_BORDER_SHRINK, 0,
      shrink);
  assert_gray8_mode (src, 3, 1, 1, 0, GST_CUDA_BOX_BLUR_BORDER_CLAMP, 0,
      clamp);
  assert_gray8_mode (src, 3, 1, 1, 0, GST_CUDA_BOX_BLUR_BORDER_MIRROR, 0,
      mirror);
  assert_gray8_mode (src, 3, 1, 1, 0, GST_CUDA_BOX_BLUR_BORDER_WRAP, 0,
      wrap);
  assert_gray8_mode (src, 3, 1, 1, 0, GST_CUDA_BOX_BLUR_BORDER_CONSTANT, 100,
      constant);
  /* the same down a column */
  assert_gray8_mode (src, 1, 3, 0, 1, GST_CUDA_BOX_BLUR_BORDER_MIRROR, 0,
      mirror);
  assert_gray8_mode (src, 1, 3, 0, 1, GST_CUDA_BOX_BLUR_BORDER_CONSTANT, 100,
      constant);
}

GST_END_TEST;

/* Windows wider than the frame reflect and wrap more than once; the
 * constant border counts in both directions. */
GST_START_TEST (test_border_modes_wide_windows)
{
  const guint8 two[] = { 0, 90 };
  /* positions -2..2 read 0 90 0 90 0, and -1..3 read 90 0 90 0 90 */
  const guint8 reflected[] = { 36, 54 };
  const guint8 one[] = { 50 };
  /* 50 and eight border pixels of 0: 50/9 */
  const guint8 boxed[] = { 6 };
  /* 300 out of range rounds to 255: (50 + 8 * 255) / 9 = 232.2 */
  const guint8 boxed_high[] = { 232 };

  assert_gray8_mode (two, 2, 1, 2, 0, GST_CUDA_BOX_BLUR_BORDER_MIRROR, 0,
      reflected);
  assert_gray8_mode (two, 2, 1, 2, 0, GST_CUDA_BOX_BLUR_BORDER_WRAP, 0,
      reflected);
  assert_gray8_mode (one, 1, 1, 1, 1, GST_CUDA_BOX_BLUR_BORDER_CONSTANT, 0,
      boxed);
  assert_gray8_mode (one, 1, 1, 1, 1, GST_CUDA_BOX_BLUR_BORDER_CONSTANT, 300,
      boxed_high);
  assert_gray8_mode (one, 1, 1, 9, 9, GST_CUDA_BOX_BLUR_BORDER_CLAMP, 0, one);
  assert_gray8_mode (one, 1, 1, 9, 9, GST_CUDA_BOX_BLUR_BORDER_MIRROR, 0,
      one);
}

GST_END_TEST;

/* Blurs a row of four 16-bit words whose samples are @shift bits up with
 * a 3x1 window that shrinks at the edges, directly and through the
 * summed-area tables, and checks that both give @expected. */
static void
check_u16_row (const guint16 src[4], gint shift, const guint16 expected[4])
{
  guint16 out[4];
  GstCudaBoxBlurPlane in = plane_new ((gpointer) src, 4, 1, 8, 2);
  GstCudaBoxBlurPlane o = plane_new (out, 4, 1, 8, 2);
  GstCudaBoxBlurWindow w = window_new (1, 0,
      GST_CUDA_BOX_BLUR_BORDER_SHRINK, 0);
  gint i;

  in.shift = o.shift = shift;
  box_blur_ref_plane (GST_CUDA_BOX_BLUR_U16, &in, &o, &w, NULL);
  for (i = 0; i < 4; i++)
    fail_unless_equals_int (out[i], expected[i]);
  box_blur_sat_plane (GST_CUDA_BOX_BLUR_U16, &in, &o, &w, NULL);
  for (i = 0; i < 4; i++)
    fail_unless_equals_int (out[i], expected[i]);
}

/* 16-bit samples: exact means of values beyond 8 bits, rounded half up. */
GST_START_TEST (test_gray16)
{
  const guint16 src[] = { 65535, 65534, 1000, 1 };
  /* 131069/2 = 65534.5, 131069+1000 = 132069/3 = 44023, 66535/3 = 22178.3,
   * 1001/2 = 500.5 */
  const guint16 expected[] = { 65535, 44023, 22178, 501 };

  check_u16_row (src, 0, expected);
}

GST_END_TEST;

/* P010: 10-bit samples in the high bits of 16-bit words.  The mean is
 * rounded at 10 bits and stored back in the high bits, the low six zero,
 * where a mean of the words would keep low bits (words 64, 64, 128: 85). */
GST_START_TEST (test_high_bits)
{
  /* samples 1, 1, 2, 1023 */
  const guint16 src[] = { 1 << 6, 1 << 6, 2 << 6, 1023 << 6 };
  /* (1+1)/2 = 1, (1+1+2)/3 = 1.33, (1+2+1023)/3 = 342, (2+1023)/2 =
   * 512.5 */
  const guint16 expected[] = { 1 << 6, 1 << 6, 342 << 6, 513 << 6 };
  /* words whose low bits are set (no part of a P010 sample): their mean
   * rounds to one past 1023, which stays 1023 instead of wrapping to 0 */
  const guint16 ones[] = { 0xffff, 0xffff, 0xffff, 0xffff };
  const guint16 top[] = { 1023 << 6, 1023 << 6, 1023 << 6, 1023 << 6 };

  check_u16_row (src, 6, expected);
  check_u16_row (ones, 6, top);
}

GST_END_TEST;

/* A region is blurred exactly as in the whole frame, reading the real
 * pixels around it; the rest is left untouched. */
GST_START_TEST (test_region_reads_neighbours)
{
  const gint w = 6, h = 5;
  const GstVideoRectangle region = { 1, 2, 3, 2 };
  guint8 src[6 * 5], whole[6 * 5], out[6 * 5];
  GstCudaBoxBlurPlane in = plane_new (src, w, h, w, 1);
  GstCudaBoxBlurPlane o = plane_new (out, w, h, w, 1);
  guint b;
  gint x, y;

  fill_random (src, sizeof (src), 3);
  for (b = 0; b < G_N_ELEMENTS (borders); b++) {
    GstCudaBoxBlurWindow win = window_new (2, 1, borders[b], 9);

    ref_gray8 (src, w, h, 2, 1, borders[b], 9, whole);
    memcpy (out, src, sizeof (src));
    box_blur_ref_plane (GST_CUDA_BOX_BLUR_U8, &in, &o, &win, &region);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        gboolean inside = x >= 1 && x < 4 && y >= 2 && y < 4;
        fail_unless_equals_int (out[y * w + x], inside ? whole[y * w + x] :
            src[y * w + x]);
      }
    /* and the same from the summed-area tables */
    memcpy (out, src, sizeof (src));
    box_blur_sat_plane (GST_CUDA_BOX_BLUR_U8, &in, &o, &win, &region);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        gboolean inside = x >= 1 && x < 4 && y >= 2 && y < 4;
        fail_unless_equals_int (out[y * w + x], inside ? whole[y * w + x] :
            src[y * w + x]);
      }
  }
}

GST_END_TEST;

/* The summed-area tables agree with the direct loops in every border mode:
 * exactly for integer samples, and for float to the rounding of the float
 * sums. */
GST_START_TEST (test_sat_matches_direct)
{
  const gint w = 37, h = 23, radii[][2] = { {0, 0}, {1, 1}, {3, 2},
  {0, 5}, {7, 0}, {20, 30}, {40, 3}
  };
  guint8 *src8 = g_malloc (w * h), *a = g_malloc (w * h), *b = g_malloc (w * h);
  guint16 *src16 = g_new (guint16, w * h), *a16 = g_new (guint16, w * h);
  guint16 *b16 = g_new (guint16, w * h);
  gfloat *srcf = g_new (gfloat, w * h), *af = g_new (gfloat, w * h);
  gfloat *bf = g_new (gfloat, w * h), *absf = g_new (gfloat, w * h);
  gfloat *scale = g_new (gfloat, w * h);
  GstCudaBoxBlurPlane p8 = plane_new (src8, w, h, w, 1);
  GstCudaBoxBlurPlane a8 = plane_new (a, w, h, w, 1);
  GstCudaBoxBlurPlane b8 = plane_new (b, w, h, w, 1);
  GstCudaBoxBlurPlane p16 = plane_new (src16, w, h, w * 2, 2);
  GstCudaBoxBlurPlane pa16 = plane_new (a16, w, h, w * 2, 2);
  GstCudaBoxBlurPlane pb16 = plane_new (b16, w, h, w * 2, 2);
  GstCudaBoxBlurPlane pf = plane_new (srcf, w, h, w * 4, 4);
  GstCudaBoxBlurPlane paf = plane_new (af, w, h, w * 4, 4);
  GstCudaBoxBlurPlane pbf = plane_new (bf, w, h, w * 4, 4);
  GstCudaBoxBlurPlane pabs = plane_new (absf, w, h, w * 4, 4);
  GstCudaBoxBlurPlane pscale = plane_new (scale, w, h, w * 4, 4);
  guint r, m;
  gint i;

  fill_random (src8, w * h, 7);
  for (i = 0; i < w * h; i++) {
    srcf[i] = (src8[i] - 128) / 7.0f;
    absf[i] = fabsf (srcf[i]);
    src16[i] = src8[i] * 257 + (i & 255);
  }

  for (m = 0; m < G_N_ELEMENTS (borders); m++) {
    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      GstCudaBoxBlurWindow win = window_new (radii[r][0], radii[r][1],
          borders[m], 77.5);

      box_blur_ref_plane (GST_CUDA_BOX_BLUR_U8, &p8, &a8, &win, NULL);
      box_blur_sat_plane (GST_CUDA_BOX_BLUR_U8, &p8, &b8, &win, NULL);
      fail_unless (memcmp (a, b, w * h) == 0, "border %d radius %d,%d", m,
          radii[r][0], radii[r][1]);

      box_blur_ref_plane (GST_CUDA_BOX_BLUR_U16, &p16, &pa16, &win, NULL);
      box_blur_sat_plane (GST_CUDA_BOX_BLUR_U16, &p16, &pb16, &win, NULL);
      fail_unless (memcmp (a16, b16, w * h * 2) == 0,
          "border %d radius %d,%d", m, radii[r][0], radii[r][1]);

      box_blur_ref_plane (GST_CUDA_BOX_BLUR_F32, &pf, &paf, &win, NULL);
      box_blur_sat_plane (GST_CUDA_BOX_BLUR_F32, &pf, &pbf, &win, NULL);
      box_blur_sat_plane (GST_CUDA_BOX_BLUR_F32, &pabs, &pscale, &win, NULL);
      for (i = 0; i < w * h; i++)
        fail_unless (fabs (af[i] - bf[i]) <= 1e-5 * (scale[i] + 77.5),
            "border %d radius %d,%d pixel %d: %.9g vs %.9g", m, radii[r][0],
            radii[r][1], i, af[i], bf[i]);
    }
  }

  g_free (src8);
  g_free (a);
  g_free (b);
  g_free (src16);
  g_free (a16);
  g_free (b16);
  g_free (srcf);
  g_free (af);
  g_free (bf);
  g_free (absf);
  g_free (scale);
}

GST_END_TEST;

/* Passes chain: two passes of radius 1 over 0 0 90 0 0 give 0 30 30 30 0,
 * then 15 20 30 20 15. */
GST_START_TEST (test_passes)
{
  GstCudaBoxBlurInfo info = test_info ("GRAY8", 5, 1);
  guint8 src[8] = { 0, 0, 90, 0, 0 }, out[8];
  const guint8 expected[] = { 15, 20, 30, 20, 15 };
  const GstVideoRectangle whole = { 0, 0, 5, 1 };
  GstCudaBoxBlurSettings settings;
  GstCudaBoxBlurFrame in, o;
  gint i;

  gst_cuda_box_blur_settings_init (&settings);
  settings.radius_y = 0;
  settings.passes = 2;
  gst_cuda_box_blur_frame_from_data (&in, &info, src);
  gst_cuda_box_blur_frame_from_data (&o, &info, out);
  box_blur_ref_frame (&info, &settings, &in, &o, &whole, 1, NULL);
  for (i = 0; i < 5; i++)
    fail_unless_equals_int (out[i], expected[i]);
}

GST_END_TEST;

/* Chroma takes the luma radius over the subsampling, rounded up, unless
 * told otherwise; alpha and unselected planes are left alone. */
GST_START_TEST (test_component_windows)
{
  GstCudaBoxBlurInfo i420 = test_info ("I420", 64, 48);
  GstCudaBoxBlurInfo y444 = test_info ("Y444", 64, 48);
  GstCudaBoxBlurInfo argb = test_info ("ARGB", 64, 48);
  GstCudaBoxBlurInfo rgbx = test_info ("RGBx", 64, 48);
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurWindow w;

  gst_cuda_box_blur_settings_init (&s);
  s.radius_x = 5;
  s.radius_y = 2;
  fail_unless (gst_cuda_box_blur_settings_window (&s, &i420, 0, &w));
  fail_unless (w.radius_x == 5 && w.radius_y == 2);
  fail_unless (gst_cuda_box_blur_settings_window (&s, &i420, 1, &w));
  fail_unless (w.radius_x == 3 && w.radius_y == 1);
  fail_unless (gst_cuda_box_blur_settings_window (&s, &y444, 2, &w));
  fail_unless (w.radius_x == 5 && w.radius_y == 2);
  s.radius_x = s.radius_y = 1;
  fail_unless (gst_cuda_box_blur_settings_window (&s, &i420, 2, &w));
  fail_unless (w.radius_x == 1 && w.radius_y == 1);

  s.chroma_radius_x = 0;
  s.chroma_radius_y = 7;
  fail_unless (gst_cuda_box_blur_settings_window (&s, &i420, 1, &w));
  fail_unless (w.radius_x == 0 && w.radius_y == 7);
  s.chroma_radius_y = 0;
  fail_if (gst_cuda_box_blur_settings_window (&s, &i420, 1, &w));

  /* ARGB: alpha is component 3, kept unless blur-alpha */
  fail_unless_equals_int (argb.comp[3].kind, GST_CUDA_BOX_BLUR_ALPHA);
  fail_unless_equals_int (argb.comp[3].offset, 0);
  fail_unless_equals_int (argb.comp[0].offset, 1);
  fail_if (gst_cuda_box_blur_settings_window (&s, &argb, 3, &w));
  s.blur_alpha = TRUE;
  fail_unless (gst_cuda_box_blur_settings_window (&s, &argb, 3, &w));
  fail_unless (argb.has_padding == FALSE && rgbx.has_padding == TRUE);

  s.planes = GST_CUDA_BOX_BLUR_PLANE_Y;
  fail_unless (gst_cuda_box_blur_settings_blurs_nothing (&s, &rgbx));
  fail_if (gst_cuda_box_blur_settings_blurs_nothing (&s, &i420));
  s.planes = GST_CUDA_BOX_BLUR_PLANE_G;
  fail_if (gst_cuda_box_blur_settings_window (&s, &rgbx, 0, &w));
  fail_unless (gst_cuda_box_blur_settings_window (&s, &rgbx, 1, &w));
}

GST_END_TEST;

/* Packed 4:2:2: one plane of Y0 U Y1 V (YUY2), U Y0 V Y1 (UYVY) or
 * Y0 V Y1 U (YVYU); luma every 2 bytes, each chroma every 4 at half the
 * width, rounded up; no byte of a pixel pair is padding, but at an odd
 * width the last pair's second luma byte, which no pixel has. */
GST_START_TEST (test_packed_422_layout)
{
  static const struct
  {
    const gchar *format;
    gint y, u, v;                 /* offsets in the pair */
  } formats[] = {
    {"YUY2", 0, 1, 3}, {"UYVY", 1, 0, 2}, {"YVYU", 0, 3, 1},
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    const GstCudaBoxBlurInfo info = test_info (formats[f].format, 9, 5);
    const gint offsets[] = { formats[f].y, formats[f].u, formats[f].v };
    gint c;

    fail_unless_equals_int (info.n_planes, 1);
    fail_unless_equals_int (info.n_components, 3);
    fail_unless (info.has_padding, "%s", formats[f].format);
    fail_if (test_info (formats[f].format, 10, 5).has_padding, "%s",
        formats[f].format);
    /* 9 pixels take 5 pairs */
    fail_unless_equals_int (info.row_bytes[0], 20);
    for (c = 0; c < 3; c++) {
      fail_unless_equals_int (info.comp[c].plane, 0);
      fail_unless_equals_int (info.comp[c].offset, offsets[c]);
      fail_unless_equals_int (info.comp[c].step, c == 0 ? 2 : 4);
      fail_unless_equals_int (info.comp[c].width, c == 0 ? 9 : 5);
      fail_unless_equals_int (info.comp[c].height, 5);
      fail_unless_equals_int (info.comp[c].w_sub, c == 0 ? 0 : 1);
    }
  }
}

GST_END_TEST;

/* Regions: the static rectangle with 0 reaching the edge, metas filtered
 * by type and padded, everything clipped, and chroma rounded outwards. */
GST_START_TEST (test_regions)
{
  GstCudaBoxBlurInfo info = test_info ("NV12", 100, 60);
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GstBuffer *buf = gst_buffer_new ();
  const GstVideoRectangle face = { 7, 7, 26, 26 };
  GstCudaBoxBlurSettings s;
  GstVideoRectangle *r, chroma;

  gst_cuda_box_blur_settings_init (&s);
  fail_unless_equals_int (gst_cuda_box_blur_settings_regions (&s, &info, buf,
          regions), 1);
  r = &g_array_index (regions, GstVideoRectangle, 0);
  fail_unless (r->x == 0 && r->y == 0 && r->w == 100 && r->h == 60);

  s.roi.x = 90;
  s.roi.y = 10;
  s.roi.h = 70;
  fail_unless_equals_int (gst_cuda_box_blur_settings_regions (&s, &info, buf,
          regions), 1);
  r = &g_array_index (regions, GstVideoRectangle, 0);
  fail_unless (r->x == 90 && r->y == 10 && r->w == 10 && r->h == 50);
  s.roi.x = 100;
  fail_unless_equals_int (gst_cuda_box_blur_settings_regions (&s, &info, buf,
          regions), 0);

  gst_buffer_add_video_region_of_interest_meta (buf, "face", 10, 10, 20, 20);
  gst_buffer_add_video_region_of_interest_meta (buf, "plate", 95, 55, 20, 20);
  gst_buffer_add_video_region_of_interest_meta (buf, "face", 0, 58, 4, 1);
  s.roi_meta = TRUE;
  s.roi_padding = 3;
  fail_unless_equals_int (gst_cuda_box_blur_settings_regions (&s, &info, buf,
          regions), 3);
  r = &g_array_index (regions, GstVideoRectangle, 0);
  fail_unless (r->x == 7 && r->y == 7 && r->w == 26 && r->h == 26);
  r = &g_array_index (regions, GstVideoRectangle, 1);
  fail_unless (r->x == 92 && r->y == 52 && r->w == 8 && r->h == 8);
  r = &g_array_index (regions, GstVideoRectangle, 2);
  fail_unless (r->x == 0 && r->y == 55 && r->w == 7 && r->h == 5);

  fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (&s, "plate"));
  fail_unless_equals_int (gst_cuda_box_blur_settings_regions (&s, &info, buf,
          regions), 1);
  fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (&s, "tree"));
  fail_unless_equals_int (gst_cuda_box_blur_settings_regions (&s, &info, buf,
          regions), 0);
  /* a list, spaces and empty names aside */
  fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (&s,
          " tree, plate,,face "));
  fail_unless_equals_int (gst_cuda_box_blur_settings_regions (&s, &info, buf,
          regions), 3);
  fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (&s,
          "plate,tree"));
  fail_unless_equals_int (gst_cuda_box_blur_settings_regions (&s, &info, buf,
          regions), 1);
  r = &g_array_index (regions, GstVideoRectangle, 0);
  fail_unless (r->x == 92 && r->y == 52);
  fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (&s, ""));
  fail_unless_equals_int (gst_cuda_box_blur_settings_regions (&s, &info, buf,
          regions), 3);

  /* 7..33 x 7..33 in luma covers chroma samples 3..16 */
  gst_cuda_box_blur_region_for_component (&info, 1, &face, &chroma);
  fail_unless (chroma.x == 3 && chroma.y == 3 && chroma.w == 14
      && chroma.h == 14);
  gst_cuda_box_blur_region_for_component (&info, 0, &face, &chroma);
  fail_unless (chroma.x == 7 && chroma.w == 26);

  g_array_unref (regions);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* Every format: the reference blurs each selected component in place and
 * leaves the bytes of the others (alpha, padding) alone. */
GST_START_TEST (test_frame_components)
{
  static const gchar *formats[] = { "I420", "NV21", "RGBx", "ARGB", "AYUV",
    "BGR", "GRAY16_LE", "YUY2", "UYVY", "YVYU"
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstCudaBoxBlurInfo info = test_info (formats[f], 9, 7);
    guint8 *src = g_malloc (info.size), *out = g_malloc (info.size);
    guint8 *one = g_malloc0 (info.size);
    const GstVideoRectangle whole = { 0, 0, 9, 7 };
    GstCudaBoxBlurSettings s;
    GstCudaBoxBlurFrame in, o, single;
    gint c;

    fill_random (src, info.size, f);
    gst_cuda_box_blur_frame_from_data (&in, &info, src);
    gst_cuda_box_blur_frame_from_data (&o, &info, out);
    gst_cuda_box_blur_frame_from_data (&single, &info, one);
    gst_cuda_box_blur_settings_init (&s);
    s.radius_x = 2;
    box_blur_ref_frame (&info, &s, &in, &o, &whole, 1, NULL);

    for (c = 0; c < info.n_components; c++) {
      GstCudaBoxBlurPlane pin, pout, pone;
      GstCudaBoxBlurWindow w;
      gboolean blurred;
      gint x, y;

      gst_cuda_box_blur_frame_get_plane (&in, &info, c, &pin);
      gst_cuda_box_blur_frame_get_plane (&o, &info, c, &pout);
      gst_cuda_box_blur_frame_get_plane (&single, &info, c, &pone);
      blurred = gst_cuda_box_blur_settings_window (&s, &info, c, &w);
      if (blurred)
        box_blur_ref_plane (info.type, &pin, &pone, &w, NULL);
      else
        fail_unless_equals_int (info.comp[c].kind, GST_CUDA_BOX_BLUR_ALPHA);
      for (y = 0; y < pin.height; y++)
        for (x = 0; x < pin.width; x++) {
          const guint8 *want = (blurred ? pone.data : pin.data) +
              y * pin.stride + x * pin.step;
          fail_unless (memcmp (pout.data + y * pout.stride + x * pout.step,
                  want, info.sample_size) == 0, "%s component %d (%d,%d)",
              formats[f], c, x, y);
        }
    }
    {
      /* the bytes of no component (RGBx's x, the last pair's second luma
       * byte of YUY2 9 wide) are copied */
      guint8 *taken = g_malloc0 (info.size);
      gint p, y, b, padding = 0;

      for (c = 0; c < info.n_components; c++) {
        const GstCudaBoxBlurComponent *comp = &info.comp[c];
        gint x;

        for (y = 0; y < comp->height; y++)
          for (x = 0; x < comp->width; x++)
            memset (taken + info.offset[comp->plane] + comp->offset +
                y * info.stride[comp->plane] + x * comp->step, 1,
                info.sample_size);
      }
      for (p = 0; p < info.n_planes; p++)
        for (y = 0; y < info.plane_height[p]; y++)
          for (b = 0; b < info.row_bytes[p]; b++) {
            const gsize i = info.offset[p] + (gsize) y * info.stride[p] + b;

            if (taken[i])
              continue;
            padding++;
            fail_unless (out[i] == src[i], "%s: byte %d of row %d",
                formats[f], b, y);
          }
      fail_unless_equals_int (padding > 0, info.has_padding);
      g_free (taken);
    }
    g_free (src);
    g_free (out);
    g_free (one);
  }
}

GST_END_TEST;

/* The 1-D kernel of box blurs of @radii one after the other: their
 * convolution, centred at index @n_taps / 2. */
static gdouble *
boxes_kernel (const gint * radii, gint n, gint * n_taps)
{
  gint taps = 1, b, i, j;
  gdouble *k = g_new0 (gdouble, 1), *next;

  k[0] = 1;
  for (b = 0; b < n; b++) {
    const gint w = 2 * radii[b] + 1;

    next = g_new0 (gdouble, taps + w - 1);
    for (i = 0; i < taps; i++)
      for (j = 0; j < w; j++)
        next[i + j] += k[i] / w;
    g_free (k);
    k = next;
    taps += w - 1;
  }
  *n_taps = taps;
  return k;
}

/* Mode gaussian's boxes: radii r and r + 1, never shrinking, whose total
 * variance is the nearest to sigma^2 that such boxes reach; and how far
 * their blur is from a Gaussian sampled at the pixels: the L1 distance
 * between the two normalised 1-D kernels stays within the bounds
 * docs/redaction.md gives ("Gaussian"), for 3, 4 and 5 boxes and sigma in
 * [1.5, 3), [3, 8) and [8, 64]. */
GST_START_TEST (test_gaussian_boxes)
{
  const gdouble bound[3][3] = { {0.20, 0.105, 0.07}, {0.145, 0.09, 0.055},
  {0.115, 0.075, 0.045}
  };
  gint n, b;

  for (n = 3; n <= 5; n++) {
    gdouble worst[3] = { 0, 0, 0 }, sigma;

    for (sigma = 0.25; sigma <= 64; sigma *= 1.02) {
      const gdouble want = sigma * sigma;
      const gint range = sigma < 3 ? 0 : sigma < 8 ? 1 : 2;
      gint radii[5], taps, c, reach, i, r, k;
      gdouble var = 0, l1 = 0, norm = 0, *kernel;

      for (b = 0; b < n; b++) {
        radii[b] = gst_cuda_box_blur_gaussian_radius (sigma, n, b);
        var += radii[b] * (radii[b] + 1) / 3.0;
        fail_unless (b == 0 || (radii[b] >= radii[b - 1]
                && radii[b] - radii[0] <= 1), "sigma %g", sigma);
      }
      /* no other mix of two neighbouring radii comes closer */
      for (r = MAX (radii[0] - 1, 0); r <= radii[0] + 1; r++)
        for (k = 0; k <= n; k++) {
          const gdouble v = ((n - k) * r * (r + 1) + k * (r + 1) * (r + 2))
              / 3.0;
          fail_unless (fabs (v - want) >= fabs (var - want) - 1e-9,
              "sigma %g: %d boxes of %d and %d of %d are closer", sigma,
              n - k, r, k, r + 1);
        }

      if (sigma < 1.5)
        continue;
      kernel = boxes_kernel (radii, n, &taps);
      c = taps / 2;
      /* the Gaussian out to 8 sigma, or the boxes' reach if further */
      reach = MAX (c, (gint) (8 * sigma));
      for (i = -reach; i <= reach; i++)
        norm += exp (-i * i / (2 * want));
      for (i = -reach; i <= reach; i++)
        l1 += fabs ((ABS (i) <= c ? kernel[c + i] : 0) -
            exp (-i * i / (2 * want)) / norm);
      g_free (kernel);
      worst[range] = MAX (worst[range], l1);
      fail_unless (l1 <= bound[n - 3][range], "sigma %g, %d boxes: L1 %g",
          sigma, n, l1);
    }
    GST_INFO ("%d boxes: worst L1 distance to a Gaussian %.3f, %.3f, %.3f",
        n, worst[0], worst[1], worst[2]);
  }
}

GST_END_TEST;

/* Mode gaussian's windows: chroma takes sigma divided by its subsampling,
 * the passes take their own radii, and a sigma too small for any box
 * leaves the frame untouched. */
GST_START_TEST (test_gaussian_windows)
{
  GstCudaBoxBlurInfo i420 = test_info ("I420", 64, 48);
  GstCudaBoxBlurSettings s;
  GstCudaBoxBlurWindow w;
  gint pass;

  gst_cuda_box_blur_settings_init (&s);
  s.mode = GST_CUDA_BOX_BLUR_MODE_GAUSSIAN;
  s.sigma = 8;
  fail_unless_equals_int (gst_cuda_box_blur_settings_passes (&s), 3);
  for (pass = 0; pass < 3; pass++) {
    const gint luma = gst_cuda_box_blur_gaussian_radius (8, 3, pass);
    const gint chroma = gst_cuda_box_blur_gaussian_radius (4, 3, pass);

    fail_unless (gst_cuda_box_blur_settings_pass_window (&s, &i420, 0, pass,
            &w));
    fail_unless (w.radius_x == luma && w.radius_y == luma);
    fail_unless (gst_cuda_box_blur_settings_pass_window (&s, &i420, 1, pass,
            &w));
    fail_unless (w.radius_x == chroma && w.radius_y == chroma);
  }
  /* the widest window is the last pass's */
  fail_unless (gst_cuda_box_blur_settings_window (&s, &i420, 0, &w));
  fail_unless_equals_int (w.radius_x,
      gst_cuda_box_blur_gaussian_radius (8, 3, 2));

  s.passes = 5;
  fail_unless_equals_int (gst_cuda_box_blur_settings_passes (&s), 5);
  s.sigma = 0.5;
  fail_unless (gst_cuda_box_blur_settings_blurs_nothing (&s, &i420));
  fail_unless (gst_cuda_box_blur_settings_blurs_nothing (&s, NULL));
  s.sigma = 1;
  fail_if (gst_cuda_box_blur_settings_blurs_nothing (&s, &i420));
  /* the radius properties play no part */
  s.radius_x = s.radius_y = 0;
  fail_if (gst_cuda_box_blur_settings_blurs_nothing (&s, NULL));
}

GST_END_TEST;

/* The regions roi-hold gives frame after frame of metas (@n of them,
 * each x, id, type: 0 face, 1 plate), checked against @want rectangles'
 * x (8x8 at y 10, sorted as found). */

static Suite *
reference_suite (void)
{
  Suite *s = suite_create ("reference");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_gray8_3x3_borders);
  tcase_add_test (tc, test_gray8_rounding);
  tcase_add_test (tc, test_gray8_1x1);
  tcase_add_test (tc, test_gray8_row_and_column);
  tcase_add_test (tc, test_gray8_window_larger_than_image);
  tcase_add_test (tc, test_gray8_odd_size_strided);
  tcase_add_test (tc, test_gray32f_3x3_sample_order);
  tcase_add_test (tc, test_gray32f_order_matters);
  tcase_add_test (tc, test_gray32f_1x1);
  tcase_add_test (tc, test_border_modes);
  tcase_add_test (tc, test_border_modes_wide_windows);
  tcase_add_test (tc, test_gray16);
  tcase_add_test (tc, test_high_bits);
  tcase_add_test (tc, test_region_reads_neighbours);
  tcase_add_test (tc, test_sat_matches_direct);
  tcase_add_test (tc, test_passes);
  tcase_add_test (tc, test_component_windows);
  tcase_add_test (tc, test_gaussian_boxes);
  tcase_add_test (tc, test_gaussian_windows);
  tcase_add_test (tc, test_regions);
  tcase_add_test (tc, test_frame_components);
  tcase_add_test (tc, test_packed_422_layout);
  return s;
}

GST_CHECK_MAIN (reference);
