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

#include "cudaboxblur-info.h"
#include "cudaboxblur-job.h"
#include "cudaboxblur-plan.h"

G_BEGIN_DECLS

gboolean  gst_cuda_box_blur_rectangles_meet  (const GstVideoRectangle * a,
                                              const GstVideoRectangle * b);

guint     gst_cuda_box_blur_plan_layers      (const GstCudaBoxBlurJob * job,
                                              GArray * layers,
                                              GArray * rounded);

gboolean  gst_cuda_box_blur_plan_in_pixels   (const GstCudaBoxBlurInfo * info,
                                              const GstCudaBoxBlurComponent * c);

guint     gst_cuda_box_blur_plan_pixel_group (const GstCudaBoxBlurJob * job,
                                              guint first,
                                              gint pass,
                                              guint * blurred);

void      gst_cuda_box_blur_plan_blur_tasks  (GstCudaBoxBlurPlan * plan,
                                              const GstCudaBoxBlurJob * job,
                                              guint first,
                                              guint n,
                                              guint blurred,
                                              gint pass,
                                              const GstCudaBoxBlurPlane * in,
                                              const GstCudaBoxBlurPlane * out,
                                              const GstVideoRectangle * rect);

G_END_DECLS
