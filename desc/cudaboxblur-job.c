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

/* The resolve step: a frame's settings, caps and region metas made, once,
 * into the plain description the engine works from. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-job.h"

#include <string.h>

void
gst_cuda_box_blur_job_init (GstCudaBoxBlurJob * job)
{
  memset (job, 0, sizeof (*job));
  job->regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  job->region_settings = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurSettings));
  job->origins = g_array_new (FALSE, FALSE, sizeof (GstCudaBoxBlurRegionOrigin));
  job->tasks = g_array_new (FALSE, FALSE, sizeof (GstCudaBoxBlurTask));
  job->keeps = g_array_new (FALSE, FALSE, sizeof (GstCudaBoxBlurTask));
}

void
gst_cuda_box_blur_job_clear (GstCudaBoxBlurJob * job)
{
  g_clear_pointer (&job->regions, g_array_unref);
  g_clear_pointer (&job->region_settings, g_array_unref);
  g_clear_pointer (&job->origins, g_array_unref);
  g_clear_pointer (&job->tasks, g_array_unref);
  g_clear_pointer (&job->keeps, g_array_unref);
}

/* Appends a task for each component that @rs changes in @rect of the
 * frame, as region @region; returns whether they all have hard edges. */
static gboolean
add_tasks (GstCudaBoxBlurJob * job, guint region,
    const GstVideoRectangle * rect, const GstCudaBoxBlurSettings * rs)
{
  const GstCudaBoxBlurInfo *info = job->info;
  gboolean hard_edges = TRUE;
  gint c, pass;

  for (c = 0; c < info->n_components; c++) {
    GstCudaBoxBlurTask task = { region, c, };

    if (!gst_cuda_box_blur_settings_window (rs, info, c, &task.window))
      continue;
    gst_cuda_box_blur_region_for_component (info, c, rect, &task.rect);
    for (pass = 0; pass < job->n_passes; pass++)
      gst_cuda_box_blur_settings_pass_window (rs, info, c, pass,
          &task.pass[pass]);
    hard_edges &= !gst_cuda_box_blur_window_composes (&task.window);
    g_array_append_val (job->tasks, task);
  }
  return hard_edges;
}

/* invert: the whole frame's tasks with @settings, hard-edged, then a keep
 * for each region and each component they change. */
static void
resolve_invert (GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurSettings * settings)
{
  const GstCudaBoxBlurInfo *info = job->info;
  const GstVideoRectangle frame = { 0, 0, info->width, info->height };
  GstCudaBoxBlurSettings whole;
  guint i, t;

  gst_cuda_box_blur_settings_for_frame (settings, info, &whole);
  job->n_passes = gst_cuda_box_blur_settings_passes (&whole);
  job->whole_frame = add_tasks (job, G_MAXUINT, &frame, &whole);

  for (i = 0; i < job->regions->len; i++) {
    const GstCudaBoxBlurSettings *rs = &g_array_index (job->region_settings,
        GstCudaBoxBlurSettings, i);

    for (t = 0; t < job->tasks->len; t++) {
      const gint c = g_array_index (job->tasks, GstCudaBoxBlurTask,
          t).component;
      GstCudaBoxBlurTask keep = { i, c, };
      gint f;

      /* only the shape and the feather of the region's settings count */
      gst_cuda_box_blur_settings_window (rs, info, c, &keep.window);
      if (keep.window.work == GST_CUDA_BOX_BLUR_WORK_FILL)
        keep.window.work = GST_CUDA_BOX_BLUR_WORK_WINDOWS;
      f = keep.window.feather;
      gst_cuda_box_blur_region_for_component (info, c,
          &g_array_index (job->regions, GstVideoRectangle, i), &keep.rect);
      /* clear inside the shape, fading into the redaction over f samples
       * outside it: the shape of the rectangle grown by f, feathered */
      keep.rect.x -= f;
      keep.rect.y -= f;
      keep.rect.w += 2 * f;
      keep.rect.h += 2 * f;
      g_array_append_val (job->keeps, keep);
    }
  }
}

/* Fills the job's tasks, passes and whole-frame flags from its regions and
 * their settings, or with invert from @settings. */
