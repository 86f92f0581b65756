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

/* The GPU engine: one call blurs one whole frame, wherever its memory
 * lives, with the same arguments as the CPU reference's
 * box_blur_ref_frame(). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-engine.h"
#include "boxblur-args.h"
#include "cudaboxblur-debug.h"
#include "cudaboxblur-launch.h"
#include "cudaboxblur-plan.h"

#include <string.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurengine",
    "cudaboxblur GPU engine")

enum
{
  STAGE_IN,
  STAGE_OUT,
  N_STAGES,
};

struct _GstCudaBoxBlurEngine
{
  GstCudaBoxBlurDevice device;
  const GstCudaBoxBlurProgram *program;
  cudaStream_t stream;
  GstCudaBoxBlurPlan *plan;     /* the launches of the frame */
  GstCudaBoxBlurLauncher *launcher;
  gpointer log_object;          /* GObject or NULL, not reffed */

  /* device memory for the passes between the first and the last */
  GstCudaBoxBlurWorkMemory scratch;

  /* device copies of host frames */
  GstCudaBoxBlurWorkMemory stage[N_STAGES];
  gboolean staging_logged[N_STAGES];

  /* device copies of the regions and their halos, for in-place blurs */
  GstCudaBoxBlurWorkMemory halos;
  GArray *halo_copies;          /* HaloCopy */
  GArray *slots;                /* HaloSlot */
  GArray *layers;               /* guint: the layer of each region */
  GArray *rounded;              /* GstVideoRectangle: each region rounded
                                 * out to the chroma subsampling */
};

/* The pixels of one plane around one region, copied to device memory (the
 * components of the plane share them). */
