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

/* One frame's job made into copies and kernel launches, with the same
 * result as the CPU reference's box_blur_ref_frame().  Plain C: no CUDA
 * call. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-frameplan.h"
#include "cudaboxblur-groups.h"
#include "boxblur-args.h"
#include "cudaboxblur-debug.h"

#include <string.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurframeplan",
    "cudaboxblur plan of a frame")

enum
{
  BEFORE,
  AFTER,
};

/* The bytes of one plane around one region, copied to the halo memory
 * (the components of the plane share them). */
typedef struct
{
  gint plane;
  GstVideoRectangle halo;       /* x and w in bytes of the plane's rows, y
                                 * and h in rows */
  gsize offset;                 /* of the first copy in the halo memory */
  gint pitch;                   /* bytes from one row of a copy to the next */
} HaloCopy;

/* Where the passes of one task run. */
typedef struct
{
  const GstCudaBoxBlurTask *task;
  guint copy;                   /* index of its HaloCopy; none for a fill */
  guint layer;                  /* of its region */
} HaloSlot;

struct _GstCudaBoxBlurFramePlan
{
  GstCudaBoxBlurPlan *plan;     /* the launches */
  gpointer log_object;          /* GObject or NULL, not reffed */
  GArray *copies[2];            /* GstCudaBoxBlurCopy, BEFORE and AFTER the
                                 * launches */

  /* the regions' halo copies, laid out by measure () */
  GArray *halo_copies;          /* HaloCopy */
  gint sheets;                  /* copies of each halo: two where the
                                 * passes need scratch room */
  GArray *slots;                /* HaloSlot, one a task */
  GArray *layers;               /* guint: the layer of each region */
  GArray *rounded;              /* GstVideoRectangle: each region rounded
                                 * out to the chroma subsampling */
  guint n_layers;
};

/**
 * gst_cuda_box_blur_frame_plan_new:
 * @log_object: (nullable): the #GObject the log lines name, which must
 *   outlive the plan
 */
GstCudaBoxBlurFramePlan *
gst_cuda_box_blur_frame_plan_new (const GstCudaBoxBlurTarget * target,
    gpointer log_object)
{
  GstCudaBoxBlurFramePlan *frame = g_new0 (GstCudaBoxBlurFramePlan, 1);

  frame->plan = gst_cuda_box_blur_plan_new (target);
  frame->log_object = log_object;
  frame->copies[BEFORE] = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurCopy));
  frame->copies[AFTER] = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurCopy));
  frame->halo_copies = g_array_new (FALSE, FALSE, sizeof (HaloCopy));
  frame->slots = g_array_new (FALSE, FALSE, sizeof (HaloSlot));
  frame->layers = g_array_new (FALSE, FALSE, sizeof (guint));
  frame->rounded = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  return frame;
}

void
gst_cuda_box_blur_frame_plan_free (GstCudaBoxBlurFramePlan * frame)
{
  if (!frame)
    return;
  gst_cuda_box_blur_plan_free (frame->plan);
  g_array_unref (frame->copies[BEFORE]);
  g_array_unref (frame->copies[AFTER]);
  g_array_unref (frame->halo_copies);
  g_array_unref (frame->slots);
  g_array_unref (frame->layers);
  g_array_unref (frame->rounded);
  g_free (frame);
}

GstCudaBoxBlurPlan *
gst_cuda_box_blur_frame_plan_get_launches (GstCudaBoxBlurFramePlan * frame)
{
  return frame->plan;
}

/**
 * gst_cuda_box_blur_frame_plan_get_copies:
 * @after: the copies after the launches, rather than before
 * @n: (out): how many
 */
const GstCudaBoxBlurCopy *
gst_cuda_box_blur_frame_plan_get_copies (const GstCudaBoxBlurFramePlan *
    frame, gboolean after, guint * n)
{
  GArray *copies = frame->copies[after ? AFTER : BEFORE];

  *n = copies->len;
  return (const GstCudaBoxBlurCopy *) copies->data;
}

/* Adds copies of the pixels of @src's planes flagged in @planes (all of
 * them where it is %NULL) into @dst, @when. */