static void
resolve_tasks (GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurSettings * settings)
{
  const GstCudaBoxBlurInfo *info = job->info;
  const GstCudaBoxBlurSettings *all =
      (const GstCudaBoxBlurSettings *) job->region_settings->data;
  const GstVideoRectangle *regions =
      (const GstVideoRectangle *) job->regions->data;
  gboolean hard_edges = TRUE;
  guint i;

  g_array_set_size (job->tasks, 0);
  g_array_set_size (job->keeps, 0);
  job->invert = settings->invert;
  job->n_passes = 0;
  if (job->invert) {
    resolve_invert (job, settings);
  } else {
    for (i = 0; i < job->regions->len; i++)
      job->n_passes = MAX (job->n_passes,
          gst_cuda_box_blur_settings_passes (&all[i]));
    for (i = 0; i < job->regions->len; i++)
      hard_edges &= add_tasks (job, i, &regions[i], &all[i]);
    job->whole_frame = job->regions->len == 1 && regions[0].x == 0
        && regions[0].y == 0 && regions[0].w == info->width
        && regions[0].h == info->height && hard_edges;
  }
  job->covers = job->whole_frame && !info->has_padding
      && job->tasks->len == (guint) info->n_components;
}

/**
 * gst_cuda_box_blur_job_resolve:
 * @hold: (nullable): the regions held from earlier frames, updated
 *
 * Resolves what @buffer gets: its regions, their settings and origins, as
 * gst_cuda_box_blur_settings_find_regions() gives them, then the windows
 * of each component of each region.  Call it once per frame, in order.
 *
 * Returns: the number of regions; 0 when the frame is left as it is.
 */
guint
gst_cuda_box_blur_job_resolve (GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurSettings * settings, const GstCudaBoxBlurInfo * info,
    GstBuffer * buffer, GstCudaBoxBlurHold * hold)
{
  job->info = info;
  gst_cuda_box_blur_settings_find_regions (settings, info, buffer, hold,
      job->regions, job->region_settings, job->origins);
  resolve_tasks (job, settings);
  return job->regions->len;
}

/**
 * gst_cuda_box_blur_job_set:
 * @regions: rectangles of the frame, in frame pixels, clipped to it
 * @region_settings: (nullable): the settings of each region; %NULL:
 *   @settings for every region
 *
 * Resolves a frame whose regions are given, as the roi properties'.
 *
 * Returns: @n_regions.
 */
guint
gst_cuda_box_blur_job_set (GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurSettings * settings, const GstCudaBoxBlurInfo * info,
    const GstVideoRectangle * regions, guint n_regions,
    const GstCudaBoxBlurSettings * region_settings)
{
  const GstCudaBoxBlurRegionOrigin roi = { GST_CUDA_BOX_BLUR_REASON_ROI, 0, 0,
    0, FALSE, -1
  };
  guint i;

  job->info = info;
  g_array_set_size (job->regions, 0);
  g_array_append_vals (job->regions, regions, n_regions);
  g_array_set_size (job->region_settings, 0);
  g_array_set_size (job->origins, 0);
  for (i = 0; i < n_regions; i++) {
    g_array_append_vals (job->region_settings,
        gst_cuda_box_blur_region_settings (settings, region_settings, i), 1);
    g_array_append_val (job->origins, roi);
  }
  resolve_tasks (job, settings);
  return n_regions;
}

/**
 * gst_cuda_box_blur_job_redacts:
 *
 * Whether the job changes the frame at all; when it does not, the frame
 * goes out as it came in.
 */
gboolean
gst_cuda_box_blur_job_redacts (const GstCudaBoxBlurJob * job)
{
  return job->tasks->len > 0;
}

/**
 * gst_cuda_box_blur_job_in_place_helps:
 *
 * Whether blurring the job's regions where they are saves work: it does
 * unless they are the whole frame blurred with a hard edge, or the frame
 * around them (invert).
 */
gboolean
gst_cuda_box_blur_job_in_place_helps (const GstCudaBoxBlurJob * job)
{
  return job->regions->len > 0 && !job->whole_frame && !job->invert;
}

static const gchar *const shape_nicks[] = GST_CUDA_BOX_BLUR_SHAPE_NICKS;
static const gchar *const reason_nicks[] = GST_CUDA_BOX_BLUR_REASON_NICKS;