typedef struct
{
  gint plane;
  gint step;                    /* bytes from one pixel to the next */
  GstVideoRectangle halo;       /* in the plane's pixels */
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

/**
 * gst_cuda_box_blur_engine_new:
 * @log_object: (nullable): the #GObject the engine's log lines name, which
 *   must outlive it
 *
 * An engine for @device running @program, with its stream created in the
 * CUDA context current on the calling thread.
 */
GstCudaBoxBlurEngine *
gst_cuda_box_blur_engine_new (const GstCudaBoxBlurDevice * device,
    const GstCudaBoxBlurProgram * program, gpointer log_object,
    GError ** error)
{
  GstCudaBoxBlurEngine *engine = g_new0 (GstCudaBoxBlurEngine, 1);

  engine->device = *device;
  engine->program = program;
  engine->log_object = log_object;
  engine->halo_copies = g_array_new (FALSE, FALSE, sizeof (HaloCopy));
  engine->slots = g_array_new (FALSE, FALSE, sizeof (HaloSlot));
  engine->layers = g_array_new (FALSE, FALSE, sizeof (guint));
  engine->rounded = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  engine->plan = gst_cuda_box_blur_plan_new (&device->target, log_object);
  engine->launcher = gst_cuda_box_blur_launcher_new (program, log_object);
  if (!GST_CUDA_BOX_BLUR_CHECK (cudaStreamCreateWithFlags (&engine->stream,
              cudaStreamNonBlocking), error)) {
    engine->stream = NULL;
    gst_cuda_box_blur_engine_free (engine);
    return NULL;
  }
  return engine;
}

/**
 * gst_cuda_box_blur_engine_free:
 *
 * Waits for the engine's work and frees it, in the context it was created
 * in.
 */
void
gst_cuda_box_blur_engine_free (GstCudaBoxBlurEngine * engine)
{
  guint i;

  if (!engine)
    return;
  if (engine->stream) {
    cudaStreamSynchronize (engine->stream);
    cudaStreamDestroy (engine->stream);
  }
  gst_cuda_box_blur_plan_free (engine->plan);
  gst_cuda_box_blur_launcher_free (engine->launcher);
  for (i = 0; i < N_STAGES; i++)
    gst_cuda_box_blur_work_memory_release (&engine->stage[i]);
  gst_cuda_box_blur_work_memory_release (&engine->scratch);
  gst_cuda_box_blur_work_memory_release (&engine->halos);
  g_array_unref (engine->halo_copies);
  g_array_unref (engine->slots);
  g_array_unref (engine->layers);
  g_array_unref (engine->rounded);
  g_free (engine);
}

/**
 * gst_cuda_box_blur_engine_work_bytes:
 *
 * Returns: the bytes of GPU and page-locked memory @engine holds besides
 * the frames (staging copies, the passes' scratch, halos, the launches'
 * arguments and sums), which stay for the next frame.
 */
gsize
gst_cuda_box_blur_engine_work_bytes (const GstCudaBoxBlurEngine * engine)
{
  gsize bytes = engine->scratch.size + engine->halos.size +
      gst_cuda_box_blur_launcher_work_bytes (engine->launcher);
  guint i;

  for (i = 0; i < N_STAGES; i++)
    bytes += engine->stage[i].size;
  return bytes;
}

cudaStream_t
gst_cuda_box_blur_engine_get_stream (GstCudaBoxBlurEngine * engine)
{
  return engine->stream;
}

/**
 * gst_cuda_box_blur_engine_n_launches:
 *
 * Returns: how many kernel launches the last frame took.
 */
guint
gst_cuda_box_blur_engine_n_launches (const GstCudaBoxBlurEngine * engine)
{
  return gst_cuda_box_blur_plan_n_launches (engine->plan);
}

/**
 * gst_cuda_box_blur_engine_launch_kernel:
 *
 * Returns: the kernel of launch @i of the last frame.
 */
GstCudaBoxBlurKernel
gst_cuda_box_blur_engine_launch_kernel (const GstCudaBoxBlurEngine * engine,
    guint i)
{
  return gst_cuda_box_blur_plan_get_launch (engine->plan, i)->kernel;
}

/* Device memory a stream of @info frames may take at once: two frames in
 * each of the element's pools, the staging copies, the scratch frame of
 * several passes and the column sums (of the first plane's samples, four
 * a pixel for RGBA, whose pixels are blurred whole). */
static gsize
memory_needed (const GstCudaBoxBlurInfo * info)
{
  return 7 * info->size +
      gst_cuda_box_blur_plan_mid_size (info->row_bytes[0] / info->sample_size,
      info->height);
}

/**
 * gst_cuda_box_blur_engine_check_fits:
 *
 * Refuses frames that cannot fit in the memory the GPU has free, now,
 * rather than failing at the first allocation.
 */
gboolean
gst_cuda_box_blur_engine_check_fits (const GstCudaBoxBlurEngine * engine,
    const GstCudaBoxBlurInfo * info, GError ** error)
{
  const gsize needed = memory_needed (info);
  gsize free_bytes = 0, total = 0;

  if (!GST_CUDA_BOX_BLUR_CHECK (cudaMemGetInfo (&free_bytes, &total), error))
    return FALSE;
  if (needed > free_bytes) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "%dx%d %s frames need about %" G_GSIZE_FORMAT " MiB of GPU memory, "
        "but only %" G_GSIZE_FORMAT " MiB of the %" G_GSIZE_FORMAT " MiB of "
        "device %d (%s) are free", info->width, info->height, info->format,
        needed >> 20, free_bytes >> 20, total >> 20,
        engine->device.device_id, engine->device.name);
    return FALSE;
  }
  return TRUE;
}

/* Points @staged at a device staging copy of @frame's bytes, same layout,
 * growing the staging buffer when needed. */
static gboolean
stage_frame (GstCudaBoxBlurEngine * engine, guint which,
    const GstCudaBoxBlurInfo * info, const GstCudaBoxBlurFrame * frame,
    GstCudaBoxBlurFrame * staged, GError ** error)
{
  gsize size;

  gst_cuda_box_blur_frame_span (frame, info, &size);
  if (!gst_cuda_box_blur_work_memory_ensure (&engine->stage[which], size,
          error))
    return FALSE;

  if (!engine->staging_logged[which]) {
    GST_DEBUG_OBJECT (engine->log_object, "the %s is in host memory: "
        "copying it through a device staging frame",
        which == STAGE_IN ? "input" : "output");
    engine->staging_logged[which] = TRUE;
  }

  *staged = *frame;
  gst_cuda_box_blur_frame_rebase (staged, info, engine->stage[which].mem);
  return TRUE;
}