static void
copy_planes (GstCudaBoxBlurFramePlan * frame, guint when,
    const GstCudaBoxBlurInfo * info, const GstCudaBoxBlurFrame * src,
    const GstCudaBoxBlurFrame * dst, const gboolean * planes)
{
  gint p;

  for (p = 0; p < info->n_planes; p++) {
    const GstCudaBoxBlurCopy copy = { src->data[p], src->stride[p],
      dst->data[p], dst->stride[p], info->row_bytes[p], info->plane_height[p]
    };

    if (!planes || planes[p])
      g_array_append_val (frame->copies[when], copy);
  }
}

/* Which planes the passes of @job, a whole-frame one, reading and writing
 * @frames (@n of them), may leave bytes of unwritten, in @partial: all but
 * those whose pixels every pass writes whole
 * (gst_cuda_box_blur_plan_pixel_group(), a copy of @src's bytes for the
 * components it keeps), and those of one component, packed, that every
 * pass blurs (I420's Y with planes=y). */
static void
find_partial_planes (const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * const *frames, guint n_frames,
    gboolean partial[GST_VIDEO_MAX_PLANES])
{
  const GstCudaBoxBlurInfo *info = job->info;
  gint whole[GST_VIDEO_MAX_PLANES] = { 0, };
  guint t, n, f, blurred;
  gint p, pass;

  for (pass = 0; pass < job->n_passes; pass++)
    for (t = 0; t < job->tasks->len; t += n) {
      const GstCudaBoxBlurTask *task = &g_array_index (job->tasks,
          GstCudaBoxBlurTask, t);
      const gint step = info->comp[task->component].step;
      gboolean aligned = TRUE;

      n = gst_cuda_box_blur_plan_pixel_group (job, t, pass, &blurred);
      p = info->comp[task->component].plane;
      for (f = 0; f < n_frames; f++) {
        const GstCudaBoxBlurPlane plane = { frames[f]->data[p], 0, 0,
          frames[f]->stride[p], 4
        };
        aligned &= gst_cuda_box_blur_plane_is_aligned (&plane);
      }
      /* pixels of four keep their other bytes; pairs, threes and the
       * macropixels of packed 4:2:2 write only the bytes blurred */
      if (n > 1 && aligned && (step == 4
              || blurred == (1u << info->pixel_bytes[p]) - 1))
        whole[p]++;
      else if (n == 1 && step == info->sample_size
          && info->plane_components[p] == 1)
        whole[p]++;
    }
  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++)
    partial[p] = whole[p] < job->n_passes;
}

/* Plans every pass of @job, a whole-frame one, over the whole of @src
 * into @dst, each pass reading the previous pass's output.  The passes
 * alternate between @dst and a frame at @scratch so that the last one
 * lands in @dst.  Unless the job covers the frame, the planes of @dst
 * (and of the scratch frame) whose bytes it does not all write start as
 * copies of @src's. */
static void
run_passes (GstCudaBoxBlurFramePlan * frame, const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst,
    guint8 * scratch_mem)
{
  const GstCudaBoxBlurInfo *info = job->info;
  const gint passes = job->n_passes;
  GstCudaBoxBlurFrame scratch = *dst;
  const GstCudaBoxBlurFrame *read = src;
  const GstCudaBoxBlurFrame *const frames[] = { src, dst, &scratch };
  gboolean partial[GST_VIDEO_MAX_PLANES] = { FALSE, };
  gint pass;
  guint t, n;

  if (passes > 1)
    gst_cuda_box_blur_frame_rebase (&scratch, info, scratch_mem);
  if (!job->covers)
    find_partial_planes (job, frames, passes > 1 ? 3 : 2, partial);
  copy_planes (frame, BEFORE, info, src, dst, partial);
  if (passes > 1)
    copy_planes (frame, BEFORE, info, src, &scratch, partial);

  for (pass = 0; pass < passes; pass++) {
    const GstCudaBoxBlurFrame *write =
        (passes - 1 - pass) % 2 == 0 ? dst : &scratch;

    for (t = 0; t < job->tasks->len; t += n) {
      const GstCudaBoxBlurTask *task = &g_array_index (job->tasks,
          GstCudaBoxBlurTask, t);
      GstCudaBoxBlurPlane in, out;
      guint blurred;

      n = gst_cuda_box_blur_plan_pixel_group (job, t, pass, &blurred);
      gst_cuda_box_blur_frame_get_plane (read, info, task->component, &in);
      gst_cuda_box_blur_frame_get_plane (write, info, task->component, &out);
      gst_cuda_box_blur_plan_blur_tasks (frame->plan, job, t, n, blurred,
          pass, &in, &out, NULL);
    }
    gst_cuda_box_blur_plan_end_batch (frame->plan);
    read = write;
  }
}

