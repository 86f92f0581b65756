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

/* GStreamer's CUDA memory (gstreamer-cuda-1.0) for the element: context
 * sharing, CUDA buffer pools and device mappings.  Built only when that
 * library is found; GST_USE_UNSTABLE_API comes from the build. */

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>

G_BEGIN_DECLS

gboolean        gst_cuda_box_blur_gstcuda_init       (void);

guint           gst_cuda_box_blur_context_device     (GstCudaContext * context);

gboolean        gst_cuda_box_blur_context_push       (GstCudaContext * context,
                                                      GError ** error);

GstCudaContext * gst_cuda_box_blur_peer_context      (GstPad * pad);

gboolean        gst_cuda_box_blur_share_context     (GstElement * element,
                                                      gint device_id,
                                                      GstCudaContext ** context);

GstBufferPool * gst_cuda_box_blur_cuda_pool          (GstCudaContext * context,
                                                      GstBufferPool * reuse);

gboolean        gst_cuda_box_blur_is_device_buffer   (GstBuffer * buffer,
                                                      GstCudaContext * context);

gboolean        gst_cuda_box_blur_map_device         (GstBuffer * buffer,
                                                      GstCudaContext * context,
                                                      GstMapInfo * map,
                                                      GstMapFlags flags);

void            gst_cuda_box_blur_cuda_caps_first    (GstQuery * query);

GstCaps *       gst_cuda_box_blur_cuda_both_memories (GstCaps * caps);

G_END_DECLS
