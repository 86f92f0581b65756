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

/* The bytes of the job's tasks, each rectangle grown by its windows'
 * reach inside its plane. */
static gdouble
task_bytes (const GstCudaBoxBlurJob * job)
{
  gdouble bytes = 0;
  guint t;

  for (t = 0; t < job->tasks->len; t++) {
    const GstCudaBoxBlurTask *task = &g_array_index (job->tasks,
        GstCudaBoxBlurTask, t);
    const GstCudaBoxBlurComponent *comp = &job->info->comp[task->component];

    bytes += MIN ((gdouble) task->rect.w + 2 * task->window.radius_x,
        comp->width) * MIN ((gdouble) task->rect.h +
        2 * task->window.radius_y + 2, comp->height) * job->info->sample_size;
  }
  return bytes;
}

static void resolve_tasks (GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurSettings * settings);

/* Replaces the job's regions by the whole frame, redacted with @settings
 * as no-region=redact does, or where those change nothing (the regions'
 * redaction came from their metas' parameters) as its first region is,
 * hard-edged; for @reason. */
static void
redact_whole (GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurSettings * settings, GstCudaBoxBlurReason reason)
{
  const GstVideoRectangle frame = { 0, 0, job->info->width,
    job->info->height
  };
  const GstCudaBoxBlurRegionOrigin origin = { reason, 0, 0, 0, FALSE, -1 };
  GstCudaBoxBlurSettings whole;

  gst_cuda_box_blur_settings_for_frame (settings, job->info, &whole);
  if (gst_cuda_box_blur_settings_blurs_nothing (&whole, job->info)) {
    whole = g_array_index (job->region_settings, GstCudaBoxBlurSettings, 0);
    whole.shape = GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE;
    whole.feather = 0;
  }
  g_array_set_size (job->regions, 0);
  g_array_append_val (job->regions, frame);
  g_array_set_size (job->region_settings, 0);
  g_array_append_val (job->region_settings, whole);
  g_array_set_size (job->origins, 0);
  g_array_append_val (job->origins, origin);
  resolve_tasks (job, settings);
}

/* Fills the job's tasks, passes and whole-frame flags from its regions and
 * their settings, or with invert from @settings; regions that would take
 * more than GST_CUDA_BOX_BLUR_MAX_REGION_FRAMES make way for the whole
 * frame. */
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
    /* (the whole frame alone takes at most one frame's worth) */
    if (job->regions->len > 1 && task_bytes (job) >
        GST_CUDA_BOX_BLUR_MAX_REGION_FRAMES * (gdouble) info->size) {
      redact_whole (job, settings, GST_CUDA_BOX_BLUR_REASON_MANY_REGIONS);
      return;
    }
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
static const gchar *const source_nicks[] = GST_CUDA_BOX_BLUR_SOURCE_NICKS;

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
        "reason", G_TYPE_STRING, reason_nicks[o->reason],
        "meta", G_TYPE_STRING, source_nicks[o->source], NULL);

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
