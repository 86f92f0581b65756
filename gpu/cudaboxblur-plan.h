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
#include <cuda_runtime_api.h>

#include "cudaboxblur-info.h"
#include "cudaboxblur-job.h"
#include "cudaboxblur-params.h"
#include "cudaboxblur-program.h"

G_BEGIN_DECLS

/* The kernel launches of one frame, gathered before any runs.  Work is
 * queued in batches: within a batch the copies run first, then every
 * blur's first kernel, then the row sums of the separable blurs, then the
 * composes, and each of these takes one launch for all its entries of a
 * kind (entry blockIdx.z of a list), whatever the number of regions and
 * components.  Work of a batch must not depend on other work of the same
 * stage of it: a pass of one region may not read what another region's
 * pass of the same batch writes.  Batches run one after the other (a
 * batch whose column sums outgrow their budget is split, which only adds
 * order).  The arguments of every launch go to the GPU in one copy. */
typedef struct _GstCudaBoxBlurPlan GstCudaBoxBlurPlan;

GstCudaBoxBlurPlan * gst_cuda_box_blur_plan_new     (const GstCudaBoxBlurProgram * program,
                                                     gpointer log_object);

void                 gst_cuda_box_blur_plan_free    (GstCudaBoxBlurPlan * plan);

gsize                gst_cuda_box_blur_plan_work_bytes (const GstCudaBoxBlurPlan * plan);

void                 gst_cuda_box_blur_plan_reset   (GstCudaBoxBlurPlan * plan,
                                                     GstCudaBoxBlurSampleType type);

void                 gst_cuda_box_blur_plan_copy    (GstCudaBoxBlurPlan * plan,
                                                     const guint8 * src,
                                                     gint src_stride,
                                                     guint8 * dst,
                                                     gint dst_stride,
                                                     gint width_bytes,
                                                     gint height);

void                 gst_cuda_box_blur_plan_blur    (GstCudaBoxBlurPlan * plan,
                                                     const GstCudaBoxBlurPlane * src,
                                                     const GstCudaBoxBlurPlane * dst,
                                                     const GstCudaBoxBlurWindow * window,
                                                     const GstVideoRectangle * region);

void                 gst_cuda_box_blur_plan_blur_variant (GstCudaBoxBlurPlan * plan,
                                                     GstCudaBoxBlurVariant variant,
                                                     const GstCudaBoxBlurPlane * src,
                                                     const GstCudaBoxBlurPlane * dst,
                                                     const GstCudaBoxBlurWindow * window,
                                                     const GstVideoRectangle * region);

gboolean             gst_cuda_box_blur_plane_is_aligned (const GstCudaBoxBlurPlane * plane);

void                 gst_cuda_box_blur_plan_blur_tasks (GstCudaBoxBlurPlan * plan,
                                                        const GstCudaBoxBlurJob * job,
                                                        guint first,
                                                        guint n,
                                                        guint blurred,
                                                        gint pass,
                                                        const GstCudaBoxBlurPlane * in,
                                                        const GstCudaBoxBlurPlane * out,
                                                        const GstVideoRectangle * rect);

void                 gst_cuda_box_blur_plan_blur_pixels (GstCudaBoxBlurPlan * plan,
                                                     GstCudaBoxBlurVariant variant,
                                                     const GstCudaBoxBlurPlane * src,
                                                     const GstCudaBoxBlurPlane * dst,
                                                     const GstCudaBoxBlurWindow * window,
                                                     const GstVideoRectangle * region,
                                                     guint blurred);

void                 gst_cuda_box_blur_plan_compose (GstCudaBoxBlurPlan * plan,
                                                     const GstCudaBoxBlurPlane * src,
                                                     const GstCudaBoxBlurPlane * dst,
                                                     const GstCudaBoxBlurWindow * window,
                                                     const GstVideoRectangle * region);

void                 gst_cuda_box_blur_plan_end_batch (GstCudaBoxBlurPlan * plan);

gsize                gst_cuda_box_blur_plan_mid_size (gint width,
                                                     gint height);

guint                gst_cuda_box_blur_plan_n_launches (const GstCudaBoxBlurPlan * plan);

cudaKernel_t         gst_cuda_box_blur_plan_launch_kernel (const GstCudaBoxBlurPlan * plan,
                                                     guint i);

gboolean             gst_cuda_box_blur_plan_upload  (GstCudaBoxBlurPlan * plan,
                                                     cudaStream_t stream,
                                                     GError ** error);

gboolean             gst_cuda_box_blur_plan_launch  (GstCudaBoxBlurPlan * plan,
                                                     cudaStream_t stream,
                                                     GError ** error);

gboolean             gst_cuda_box_blur_plan_run     (GstCudaBoxBlurPlan * plan,
                                                     cudaStream_t stream,
                                                     GError ** error);

G_END_DECLS
