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

/* The plan: a frame's kernel launches, chosen and laid out on the CPU,
 * before any CUDA call.  The GPU library's launcher
 * (gpu/cudaboxblur-launch.h) uploads their arguments and launches them. */

#include <gst/gst.h>

#include "cudaboxblur-info.h"
#include "cudaboxblur-job.h"
#include "cudaboxblur-params.h"

G_BEGIN_DECLS

/* Every kernel of kernels/, one row of the plan's table each
 * (gst_cuda_box_blur_kernel_name()).  Those of each sample type come in
 * the order of GstCudaBoxBlurSampleType: the first's id plus the type. */
typedef enum
{
  GST_CUDA_BOX_BLUR_KERNEL_DIRECT_U8,         /* whole window */
  GST_CUDA_BOX_BLUR_KERNEL_DIRECT_U16,
  GST_CUDA_BOX_BLUR_KERNEL_DIRECT_F32,
  GST_CUDA_BOX_BLUR_KERNEL_DIRECT3X3_U8,      /* unrolled 3x3 */
  GST_CUDA_BOX_BLUR_KERNEL_DIRECT3X3_U16,
  GST_CUDA_BOX_BLUR_KERNEL_DIRECT3X3_F32,
  GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_U8,        /* column sums */
  GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_U16,
  GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_F32,
  GST_CUDA_BOX_BLUR_KERNEL_ROWS_U8,           /* row sums, mean */
  GST_CUDA_BOX_BLUR_KERNEL_ROWS_U16,
  GST_CUDA_BOX_BLUR_KERNEL_ROWS_F32,
  GST_CUDA_BOX_BLUR_KERNEL_PIXELATE_U8,       /* block means */
  GST_CUDA_BOX_BLUR_KERNEL_PIXELATE_U16,
  GST_CUDA_BOX_BLUR_KERNEL_PIXELATE_F32,
  GST_CUDA_BOX_BLUR_KERNEL_COMPOSE_U8,        /* shape, feather, fill */
  GST_CUDA_BOX_BLUR_KERNEL_COMPOSE_U16,
  GST_CUDA_BOX_BLUR_KERNEL_COMPOSE_F32,
  /* 8-bit passes with 16-bit column sums, for radius_y <= 128 */
  GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_U8_16,
  GST_CUDA_BOX_BLUR_KERNEL_ROWS_U8_16,
  /* both passes in one, column sums in shared memory: samples of their
   * own and pairs (NV12's and P010's UV; float32 samples of their own),
   * 8-bit pixels of three (RGB) and four (RGBA ...) */
  GST_CUDA_BOX_BLUR_KERNEL_TILES_U8,
  GST_CUDA_BOX_BLUR_KERNEL_TILES_U16,
  GST_CUDA_BOX_BLUR_KERNEL_TILES_F32,
  GST_CUDA_BOX_BLUR_KERNEL_TILES_PX3,
  GST_CUDA_BOX_BLUR_KERNEL_TILES_PX4,
  /* ... and the macropixels of packed 4:2:2 (YUY2, UYVY, YVYU) */
  GST_CUDA_BOX_BLUR_KERNEL_TILES_422,
  /* packed pixels of four 8-bit samples blurred together, the row passes
   * after COLUMNS_U8 or COLUMNS_U8_16 over the rows' bytes */
  GST_CUDA_BOX_BLUR_KERNEL_DIRECT_PX4,
  GST_CUDA_BOX_BLUR_KERNEL_DIRECT3X3_PX4,
  GST_CUDA_BOX_BLUR_KERNEL_ROWS_PX4,
  GST_CUDA_BOX_BLUR_KERNEL_ROWS_PX4_16,
  GST_CUDA_BOX_BLUR_KERNEL_PIXELATE_PX4,
  GST_CUDA_BOX_BLUR_KERNEL_COPY,              /* bytes, for halos */
  /* both passes in one, column sums in registers: 8-bit samples of their
   * own, narrow windows */
  GST_CUDA_BOX_BLUR_KERNEL_STRIPS_U8,
  GST_CUDA_BOX_BLUR_N_KERNELS,
} GstCudaBoxBlurKernel;

const gchar * gst_cuda_box_blur_kernel_name (GstCudaBoxBlurKernel kernel);
gboolean      gst_cuda_box_blur_kernel_is_tiles (GstCudaBoxBlurKernel kernel);

typedef enum
{
  GST_CUDA_BOX_BLUR_DIRECT,     /* one thread per pixel, whole window */
  GST_CUDA_BOX_BLUR_SEPARABLE,  /* column sums, then row sums: in one
                                 * pass or two, whichever the plan finds
                                 * faster */
  GST_CUDA_BOX_BLUR_TWO_PASS,   /* column sums through device memory */
  GST_CUDA_BOX_BLUR_ONE_PASS,   /* column sums of tiles in shared memory
                                 * (windows that do not wrap around the
                                 * sides; two passes elsewhere) */
  GST_CUDA_BOX_BLUR_PIXELATE,   /* block means */
  GST_CUDA_BOX_BLUR_STRIPS,     /* column sums slid down strips in
                                 * registers (8-bit samples of their own,
                                 * windows of at most STRIP_MAX_RADIUS_X
                                 * columns either side; the window's own
                                 * choice elsewhere) */
} GstCudaBoxBlurVariant;

