/* cudaboxblur
 * Copyright (C) 2026 The cudaboxblur authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "boxblur-ref.h"

#include <math.h>
#include <string.h>

static inline const guint8 *
sample_ptr (const GstCudaBoxBlurPlane * p, gint x, gint y)
{
  return p->data + (gsize) y * p->stride + (gsize) x * p->step;
}

static inline gdouble
get_sample (GstCudaBoxBlurSampleType type, const guint8 * p)
{
  switch (type) {
    case GST_CUDA_BOX_BLUR_U8:
      return *p;
    case GST_CUDA_BOX_BLUR_U16:
      return *(const guint16 *) p;
    case GST_CUDA_BOX_BLUR_F32:
    default:
      return *(const gfloat *) p;
  }
}

/* The constant border as a sample of @type. */
static gdouble
border_sample (GstCudaBoxBlurSampleType type, gdouble value)
{
  switch (type) {
    case GST_CUDA_BOX_BLUR_U8:
      return CLAMP (round (value), 0, 255);
    case GST_CUDA_BOX_BLUR_U16:
      return CLAMP (round (value), 0, 65535);
    case GST_CUDA_BOX_BLUR_F32:
    default:
      return (gfloat) value;
  }
}

/* The position inside 0 .. n - 1 that position @i of a line reads in
 * @border mode, or -1 for the constant border (and outside the frame in
 * shrink mode). */
static gint
border_position (gint i, gint n, GstCudaBoxBlurBorder border)
{
  if (i >= 0 && i < n)
    return i;
  switch (border) {
    case GST_CUDA_BOX_BLUR_BORDER_CLAMP:
      return i < 0 ? 0 : n - 1;
    case GST_CUDA_BOX_BLUR_BORDER_MIRROR:
      if (n == 1)
        return 0;
      /* reflect at either edge until inside */
      while (i < 0 || i >= n)
        i = i < 0 ? -i : 2 * (n - 1) - i;
      return i;
    case GST_CUDA_BOX_BLUR_BORDER_WRAP:
      return ((i % n) + n) % n;
    default:
      return -1;
  }
}

/* The sample at (@x, @y) as the window sees it; FALSE where shrink mode
 * leaves it out of the window. */
static gboolean
window_sample (GstCudaBoxBlurSampleType type, const GstCudaBoxBlurPlane * src,
    const GstCudaBoxBlurWindow * window, gint x, gint y, gdouble * value)
{
  const gint mx = border_position (x, src->width, window->border);
  const gint my = border_position (y, src->height, window->border);

  if (mx >= 0 && my >= 0) {
    *value = get_sample (type, sample_ptr (src, mx, my));
    return TRUE;
  }
  *value = border_sample (type, window->border_value);
  return window->border != GST_CUDA_BOX_BLUR_BORDER_SHRINK;
}

/* Stores @v, already a value of @type, at @p. */
static void
set_sample (GstCudaBoxBlurSampleType type, guint8 * p, gdouble v)
{
  switch (type) {
    case GST_CUDA_BOX_BLUR_U8:
      *p = (guint8) v;
      break;
    case GST_CUDA_BOX_BLUR_U16:
      *(guint16 *) p = (guint16) v;
      break;
    case GST_CUDA_BOX_BLUR_F32:
      *(gfloat *) p = (gfloat) v;
      break;
  }
}

/* @q, an integer mean rounded at the samples' depth (16 - @shift bits of
 * a 16-bit word), stored back in the high bits; one past the depth's
 * largest value (words whose low bits were not 0) kept at the largest. */
static guint64
at_depth (guint64 q, gint shift)
{
  return MIN (q, 0xffffu >> shift) << shift;
}

/* Writes the mean @sum / @count as a sample of @type: integers rounded half
 * up, floats divided in float (@sum then holds a float) or in double.
 * Integers whose low @shift bits are no part of the sample (P010, P012)
 * are rounded at the samples' depth and stored back in the high bits. */
static void
put_mean (GstCudaBoxBlurSampleType type, guint8 * p, gdouble sum,
    guint64 count, gint shift)
{
  const guint64 den = count << shift;

  if (type == GST_CUDA_BOX_BLUR_F32)
    set_sample (type, p, (gfloat) (sum / count));
  else
    set_sample (type, p, at_depth ((2 * (guint64) sum + den) / (2 * den),
            shift));
}

static void
whole_plane (const GstCudaBoxBlurPlane * plane, const GstVideoRectangle *
    region, GstVideoRectangle * r)
{
  if (region) {
    *r = *region;
  } else {
    r->x = r->y = 0;
    r->w = plane->width;
    r->h = plane->height;
  }
}

