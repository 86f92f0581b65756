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

/* The regions of a frame: the roi rectangle, or the region of interest
 * metas (their types, padding and parameters) and those roi-hold keeps
 * from earlier frames, each with the settings it gets. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-regions.h"
#include "cudaboxblur-analytics.h"
#include "cudaboxblur-debug.h"

#include <math.h>
#include <string.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurregions",
    "cudaboxblur regions from metas and properties")

/* Clips @r to the frame; FALSE when nothing is left. */
static gboolean
clip_region (GstVideoRectangle * r, gint width, gint height)
{
  const gint x1 = MIN (r->x + r->w, width), y1 = MIN (r->y + r->h, height);

  r->x = MAX (r->x, 0);
  r->y = MAX (r->y, 0);
  r->w = x1 - r->x;
  r->h = y1 - r->y;
  return r->w > 0 && r->h > 0;
}

/**
 * gst_cuda_box_blur_hold_init:
 *
 * Makes @hold empty: no region held.
 */
void
gst_cuda_box_blur_hold_init (GstCudaBoxBlurHold * hold)
{
  hold->regions = g_array_new (FALSE, FALSE, sizeof (GstCudaBoxBlurMetaRegion));
}

void
gst_cuda_box_blur_hold_reset (GstCudaBoxBlurHold * hold)
{
  g_array_set_size (hold->regions, 0);
}

void
gst_cuda_box_blur_hold_clear (GstCudaBoxBlurHold * hold)
{
  g_clear_pointer (&hold->regions, g_array_unref);
}

/* The pixels two regions of metas share. */
static gdouble
intersection (const GstCudaBoxBlurMetaRegion * a,
    const GstCudaBoxBlurMetaRegion * b)
{
  const gint64 x0 = MAX (a->x, b->x), y0 = MAX (a->y, b->y);
  const gint64 x1 = MIN (a->x + a->w, b->x + b->w);
  const gint64 y1 = MIN (a->y + a->h, b->y + b->h);

  return x1 > x0 && y1 > y0 ? (gdouble) (x1 - x0) * (y1 - y0) : 0;
}

/* Intersection over union of two regions of metas. */
static gdouble
iou (const GstCudaBoxBlurMetaRegion * a, const GstCudaBoxBlurMetaRegion * b)
{
  const gdouble inter = intersection (a, b);
  const gdouble uni = (gdouble) a->w * a->h + (gdouble) b->w * b->h - inter;

  return uni > 0 ? inter / uni : 0;
}

/* @held as it lies @frames frames after its meta was last seen, as if it
 * was @moving (predict()). */
static GstCudaBoxBlurMetaRegion
predict_as (const GstCudaBoxBlurMetaRegion * held,
    const GstCudaBoxBlurSettings * settings, guint frames, gboolean moving)
{
  const gdouble grow = moving ? settings->roi_hold_grow :
      MAX (settings->roi_hold_grow, 2 * settings->roi_hold_reach);
  GstCudaBoxBlurMetaRegion p = *held;
  gdouble centre[2], size[2];
  gint k;

  for (k = 0; k < 2; k++) {
    const gdouble v_size = moving ? MAX (held->velocity[k + 2], 0) : 0;
    const gdouble v_centre = moving ? held->velocity[k] +
        held->velocity[k + 2] / 2 : 0;

    centre[k] = held->at[k] + held->at[k + 2] / 2 + v_centre * frames;
    size[k] = (held->at[k + 2] + v_size * frames) * (1 + grow * frames);
  }
  p.x = (gint64) floor (centre[0] - size[0] / 2);
  p.y = (gint64) floor (centre[1] - size[1] / 2);
  p.w = MAX ((gint64) ceil (centre[0] + size[0] / 2) - p.x, 1);
  p.h = MAX ((gint64) ceil (centre[1] + size[1] / 2) - p.y, 1);
  return p;
}

/* @held as it lies @frames frames after its meta was last seen: with
 * linear motion, its centre moved on by its velocity, its size grown as it
 * grew (never shrunk: a box that shrank before the miss could otherwise
 * shrink off the face it covers), then grown by roi_hold_grow of its size
 * a frame, about its centre; before it has a velocity (its meta was seen
 * once), grown by roi_hold_reach of its size on every side a frame
 * instead, where that is more, to cover wherever it went; with a guessed
 * velocity, both.  Rounded outwards. */