/* Makes @image's pixels readable by the kernels at @frame: host memory
 * copied to a device staging frame, managed and device memory as they
 * are. */
static gboolean
bring_in (GstCudaBoxBlurEngine * engine, const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurImage * image, GstCudaBoxBlurFrame * frame,
    GError ** error)
{
  gsize size;
  guint8 *begin = gst_cuda_box_blur_frame_span (&image->frame, info, &size);

  *frame = image->frame;
  if (image->location != GST_CUDA_BOX_BLUR_IN_HOST)
    return TRUE;
  return stage_frame (engine, STAGE_IN, info, &image->frame, frame, error)
      && GST_CUDA_BOX_BLUR_CHECK (cudaMemcpyAsync
      (engine->stage[STAGE_IN].mem, begin, size, cudaMemcpyDefault,
          engine->stream), error);
}

/* Queues a copy of the pixels of @src's planes flagged in @planes (all of
 * them where it is %NULL) into @dst. */
static gboolean
copy_planes_async (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst,
    const gboolean * planes, cudaStream_t stream, GError ** error)
{
  gint p;

  for (p = 0; p < info->n_planes; p++)
    if ((!planes || planes[p])
        && !GST_CUDA_BOX_BLUR_CHECK (cudaMemcpy2DAsync (dst->data[p],
                dst->stride[p], src->data[p], src->stride[p],
                info->row_bytes[p], info->plane_height[p], cudaMemcpyDefault,
                stream), error))
      return FALSE;
  return TRUE;
}

/* Queues a copy of every plane's pixels of @src into @dst. */
static gboolean
copy_frame_async (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst,
    cudaStream_t stream, GError ** error)
{
  return copy_planes_async (info, src, dst, NULL, stream, error);
}

/* Which planes the passes of @job, reading and writing @frames (@n of
 * them), may leave bytes of unwritten, in @partial: all but those whose
 * pixels every pass writes whole (gst_cuda_box_blur_job_pixel_group()), a
 * copy of @src's bytes for the components it keeps. */
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

      n = gst_cuda_box_blur_job_pixel_group (job, t, pass, &blurred);
      p = info->comp[task->component].plane;
      for (f = 0; f < n_frames; f++) {
        const GstCudaBoxBlurPlane plane = { frames[f]->data[p], 0, 0,
          frames[f]->stride[p], 4
        };
        aligned &= gst_cuda_box_blur_plane_is_aligned (&plane);
      }
      /* pixels of four keep their other bytes; pairs and threes write
       * only the bytes blurred */
      if (n > 1 && aligned && (step == 4 || blurred == (1u << step) - 1))
        whole[p]++;
    }
  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++)
    partial[p] = whole[p] < job->n_passes;
}

/* Runs every pass of @job, a whole-frame one, over the whole of @src
 * into @dst, both in device-addressable memory, each pass reading the
 * previous pass's output.  The passes alternate between @dst and a scratch
 * frame so that the last one lands in @dst.  Unless the job covers the
 * frame, the planes of @dst (and of the scratch frame) whose bytes it
 * does not all write start as copies of @src's. */