void
box_blur_ref_plane (GstCudaBoxBlurSampleType type,
    const GstCudaBoxBlurPlane * src, const GstCudaBoxBlurPlane * dst,
    const GstCudaBoxBlurWindow * window, const GstVideoRectangle * region)
{
  const gint rx = window->radius_x, ry = window->radius_y;
  GstVideoRectangle r;
  gint x, y, xx, yy;

  whole_plane (dst, region, &r);
  for (y = r.y; y < r.y + r.h; y++) {
    for (x = r.x; x < r.x + r.w; x++) {
      guint64 isum = 0, count = 0;
      gfloat fsum = 0.0f;

      for (yy = y - ry; yy <= y + ry; yy++) {
        for (xx = x - rx; xx <= x + rx; xx++) {
          gdouble v;

          if (!window_sample (type, src, window, xx, yy, &v))
            continue;
          if (type == GST_CUDA_BOX_BLUR_F32)
            fsum += (gfloat) v;
          else
            isum += (guint64) v;
          count++;
        }
      }
      if (type == GST_CUDA_BOX_BLUR_F32)
        *(gfloat *) sample_ptr (dst, x, y) = fsum / (gfloat) count;
      else
        put_mean (type, (guint8 *) sample_ptr (dst, x, y), isum, count,
            dst->shift);
    }
  }
}

/* Pixelate: @region of @dst cut into blocks of window->block_w x block_h
 * samples from its top left corner, each sample the mean of its block's
 * samples inside the region, summed in double (exact for 8- and 16-bit
 * sums), rows outer, columns inner. */
void
box_blur_ref_pixelate (GstCudaBoxBlurSampleType type,
    const GstCudaBoxBlurPlane * src, const GstCudaBoxBlurPlane * dst,
    const GstCudaBoxBlurWindow * window, const GstVideoRectangle * region)
{
  const gint bw = window->block_w, bh = window->block_h;
  GstVideoRectangle r;
  gint bx, by, x, y;

  whole_plane (dst, region, &r);
  for (by = r.y; by < r.y + r.h; by += bh) {
    for (bx = r.x; bx < r.x + r.w; bx += bw) {
      const gint x1 = MIN (bx + bw, r.x + r.w), y1 = MIN (by + bh, r.y + r.h);
      gdouble sum = 0;

      for (y = by; y < y1; y++)
        for (x = bx; x < x1; x++)
          sum += get_sample (type, sample_ptr (src, x, y));
      for (y = by; y < y1; y++)
        for (x = bx; x < x1; x++)
          put_mean (type, (guint8 *) sample_ptr (dst, x, y), sum,
              (guint64) (x1 - bx) * (y1 - by), dst->shift);
    }
  }
}

void
box_blur_sat_plane (GstCudaBoxBlurSampleType type,
    const GstCudaBoxBlurPlane * src, const GstCudaBoxBlurPlane * dst,
    const GstCudaBoxBlurWindow * window, const GstVideoRectangle * region)
{
  const gint rx = window->radius_x, ry = window->radius_y;
  GstVideoRectangle r;
  gint ew, eh, x, y;
  gdouble *sum, *inside;

  whole_plane (dst, region, &r);
  /* Tables over the region grown by the radius, one entry more on each
   * axis: sum[(y + 1) * (ew + 1) + x + 1] is the sum of the samples the
   * windows see left of and above (x, y) inclusive, inside[] the number
   * of them that count (all but shrink mode's outside ones).  Integer sums
   * stay below 2^53, so double keeps them exact. */
  ew = r.w + 2 * rx;
  eh = r.h + 2 * ry;
  sum = g_new0 (gdouble, (gsize) (ew + 1) * (eh + 1));
  inside = g_new0 (gdouble, (gsize) (ew + 1) * (eh + 1));
  for (y = 0; y < eh; y++) {
    for (x = 0; x < ew; x++) {
      const gsize i = (gsize) (y + 1) * (ew + 1) + x + 1;
      const gsize up = i - (ew + 1);
      gdouble v;
      gboolean counts = window_sample (type, src, window, r.x - rx + x,
          r.y - ry + y, &v);

      if (!counts)
        v = 0;
      sum[i] = v + sum[i - 1] + sum[up] - sum[up - 1];
      inside[i] = counts + inside[i - 1] + inside[up] - inside[up - 1];
    }
  }

  for (y = 0; y < r.h; y++) {
    for (x = 0; x < r.w; x++) {
      /* the window of (r.x + x, r.y + y) is table cells x .. x + 2rx */
      const gsize a = (gsize) y * (ew + 1) + x;
      const gsize b = (gsize) (y + 2 * ry + 1) * (ew + 1) + x;
      const gint w = 2 * rx + 1;
      const gdouble s = sum[b + w] - sum[b] - sum[a + w] + sum[a];
      const gdouble n = inside[b + w] - inside[b] - inside[a + w] + inside[a];

      put_mean (type, (guint8 *) sample_ptr (dst, r.x + x, r.y + y), s,
          (guint64) n, dst->shift);
    }
  }
  g_free (sum);
  g_free (inside);
}