static GstCudaBoxBlurMetaRegion
predict (const GstCudaBoxBlurMetaRegion * held,
    const GstCudaBoxBlurSettings * settings, guint frames)
{
  GstCudaBoxBlurMetaRegion p, still;
  gint64 x1, y1;

  if (settings->roi_hold_motion != GST_CUDA_BOX_BLUR_HOLD_MOTION_LINEAR)
    return *held;
  p = predict_as (held, settings, frames, held->moving);
  if (!held->moving || !held->guessed)
    return p;
  still = predict_as (held, settings, frames, FALSE);
  x1 = MAX (p.x + p.w, still.x + still.w);
  y1 = MAX (p.y + p.h, still.y + still.h);
  p.x = MIN (p.x, still.x);
  p.y = MIN (p.y, still.y);
  p.w = x1 - p.x;
  p.h = y1 - p.y;
  return p;
}

/* How far @region of this frame is from continuing @held's region, which
 * would lie at @predicted now (lower is nearer); G_MAXDOUBLE when it does
 * not continue it.  The same tracker's object id where both have one
 * decides, and sets @sure.  Otherwise a region of the same type continues
 * it when it overlaps @predicted by an intersection over union of at least
 * GST_CUDA_BOX_BLUR_HOLD_MIN_IOU, or lies inside it (by
 * GST_CUDA_BOX_BLUR_HOLD_MIN_INSIDE of its pixels: with linear motion a
 * prediction grows while its region is missed) and is at least half the
 * size its meta last was (not a small detection inside a large missed
 * face), which is @sure; or, not @sure, with linear
 * motion when its centre lies within @predicted grown by its own size on
 * every side (a region whose motion is not known yet, or was seen last
 * long ago, may be far from where it is predicted).  Among those, the same meta
 * id (above 0) ranks first, then the distance between the centres.  A
 * meta id alone links nothing: producers number their metas frame by
 * frame (GstAnalytics, roimux) or never the same twice. */
static gdouble
match_cost (const GstCudaBoxBlurMetaRegion * region,
    const GstCudaBoxBlurMetaRegion * held,
    const GstCudaBoxBlurMetaRegion * predicted,
    const GstCudaBoxBlurSettings * settings, gboolean * sure)
{
  gdouble dx, dy;

  *sure = FALSE;
  if (region->track > 0 && held->track > 0) {
    *sure = region->track == held->track;
    return *sure ? 0 : G_MAXDOUBLE;
  }
  if (region->type != held->type)
    return G_MAXDOUBLE;
  dx = (region->x + region->w / 2.0) - (predicted->x + predicted->w / 2.0);
  dy = (region->y + region->h / 2.0) - (predicted->y + predicted->h / 2.0);
  *sure = iou (region, predicted) >= GST_CUDA_BOX_BLUR_HOLD_MIN_IOU
      || (intersection (region, predicted) >=
      GST_CUDA_BOX_BLUR_HOLD_MIN_INSIDE * region->w * region->h
      && (gdouble) region->w * region->h >= held->at[2] * held->at[3] / 2);
  if (!*sure && !(settings->roi_hold_motion ==
          GST_CUDA_BOX_BLUR_HOLD_MOTION_LINEAR
          && fabs (dx) <= 1.5 * predicted->w
          && fabs (dy) <= 1.5 * predicted->h))
    return G_MAXDOUBLE;
  if (region->id > 0 && region->id == held->id)
    return 0;
  return 1 + sqrt (dx * dx + dy * dy);
}

/* Replaces @current, this frame's regions, by the regions to redact: those
 * and, for up to roi_hold frames after their metas were last seen, the
 * regions @hold keeps, with their last rectangles or moving on
 * (predict()); a held region that would have left the @width x @height
 * frame is dropped.  A region of this frame that continues a held one
 * (the nearest by match_cost ()) takes its velocity from the two, and
 * takes its place where the match is sure; where it is not (the region
 * may be another object that came near a missed one), the held region is
 * kept as well, and the velocity is only a guess (predict()). */
