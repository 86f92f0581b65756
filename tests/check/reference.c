/* cudaboxblur: the CPU reference against hand-computed windows
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>
#include <math.h>
#include <string.h>

#include "boxblur-ref.h"

static void
assert_gray8 (const guint8 * src, gint width, gint height, gint rx, gint ry,
    const guint8 * expected)
{
  guint8 *out = g_malloc0 (width * height);
  gint i;

  box_blur_ref_gray8 (src, width, out, width, width, height, rx, ry);
  for (i = 0; i < width * height; i++)
    fail_unless_equals_int_hex (out[i], expected[i]);
  g_free (out);
}

static void
assert_gray32f (const gfloat * src, gint width, gint height, gint rx, gint ry,
    const gfloat * expected)
{
  gfloat *out = g_new0 (gfloat, width * height);
  gint i;

  box_blur_ref_gray32f ((const guint8 *) src, width * 4, (guint8 *) out,
      width * 4, width, height, rx, ry);
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
  box_blur_ref_gray8 (src, stride, out, stride, w, h, 2, 1);
  box_blur_ref_gray8 (tight, w, out_tight, w, w, h, 2, 1);
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

/* The summed-area tables agree with the direct loops: exactly for GRAY8,
 * and for float to double precision rounding of the float sums. */
GST_START_TEST (test_sat_matches_direct)
{
  const gint w = 37, h = 23, radii[][2] = { {0, 0}, {1, 1}, {3, 2},
  {0, 5}, {7, 0}, {20, 30}
  };
  guint8 *src8 = g_malloc (w * h), *a = g_malloc (w * h), *b = g_malloc (w * h);
  gfloat *srcf = g_new (gfloat, w * h), *af = g_new (gfloat, w * h);
  gdouble *bf = g_new (gdouble, w * h), *absf = g_new (gdouble, w * h);
  guint r;
  gint i;

  fill_random (src8, w * h, 7);
  for (i = 0; i < w * h; i++)
    srcf[i] = (src8[i] - 128) / 7.0f;

  for (r = 0; r < G_N_ELEMENTS (radii); r++) {
    gint rx = radii[r][0], ry = radii[r][1];

    box_blur_ref_gray8 (src8, w, a, w, w, h, rx, ry);
    box_blur_sat_gray8 (src8, w, b, w, w, h, rx, ry);
    fail_unless (memcmp (a, b, w * h) == 0, "radius %d,%d", rx, ry);

    box_blur_ref_gray32f ((guint8 *) srcf, w * 4, (guint8 *) af, w * 4, w,
        h, rx, ry);
    box_blur_sat_gray32f ((guint8 *) srcf, w * 4, bf, w, h, rx, ry, FALSE);
    box_blur_sat_gray32f ((guint8 *) srcf, w * 4, absf, w, h, rx, ry, TRUE);
    for (i = 0; i < w * h; i++) {
      fail_unless (fabs (af[i] - bf[i]) <= 1e-6 * absf[i],
          "radius %d,%d pixel %d: %.9g vs %.9g", rx, ry, i, af[i], bf[i]);
      fail_unless (absf[i] >= fabs (bf[i]));
    }
  }

  g_free (src8);
  g_free (a);
  g_free (b);
  g_free (srcf);
  g_free (af);
  g_free (bf);
  g_free (absf);
}

GST_END_TEST;

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
  tcase_add_test (tc, test_sat_matches_direct);
  return s;
}

GST_CHECK_MAIN (reference);