static gboolean
run_passes (GstCudaBoxBlurEngine * engine, const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst,
    GError ** error)
{
  const GstCudaBoxBlurInfo *info = job->info;
  const gint passes = job->n_passes;
  cudaStream_t stream = engine->stream;
  GstCudaBoxBlurFrame scratch = *dst;
  const GstCudaBoxBlurFrame *read = src;
  const GstCudaBoxBlurFrame *const frames[] = { src, dst, &scratch };
  gboolean partial[GST_VIDEO_MAX_PLANES] = { FALSE, };
  gint pass;
  guint t, n;

  if (passes > 1) {
    gsize size;

    gst_cuda_box_blur_frame_span (dst, info, &size);
    if (!gst_cuda_box_blur_work_memory_ensure (&engine->scratch, size, error))
      return FALSE;
    gst_cuda_box_blur_frame_rebase (&scratch, info, engine->scratch.mem);
  }
  if (!job->covers)
    find_partial_planes (job, frames, passes > 1 ? 3 : 2, partial);
  if (!copy_planes_async (info, src, dst, partial, stream, error)
      || (passes > 1 && !copy_planes_async (info, src, &scratch, partial,
              stream, error)))
    return FALSE;

  gst_cuda_box_blur_plan_reset (engine->plan, info->type);
  for (pass = 0; pass < passes; pass++) {
    const GstCudaBoxBlurFrame *write =
        (passes - 1 - pass) % 2 == 0 ? dst : &scratch;

    for (t = 0; t < job->tasks->len; t += n) {
      const GstCudaBoxBlurTask *task = &g_array_index (job->tasks,
          GstCudaBoxBlurTask, t);
      GstCudaBoxBlurPlane in, out;
      guint blurred;

      n = gst_cuda_box_blur_job_pixel_group (job, t, pass, &blurred);
      gst_cuda_box_blur_frame_get_plane (read, info, task->component, &in);
      gst_cuda_box_blur_frame_get_plane (write, info, task->component, &out);
      gst_cuda_box_blur_plan_blur_tasks (engine->plan, job, t, n, blurred,
          pass, &in, &out, NULL);
    }
    gst_cuda_box_blur_plan_end_batch (engine->plan);
    read = write;
  }
  return TRUE;
}

/* invert in mode fill: every component the job changes of @dst filled
 * whole, the rest a copy of @src. */