static void
hold_update (GstCudaBoxBlurHold * hold, GArray * current,
    const GstCudaBoxBlurSettings * settings, gint width, gint height)
{
  const guint n = current->len;
  guint i, j;
  gint k;

  for (i = 0; i < n; i++) {
    GstCudaBoxBlurMetaRegion *c = &g_array_index (current,
        GstCudaBoxBlurMetaRegion, i);
    GstCudaBoxBlurMetaRegion *best = NULL;
    gdouble best_cost = G_MAXDOUBLE;
    gboolean best_sure = FALSE;

    for (j = 0; j < hold->regions->len; j++) {
      GstCudaBoxBlurMetaRegion *held = &g_array_index (hold->regions,
          GstCudaBoxBlurMetaRegion, j);
      GstCudaBoxBlurMetaRegion now;
      gboolean sure;
      gdouble cost;

      if (held->missed == G_MAXUINT)
        continue;
      now = predict (held, settings, held->missed + 1);
      cost = match_cost (c, held, &now, settings, &sure);
      if (cost < best_cost) {
        best = held;
        best_cost = cost;
        best_sure = sure;
      }
    }
    if (!best)
      continue;
    /* the velocity from the two metas, over the frames between them */
    for (k = 0; k < 4; k++)
      c->velocity[k] = (c->at[k] - best->at[k]) / (best->missed + 1);
    c->moving = TRUE;
    c->guessed = !best_sure;
    if (best_sure)
      best->missed = G_MAXUINT; /* taken */
  }
  for (j = 0; j < hold->regions->len; j++) {
    GstCudaBoxBlurMetaRegion *held = &g_array_index (hold->regions,
        GstCudaBoxBlurMetaRegion, j);
    GstCudaBoxBlurMetaRegion p;

    if (held->missed == G_MAXUINT || ++held->missed > settings->roi_hold)
      continue;
    p = predict (held, settings, held->missed);
    if (p.x >= width || p.y >= height || p.x + p.w <= 0 || p.y + p.h <= 0)
      continue;
    g_array_append_val (current, p);
  }
  g_array_set_size (hold->regions, 0);
  g_array_append_vals (hold->regions, current->data, current->len);
}

/* Warns once per process about a field of a parameter structure it cannot
 * use, and why. */
static void
warn_params_once (const gchar * field, const gchar * problem,
    const GstStructure * params)
{
  static gint warned = 0;

  if (g_atomic_int_compare_and_exchange (&warned, 0, 1)) {
    gchar *text = gst_structure_to_string (params);

    GST_WARNING ("ignoring field %s of a region's parameters (%s): %s", field,
        problem, text);
    g_free (text);
  }
}

/* An integer field's value clamped to @lo..@hi; FALSE when it is none. */
static gboolean
read_int (const GValue * value, gint lo, gint hi, gint * out)
{
  if (G_VALUE_HOLDS_INT (value))
    *out = CLAMP (g_value_get_int (value), lo, hi);
  else if (G_VALUE_HOLDS_UINT (value))
    *out = CLAMP ((gint64) g_value_get_uint (value), lo, hi);
  else
    return FALSE;
  return TRUE;
}

/* A tracker's object id: an integer above 0 of any width, taken as it is
 * (clamping or cutting it to fewer bits could make two ids one track).
 * The all-ones id of a 64- or 32-bit field, DeepStream's "untracked"
 * (whole, or cut to 32 bits), is no track and TRUE: read as an id, every
 * untracked object would be one.  Sets @track, 0 for none; FALSE for
 * anything but an integer above 0. */
static gboolean
read_track (const GValue * value, guint64 * track)
{
  gint64 id;

  *track = 0;
  if (G_VALUE_HOLDS_UINT64 (value)) {
    if (g_value_get_uint64 (value) == G_MAXUINT64)
      return TRUE;
    *track = g_value_get_uint64 (value);
    return *track > 0;
  }
  if (G_VALUE_HOLDS_UINT (value) && g_value_get_uint (value) == G_MAXUINT)
    return TRUE;
  if (G_VALUE_HOLDS_INT (value))
    id = g_value_get_int (value);
  else if (G_VALUE_HOLDS_UINT (value))
    id = g_value_get_uint (value);
  else if (G_VALUE_HOLDS_INT64 (value))
    id = g_value_get_int64 (value);
  else
    return FALSE;
  *track = MAX (id, 0);
  return id > 0;
}