/* The lines of the tasks of @tasks of region @region. */
static void
append_tasks (GString * s, const GstCudaBoxBlurJob * job, const GArray * tasks,
    guint region)
{
  guint t;
  gint pass;

  for (t = 0; t < tasks->len; t++) {
    const GstCudaBoxBlurTask *task = &g_array_index (tasks,
        GstCudaBoxBlurTask, t);

    if (task->region != region)
      continue;
    g_string_append_printf (s, "\n    component %d: %dx%d at %d,%d, %s, "
        "feather %d", task->component, task->rect.w, task->rect.h,
        task->rect.x, task->rect.y, shape_nicks[task->window.shape],
        task->window.feather);
    if (tasks == job->keeps) {
      g_string_append (s, ", kept");
      continue;
    }
    g_string_append_printf (s, ", border %d, passes", task->window.border);
    for (pass = 0; pass < job->n_passes; pass++) {
      g_string_append (s, pass ? "; " : " ");
      gst_cuda_box_blur_window_describe (&task->pass[pass], s);
    }
  }
}

/**
 * gst_cuda_box_blur_job_to_string:
 *
 * Returns: (transfer full): the job in words, a line per region and a line
 * per component of it, for the debug log.
 */
gchar *
gst_cuda_box_blur_job_to_string (const GstCudaBoxBlurJob * job)
{
  GString *s = g_string_new (NULL);
  guint i;

  g_string_append_printf (s, "%s %dx%d: %u regions, %d passes%s%s%s",
      job->info->format, job->info->width, job->info->height,
      job->regions->len, job->n_passes,
      job->invert ? ", the frame around them" : "",
      job->whole_frame ? ", the whole frame" : "",
      job->covers ? ", every byte" : "");
  if (job->invert) {
    g_string_append (s, "\n  the frame:");
    append_tasks (s, job, job->tasks, G_MAXUINT);
  }
  for (i = 0; i < job->regions->len; i++) {
    const GstVideoRectangle *r = &g_array_index (job->regions,
        GstVideoRectangle, i);
    const GstCudaBoxBlurSettings *rs = &g_array_index (job->region_settings,
        GstCudaBoxBlurSettings, i);
    const GstCudaBoxBlurRegionOrigin *o = &g_array_index (job->origins,
        GstCudaBoxBlurRegionOrigin, i);

    g_string_append_printf (s, "\n  region %u: %dx%d at %d,%d, %s (%s", i,
        r->w, r->h, r->x, r->y, job->invert ? "kept" :
        gst_cuda_box_blur_mode_row (rs->mode)->nick,
        reason_nicks[o->reason]);
    if (o->type)
      g_string_append_printf (s, " %s", g_quark_to_string (o->type));
    if (o->id)
      g_string_append_printf (s, " %d", o->id);
    g_string_append_c (s, ')');
    append_tasks (s, job, job->invert ? job->keeps : job->tasks, i);
  }
  return g_string_free (s, FALSE);
}

/* @t in @segment's stream or running time; NONE outside a time segment. */
static GstClockTime
segment_time (const GstSegment * segment, gboolean running, GstClockTime t)
{
  if (segment->format != GST_FORMAT_TIME || !GST_CLOCK_TIME_IS_VALID (t))
    return GST_CLOCK_TIME_NONE;
  return running ? gst_segment_to_running_time (segment, GST_FORMAT_TIME, t)
      : gst_segment_to_stream_time (segment, GST_FORMAT_TIME, t);
}

/**
 * gst_cuda_box_blur_job_audit:
 * @segment: the segment @buffer plays in
 * @buffer: the frame @job redacted
 *
 * The structure of the element message that post-messages posts for the
 * frame: its times, and each region of @job as it was redacted, with why
 * (docs/redaction.md, "Audit messages").
 *
 * Returns: (transfer full): a structure named "cudaboxblur"
 */
