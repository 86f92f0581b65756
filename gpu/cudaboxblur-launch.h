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

#include "cudaboxblur-plan.h"
#include "cudaboxblur-program.h"

G_BEGIN_DECLS

/* Runs plans (plan/cudaboxblur-plan.h) with a program's kernels: the
 * arguments of every launch go to the GPU in one copy, then the launches
 * are queued in order.  Holds the memory of the upload and of the column
 * sums between two passes, grown to the most a plan has needed. */
typedef struct _GstCudaBoxBlurLauncher GstCudaBoxBlurLauncher;

GstCudaBoxBlurLauncher * gst_cuda_box_blur_launcher_new   (const GstCudaBoxBlurProgram * program,
                                                           gpointer log_object);

void     gst_cuda_box_blur_launcher_free       (GstCudaBoxBlurLauncher * launcher);

gsize    gst_cuda_box_blur_launcher_work_bytes (const GstCudaBoxBlurLauncher * launcher);

gboolean gst_cuda_box_blur_launcher_upload     (GstCudaBoxBlurLauncher * launcher,
                                                GstCudaBoxBlurPlan * plan,
                                                cudaStream_t stream,
                                                GError ** error);

gboolean gst_cuda_box_blur_launcher_launch     (GstCudaBoxBlurLauncher * launcher,
                                                const GstCudaBoxBlurPlan * plan,
                                                cudaStream_t stream,
                                                GError ** error);

gboolean gst_cuda_box_blur_launcher_run        (GstCudaBoxBlurLauncher * launcher,
                                                GstCudaBoxBlurPlan * plan,
                                                cudaStream_t stream,
                                                GError ** error);

G_END_DECLS