/* A number field's value, floating point or integer, clamped to @lo..@hi;
 * FALSE when it is none, or NaN. */
static gboolean
read_number (const GValue * value, gdouble lo, gdouble hi, gdouble * out)
{
  gdouble v;

  if (G_VALUE_HOLDS_DOUBLE (value))
    v = g_value_get_double (value);
  else if (G_VALUE_HOLDS_INT (value))
    v = g_value_get_int (value);
  else if (G_VALUE_HOLDS_UINT (value))
    v = g_value_get_uint (value);
  else
    return FALSE;
  if (isnan (v))
    return FALSE;
  *out = CLAMP (v, lo, hi);
  return TRUE;
}

static const gchar *const shape_nicks[] = GST_CUDA_BOX_BLUR_SHAPE_NICKS;

/* The index in @nicks of a string field's value; FALSE when it is none. */
static gboolean
read_nick (const GValue * value, const gchar * const *nicks, gint n_nicks,
    gint * out)
{
  gint i;

  for (i = 0; i < n_nicks && G_VALUE_HOLDS_STRING (value); i++)
    if (g_strcmp0 (g_value_get_string (value), nicks[i]) == 0) {
      *out = i;
      return TRUE;
    }
  return FALSE;
}

/* Takes field @name of @params into @m, or warns (once) that it cannot. */
static void
read_param (GstCudaBoxBlurMetaRegion * m, const GstStructure * params,
    const gchar * name, const GValue * value)
{
  const gchar *problem = NULL;

  if (g_str_equal (name, "mode")) {
    GstCudaBoxBlurMode mode;

    if (G_VALUE_HOLDS_STRING (value)
        && gst_cuda_box_blur_mode_from_nick (g_value_get_string (value),
            &mode))
      m->mode = mode;
    else
      problem = "not a mode's name";
  } else if (g_str_equal (name, "radius")) {
    if (!read_int (value, 0, GST_CUDA_BOX_BLUR_MAX_RADIUS, &m->radius))
      problem = "not an integer";
  } else if (g_str_equal (name, "block-size")) {
    if (!read_int (value, 1, GST_CUDA_BOX_BLUR_MAX_BLOCK_SIZE,
            &m->block_size))
      problem = "not an integer";
  } else if (g_str_equal (name, "feather")) {
    if (!read_int (value, 0, GST_CUDA_BOX_BLUR_MAX_FEATHER, &m->feather))
      problem = "not an integer";
  } else if (g_str_equal (name, "shape")) {
    problem = read_nick (value, shape_nicks, GST_CUDA_BOX_BLUR_N_SHAPES,
        &m->shape) ? NULL : "not a shape's name";
  } else if (g_str_equal (name, "fill-color")) {
    if (G_VALUE_HOLDS_UINT (value))
      m->fill_color = g_value_get_uint (value);
    else if (G_VALUE_HOLDS_INT (value))
      m->fill_color = (guint32) g_value_get_int (value);
    else
      problem = "not an integer";
  } else if (g_str_equal (name, "sigma")) {
    if (!read_number (value, 0, GST_CUDA_BOX_BLUR_MAX_SIGMA, &m->sigma))
      problem = "not a number, or NaN";
  } else {
    problem = "unknown";
  }
  if (problem)
    warn_params_once (name, problem, params);
}

/* Warns once per process about a detector's structure on a meta that it
 * cannot read, and why: the region is then taken as if it had none. */
static void
warn_detector_once (const gchar * problem, const GstStructure * s)
{
  static gint warned = 0;

  if (g_atomic_int_compare_and_exchange (&warned, 0, 1)) {
    gchar *text = gst_structure_to_string (s);

    GST_WARNING ("ignoring a detector's %s (%s): %s", gst_structure_get_name
        (s), problem, text);
    g_free (text);
  }
}

/* What detectors attach to @meta besides its rectangle: the confidence of
 * DL Streamer's gvadetect (a "detection" structure) and the object id of
 * its gvatrack (an "object_id" structure), into @m. */