/* invert in mode fill: every component the job changes of @dst filled
 * whole, the rest a copy of @src. */
static void
fill_frame (GstCudaBoxBlurFramePlan * frame, const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst)
{
  guint t;

  if (!job->covers)
    copy_planes (frame, BEFORE, job->info, src, dst, NULL);
  for (t = 0; t < job->tasks->len; t++) {
    const GstCudaBoxBlurTask *task = &g_array_index (job->tasks,
        GstCudaBoxBlurTask, t);
    GstCudaBoxBlurPlane plane;

    gst_cuda_box_blur_frame_get_plane (dst, job->info, task->component,
        &plane);
    gst_cuda_box_blur_plan_compose (frame->plan, NULL, &plane, &task->window,
        &task->rect);
  }
  gst_cuda_box_blur_plan_end_batch (frame->plan);
}

/* What the windows of @window read around @region of a plane of @width x
 * @height (BOX_READ_BELOW in boxblur-args.h): the windows of its samples
 * and BOX_READ_BELOW rows beyond them each way (the row the column sums
 * read past the last window, which a mirror at the plane's bottom edge
 * reflects above the first), clipped to the plane; the whole plane where a
 * wrapping window, or that row, reaches round to the other side. */
static GstVideoRectangle
halo_of (const GstVideoRectangle * region,
    const GstCudaBoxBlurWindow * window, gint width, gint height)
{
  const GstVideoRectangle plane = { 0, 0, width, height };
  GstVideoRectangle g;

  if (window->border == GST_CUDA_BOX_BLUR_BORDER_WRAP
      && (region->x - window->radius_x < 0 || region->y - window->radius_y < 0
          || region->x + region->w + window->radius_x > width
          || region->y + region->h + window->radius_y + BOX_READ_BELOW >
          height))
    return plane;
  g.x = MAX (region->x - window->radius_x, 0);
  g.y = MAX (region->y - window->radius_y - BOX_READ_BELOW, 0);
  g.w = MIN ((gint64) region->x + region->w + window->radius_x, width) - g.x;
  g.h = MIN ((gint64) region->y + region->h + window->radius_y +
      BOX_READ_BELOW, height) - g.y;
  return g;
}

/* A plane like @plane whose samples inside @copy's halo are read from the
 * copy at @mem and nowhere else. */
static GstCudaBoxBlurPlane
halo_plane (const GstCudaBoxBlurPlane * plane,
    const GstCudaBoxBlurComponent * comp, const HaloCopy * copy, guint8 * mem)
{
  GstCudaBoxBlurPlane p = *plane;

  p.data = mem + comp->offset - (gssize) copy->halo.y * copy->pitch -
      copy->halo.x;
  p.stride = copy->pitch;
  return p;
}

/* @halo of component @comp of @info (in its samples) as the bytes of the
 * plane's rows it takes: whole pixels of the plane's largest step (a
 * packed pixel, YUY2's Y0 U Y1 V), which the kernels of whole pixels read
 * whole and where components of different steps meet. */
static GstVideoRectangle
halo_bytes (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurComponent * comp, const GstVideoRectangle * halo)
{
  const gint group = info->pixel_bytes[comp->plane];
  GstVideoRectangle b = *halo;
  gint end;

  b.x = halo->x * comp->step / group * group;
  end = MIN (((halo->x + halo->w) * comp->step + group - 1) / group * group,
      info->row_bytes[comp->plane]);
  b.w = end - b.x;
  return b;
}

static GstVideoRectangle
rectangle_union (const GstVideoRectangle * a, const GstVideoRectangle * b)
{
  GstVideoRectangle u;

  u.x = MIN (a->x, b->x);
  u.y = MIN (a->y, b->y);
  u.w = MAX (a->x + a->w, b->x + b->w) - u.x;
  u.h = MAX (a->y + a->h, b->y + b->h) - u.y;
  return u;
}

/* Lays out one slot for each task of @job, and for each region of each
 * plane that is blurred one halo copy: the union of its tasks' halos,
 * twice where the passes need scratch room, and the layers of the
 * regions.  Returns the bytes of the copies. */
