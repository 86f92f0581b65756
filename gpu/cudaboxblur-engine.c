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
#include "cudaboxblur-frameplan.h"
#include "cudaboxblur-launch.h"

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
  GstCudaBoxBlurFramePlan *frame;       /* the copies and launches of the
                                         * frame */
  GstCudaBoxBlurLauncher *launcher;
  gpointer log_object;          /* GObject or NULL, not reffed */

  /* device memory for the passes between the first and the last */
  GstCudaBoxBlurWorkMemory scratch;

  /* device copies of host frames */
  GstCudaBoxBlurWorkMemory stage[N_STAGES];
  gboolean staging_logged[N_STAGES];

  /* device copies of the regions and their halos */
  GstCudaBoxBlurWorkMemory halos;
};

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
  engine->frame = gst_cuda_box_blur_frame_plan_new (&device->target,
      log_object);
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
  gst_cuda_box_blur_frame_plan_free (engine->frame);
  gst_cuda_box_blur_launcher_free (engine->launcher);
  for (i = 0; i < N_STAGES; i++)
    gst_cuda_box_blur_work_memory_release (&engine->stage[i]);
  gst_cuda_box_blur_work_memory_release (&engine->scratch);
  gst_cuda_box_blur_work_memory_release (&engine->halos);
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
  return gst_cuda_box_blur_plan_n_launches
      (gst_cuda_box_blur_frame_plan_get_launches (engine->frame));
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
  return gst_cuda_box_blur_plan_get_launch
      (gst_cuda_box_blur_frame_plan_get_launches (engine->frame), i)->kernel;
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

/* Queues the copies of @engine's frame plan, before or @after its
 * launches. */
static gboolean
queue_copies (GstCudaBoxBlurEngine * engine, gboolean after, GError ** error)
{
  guint i, n;
  const GstCudaBoxBlurCopy *copies =
      gst_cuda_box_blur_frame_plan_get_copies (engine->frame, after, &n);

  for (i = 0; i < n; i++)
    if (!GST_CUDA_BOX_BLUR_CHECK (cudaMemcpy2DAsync (copies[i].dst,
                copies[i].dst_stride, copies[i].src, copies[i].src_stride,
                copies[i].width, copies[i].height, cudaMemcpyDefault,
                engine->stream), error))
      return FALSE;
  return TRUE;
}

/* Plans @job's frame from @in into @out (%NULL: in place), then the
 * copy of the result to @deliver where given, and queues it all. */
static gboolean
queue_frame (GstCudaBoxBlurEngine * engine, const GstCudaBoxBlurJob * job,
    const GstCudaBoxBlurFrame * in, const GstCudaBoxBlurFrame * out,
    const GstCudaBoxBlurFrame * deliver, GError ** error)
{
  GstCudaBoxBlurFrameNeeds needs;

  gst_cuda_box_blur_frame_plan_measure (engine->frame, job, out, &needs);
  if (!gst_cuda_box_blur_work_memory_ensure (&engine->scratch, needs.scratch,
          error)
      || !gst_cuda_box_blur_work_memory_ensure (&engine->halos, needs.halos,
          error))
    return FALSE;
  gst_cuda_box_blur_frame_plan_make (engine->frame, job, in, out,
      engine->scratch.mem, engine->halos.mem, deliver);
  return queue_copies (engine, FALSE, error)
      && gst_cuda_box_blur_launcher_run (engine->launcher,
      gst_cuda_box_blur_frame_plan_get_launches (engine->frame),
      engine->stream, error)
      && queue_copies (engine, TRUE, error);
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
  const gboolean staged = dst->location == GST_CUDA_BOX_BLUR_IN_HOST;
  GstCudaBoxBlurFrame in, out = dst->frame;

  return bring_in (engine, job->info, src, &in, error)
      && (!staged || stage_frame (engine, STAGE_OUT, job->info, &dst->frame,
          &out, error))
      && queue_frame (engine, job, &in, &out, staged ? &dst->frame : NULL,
      error);
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
  GstCudaBoxBlurFrame frame;

  return bring_in (engine, job->info, image, &frame, error)
      && queue_frame (engine, job, &frame, NULL,
      image->location == GST_CUDA_BOX_BLUR_IN_HOST ? &image->frame : NULL,
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
