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

/* The object detections of GStreamer's analytics metas (1.24 and later):
 * each GstAnalyticsODMtd of a buffer's GstAnalyticsRelationMeta, with the
 * id of a GstAnalyticsTrackingMtd related to it.  Only read here; the
 * regions of metas filter, hold and redact them as their own. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-analytics.h"
#include "cudaboxblur-debug.h"

#include <gst/analytics/analytics.h>
#include <math.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxbluranalytics",
    "cudaboxblur object detections of analytics metas")

/* Warns once per process about a detection whose box is given with a
 * negative width or height. */
static void
warn_box_once (gint x, gint y, gint w, gint h)
{
  static gint warned = 0;

  if (g_atomic_int_compare_and_exchange (&warned, 0, 1))
    GST_WARNING ("an object detection's box is %dx%d at %d,%d: taken as "
        "the box between its corners", w, h, x, y);
}

/* The box of @od in @d: axis-aligned, around the whole of a rotated one
 * (GStreamer 1.26), and between its corners where a producer gave it a
 * negative width or height.  FALSE when it has no location. */
static gboolean
read_box (GstAnalyticsODMtd * od, GstCudaBoxBlurDetection * d)
{
  gint x, y, w, h;
  gfloat confidence;
  gdouble r = 0;

#if GST_CHECK_VERSION (1, 26, 0)
  gfloat rotation;

  if (!gst_analytics_od_mtd_get_oriented_location (od, &x, &y, &w, &h,
          &rotation, &confidence))
    return FALSE;
  r = rotation;
#else
  if (!gst_analytics_od_mtd_get_location (od, &x, &y, &w, &h, &confidence))
    return FALSE;
#endif
  if (w < 0 || h < 0)
    warn_box_once (x, y, w, h);
  d->x = MIN ((gint64) x, (gint64) x + w);
  d->y = MIN ((gint64) y, (gint64) y + h);
  d->w = ABS ((gint64) w);
  d->h = ABS ((gint64) h);
  /* rotated about its centre: the box that holds it, rounded outwards
   * (GStreamer's own rounds to nearest, and may cut off its corners) */
  if (r != 0 && isfinite (r)) {
    const gdouble cx = d->x + d->w / 2.0, cy = d->y + d->h / 2.0;
    const gdouble c = fabs (cos (r)), s = fabs (sin (r));
    const gdouble half_w = (d->w * c + d->h * s) / 2;
    const gdouble half_h = (d->w * s + d->h * c) / 2;

    d->x = (gint64) floor (cx - half_w);
    d->y = (gint64) floor (cy - half_h);
    d->w = (gint64) ceil (cx + half_w) - d->x;
    d->h = (gint64) ceil (cy + half_h) - d->y;
  }
  /* NaN, or below 0: not known, so never below a minimum */
  d->confidence = isnan (confidence) || confidence < 0 ? -1 :
      MIN (confidence, 1.0);
  return TRUE;
}

/* The id of the first GstAnalyticsTrackingMtd related to @od in @meta;
 * 0 for none, and for G_MAXUINT64, "untracked". */
static guint64
read_track (GstAnalyticsRelationMeta * meta, GstAnalyticsODMtd * od)
{
  GstAnalyticsTrackingMtd trk;
  gpointer state = NULL;
  guint64 id = 0;

  if (gst_analytics_relation_meta_get_direct_related (meta, od->id,
          GST_ANALYTICS_REL_TYPE_ANY,
          gst_analytics_tracking_mtd_get_mtd_type (), &state, &trk)
      && !gst_analytics_tracking_mtd_get_info (&trk, &id, NULL, NULL, NULL))
    id = 0;
  return id == G_MAXUINT64 ? 0 : id;
}

/**
 * gst_cuda_box_blur_analytics_detections:
 * @detections: a #GArray of #GstCudaBoxBlurDetection, appended to
 *
 * The object detections of every #GstAnalyticsRelationMeta of @buffer, in
 * their order.  A tracking id of 0 counts as none (the regions are then
 * matched by where they lie), as does G_MAXUINT64, "untracked".
 *
 * Returns: the number of detections appended.
 */
guint
gst_cuda_box_blur_analytics_detections (GstBuffer * buffer,
    GArray * detections)
{
  const guint before = detections->len;
  GstAnalyticsRelationMeta *meta;
  gpointer meta_state = NULL;

  while ((meta = (GstAnalyticsRelationMeta *)
          gst_buffer_iterate_meta_filtered (buffer, &meta_state,
              GST_ANALYTICS_RELATION_META_API_TYPE))) {
    GstAnalyticsODMtd od;
    gpointer state = NULL;

    while (gst_analytics_relation_meta_iterate (meta, &state,
            gst_analytics_od_mtd_get_mtd_type (), &od)) {
      GstCudaBoxBlurDetection d = { 0, };

      if (!read_box (&od, &d))
        continue;
      d.type = gst_analytics_od_mtd_get_obj_type (&od);
      d.id = (gint) MIN (od.id, G_MAXINT);
      d.track = read_track (meta, &od);
      g_array_append_val (detections, d);
    }
  }
  return detections->len - before;
}
