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

/* A plan's launches made real: its arguments uploaded, its kernels
 * launched. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-launch.h"
#include "boxblur-args.h"
#include "cudaboxblur-debug.h"
#include "cudaboxblur-device.h"

#include <string.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurlaunch",
    "cudaboxblur kernel launches")

struct _GstCudaBoxBlurLauncher
{
  const GstCudaBoxBlurProgram *program;
  gpointer log_object;          /* GObject or NULL, not reffed */
  /* the arguments' upload: page-locked host memory, then device memory;
   * the sums between two passes */
  GstCudaBoxBlurWorkMemory host;
  GstCudaBoxBlurWorkMemory device;
  GstCudaBoxBlurWorkMemory mid;
};

/**
 * gst_cuda_box_blur_launcher_new:
 * @log_object: (nullable): the #GObject the launcher's log lines name,
 *   which must outlive it
 */
GstCudaBoxBlurLauncher *
gst_cuda_box_blur_launcher_new (const GstCudaBoxBlurProgram * program,
    gpointer log_object)
{
  GstCudaBoxBlurLauncher *launcher = g_new0 (GstCudaBoxBlurLauncher, 1);

  launcher->program = program;
  launcher->log_object = log_object;
  launcher->host.host = TRUE;
  return launcher;
}

/**
 * gst_cuda_box_blur_launcher_free:
 *
 * Frees @launcher, in the context it ran in, once its launches are done.
 */
void
gst_cuda_box_blur_launcher_free (GstCudaBoxBlurLauncher * launcher)
{
  if (!launcher)
    return;
  gst_cuda_box_blur_work_memory_release (&launcher->host);
  gst_cuda_box_blur_work_memory_release (&launcher->device);
  gst_cuda_box_blur_work_memory_release (&launcher->mid);
  g_free (launcher);
}

/**
 * gst_cuda_box_blur_launcher_work_bytes:
 *
 * Returns: the bytes of GPU and page-locked memory @launcher holds.
 */
gsize
gst_cuda_box_blur_launcher_work_bytes (const GstCudaBoxBlurLauncher * launcher)
{
  return launcher->host.size + launcher->device.size + launcher->mid.size;
}

/**
 * gst_cuda_box_blur_launcher_upload:
 *
 * Ends @plan's open batch and queues the copy of every launch's arguments
 * to the GPU on @stream.  The launcher's previous upload must be done.
 */
gboolean
gst_cuda_box_blur_launcher_upload (GstCudaBoxBlurLauncher * launcher,
    GstCudaBoxBlurPlan * plan, cudaStream_t stream, GError ** error)
{
  gconstpointer args;
  gsize bytes;

  gst_cuda_box_blur_plan_end_batch (plan);
  args = gst_cuda_box_blur_plan_get_args (plan, &bytes);
  if (bytes == 0)
    return TRUE;
  if (!gst_cuda_box_blur_work_memory_ensure (&launcher->host, bytes, error)
      || !gst_cuda_box_blur_work_memory_ensure (&launcher->device, bytes,
          error)
      || !gst_cuda_box_blur_work_memory_ensure (&launcher->mid,
          MAX (gst_cuda_box_blur_plan_mid_needed (plan), 1), error))
    return FALSE;
  memcpy (launcher->host.mem, args, bytes);
  return GST_CUDA_BOX_BLUR_CHECK (cudaMemcpyAsync (launcher->device.mem,
          launcher->host.mem, bytes, cudaMemcpyHostToDevice, stream), error);
}

/**
 * gst_cuda_box_blur_launcher_launch:
 *
 * Queues every launch of @plan, uploaded last, on @stream, in order.
 */
gboolean
gst_cuda_box_blur_launcher_launch (GstCudaBoxBlurLauncher * launcher,
    const GstCudaBoxBlurPlan * plan, cudaStream_t stream, GError ** error)
{
  guint i;

  for (i = 0; i < gst_cuda_box_blur_plan_n_launches (plan); i++) {
    const GstCudaBoxBlurLaunch *l = gst_cuda_box_blur_plan_get_launch (plan,
        i);
    BoxBlurArgs *list = (BoxBlurArgs *) launcher->device.mem + l->first;
    void *params[] = { &list, &launcher->mid.mem };
    const dim3 grid = { l->grid[0], l->grid[1], l->count };
    const dim3 block = { l->block[0], l->block[1], 1 };

    GST_LOG_OBJECT (launcher->log_object, "launch %u: %s, stage %d, %u "
        "entries, grid %ux%u", i, gst_cuda_box_blur_kernel_name (l->kernel),
        l->stage, l->count, l->grid[0], l->grid[1]);
    if (!GST_CUDA_BOX_BLUR_CHECK (cudaLaunchKernel ((const void *)
                launcher->program->kernels[l->kernel], grid, block, params, 0,
                stream), error))
      return FALSE;
  }
  return TRUE;
}

/**
 * gst_cuda_box_blur_launcher_run:
 *
 * gst_cuda_box_blur_launcher_upload(), then
 * gst_cuda_box_blur_launcher_launch().
 */
gboolean
gst_cuda_box_blur_launcher_run (GstCudaBoxBlurLauncher * launcher,
    GstCudaBoxBlurPlan * plan, cudaStream_t stream, GError ** error)
{
  return gst_cuda_box_blur_launcher_upload (launcher, plan, stream, error)
      && gst_cuda_box_blur_launcher_launch (launcher, plan, stream, error);
}