static gboolean
fill_frame (GstCudaBoxBlurEngine * engine, const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst,
    GError ** error)
{
  guint t;

  if (!job->covers && !copy_frame_async (job->info, src, dst, engine->stream,
          error))
    return FALSE;
  gst_cuda_box_blur_plan_reset (engine->plan, job->info->type);
  for (t = 0; t < job->tasks->len; t++) {
    const GstCudaBoxBlurTask *task = &g_array_index (job->tasks,
        GstCudaBoxBlurTask, t);
    GstCudaBoxBlurPlane plane;

    gst_cuda_box_blur_frame_get_plane (dst, job->info, task->component,
        &plane);
    gst_cuda_box_blur_plan_compose (engine->plan, NULL, &plane,
        &task->window, &task->rect);
  }
  gst_cuda_box_blur_plan_end_batch (engine->plan);
  return TRUE;
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
      (gssize) copy->halo.x * copy->step;
  p.stride = copy->pitch;
  return p;
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

/* Plans one slot for each task, and for each region of each plane that is
 * blurred one halo copy: the union of its tasks' halos, twice where the
 * passes need scratch room.  Then queues the filling of the copies from
 * @from where the passes read them: the first when @from_is_read (the
 * first pass reads it), every one with several passes.  Sets @n_layers to
 * the number of layers. */
static gboolean
plan_slots (GstCudaBoxBlurEngine * engine, const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * from, gboolean from_is_read,
    guint * n_layers, GError ** error)
{
  const gint passes = job->n_passes;
  gint copies = passes > 1 ? 2 : 1;
  gint copy_of_plane[GST_VIDEO_MAX_PLANES];
  guint region = G_MAXUINT;
  gsize total = 0;
  gint k;
  guint i;

  *n_layers = gst_cuda_box_blur_job_layers (job, engine->layers,
      engine->rounded);
  g_array_set_size (engine->halo_copies, 0);
  g_array_set_size (engine->slots, 0);
  for (i = 0; i < job->tasks->len; i++) {
    const GstCudaBoxBlurTask *task = &g_array_index (job->tasks,
        GstCudaBoxBlurTask, i);
    const GstCudaBoxBlurComponent *comp = &job->info->comp[task->component];
    HaloSlot slot = { task, G_MAXUINT,
      g_array_index (engine->layers, guint, task->region)
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
      copies = 2;
    }
    if (task->window.work == GST_CUDA_BOX_BLUR_WORK_FILL) {
      g_array_append_val (engine->slots, slot);
      continue;
    }
    halo = halo_of (&task->rect, &task->window, comp->width, comp->height);
    if (copy_of_plane[comp->plane] < 0) {
      HaloCopy copy = { comp->plane, comp->step, halo, };

      copy_of_plane[comp->plane] = engine->halo_copies->len;
      g_array_append_val (engine->halo_copies, copy);
    } else {
      HaloCopy *copy = &g_array_index (engine->halo_copies, HaloCopy,
          copy_of_plane[comp->plane]);

      copy->halo = rectangle_union (&copy->halo, &halo);
    }
    slot.copy = copy_of_plane[comp->plane];
    g_array_append_val (engine->slots, slot);
  }

  for (i = 0; i < engine->halo_copies->len; i++) {
    HaloCopy *copy = &g_array_index (engine->halo_copies, HaloCopy, i);

    copy->pitch = GST_ROUND_UP_N (copy->halo.w * copy->step, 16);
    copy->offset = total;
    total += GST_ROUND_UP_N ((gsize) copies * copy->pitch * copy->halo.h,
        256);
  }
  if (!gst_cuda_box_blur_work_memory_ensure (&engine->halos, total, error))
    return FALSE;

  for (i = 0; i < engine->halo_copies->len; i++) {
    const HaloCopy *copy = &g_array_index (engine->halo_copies, HaloCopy, i);
    const guint8 *src = from->data[copy->plane] +
        (gsize) copy->halo.y * from->stride[copy->plane] +
        (gsize) copy->halo.x * copy->step;
    guint8 *halo = (guint8 *) engine->halos.mem + copy->offset;

    for (k = 0; k < copies; k++)
      if (passes > 1 || (k == 0 && from_is_read))
        gst_cuda_box_blur_plan_copy (engine->plan, src,
            from->stride[copy->plane], halo + (gsize) k * copy->pitch *
            copy->halo.h, copy->pitch, copy->halo.w * copy->step,
            copy->halo.h);
  }
  return TRUE;
}

/* Redacts each of @regions of @frame in turn, each on its own from the
 * input (box_blur_ref_frame()).  The input is @original where given, a
 * frame apart that nothing writes; otherwise @frame itself, whose regions
 * are then read from copies taken before any is written.  Each region's
 * passes run in its halo copies, reading the previous pass inside the
 * region and the input around it; the last pass writes the region of
 * @frame, or lands in scratch room and is composed onto @frame through the
 * shape and feather.  Fills are composed alone.
 *
 * Every pass but the last is one batch of launches for all the regions
 * (they write their own copies only).  The last pass and the composes
 * write @frame: they run one batch per layer
 * (gst_cuda_box_blur_job_layers()), so that where regions overlap the
 * later one is written last. */
static gboolean
redact_regions (GstCudaBoxBlurEngine * engine, const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * frame, const GstCudaBoxBlurFrame * original,
    GError ** error)
{
  const GstCudaBoxBlurInfo *info = job->info;
  const gint passes = job->n_passes;
  guint n_layers, layer, i, n;
  gint pass;

  gst_cuda_box_blur_plan_reset (engine->plan, info->type);
  if (!plan_slots (engine, job, original ? original : frame, original == NULL,
          &n_layers, error))
    return FALSE;

  for (pass = 0; pass < passes; pass++) {
    const gboolean last = pass == passes - 1;

    for (layer = 0; layer < (last ? n_layers : 1); layer++) {
      /* slot i is task i's */
      for (i = 0; i < engine->slots->len; i += n) {
        const HaloSlot *slot = &g_array_index (engine->slots, HaloSlot, i);
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
        gst_cuda_box_blur_frame_get_plane (frame, info, task->component,
            &plane);
        if (task->window.work == GST_CUDA_BOX_BLUR_WORK_FILL) {
          if (last)
            gst_cuda_box_blur_plan_compose (engine->plan, NULL, &plane,
                &task->window, &task->rect);
          continue;
        }

        n = gst_cuda_box_blur_job_pixel_group (job, i, pass, &blurred);
        copy = &g_array_index (engine->halo_copies, HaloCopy, slot->copy);
        mem[0] = (guint8 *) engine->halos.mem + copy->offset;
        mem[1] = mem[0] + (gsize) copy->pitch * copy->halo.h;
        /* pass n reads copy n % 2 (or the original) and writes the other */
        if (pass == 0 && original)
          gst_cuda_box_blur_frame_get_plane (original, info, task->component,
              &in);
        else
          in = halo_plane (&plane, comp, copy, mem[pass % 2]);
        out = last && !composes ? plane : halo_plane (&plane, comp, copy,
            mem[(pass + 1) % 2]);

        gst_cuda_box_blur_plan_blur_tasks (engine->plan, job, i, n,
            blurred, pass, &in, &out, &task->rect);
        for (k = 0; k < n && last && composes; k++) {
          const GstCudaBoxBlurTask *t = &g_array_index (job->tasks,
              GstCudaBoxBlurTask, i + k);

          gst_cuda_box_blur_frame_get_plane (frame, info, t->component,
              &plane);
          out = halo_plane (&plane, &info->comp[t->component], copy,
              mem[(pass + 1) % 2]);
          gst_cuda_box_blur_plan_compose (engine->plan, &out, &plane,
              &t->window, &t->rect);
        }
      }
      gst_cuda_box_blur_plan_end_batch (engine->plan);
    }
  }
  GST_LOG_OBJECT (engine->log_object, "%u regions, %d passes, %u layers",
      job->regions->len, passes, n_layers);
  return TRUE;
}

/* invert: lays each region of @job back from @src onto @dst, the redacted
 * frame, through its shape and feather (the keeps).  Where the keeps of
 * two regions meet, the later one is laid in a later batch, over the
 * earlier one. */
static void
keep_regions (GstCudaBoxBlurEngine * engine, const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst)
{
  GArray *layers = engine->layers;
  guint n_layers = 0, layer, a, b;

  g_array_set_size (layers, job->regions->len);
  memset (layers->data, 0, job->regions->len * sizeof (guint));
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
      gst_cuda_box_blur_plan_compose (engine->plan, &in, &out, &keep->window,
          &keep->rect);
    }
    gst_cuda_box_blur_plan_end_batch (engine->plan);
  }
}