GstStructure *
gst_cuda_box_blur_job_audit (const GstCudaBoxBlurJob * job,
    const GstSegment * segment, GstBuffer * buffer)
{
  const GstClockTime pts = GST_BUFFER_PTS (buffer);
  GValue regions = G_VALUE_INIT;
  GstStructure *s;
  guint i;

  g_value_init (&regions, GST_TYPE_LIST);
  for (i = 0; i < job->regions->len; i++) {
    const GstVideoRectangle *r = &g_array_index (job->regions,
        GstVideoRectangle, i);
    const GstCudaBoxBlurSettings *rs = &g_array_index (job->region_settings,
        GstCudaBoxBlurSettings, i);
    const GstCudaBoxBlurRegionOrigin *o = &g_array_index (job->origins,
        GstCudaBoxBlurRegionOrigin, i);
    GValue region = G_VALUE_INIT;
    GstStructure *rd = gst_structure_new ("region",
        "x", G_TYPE_UINT, (guint) r->x, "y", G_TYPE_UINT, (guint) r->y,
        "width", G_TYPE_UINT, (guint) r->w,
        "height", G_TYPE_UINT, (guint) r->h,
        "type", G_TYPE_STRING, o->type ? g_quark_to_string (o->type) : "",
        "id", G_TYPE_INT, o->id,
        "mode", G_TYPE_STRING, job->invert ? "keep" :
        gst_cuda_box_blur_mode_row (rs->mode)->nick,
        "reason", G_TYPE_STRING, reason_nicks[o->reason], NULL);

    /* a held region: for how long, and whether it moved on */
    if (o->reason == GST_CUDA_BOX_BLUR_REASON_HELD)
      gst_structure_set (rd, "held-frames", G_TYPE_UINT, o->held,
          "predicted", G_TYPE_BOOLEAN, o->predicted, NULL);
    if (o->confidence >= 0)
      gst_structure_set (rd, "confidence", G_TYPE_DOUBLE, o->confidence,
          NULL);
    g_value_init (&region, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&region, rd);
    gst_value_list_append_and_take_value (&regions, &region);
  }
  s = gst_structure_new ("cudaboxblur",
      "timestamp", G_TYPE_UINT64, pts,
      "stream-time", G_TYPE_UINT64, segment_time (segment, FALSE, pts),
      "running-time", G_TYPE_UINT64, segment_time (segment, TRUE, pts),
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buffer),
      "invert", G_TYPE_BOOLEAN, job->invert, NULL);
  gst_structure_take_value (s, "regions", &regions);
  return s;
}

/**
 * gst_cuda_box_blur_rectangles_meet:
 *
 * Returns: whether @a and @b share a sample.
 */
gboolean
gst_cuda_box_blur_rectangles_meet (const GstVideoRectangle * a,
    const GstVideoRectangle * b)
{
  return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h
      && b->y < a->y + a->h;
}

/* @r grown outwards to whole subsampled samples: to multiples of
 * 2^w_sub columns and 2^h_sub rows. */
static GstVideoRectangle
align_to_subsampling (const GstVideoRectangle * r, gint w_sub, gint h_sub)
{
  const gint mx = (1 << w_sub) - 1, my = (1 << h_sub) - 1;
  GstVideoRectangle a;

  a.x = r->x & ~mx;
  a.y = r->y & ~my;
  a.w = ((r->x + r->w + mx) & ~mx) - a.x;
  a.h = ((r->y + r->h + my) & ~my) - a.y;
  return a;
}

/**
 * gst_cuda_box_blur_job_layers:
 * @layers: a #GArray of guint that gets the layer of each region
 * @rounded: a #GArray of #GstVideoRectangle, room for the regions rounded
 *   out to the chroma subsampling
 *
 * Puts each region of @job in the first layer after every earlier region
 * it overlaps, so that the regions of one layer are written by the same
 * launches without a race and a later region lies over an earlier one.
 * Regions meet where their samples of any component do: chroma samples
 * cover several pixels.
 *
 * Returns: the number of layers.
 */
