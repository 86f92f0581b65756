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

/* Which of a job's tasks share a launch: regions in layers of those that
 * do not meet, so that one launch writes a layer's regions without a race;
 * the components of a plane of whole pixels blurred alike, so that one
 * launch blurs the pixel; and the kernels a group of tasks takes. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-groups.h"
#include "cudaboxblur-plan.h"

#include <string.h>

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
 * gst_cuda_box_blur_plan_layers:
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
gst_cuda_box_blur_plan_layers (const GstCudaBoxBlurJob * job, GArray * layers,
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
 * gst_cuda_box_blur_plan_in_pixels:
 *
 * Returns: whether component @c of @info lies in a plane of pixels that
 * the GPU plan takes whole: four 8-bit samples (RGBA, BGRx, AYUV ..., not
 * a macropixel of YUY2's), three or two 8-bit ones that are the whole
 * plane (RGB, NV12's UV), or two 16-bit ones that are (P010's UV).
 */
gboolean
gst_cuda_box_blur_plan_in_pixels (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurComponent * c)
{
  const gint samples = c->step / info->sample_size;
  const gboolean whole = info->plane_components[c->plane] == samples;

  switch (info->type) {
    case GST_CUDA_BOX_BLUR_U8:
      return (samples == 4 && c->w_sub == 0)
          || ((samples == 2 || samples == 3) && whole);
    case GST_CUDA_BOX_BLUR_U16:
      return samples == 2 && whole;
    default:
      return FALSE;
  }
}

/* Whether component @c of @info lies in a plane of packed 4:2:2 (YUY2,
 * UYVY, YVYU): macropixels of four 8-bit samples, two luma ones two bytes
 * apart and two chroma ones. */
static gboolean
in_macropixels (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurComponent * c)
{
  return info->type == GST_CUDA_BOX_BLUR_U8 && info->pixel_bytes[c->plane] == 4
      && info->plane_components[c->plane] == 3
      && !gst_cuda_box_blur_plan_in_pixels (info, c);
}

/* The luma task and a chroma task of the three from @first, which blur a
 * plane of packed 4:2:2 (@luma NULL where none of them is the luma's). */
static void
macropixel_tasks (const GstCudaBoxBlurJob * job, guint first,
    const GstCudaBoxBlurTask ** luma, const GstCudaBoxBlurTask ** chroma)
{
  const GstCudaBoxBlurTask *tasks =
      (const GstCudaBoxBlurTask *) job->tasks->data;
  guint k;

  *luma = *chroma = NULL;
  for (k = first; k < first + 3; k++)
    if (job->info->comp[tasks[k].component].kind == GST_CUDA_BOX_BLUR_LUMA)
      *luma = &tasks[k];
    else
      *chroma = &tasks[k];
}

/* The tasks from @first on that blur, in @pass, every sample of a plane
 * of packed 4:2:2 alike (gst_cuda_box_blur_plan_blur_422() then takes them
 * in one launch): its three components of one region, with the same
 * windows but for the chroma's radius_x, the same for both, over the same
 * macropixels (the frame of an even width), all composed or none.  3, or
 * 1 where they are not. */
static guint
macropixel_group (const GstCudaBoxBlurJob * job, guint first, gint pass)
{
  const GstCudaBoxBlurInfo *info = job->info;
  const GstCudaBoxBlurTask *tasks =
      (const GstCudaBoxBlurTask *) job->tasks->data;
  const GstCudaBoxBlurTask *luma, *chroma;
  guint k;

  if (shares_plane (job, &tasks[first], first - 1)
      || !shares_plane (job, &tasks[first], first + 2)
      || shares_plane (job, &tasks[first], first + 3))
    return 1;
  macropixel_tasks (job, first, &luma, &chroma);
  if (!luma || luma->pass[pass].work != GST_CUDA_BOX_BLUR_WORK_WINDOWS
      || info->comp[luma->component].width !=
      2 * info->comp[chroma->component].width
      || luma->rect.x != 2 * chroma->rect.x
      || luma->rect.w != 2 * chroma->rect.w
      || luma->rect.y != chroma->rect.y || luma->rect.h != chroma->rect.h)
    return 1;
  for (k = first; k < first + 3; k++) {
    GstCudaBoxBlurWindow w = tasks[k].pass[pass];

    if (&tasks[k] != luma
        && (w.radius_x != chroma->pass[pass].radius_x
            || memcmp (&tasks[k].rect, &chroma->rect, sizeof (chroma->rect))))
      return 1;
    w.radius_x = luma->pass[pass].radius_x;
    if (!gst_cuda_box_blur_windows_alike (&w, &luma->pass[pass])
        || gst_cuda_box_blur_window_composes (&tasks[k].window) !=
        gst_cuda_box_blur_window_composes (&luma->window))
      return 1;
  }
  return 3;
}

