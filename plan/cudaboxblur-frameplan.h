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

#pragma once

#include <gst/gst.h>

#include "cudaboxblur-info.h"
#include "cudaboxblur-job.h"
#include "cudaboxblur-plan.h"

G_BEGIN_DECLS

/* Everything one frame's job takes, decided on the CPU before any CUDA
 * call: the copies of whole planes before the kernels, the kernel
 * launches (a GstCudaBoxBlurPlan: the passes over the whole frame, or each
 * region's passes in copies of its halo, composed through its shape and
 * feather, in layers where regions overlap; fills; the keeps of invert),
 * and the copies after them.  The engine provides the memory it asks for
 * (gst_cuda_box_blur_frame_plan_measure()) and runs it. */
typedef struct _GstCudaBoxBlurFramePlan GstCudaBoxBlurFramePlan;

/* A copy of @height rows of @width bytes, queued as one 2D copy. */
typedef struct
{
  const guint8 *src;
  gint src_stride;
  guint8 *dst;
  gint dst_stride;
  gsize width;
  gint height;
} GstCudaBoxBlurCopy;

/* Bytes of GPU memory a frame's plan works in besides its frames. */
typedef struct
{
  gsize scratch;                /* a frame between the passes */
  gsize halos;                  /* the regions' halo copies */
} GstCudaBoxBlurFrameNeeds;

GstCudaBoxBlurFramePlan * gst_cuda_box_blur_frame_plan_new     (const GstCudaBoxBlurTarget * target,
                                                                gpointer log_object);

void     gst_cuda_box_blur_frame_plan_free    (GstCudaBoxBlurFramePlan * frame);

void     gst_cuda_box_blur_frame_plan_measure (GstCudaBoxBlurFramePlan * frame,
                                               const GstCudaBoxBlurJob * job,
                                               const GstCudaBoxBlurFrame * out,
                                               GstCudaBoxBlurFrameNeeds * needs);

void     gst_cuda_box_blur_frame_plan_make    (GstCudaBoxBlurFramePlan * frame,
                                               const GstCudaBoxBlurJob * job,
                                               const GstCudaBoxBlurFrame * in,
                                               const GstCudaBoxBlurFrame * out,
                                               guint8 * scratch,
                                               guint8 * halos,
                                               const GstCudaBoxBlurFrame * deliver);

GstCudaBoxBlurPlan *
         gst_cuda_box_blur_frame_plan_get_launches (GstCudaBoxBlurFramePlan * frame);

const GstCudaBoxBlurCopy *
         gst_cuda_box_blur_frame_plan_get_copies (const GstCudaBoxBlurFramePlan * frame,
                                                  gboolean after,
                                                  guint * n);

G_END_DECLS