static gsize
lay_out_halos (GstCudaBoxBlurFramePlan * frame, const GstCudaBoxBlurJob * job)
{
  gint copy_of_plane[GST_VIDEO_MAX_PLANES];
  guint region = G_MAXUINT;
  gsize total = 0;
  gint k;
  guint i;

  frame->sheets = job->n_passes > 1 ? 2 : 1;
  frame->n_layers = gst_cuda_box_blur_plan_layers (job, frame->layers,
      frame->rounded);
  g_array_set_size (frame->halo_copies, 0);
  g_array_set_size (frame->slots, 0);
  for (i = 0; i < job->tasks->len; i++) {
    const GstCudaBoxBlurTask *task = &g_array_index (job->tasks,
        GstCudaBoxBlurTask, i);
    const GstCudaBoxBlurComponent *comp = &job->info->comp[task->component];
    HaloSlot slot = { task, G_MAXUINT,
      g_array_index (frame->layers, guint, task->region)
    };
    GstVideoRectangle halo;

    if (task->region != region) {
      /* the first task of a region: its planes have no copy yet */
      region = task->region;
      for (k = 0; k < GST_VIDEO_MAX_PLANES; k++)
        copy_of_plane[k] = -1;
    }
    if (gst_cuda_box_blur_window_composes (&task->window)) {
      /* the last pass lands in scratch room, then is composed */
      frame->sheets = 2;
    }
    if (task->window.work == GST_CUDA_BOX_BLUR_WORK_FILL) {
      g_array_append_val (frame->slots, slot);
      continue;
    }
    halo = halo_of (&task->rect, &task->window, comp->width, comp->height);
    halo = halo_bytes (job->info, comp, &halo);
    if (copy_of_plane[comp->plane] < 0) {
      HaloCopy copy = { comp->plane, halo, };

      copy_of_plane[comp->plane] = frame->halo_copies->len;
      g_array_append_val (frame->halo_copies, copy);
    } else {
      HaloCopy *copy = &g_array_index (frame->halo_copies, HaloCopy,
          copy_of_plane[comp->plane]);

      copy->halo = rectangle_union (&copy->halo, &halo);
    }
    slot.copy = copy_of_plane[comp->plane];
    g_array_append_val (frame->slots, slot);
  }

  for (i = 0; i < frame->halo_copies->len; i++) {
    HaloCopy *copy = &g_array_index (frame->halo_copies, HaloCopy, i);

    copy->pitch = GST_ROUND_UP_N (copy->halo.w, 16);
    copy->offset = total;
    total += GST_ROUND_UP_N ((gsize) frame->sheets * copy->pitch *
        copy->halo.h, 256);
  }
  return total;
}

/* Plans the filling of the halo copies at @halos from @from where the
 * passes read them: the first when @from_is_read (the first pass reads
 * it), every one with several passes. */
static void
fill_halos (GstCudaBoxBlurFramePlan * frame, const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * from, gboolean from_is_read, guint8 * halos)
{
  guint i;
  gint k;

  for (i = 0; i < frame->halo_copies->len; i++) {
    const HaloCopy *copy = &g_array_index (frame->halo_copies, HaloCopy, i);
    const guint8 *src = from->data[copy->plane] +
        (gsize) copy->halo.y * from->stride[copy->plane] + copy->halo.x;
    guint8 *halo = halos + copy->offset;

    for (k = 0; k < frame->sheets; k++)
      if (job->n_passes > 1 || (k == 0 && from_is_read))
        gst_cuda_box_blur_plan_copy (frame->plan, src,
            from->stride[copy->plane], halo + (gsize) k * copy->pitch *
            copy->halo.h, copy->pitch, copy->halo.w, copy->halo.h);
  }
}

/* Redacts each of @regions of @dst in turn, each on its own from the
 * input (box_blur_ref_frame()).  The input is @original where given, a
 * frame apart that nothing writes; otherwise @dst itself, whose regions
 * are then read from copies taken before any is written.  Each region's
 * passes run in its halo copies at @halos (laid out by lay_out_halos()),
 * reading the previous pass inside the region and the input around it;
 * the last pass writes the region of @dst, or lands in scratch room and is
 * composed onto @dst through the shape and feather.  Fills are composed
 * alone.
 *
 * Every pass but the last is one batch of launches for all the regions
 * (they write their own copies only).  The last pass and the composes
 * write @dst: they run one batch per layer
 * (gst_cuda_box_blur_plan_layers()), so that where regions overlap the
 * later one is written last. */
