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

#include "cudaboxblur-device.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-job.h"
#include "cudaboxblur-program.h"

G_BEGIN_DECLS

/* Where the bytes of a frame live, which decides how the engine reaches
 * them. */
typedef enum
{
  GST_CUDA_BOX_BLUR_IN_HOST,    /* host memory, pinned or pageable: copied
                                 * to and from device staging frames */
  GST_CUDA_BOX_BLUR_IN_MANAGED, /* CUDA managed memory: used in place */
  GST_CUDA_BOX_BLUR_IN_DEVICE,  /* device memory of the engine's context:
                                 * used in place */
} GstCudaBoxBlurLocation;

/* One frame handed to the engine. */
typedef struct
{
  GstCudaBoxBlurFrame frame;
  GstCudaBoxBlurLocation location;
} GstCudaBoxBlurImage;

/* The GPU side of a blur: a stream, the kernels and the scratch memory, on
 * one device.  The engine knows nothing of GStreamer buffers.  It is
 * created, used and freed with one CUDA context current on the calling
 * thread, the device's primary context or another (the element pushes
 * its GstCudaContext, or the primary context, above whatever the thread
 * has); the runtime follows whichever is current, and the engine's stream
 * and memory belong to it. */
typedef struct _GstCudaBoxBlurEngine GstCudaBoxBlurEngine;

GstCudaBoxBlurEngine * gst_cuda_box_blur_engine_new   (const GstCudaBoxBlurDevice * device,
                                                       const GstCudaBoxBlurProgram * program,
                                                       gpointer log_object,
                                                       GError ** error);

void                   gst_cuda_box_blur_engine_free  (GstCudaBoxBlurEngine * engine);

gsize                  gst_cuda_box_blur_engine_work_bytes (const GstCudaBoxBlurEngine * engine);

cudaStream_t           gst_cuda_box_blur_engine_get_stream (GstCudaBoxBlurEngine * engine);

guint                  gst_cuda_box_blur_engine_n_launches (const GstCudaBoxBlurEngine * engine);

GstCudaBoxBlurKernel   gst_cuda_box_blur_engine_launch_kernel (const GstCudaBoxBlurEngine * engine,
                                                               guint i);

gboolean               gst_cuda_box_blur_engine_check_fits (const GstCudaBoxBlurEngine * engine,
                                                            const GstCudaBoxBlurInfo * info,
                                                            GError ** error);

gboolean               gst_cuda_box_blur_engine_queue_blur (GstCudaBoxBlurEngine * engine,
                                                       const GstCudaBoxBlurJob * job,
                                                       const GstCudaBoxBlurImage * src,
                                                       const GstCudaBoxBlurImage * dst,
                                                       GError ** error);

gboolean               gst_cuda_box_blur_engine_queue_blur_in_place (GstCudaBoxBlurEngine * engine,
                                                               const GstCudaBoxBlurJob * job,
                                                               const GstCudaBoxBlurImage * image,
                                                               GError ** error);

gboolean               gst_cuda_box_blur_engine_wait  (GstCudaBoxBlurEngine * engine,
                                                       GError ** error);

gboolean               gst_cuda_box_blur_engine_blur  (GstCudaBoxBlurEngine * engine,
                                                       const GstCudaBoxBlurJob * job,
                                                       const GstCudaBoxBlurImage * src,
                                                       const GstCudaBoxBlurImage * dst,
                                                       GError ** error);

gboolean               gst_cuda_box_blur_engine_blur_in_place (GstCudaBoxBlurEngine * engine,
                                                               const GstCudaBoxBlurJob * job,
                                                               const GstCudaBoxBlurImage * image,
                                                               GError ** error);

G_END_DECLS