static void
read_detector (GstCudaBoxBlurMetaRegion * m,
    GstVideoRegionOfInterestMeta * meta)
{
  const GstStructure *detection =
      gst_video_region_of_interest_meta_get_param (meta, "detection");
  const GstStructure *object =
      gst_video_region_of_interest_meta_get_param (meta, "object_id");
  const GValue *v;

  if (detection) {
    v = gst_structure_get_value (detection, "confidence");
    if (!v || !read_number (v, -1, 1, &m->confidence)) {
      m->confidence = -1;
      warn_detector_once ("confidence: missing, not a number, or NaN",
          detection);
    }
    /* below 0 is no confidence: DeepStream's -0.1 for an object its
     * tracker kept without a detection, which must stay redacted */
    if (m->confidence < 0)
      m->confidence = -1;
  }
  if (object) {
    v = gst_structure_get_value (object, "id");
    if (!v || !read_track (v, &m->track))
      warn_detector_once ("id: missing, not an integer, or not above 0",
          object);
  }
}

/* A region of a meta at @x, @y, @w x @h, of @type and meta id @id, from
 * @source; its detector's confidence unknown, and no parameter of its
 * own. */
static GstCudaBoxBlurMetaRegion
new_region (gint64 x, gint64 y, gint64 w, gint64 h, GQuark type, gint id,
    GstCudaBoxBlurSource source)
{
  GstCudaBoxBlurMetaRegion m = { 0, };

  m.x = x;
  m.y = y;
  m.w = w;
  m.h = h;
  m.type = type;
  m.id = id;
  m.source = source;
  m.confidence = -1;
  m.at[0] = m.x;
  m.at[1] = m.y;
  m.at[2] = m.w;
  m.at[3] = m.h;
  m.mode = m.radius = m.block_size = m.shape = m.feather = -1;
  m.sigma = -1;
  m.fill_color = -1;
  return m;
}

/* @meta's region, with what its GST_CUDA_BOX_BLUR_META_PARAMS structure
 * and its detector's structures set for it. */
static GstCudaBoxBlurMetaRegion
meta_region (GstVideoRegionOfInterestMeta * meta)
{
  const GstStructure *params = gst_video_region_of_interest_meta_get_param
      (meta, GST_CUDA_BOX_BLUR_META_PARAMS);
  /* a position past G_MAXINT, where no frame reaches, is a negative one
   * written into the meta's unsigned field (a box partly off the frame's
   * left or top edge): read as such, so that its part in the frame is
   * redacted */
  GstCudaBoxBlurMetaRegion m = new_region ((gint32) meta->x,
      (gint32) meta->y, meta->w, meta->h, meta->roi_type, meta->id,
      GST_CUDA_BOX_BLUR_SOURCE_VIDEO_ROI);
  gint i;

  read_detector (&m, meta);
  for (i = 0; params && i < gst_structure_n_fields (params); i++) {
    const gchar *name = gst_structure_nth_field_name (params, i);

    read_param (&m, params, name, gst_structure_get_value (params, name));
  }
  return m;
}

/* The region of the first @n of @found with @d's place and type: the
 * same object, which a producer attached both ways; NULL for none. */
static GstCudaBoxBlurMetaRegion *
find_twin (GArray * found, guint n, const GstCudaBoxBlurDetection * d)
{
  guint i;

  for (i = 0; i < n; i++) {
    GstCudaBoxBlurMetaRegion *m = &g_array_index (found,
        GstCudaBoxBlurMetaRegion, i);

    if (m->x == d->x && m->y == d->y && m->w == d->w && m->h == d->h
        && m->type == d->type)
      return m;
  }
  return NULL;
}

/* Appends to @found the object detections of @buffer's analytics metas
 * of a type @settings want.  A detection with the place and type of a
 * region meta's region of @found is that object once: the region, which
 * may carry parameters, stays the one, takes the detection's tracking id
 * where it has none, and is as sure as the surer of the two (unknown
 * where either is). */