/**
 * gst_cuda_box_blur_engine_queue_blur:
 * @job: the frame's job, resolved for @src's caps
 *
 * Queues on the engine's stream what makes @dst what box_blur_ref_frame()
 * makes of @src with the settings and regions @job was resolved from;
 * gst_cuda_box_blur_engine_wait() waits for it.  @src and @dst must not
 * overlap, and must stay mapped until then.  @job may be resolved anew
 * once this returns.
 *
 * Device and managed frames are used where they are (the element's managed
 * memory stays on the host, mapped for the GPU, so the kernels read and
 * write it across the bus and no page migrates); host frames are copied
 * through device staging frames.
 */
gboolean
gst_cuda_box_blur_engine_queue_blur (GstCudaBoxBlurEngine * engine,
    const GstCudaBoxBlurJob * job, const GstCudaBoxBlurImage * src,
    const GstCudaBoxBlurImage * dst, GError ** error)
{
  const GstCudaBoxBlurInfo *info = job->info;
  cudaStream_t stream = engine->stream;
  GstCudaBoxBlurFrame in, out = dst->frame;

  if (!bring_in (engine, info, src, &in, error))
    return FALSE;
  if (dst->location == GST_CUDA_BOX_BLUR_IN_HOST
      && !stage_frame (engine, STAGE_OUT, info, &dst->frame, &out, error))
    return FALSE;

  if (job->whole_frame) {
    if (!run_passes (engine, job, &in, &out, error))
      return FALSE;
  } else if (job->invert) {
    if (!fill_frame (engine, job, &in, &out, error))
      return FALSE;
  } else if (!copy_frame_async (info, &in, &out, stream, error)
      || !redact_regions (engine, job, &out, &in, error)) {
    return FALSE;
  }
  if (job->invert)
    keep_regions (engine, job, &in, &out);
  if (!gst_cuda_box_blur_launcher_run (engine->launcher, engine->plan, stream, error))
    return FALSE;

  return dst->location != GST_CUDA_BOX_BLUR_IN_HOST
      || copy_frame_async (info, &out, &dst->frame, stream, error);
}

