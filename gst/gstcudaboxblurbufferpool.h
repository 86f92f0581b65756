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

G_BEGIN_DECLS

#define GST_TYPE_CUDA_BOX_BLUR_BUFFER_POOL (gst_cuda_box_blur_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaBoxBlurBufferPool, gst_cuda_box_blur_buffer_pool,
    GST, CUDA_BOX_BLUR_BUFFER_POOL, GstBufferPool)

GstBufferPool * gst_cuda_box_blur_buffer_pool_new (GstAllocator * allocator);

G_END_DECLS