/**
 * gst_cuda_box_blur_plan_pixel_group:
 * @blurred: (out): where more than one, the bytes of the pixel the group
 *   blurs (bit i for byte i); 0 otherwise
 *
 * The tasks from @first on that blur, in @pass, the same pixels with the
 * same window: every component a region blurs of a plane of pixels
 * (gst_cuda_box_blur_plan_in_pixels()), or of packed 4:2:2 alike but for
 * the chroma's radius_x (@blurred then 0xf).  1 where the region blurs only
 * @first's component of the plane, or blurs another with a window of its
 * own (AYUV's chroma radius): the whole pixels written would then race
 * with that component's samples.
 *
 * Returns: how many tasks the group has.
 */
guint
gst_cuda_box_blur_plan_pixel_group (const GstCudaBoxBlurJob * job,
    guint first, gint pass, guint * blurred)
{
  const GstCudaBoxBlurTask *tasks =
      (const GstCudaBoxBlurTask *) job->tasks->data;
  const GstCudaBoxBlurTask *t0 = &tasks[first];
  const GstCudaBoxBlurComponent *c0 = &job->info->comp[t0->component];
  guint n, mask;

  *blurred = 0;
  if (in_macropixels (job->info, c0)) {
    n = macropixel_group (job, first, pass);
    *blurred = n > 1 ? 0xf : 0;
    return n;
  }
  if (!gst_cuda_box_blur_plan_in_pixels (job->info, c0))
    return 1;
  /* a sample's bytes */
  mask = (1u << job->info->sample_size) - 1;
  *blurred = mask << c0->offset;
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
    *blurred |= mask << c->offset;
  }
  if (shares_plane (job, t0, first - 1) || shares_plane (job, t0,
          first + n))
    n = 1;
  if (n == 1)
    *blurred = 0;
  return n;
}

/* The kernels of @job's blurs with @window, a component at a time: the
 * separable blur of a frame some of whose components lie between others'
 * samples but not in pixels the plan takes whole (YUY2's where the one
 * pass does not take its macropixels: blur_macropixels ()), which take two
 * passes, takes two passes for every component, which then share their
 * launches.  So does their 8-bit 3x3 box: the direct kernel would take
 * such a component a byte at a time, through its edge path, with no word
 * loads (H200, 1080p YUY2: 0.0677 ms at radius 1, against 0.0460 in two
 * passes at radius 8).  The window chooses for the others (planes of their
 * own, whose 3x3 box of 8-bit samples gst_cuda_box_blur_plan_choose_plane()
 * then chooses, and pixels: NV12's UV, RGB, RGBA ...). */
static GstCudaBoxBlurVariant
job_variant (const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurWindow * window)
{
  const GstCudaBoxBlurInfo *info = job->info;
  const GstCudaBoxBlurVariant variant =
      gst_cuda_box_blur_plan_choose (window);
  const gboolean box3_u8 = info->type == GST_CUDA_BOX_BLUR_U8
      && window->radius_x == 1 && window->radius_y == 1;
  gint c;

  if (variant == GST_CUDA_BOX_BLUR_SEPARABLE
      || (variant == GST_CUDA_BOX_BLUR_DIRECT && box3_u8))
    for (c = 0; c < info->n_components; c++)
      if (info->comp[c].step != info->sample_size
          && !gst_cuda_box_blur_plan_in_pixels (info, &info->comp[c]))
        return GST_CUDA_BOX_BLUR_TWO_PASS;
  return variant;
}

/* gst_cuda_box_blur_plan_blur_tasks() of the three tasks from @first, a
 * plane of packed 4:2:2 (macropixel_group ()): the one pass over its
 * macropixels, where it takes them, else each component on its own. */