static void
add_detections (const GstCudaBoxBlurSettings * settings, GstBuffer * buffer,
    GArray * found)
{
  GArray *detections = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurDetection));
  const guint n_metas = found->len;
  guint i;

  gst_cuda_box_blur_analytics_detections (buffer, detections);
  for (i = 0; i < detections->len; i++) {
    const GstCudaBoxBlurDetection *d = &g_array_index (detections,
        GstCudaBoxBlurDetection, i);
    GstCudaBoxBlurMetaRegion *twin, m;

    if (!gst_cuda_box_blur_settings_wants_type (settings, d->type))
      continue;
    twin = find_twin (found, n_metas, d);
    if (twin) {
      if (twin->track == 0)
        twin->track = d->track;
      /* never less redacted than either alone would be */
      twin->confidence = twin->confidence < 0 || d->confidence < 0 ? -1 :
          MAX (twin->confidence, d->confidence);
      continue;
    }
    m = new_region (d->x, d->y, d->w, d->h, d->type, d->id,
        GST_CUDA_BOX_BLUR_SOURCE_ANALYTICS_OD);
    m.track = d->track;
    m.confidence = d->confidence;
    g_array_append_val (found, m);
  }
  g_array_unref (detections);
}

/* The settings of a region @w x @h with @settings: radii, sigma and
 * blocks scaled to its size where the scales ask, never so small that
 * they leave it as it is (radius 1, sigma GST_CUDA_BOX_BLUR_MIN_SCALED_SIGMA,
 * blocks of 2: a scale asks for a redaction, however small the region),
 * then what its meta sets (@m may be NULL). */
static void
settings_for_region (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurMetaRegion * m, gint64 w, gint64 h,
    GstCudaBoxBlurSettings * out)
{
  const gdouble size = MIN (w, h);

  *out = *settings;
  if (settings->radius_scale > 0)
    out->radius_x = out->radius_y = CLAMP (round (settings->radius_scale *
            size), 1, GST_CUDA_BOX_BLUR_MAX_RADIUS);
  if (settings->sigma_scale > 0)
    out->sigma = CLAMP (settings->sigma_scale * size,
        GST_CUDA_BOX_BLUR_MIN_SCALED_SIGMA, GST_CUDA_BOX_BLUR_MAX_SIGMA);
  if (settings->block_scale > 0)
    out->block_size = CLAMP (round (settings->block_scale * size), 2,
        GST_CUDA_BOX_BLUR_MAX_BLOCK_SIZE);
  if (m && m->mode >= 0)
    out->mode = m->mode;
  if (m && m->radius >= 0)
    out->radius_x = out->radius_y = m->radius;
  if (m && m->sigma >= 0)
    out->sigma = m->sigma;
  if (m && m->block_size >= 0)
    out->block_size = m->block_size;
  if (m && m->shape >= 0)
    out->shape = m->shape;
  if (m && m->feather >= 0)
    out->feather = m->feather;
  if (m && m->fill_color >= 0)
    out->fill_color = m->fill_color;
  /* resolved: nothing left to take from the region */
  out->roi_meta = FALSE;
  out->radius_scale = out->sigma_scale = out->block_scale = 0;
}

/* Appends region @r with the settings of a region of @w x @h that @m
 * (nullable) sets, unless they leave it untouched; FALSE when they do. */
static gboolean
add_region (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurInfo * info, const GstCudaBoxBlurMetaRegion * m,
    gint64 w, gint64 h, const GstVideoRectangle * r,
    const GstCudaBoxBlurRegionOrigin * origin, GArray * regions,
    GArray * region_settings, GArray * origins)
{
  if (region_settings) {
    GstCudaBoxBlurSettings rs;

    if (origin->reason == GST_CUDA_BOX_BLUR_REASON_NO_REGION)
      gst_cuda_box_blur_settings_for_frame (settings, info, &rs);
    else
      settings_for_region (settings, m, w, h, &rs);
    /* a region kept clear by invert takes only its shape and feather */
    if (!settings->invert && gst_cuda_box_blur_settings_blurs_nothing (&rs,
            info))
      return FALSE;
    g_array_append_val (region_settings, rs);
  }
  g_array_append_vals (regions, r, 1);
  if (origins)
    g_array_append_vals (origins, origin, 1);
  return TRUE;
}