GstCudaBoxBlurVariant gst_cuda_box_blur_plan_choose (const GstCudaBoxBlurWindow * window);

/* What the plan needs to know of the GPU it plans for; all 0 where it is
 * unknown. */
typedef struct
{
  gint multiprocessors;
  gint shared_per_multiprocessor;       /* bytes */
  gint reserved_shared_per_block;       /* bytes */
} GstCudaBoxBlurTarget;

/* One launch of the plan: @count entries of its arguments from @first
 * (entry blockIdx.z of the list), each a grid of up to @grid[0] x @grid[1]
 * blocks of @block[0] x @block[1] threads. */
typedef struct
{
  gint stage;
  GstCudaBoxBlurKernel kernel;
  guint first;
  guint count;
  guint grid[2];
  guint block[2];
} GstCudaBoxBlurLaunch;

/* The kernel launches of one frame, gathered before any runs.  Work is
 * queued in batches: within a batch the copies run first, then every
 * blur's first kernel, then the row sums of the separable blurs, then the
 * composes, and each of these takes one launch for all its entries of a
 * kind (entry blockIdx.z of a list), whatever the number of regions and
 * components.  Work of a batch must not depend on other work of the same
 * stage of it: a pass of one region may not read what another region's
 * pass of the same batch writes.  Batches run one after the other (a
 * batch whose column sums outgrow their budget is split, which only adds
 * order). */
typedef struct _GstCudaBoxBlurPlan GstCudaBoxBlurPlan;

GstCudaBoxBlurPlan * gst_cuda_box_blur_plan_new     (const GstCudaBoxBlurTarget * target);

void                 gst_cuda_box_blur_plan_free    (GstCudaBoxBlurPlan * plan);

void                 gst_cuda_box_blur_plan_reset   (GstCudaBoxBlurPlan * plan,
                                                     GstCudaBoxBlurSampleType type);

void                 gst_cuda_box_blur_plan_copy    (GstCudaBoxBlurPlan * plan,
                                                     const guint8 * src,
                                                     gint src_stride,
                                                     guint8 * dst,
                                                     gint dst_stride,
                                                     gint width_bytes,
                                                     gint height);

void                 gst_cuda_box_blur_plan_blur_variant (GstCudaBoxBlurPlan * plan,
                                                     GstCudaBoxBlurVariant variant,
                                                     const GstCudaBoxBlurPlane * src,
                                                     const GstCudaBoxBlurPlane * dst,
                                                     const GstCudaBoxBlurWindow * window,
                                                     const GstVideoRectangle * region);

GstCudaBoxBlurVariant gst_cuda_box_blur_plan_choose_plane (const GstCudaBoxBlurPlan * plan,
                                                     const GstCudaBoxBlurPlane * src,
                                                     const GstCudaBoxBlurPlane * dst,
                                                     const GstCudaBoxBlurWindow * window,
                                                     const GstVideoRectangle * region);

gboolean             gst_cuda_box_blur_plane_is_aligned (const GstCudaBoxBlurPlane * plane);

void                 gst_cuda_box_blur_plan_blur_pixels (GstCudaBoxBlurPlan * plan,
                                                     GstCudaBoxBlurVariant variant,
                                                     const GstCudaBoxBlurPlane * src,
                                                     const GstCudaBoxBlurPlane * dst,
                                                     const GstCudaBoxBlurWindow * window,
                                                     const GstVideoRectangle * region,
                                                     guint blurred);

gboolean             gst_cuda_box_blur_plan_blur_422 (GstCudaBoxBlurPlan * plan,
                                                     GstCudaBoxBlurVariant variant,
                                                     const GstCudaBoxBlurPlane * src,
                                                     const GstCudaBoxBlurPlane * dst,
                                                     const GstCudaBoxBlurWindow * luma,
                                                     gint chroma_radius_x,
                                                     gint luma_byte,
                                                     const GstVideoRectangle * region);

void                 gst_cuda_box_blur_plan_compose (GstCudaBoxBlurPlan * plan,
                                                     const GstCudaBoxBlurPlane * src,
                                                     const GstCudaBoxBlurPlane * dst,
                                                     const GstCudaBoxBlurWindow * window,
                                                     const GstVideoRectangle * region);

void                 gst_cuda_box_blur_plan_end_batch (GstCudaBoxBlurPlan * plan);

gsize                gst_cuda_box_blur_plan_mid_size (gint width,
                                                     gint height);

guint                gst_cuda_box_blur_plan_n_launches (const GstCudaBoxBlurPlan * plan);

const GstCudaBoxBlurLaunch *
                     gst_cuda_box_blur_plan_get_launch (const GstCudaBoxBlurPlan * plan,
                                                     guint i);

gconstpointer        gst_cuda_box_blur_plan_get_args (const GstCudaBoxBlurPlan * plan,
                                                     gsize * bytes);

gsize                gst_cuda_box_blur_plan_mid_needed (const GstCudaBoxBlurPlan * plan);

G_END_DECLS