void
box_blur_ref_copy_frame (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst)
{
  gint p, y;

  for (p = 0; p < info->n_planes; p++)
    for (y = 0; y < info->plane_height[p]; y++)
      memcpy (dst->data[p] + (gsize) y * dst->stride[p],
          src->data[p] + (gsize) y * src->stride[p], info->row_bytes[p]);
}

/* Whether sample (@dx, @dy) of a @w x @h region lies in @shape shrunk by
 * @k samples on every side: the rectangle less @k samples at each edge, or
 * the ellipse inscribed in that rectangle, the sample's centre inside or
 * on it. */
static gboolean
in_shape (GstCudaBoxBlurShape shape, gint dx, gint dy, gint w, gint h, gint k)
{
  const gint64 sw = w - 2 * k, sh = h - 2 * k;
  /* the centre's offset from the ellipse's, in half samples */
  const gint64 ex = 2 * dx + 1 - w, ey = 2 * dy + 1 - h;

  if (shape == GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE)
    return dx >= k && dy >= k && w - 1 - dx >= k && h - 1 - dy >= k;
  /* (ex / sw)^2 + (ey / sh)^2 <= 1, in integers */
  return sw > 0 && sh > 0 && ex * ex * sh * sh + ey * ey * sw * sw <=
      sw * sw * sh * sh;
}

guint
box_blur_ref_weight (const GstCudaBoxBlurWindow * window, gint dx, gint dy,
    gint w, gint h)
{
  gint n = 0;

  while (n <= window->feather && in_shape (window->shape, dx, dy, w, h, n))
    n++;
  return n;
}

/* Lays @region of @red (or for a fill, the fill value) onto @dst through
 * the window's shape and feather. */
static void
compose_plane (GstCudaBoxBlurSampleType type, const GstCudaBoxBlurPlane * red,
    const GstCudaBoxBlurPlane * dst, const GstCudaBoxBlurWindow * window,
    const GstVideoRectangle * r)
{
  const guint d = window->feather + 1;
  gint dx, dy;

  for (dy = 0; dy < r->h; dy++) {
    for (dx = 0; dx < r->w; dx++) {
      const gint x = r->x + dx, y = r->y + dy;
      guint n;
      guint8 *out;
      gdouble cur, v;

      /* invert's kept regions, grown by their feather, may reach past
       * the plane */
      if (x < 0 || y < 0 || x >= dst->width || y >= dst->height)
        continue;
      n = box_blur_ref_weight (window, dx, dy, r->w, r->h);
      if (n == 0)
        continue;
      out = (guint8 *) sample_ptr (dst, x, y);
      cur = get_sample (type, out);
      v = window->work == GST_CUDA_BOX_BLUR_WORK_FILL ? window->fill_value :
          get_sample (type, sample_ptr (red, x, y));
      if (type == GST_CUDA_BOX_BLUR_F32) {
        const gfloat keep = (gfloat) cur * (gfloat) (d - n);
        const gfloat take = (gfloat) v * (gfloat) n;

        set_sample (type, out, n == d ? (gfloat) v : (keep + take) /
            (gfloat) d);
      } else if (n == d) {
        /* wholly inside: the redaction (or a kept region's input) as it
         * is, low bits and all */
        set_sample (type, out, v);
      } else {
        const guint64 sum = (guint64) cur * (d - n) + (guint64) v * n;
        const guint64 den = (guint64) d << dst->shift;

        set_sample (type, out, (gdouble) at_depth ((2 * sum + den) /
                (2 * den), dst->shift));
      }
    }
  }
}

/* Blurs @r of @in into @out with @window, each sample the mean of its
 * window by the method the kernels choose. */
static void
windows_plane (GstCudaBoxBlurSampleType type, const GstCudaBoxBlurPlane * in,
    const GstCudaBoxBlurPlane * out, const GstCudaBoxBlurWindow * window,
    const GstVideoRectangle * r)
{
  if (gst_cuda_box_blur_window_is_direct (window->radius_x,
          window->radius_y))
    box_blur_ref_plane (type, in, out, window, r);
  else
    box_blur_sat_plane (type, in, out, window, r);
}

/* What each work makes of @r of a plane, from @in into @out; a fill is
 * laid on by compose_plane () alone. */
static void (*const redact_plane[]) (GstCudaBoxBlurSampleType type,
    const GstCudaBoxBlurPlane * in, const GstCudaBoxBlurPlane * out,
    const GstCudaBoxBlurWindow * window, const GstVideoRectangle * r) = {
  [GST_CUDA_BOX_BLUR_WORK_WINDOWS] = windows_plane,
  [GST_CUDA_BOX_BLUR_WORK_BLOCKS] = box_blur_ref_pixelate,
  [GST_CUDA_BOX_BLUR_WORK_FILL] = NULL,
};