guint
gst_cuda_box_blur_job_layers (const GstCudaBoxBlurJob * job, GArray * layers,
    GArray * rounded)
{
  const GstCudaBoxBlurInfo *info = job->info;
  const GstVideoRectangle *regions =
      (const GstVideoRectangle *) job->regions->data;
  const guint n_regions = job->regions->len;
  const GstVideoRectangle *r;
  gint w_sub = 0, h_sub = 0, c;
  guint i, j, n_layers = 0;

  for (c = 0; c < info->n_components; c++) {
    w_sub = MAX (w_sub, info->comp[c].w_sub);
    h_sub = MAX (h_sub, info->comp[c].h_sub);
  }
  g_array_set_size (layers, n_regions);
  g_array_set_size (rounded, n_regions);
  r = (const GstVideoRectangle *) rounded->data;
  for (i = 0; i < n_regions; i++)
    g_array_index (rounded, GstVideoRectangle, i) =
        align_to_subsampling (&regions[i], w_sub, h_sub);
  for (i = 0; i < n_regions; i++) {
    guint layer = 0;

    for (j = 0; j < i; j++)
      if (gst_cuda_box_blur_rectangles_meet (&r[i], &r[j]))
        layer = MAX (layer, g_array_index (layers, guint, j) + 1);
    g_array_index (layers, guint, i) = layer;
    n_layers = MAX (n_layers, layer + 1);
  }
  return n_layers;
}

/* Whether task @i (if there is one) changes a component of @task's
 * region in the same plane. */
static gboolean
shares_plane (const GstCudaBoxBlurJob * job, const GstCudaBoxBlurTask * task,
    guint i)
{
  const GstCudaBoxBlurTask *t;

  if (i >= job->tasks->len)
    return FALSE;
  t = &g_array_index (job->tasks, GstCudaBoxBlurTask, i);
  return t->region == task->region
      && job->info->comp[t->component].plane ==
      job->info->comp[task->component].plane;
}

/**
 * gst_cuda_box_blur_info_in_pixels:
 *
 * Returns: whether component @c of @info lies in a plane of pixels that
 * the GPU plan takes whole: four 8-bit samples (RGBA, BGRx, AYUV ..., not
 * a macropixel of YUY2's), or three or two of them that are the whole
 * plane (RGB, NV12's UV).
 */
gboolean
gst_cuda_box_blur_info_in_pixels (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurComponent * c)
{
  if (info->type != GST_CUDA_BOX_BLUR_U8)
    return FALSE;
  return (c->step == 4 && c->w_sub == 0) || ((c->step == 2 || c->step == 3)
      && info->plane_components[c->plane] == c->step);
}

/**
 * gst_cuda_box_blur_job_pixel_group:
 * @blurred: (out): where more than one, the bytes of the pixel the group
 *   blurs (bit i for byte i); 0 otherwise
 *
 * The tasks from @first on that blur, in @pass, the same pixels with the
 * same window: every component a region blurs of a plane of pixels
 * (gst_cuda_box_blur_info_in_pixels()).  1 where the region blurs only
 * @first's component of the plane, or blurs another with a window of its
 * own (AYUV's chroma radius): the whole pixels written would then race
 * with that component's samples.
 *
 * Returns: how many tasks the group has.
 */
guint
gst_cuda_box_blur_job_pixel_group (const GstCudaBoxBlurJob * job,
    guint first, gint pass, guint * blurred)
{
  const GstCudaBoxBlurTask *tasks =
      (const GstCudaBoxBlurTask *) job->tasks->data;
  const GstCudaBoxBlurTask *t0 = &tasks[first];
  const GstCudaBoxBlurComponent *c0 = &job->info->comp[t0->component];
  guint n;

  *blurred = 0;
  if (!gst_cuda_box_blur_info_in_pixels (job->info, c0))
    return 1;
  *blurred = 1u << c0->offset;
  for (n = 1; first + n < job->tasks->len; n++) {
    const GstCudaBoxBlurTask *t = &tasks[first + n];
    const GstCudaBoxBlurComponent *c = &job->info->comp[t->component];

    if (t->region != t0->region || c->plane != c0->plane
        || !gst_cuda_box_blur_windows_alike (&t->pass[pass], &t0->pass[pass])
        || t->rect.x != t0->rect.x || t->rect.y != t0->rect.y
        || t->rect.w != t0->rect.w || t->rect.h != t0->rect.h
        || gst_cuda_box_blur_window_composes (&t->window) !=
        gst_cuda_box_blur_window_composes (&t0->window))
      break;
    *blurred |= 1u << c->offset;
  }
  if (shares_plane (job, t0, first - 1) || shares_plane (job, t0,
          first + n))
    n = 1;
  if (n == 1)
    *blurred = 0;
  return n;
}
