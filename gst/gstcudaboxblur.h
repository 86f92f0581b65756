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
#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GstCudaBoxBlurMemoryMode:
 * @GST_CUDA_BOX_BLUR_MEMORY_MANAGED: frames in CUDA managed memory, used by
 *   the GPU where they are
 * @GST_CUDA_BOX_BLUR_MEMORY_PINNED: frames in pinned host memory, copied to
 *   and from device memory around the kernels
 * @GST_CUDA_BOX_BLUR_MEMORY_AUTO: the faster of the two on the device, taken
 *   at start: managed where the GPU works in the host's memory (integrated,
 *   or reading the host's page tables) and the CPU may touch managed memory
 *   while kernels run, pinned elsewhere (Jetson among them)
 */
typedef enum
{
  GST_CUDA_BOX_BLUR_MEMORY_MANAGED,
  GST_CUDA_BOX_BLUR_MEMORY_PINNED,
  GST_CUDA_BOX_BLUR_MEMORY_AUTO,
} GstCudaBoxBlurMemoryMode;

#define GST_TYPE_CUDA_BOX_BLUR_MEMORY_MODE (gst_cuda_box_blur_memory_mode_get_type ())
GType gst_cuda_box_blur_memory_mode_get_type (void);

/* GstCudaBoxBlurBorder of cudaboxblur-params.h, for the border-mode
 * property */
#define GST_TYPE_CUDA_BOX_BLUR_MODE (gst_cuda_box_blur_mode_get_type ())
GType gst_cuda_box_blur_mode_get_type (void);

#define GST_TYPE_CUDA_BOX_BLUR_SHAPE (gst_cuda_box_blur_shape_get_type ())
GType gst_cuda_box_blur_shape_get_type (void);

/* GstCudaBoxBlurNoRegion of cudaboxblur-params.h, for the no-region
 * property */
#define GST_TYPE_CUDA_BOX_BLUR_NO_REGION (gst_cuda_box_blur_no_region_get_type ())
GType gst_cuda_box_blur_no_region_get_type (void);

/* GstCudaBoxBlurHoldMotion of cudaboxblur-params.h, for the
 * roi-hold-motion property */
#define GST_TYPE_CUDA_BOX_BLUR_HOLD_MOTION (gst_cuda_box_blur_hold_motion_get_type ())
GType gst_cuda_box_blur_hold_motion_get_type (void);

#define GST_TYPE_CUDA_BOX_BLUR_BORDER_MODE (gst_cuda_box_blur_border_mode_get_type ())
GType gst_cuda_box_blur_border_mode_get_type (void);

/* GstCudaBoxBlurPlanes of cudaboxblur-params.h, for the planes property */
#define GST_TYPE_CUDA_BOX_BLUR_PLANES (gst_cuda_box_blur_planes_get_type ())
GType gst_cuda_box_blur_planes_get_type (void);

#define GST_TYPE_CUDA_BOX_BLUR (gst_cuda_box_blur_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaBoxBlur, gst_cuda_box_blur,
    GST, CUDA_BOX_BLUR, GstVideoFilter)

GST_ELEMENT_REGISTER_DECLARE (cudaboxblur);

G_END_DECLS