/* invert: the whole of @dst redacted with @settings, hard-edged; then in
 * each region, every component that redaction changed laid back from @src
 * through the region's shape, clear inside it and fading into the
 * redaction over its feather outside it: the weights of the shape of the
 * region grown by the feather on every side. */
static void
redact_around (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurSettings * settings, const GstCudaBoxBlurFrame * src,
    const GstCudaBoxBlurFrame * dst, const GstVideoRectangle * regions,
    guint n_regions, const GstCudaBoxBlurSettings * region_settings)
{
  const GstVideoRectangle frame = { 0, 0, info->width, info->height };
  GstCudaBoxBlurSettings whole;
  gint c;
  guint i;

  gst_cuda_box_blur_settings_for_frame (settings, info, &whole);
  box_blur_ref_frame (info, &whole, src, dst, &frame, 1, NULL);

  for (i = 0; i < n_regions; i++) {
    const GstCudaBoxBlurSettings *rs =
        gst_cuda_box_blur_region_settings (settings, region_settings, i);

    for (c = 0; c < info->n_components; c++) {
      GstCudaBoxBlurPlane in, out;
      GstCudaBoxBlurWindow window;
      GstVideoRectangle r;

      if (!gst_cuda_box_blur_settings_window (&whole, info, c, &window))
        continue;
      gst_cuda_box_blur_settings_window (rs, info, c, &window);
      /* laid back from the input */
      if (window.work == GST_CUDA_BOX_BLUR_WORK_FILL)
        window.work = GST_CUDA_BOX_BLUR_WORK_WINDOWS;
      gst_cuda_box_blur_region_for_component (info, c, &regions[i], &r);
      r.x -= window.feather;
      r.y -= window.feather;
      r.w += 2 * window.feather;
      r.h += 2 * window.feather;
      gst_cuda_box_blur_frame_get_plane (src, info, c, &in);
      gst_cuda_box_blur_frame_get_plane (dst, info, c, &out);
      compose_plane (info->type, &in, &out, &window, &r);
    }
  }
}

void
box_blur_ref_frame (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurSettings * settings, const GstCudaBoxBlurFrame * src,
    const GstCudaBoxBlurFrame * dst, const GstVideoRectangle * regions,
    guint n_regions, const GstCudaBoxBlurSettings * region_settings)
{
  guint8 *mem[2];
  GstCudaBoxBlurFrame frame[2];
  gint pass, c;
  guint i;

  if (settings->invert) {
    redact_around (info, settings, src, dst, regions, n_regions,
        region_settings);
    return;
  }
  mem[0] = g_malloc0 (info->size);
  mem[1] = g_malloc0 (info->size);
  gst_cuda_box_blur_frame_from_data (&frame[0], info, mem[0]);
  gst_cuda_box_blur_frame_from_data (&frame[1], info, mem[1]);
  box_blur_ref_copy_frame (info, src, dst);

  for (i = 0; i < n_regions; i++) {
    const GstCudaBoxBlurSettings *rs =
        gst_cuda_box_blur_region_settings (settings, region_settings, i);
    const gint passes = gst_cuda_box_blur_settings_passes (rs);
    gint cur = 0;

    /* the region on its own, from the input */
    box_blur_ref_copy_frame (info, src, &frame[cur]);
    for (pass = 0; pass < passes; pass++, cur = !cur) {
      memcpy (mem[!cur], mem[cur], info->size);
      for (c = 0; c < info->n_components; c++) {
        GstCudaBoxBlurPlane in, out;
        GstCudaBoxBlurWindow window;
        GstVideoRectangle r;

        if (!gst_cuda_box_blur_settings_pass_window (rs, info, c, pass,
                &window) || !redact_plane[window.work])
          continue;
        gst_cuda_box_blur_frame_get_plane (&frame[cur], info, c, &in);
        gst_cuda_box_blur_frame_get_plane (&frame[!cur], info, c, &out);
        gst_cuda_box_blur_region_for_component (info, c, &regions[i], &r);
        redact_plane[window.work] (info->type, &in, &out, &window, &r);
      }
    }

    /* then laid onto the output */
    for (c = 0; c < info->n_components; c++) {
      GstCudaBoxBlurPlane red, out;
      GstCudaBoxBlurWindow window;
      GstVideoRectangle r;

      if (!gst_cuda_box_blur_settings_window (rs, info, c, &window))
        continue;
      gst_cuda_box_blur_frame_get_plane (&frame[cur], info, c, &red);
      gst_cuda_box_blur_frame_get_plane (dst, info, c, &out);
      gst_cuda_box_blur_region_for_component (info, c, &regions[i], &r);
      compose_plane (info->type, &red, &out, &window, &r);
    }
  }

  g_free (mem[0]);
  g_free (mem[1]);
}