/**
 * gst_cuda_box_blur_settings_for_frame:
 *
 * The settings of a redaction of the whole frame (no-region=redact, and
 * invert's): @settings with the scales applied to the frame's size, as to
 * a region's, hard-edged.
 */
void
gst_cuda_box_blur_settings_for_frame (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurInfo * info, GstCudaBoxBlurSettings * out)
{
  settings_for_region (settings, NULL, info->width, info->height, out);
  out->shape = GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE;
  out->feather = 0;
  out->invert = FALSE;
}

/* The regions of roi_meta: see gst_cuda_box_blur_settings_find_regions().
 * Returns whether any region of a meta lies in the frame. */
static gboolean
find_meta_regions (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurInfo * info, GstBuffer * buffer,
    GstCudaBoxBlurHold * hold, GArray * regions, GArray * region_settings,
    GArray * origins)
{
  GArray *found = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurMetaRegion));
  GstVideoRegionOfInterestMeta *meta;
  gpointer state = NULL;
  const gint pad = settings->roi_padding;
  gboolean in_frame = FALSE;
  guint i;

  while ((meta = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstCudaBoxBlurMetaRegion m;

    if (!gst_cuda_box_blur_settings_wants_type (settings, meta->roi_type))
      continue;
    m = meta_region (meta);
    g_array_append_val (found, m);
  }
  add_detections (settings, buffer, found);
  /* a detector's unsure guesses are left out, before they are held */
  for (i = found->len; i-- > 0;) {
    const GstCudaBoxBlurMetaRegion *m = &g_array_index (found,
        GstCudaBoxBlurMetaRegion, i);

    if (m->confidence >= 0 && m->confidence < settings->roi_min_confidence)
      g_array_remove_index (found, i);
  }
  if (hold)
    hold_update (hold, found, settings, info->width, info->height);

  for (i = 0; i < found->len; i++) {
    const GstCudaBoxBlurMetaRegion *m = &g_array_index (found,
        GstCudaBoxBlurMetaRegion, i);
    const GstCudaBoxBlurRegionOrigin origin = { m->missed > 0 ?
          GST_CUDA_BOX_BLUR_REASON_HELD : GST_CUDA_BOX_BLUR_REASON_META,
      m->type, m->id, m->missed, m->missed > 0 && m->moving
          && settings->roi_hold_motion ==
          GST_CUDA_BOX_BLUR_HOLD_MOTION_LINEAR, m->confidence, m->source
    };
    /* in 64 bits: metas come from anywhere */
    const gint64 x0 = MAX ((gint64) m->x - pad, 0);
    const gint64 y0 = MAX ((gint64) m->y - pad, 0);
    const gint64 x1 = MIN ((gint64) m->x + m->w + pad, info->width);
    const gint64 y1 = MIN ((gint64) m->y + m->h + pad, info->height);
    GstVideoRectangle r;

    if (x1 <= x0 || y1 <= y0)
      continue;
    in_frame = TRUE;
    r.x = x0;
    r.y = y0;
    r.w = x1 - x0;
    r.h = y1 - y0;
    add_region (settings, info, m, m->w, m->h, &r, &origin, regions,
        region_settings, origins);
  }
  g_array_unref (found);
  return in_frame;
}

/**
 * gst_cuda_box_blur_settings_find_regions:
 * @hold: (nullable): the regions held from earlier frames, updated
 * @regions: a #GArray of #GstVideoRectangle, emptied first
 * @region_settings: (nullable): a #GArray of #GstCudaBoxBlurSettings,
 *   emptied first, that gets the settings of each region: @settings with
 *   radius_scale and sigma_scale applied to the region's size (the meta's
 *   rectangle, or the clipped roi), then the fields of the meta's
 *   GST_CUDA_BOX_BLUR_META_PARAMS structure (mode, radius, sigma,
 *   block-size, shape, feather, fill-color; others are ignored with a
 *   warning, once).  Regions these settings leave untouched are left out,
 *   but with invert, where they are kept clear.
 * @origins: (nullable): a #GArray of #GstCudaBoxBlurRegionOrigin, emptied first,
 *   that gets where each region comes from
 *
 * The rectangles of @buffer to blur, in frame pixels, clipped to the frame:
 * with roi_meta, those of its #GstVideoRegionOfInterestMeta and of the
 * object detections of its analytics metas (of one of roi_meta_types when
 * there are any; a detection that repeats a region meta once), and with @hold those of the last
 * roi_hold frames that have no meta in this one (matched by a tracker's
 * id, or by where they lie), each grown by roi_padding on every side; when
 * none of these lies in the frame and no_region is redact, the whole
 * frame, with
 * @settings as for a region of its size, hard-edged (not with invert,
 * which redacts the whole frame around the regions, if any).  Without roi_meta,
 * the roi rectangle, whose 0 width or height reaches the frame's edge (all
 * 0: the whole frame).  Call it once per frame, in order: it counts the
 * frames a region was missed.
 *
 * Returns: the number of rectangles.
 */