/**
 * gst_cuda_box_blur_engine_queue_blur_in_place:
 *
 * Queues the blur of @job's regions of @image where it is, as
 * gst_cuda_box_blur_engine_queue_blur() would blur them into another
 * frame, when gst_cuda_box_blur_job_in_place_helps() says it is worth it.
 * Each region is read with its halo from a copy of its own, taken before
 * any region is written, so the work and the memory grow with the
 * regions' area, not the frame's: pixels outside the regions are neither
 * written nor, beyond the halos, read.  Device and managed frames are used
 * in place; a host frame goes through a device staging frame.
 */
gboolean
gst_cuda_box_blur_engine_queue_blur_in_place (GstCudaBoxBlurEngine * engine,
    const GstCudaBoxBlurJob * job, const GstCudaBoxBlurImage * image,
    GError ** error)
{
  cudaStream_t stream = engine->stream;
  GstCudaBoxBlurFrame frame;
  gsize size;
  guint8 *begin = gst_cuda_box_blur_frame_span (&image->frame, job->info,
      &size);

  if (!bring_in (engine, job->info, image, &frame, error)
      || !redact_regions (engine, job, &frame, NULL, error)
      || !gst_cuda_box_blur_launcher_run (engine->launcher, engine->plan, stream, error))
    return FALSE;

  return image->location != GST_CUDA_BOX_BLUR_IN_HOST
      || GST_CUDA_BOX_BLUR_CHECK (cudaMemcpyAsync (begin,
          engine->stage[STAGE_IN].mem, size, cudaMemcpyDefault, stream),
      error);
}

/**
 * gst_cuda_box_blur_engine_wait:
 *
 * Waits for the work queued on @engine, in its context.
 */
gboolean
gst_cuda_box_blur_engine_wait (GstCudaBoxBlurEngine * engine, GError ** error)
{
  return GST_CUDA_BOX_BLUR_CHECK (cudaStreamSynchronize (engine->stream),
      error);
}

/**
 * gst_cuda_box_blur_engine_blur:
 *
 * gst_cuda_box_blur_engine_queue_blur(), then the wait for it.
 */
gboolean
gst_cuda_box_blur_engine_blur (GstCudaBoxBlurEngine * engine,
    const GstCudaBoxBlurJob * job, const GstCudaBoxBlurImage * src,
    const GstCudaBoxBlurImage * dst, GError ** error)
{
  return gst_cuda_box_blur_engine_queue_blur (engine, job, src, dst, error)
      && gst_cuda_box_blur_engine_wait (engine, error);
}

/**
 * gst_cuda_box_blur_engine_blur_in_place:
 *
 * gst_cuda_box_blur_engine_queue_blur_in_place(), then the wait for it.
 */
gboolean
gst_cuda_box_blur_engine_blur_in_place (GstCudaBoxBlurEngine * engine,
    const GstCudaBoxBlurJob * job, const GstCudaBoxBlurImage * image,
    GError ** error)
{
  return gst_cuda_box_blur_engine_queue_blur_in_place (engine, job, image,
      error) && gst_cuda_box_blur_engine_wait (engine, error);
}