static void
redact_regions (GstCudaBoxBlurFramePlan * frame,
    const GstCudaBoxBlurJob * job, const GstCudaBoxBlurFrame * dst,
    const GstCudaBoxBlurFrame * original, guint8 * halos)
{
  const GstCudaBoxBlurInfo *info = job->info;
  const gint passes = job->n_passes;
  guint layer, i, n;
  gint pass;

  fill_halos (frame, job, original ? original : dst, original == NULL,
      halos);
  for (pass = 0; pass < passes; pass++) {
    const gboolean last = pass == passes - 1;

    for (layer = 0; layer < (last ? frame->n_layers : 1); layer++) {
      /* slot i is task i's */
      for (i = 0; i < frame->slots->len; i += n) {
        const HaloSlot *slot = &g_array_index (frame->slots, HaloSlot, i);
        const GstCudaBoxBlurTask *task = slot->task;
        const GstCudaBoxBlurComponent *comp = &info->comp[task->component];
        const gboolean composes =
            gst_cuda_box_blur_window_composes (&task->window);
        const HaloCopy *copy;
        guint8 *mem[2];
        GstCudaBoxBlurPlane plane, in, out;
        guint blurred, k;

        n = 1;
        if (last && slot->layer != layer)
          continue;
        gst_cuda_box_blur_frame_get_plane (dst, info, task->component,
            &plane);
        if (task->window.work == GST_CUDA_BOX_BLUR_WORK_FILL) {
          if (last)
            gst_cuda_box_blur_plan_compose (frame->plan, NULL, &plane,
                &task->window, &task->rect);
          continue;
        }

        n = gst_cuda_box_blur_plan_pixel_group (job, i, pass, &blurred);
        copy = &g_array_index (frame->halo_copies, HaloCopy, slot->copy);
        mem[0] = halos + copy->offset;
        mem[1] = mem[0] + (gsize) copy->pitch * copy->halo.h;
        /* pass n reads copy n % 2 (or the original) and writes the other */
        if (pass == 0 && original)
          gst_cuda_box_blur_frame_get_plane (original, info, task->component,
              &in);
        else
          in = halo_plane (&plane, comp, copy, mem[pass % 2]);
        out = last && !composes ? plane : halo_plane (&plane, comp, copy,
            mem[(pass + 1) % 2]);

        gst_cuda_box_blur_plan_blur_tasks (frame->plan, job, i, n,
            blurred, pass, &in, &out, &task->rect);
        for (k = 0; k < n && last && composes; k++) {
          const GstCudaBoxBlurTask *t = &g_array_index (job->tasks,
              GstCudaBoxBlurTask, i + k);

          gst_cuda_box_blur_frame_get_plane (dst, info, t->component,
              &plane);
          out = halo_plane (&plane, &info->comp[t->component], copy,
              mem[(pass + 1) % 2]);
          gst_cuda_box_blur_plan_compose (frame->plan, &out, &plane,
              &t->window, &t->rect);
        }
      }
      gst_cuda_box_blur_plan_end_batch (frame->plan);
    }
  }
  GST_LOG_OBJECT (frame->log_object, "%u regions, %d passes, %u layers",
      job->regions->len, passes, frame->n_layers);
}

/* invert: lays each region of @job back from @src onto @dst, the redacted
 * frame, through its shape and feather (the keeps).  Where the keeps of
 * two regions meet, the later one is laid in a later batch, over the
 * earlier one. */