guint
gst_cuda_box_blur_settings_find_regions (const GstCudaBoxBlurSettings *
    settings, const GstCudaBoxBlurInfo * info, GstBuffer * buffer,
    GstCudaBoxBlurHold * hold, GArray * regions, GArray * region_settings,
    GArray * origins)
{
  const GstVideoRectangle frame = { 0, 0, info->width, info->height };
  GstCudaBoxBlurRegionOrigin origin = { GST_CUDA_BOX_BLUR_REASON_ROI, 0, 0, 0,
    FALSE, -1
  };
  GstVideoRectangle r;

  g_array_set_size (regions, 0);
  if (region_settings)
    g_array_set_size (region_settings, 0);
  if (origins)
    g_array_set_size (origins, 0);

  if (settings->roi_meta) {
    if (!find_meta_regions (settings, info, buffer, hold, regions,
            region_settings, origins)
        && settings->no_region == GST_CUDA_BOX_BLUR_NO_REGION_REDACT
        && !settings->invert) {
      origin.reason = GST_CUDA_BOX_BLUR_REASON_NO_REGION;
      add_region (settings, info, NULL, frame.w, frame.h, &frame, &origin,
          regions, region_settings, origins);
    }
    return regions->len;
  }

  r = settings->roi;
  if (r.w == 0)
    r.w = info->width - r.x;
  if (r.h == 0)
    r.h = info->height - r.y;
  if (clip_region (&r, info->width, info->height))
    add_region (settings, info, NULL, r.w, r.h, &r, &origin, regions,
        region_settings, origins);
  return regions->len;
}

/**
 * gst_cuda_box_blur_settings_held_regions:
 *
 * gst_cuda_box_blur_settings_find_regions() without the origins.
 */
guint
gst_cuda_box_blur_settings_held_regions (const GstCudaBoxBlurSettings *
    settings, const GstCudaBoxBlurInfo * info, GstBuffer * buffer,
    GstCudaBoxBlurHold * hold, GArray * regions, GArray * region_settings)
{
  return gst_cuda_box_blur_settings_find_regions (settings, info, buffer,
      hold, regions, region_settings, NULL);
}

/**
 * gst_cuda_box_blur_settings_regions:
 *
 * gst_cuda_box_blur_settings_held_regions() of @buffer alone, with no
 * region held from earlier frames.
 */
guint
gst_cuda_box_blur_settings_regions (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurInfo * info, GstBuffer * buffer, GArray * regions)
{
  return gst_cuda_box_blur_settings_held_regions (settings, info, buffer,
      NULL, regions, NULL);
}

/**
 * gst_cuda_box_blur_region_for_component:
 *
 * @region of the frame in the samples of component @component: divided by
 * the subsampling and rounded outwards, so that every chroma sample that
 * covers a pixel of the region is blurred.
 */
void
gst_cuda_box_blur_region_for_component (const GstCudaBoxBlurInfo * info,
    gint component, const GstVideoRectangle * region,
    GstVideoRectangle * scaled)
{
  const GstCudaBoxBlurComponent *comp = &info->comp[component];
  const gint x1 = -((-(region->x + region->w)) >> comp->w_sub);
  const gint y1 = -((-(region->y + region->h)) >> comp->h_sub);

  scaled->x = region->x >> comp->w_sub;
  scaled->y = region->y >> comp->h_sub;
  scaled->w = x1 - scaled->x;
  scaled->h = y1 - scaled->y;
}