static void
blur_macropixels (GstCudaBoxBlurPlan * plan, const GstCudaBoxBlurJob * job,
    guint first, gint pass, const GstCudaBoxBlurPlane * in,
    const GstCudaBoxBlurPlane * out, const GstVideoRectangle * rect)
{
  const GstCudaBoxBlurInfo *info = job->info;
  const GstCudaBoxBlurTask *tasks =
      (const GstCudaBoxBlurTask *) job->tasks->data;
  const GstCudaBoxBlurComponent *c0 = &info->comp[tasks[first].component];
  const GstCudaBoxBlurTask *luma, *chroma;
  GstCudaBoxBlurPlane src = *in, dst = *out;
  guint k;

  macropixel_tasks (job, first, &luma, &chroma);
  src.data -= c0->offset;
  dst.data -= c0->offset;
  src.step = dst.step = 4;
  src.width = dst.width = info->comp[chroma->component].width;
  if (gst_cuda_box_blur_plan_blur_422 (plan,
          gst_cuda_box_blur_plan_choose (&luma->pass[pass]), &src, &dst,
          &luma->pass[pass], chroma->pass[pass].radius_x,
          info->comp[luma->component].offset, rect ? &chroma->rect : NULL))
    return;
  for (k = first; k < first + 3; k++) {
    const GstCudaBoxBlurComponent *c = &info->comp[tasks[k].component];
    GstCudaBoxBlurPlane s = *in, d = *out;

    s.data += c->offset - c0->offset;
    d.data += c->offset - c0->offset;
    s.step = d.step = c->step;
    s.width = d.width = c->width;
    gst_cuda_box_blur_plan_blur_tasks (plan, job, k, 1, 0, pass, &s, &d,
        rect ? &tasks[k].rect : NULL);
  }
}

/**
 * gst_cuda_box_blur_plan_blur_tasks:
 * @n: the size of @first's group (gst_cuda_box_blur_plan_pixel_group())
 * @blurred: the group's bytes of a pixel
 * @in: (not nullable): @first's component plane to read
 * @out: (not nullable): the same to write
 * @rect: (nullable): the region, or NULL for the whole plane
 *
 * Queues @pass of the @n tasks from @first of @job, with the kernels
 * chosen for the job and the window: whole pixels where there are
 * several.  Whole pairs and pixels of three take the separable blur for
 * direct windows too: its one pass takes their samples side by side,
 * where the direct kernels would take one component at a time, a byte
 * apart from the next (H200, 4K RGB radius 1: 0.078 against 0.167 ms;
 * 4K NV12: 0.0892 ms at radius 1, its UV a component at a time, against
 * 0.0430 at radius 8).
 */
void
gst_cuda_box_blur_plan_blur_tasks (GstCudaBoxBlurPlan * plan,
    const GstCudaBoxBlurJob * job, guint first, guint n, guint blurred,
    gint pass, const GstCudaBoxBlurPlane * in,
    const GstCudaBoxBlurPlane * out, const GstVideoRectangle * rect)
{
  const GstCudaBoxBlurTask *task = &g_array_index (job->tasks,
      GstCudaBoxBlurTask, first);
  const GstCudaBoxBlurWindow *window = &task->pass[pass];
  const GstCudaBoxBlurComponent *c = &job->info->comp[task->component];
  GstCudaBoxBlurVariant variant = job_variant (job, window);
  GstCudaBoxBlurPlane src = *in, dst = *out;

  if (n > 1 && !gst_cuda_box_blur_plan_in_pixels (job->info, c)) {
    blur_macropixels (plan, job, first, pass, in, out, rect);
    return;
  }
  if (n == 1) {
    if (variant == GST_CUDA_BOX_BLUR_DIRECT)
      variant = gst_cuda_box_blur_plan_choose_plane (plan, in, out, window,
          rect);
    gst_cuda_box_blur_plan_blur_variant (plan, variant, in, out, window,
        rect);
    return;
  }
  if (variant == GST_CUDA_BOX_BLUR_DIRECT && (c->step == 2 || c->step == 3)
      && blurred == (1u << c->step) - 1)
    variant = GST_CUDA_BOX_BLUR_SEPARABLE;
  src.data -= c->offset;
  dst.data -= c->offset;
  gst_cuda_box_blur_plan_blur_pixels (plan, variant, &src, &dst, window,
      rect, blurred);
}