static void
keep_regions (GstCudaBoxBlurFramePlan * frame, const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst)
{
  GArray *layers = frame->layers;
  guint n_layers = 0, layer, a, b;

  g_array_set_size (layers, job->regions->len);
  for (a = 0; a < job->regions->len; a++)
    g_array_index (layers, guint, a) = 0;
  for (a = 0; a < job->keeps->len; a++) {
    const GstCudaBoxBlurTask *ka = &g_array_index (job->keeps,
        GstCudaBoxBlurTask, a);
    guint *la = &g_array_index (layers, guint, ka->region);

    /* the keeps come region by region: earlier regions' layers are set */
    for (b = 0; b < a; b++) {
      const GstCudaBoxBlurTask *kb = &g_array_index (job->keeps,
          GstCudaBoxBlurTask, b);

      if (kb->region != ka->region && kb->component == ka->component
          && gst_cuda_box_blur_rectangles_meet (&ka->rect, &kb->rect))
        *la = MAX (*la, g_array_index (layers, guint, kb->region) + 1);
    }
    n_layers = MAX (n_layers, *la + 1);
  }

  for (layer = 0; layer < n_layers; layer++) {
    for (a = 0; a < job->keeps->len; a++) {
      const GstCudaBoxBlurTask *keep = &g_array_index (job->keeps,
          GstCudaBoxBlurTask, a);
      GstCudaBoxBlurPlane in, out;

      if (g_array_index (layers, guint, keep->region) != layer)
        continue;
      gst_cuda_box_blur_frame_get_plane (src, job->info, keep->component,
          &in);
      gst_cuda_box_blur_frame_get_plane (dst, job->info, keep->component,
          &out);
      gst_cuda_box_blur_plan_compose (frame->plan, &in, &out, &keep->window,
          &keep->rect);
    }
    gst_cuda_box_blur_plan_end_batch (frame->plan);
  }
}

/**
 * gst_cuda_box_blur_frame_plan_measure:
 * @out: the frame @job writes, or %NULL for a blur in place
 *   (gst_cuda_box_blur_job_in_place_helps())
 *
 * The first step of a frame's plan: lays it out, and says in @needs the
 * memory gst_cuda_box_blur_frame_plan_make() then takes.
 */
void
gst_cuda_box_blur_frame_plan_measure (GstCudaBoxBlurFramePlan * frame,
    const GstCudaBoxBlurJob * job, const GstCudaBoxBlurFrame * out,
    GstCudaBoxBlurFrameNeeds * needs)
{
  needs->scratch = needs->halos = 0;
  if (job->whole_frame) {
    if (job->n_passes > 1)
      gst_cuda_box_blur_frame_span (out, job->info, &needs->scratch);
  } else if (!out || !job->invert) {
    needs->halos = lay_out_halos (frame, job);
  }
}

/**
 * gst_cuda_box_blur_frame_plan_make:
 * @in: the frame to read, where the GPU can address it; with @out %NULL,
 *   also the frame to write
 * @out: (nullable): the frame to write, where the GPU can address it,
 *   apart from @in; %NULL for a blur in place
 * @scratch: the measured bytes of scratch frame
 * @halos: the measured bytes of halo copies
 * @deliver: (nullable): where the result goes once written, a copy after
 *   the launches (a host frame staged through @out, or through @in in
 *   place)
 *
 * The second step of a frame's plan, after
 * gst_cuda_box_blur_frame_plan_measure() of the same job and frames:
 * everything that makes the written frame what box_blur_ref_frame() makes
 * of @in with the settings and regions @job was resolved from.  Device
 * and managed frames are used where they are; in place, regions are read
 * from copies of their halos taken before any is written, so that pixels
 * outside them are neither written nor, beyond the halos, read.
 */
void
gst_cuda_box_blur_frame_plan_make (GstCudaBoxBlurFramePlan * frame,
    const GstCudaBoxBlurJob * job, const GstCudaBoxBlurFrame * in,
    const GstCudaBoxBlurFrame * out, guint8 * scratch, guint8 * halos,
    const GstCudaBoxBlurFrame * deliver)
{
  const GstCudaBoxBlurInfo *info = job->info;

  g_array_set_size (frame->copies[BEFORE], 0);
  g_array_set_size (frame->copies[AFTER], 0);
  gst_cuda_box_blur_plan_reset (frame->plan, info->type);
  if (!out) {
    redact_regions (frame, job, in, NULL, halos);
  } else if (job->whole_frame) {
    run_passes (frame, job, in, out, scratch);
  } else if (job->invert) {
    fill_frame (frame, job, in, out);
  } else {
    copy_planes (frame, BEFORE, info, in, out, NULL);
    redact_regions (frame, job, out, in, halos);
  }
  if (out && job->invert)
    keep_regions (frame, job, in, out);
  if (deliver)
    copy_planes (frame, AFTER, info, out ? out : in, deliver, NULL);
}
