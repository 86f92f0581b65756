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

/* Memory types; gst_memory_is_type() recognises them. */
#define GST_CUDA_MANAGED_MEMORY_TYPE "CudaManagedMemory"
#define GST_CUDA_PINNED_MEMORY_TYPE "CudaPinnedHostMemory"

/* Test hook: g_object_set_data (allocator, this, GINT_TO_POINTER (n + 1))
 * lets n more allocations through and fails the next as if out of memory
 * (never exhausting a GPU, which with managed memory can hang it). */
#define GST_CUDA_BOX_BLUR_ALLOCATOR_FAIL_AFTER "cudaboxblur-test-fail-after"

#define GST_TYPE_CUDA_BOX_BLUR_ALLOCATOR (gst_cuda_box_blur_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaBoxBlurAllocator, gst_cuda_box_blur_allocator,
    GST, CUDA_BOX_BLUR_ALLOCATOR, GstAllocator)

GstAllocator * gst_cuda_box_blur_allocator_new_managed (gint device_id,
                                                        GstObject * context);

GstAllocator * gst_cuda_box_blur_allocator_new_pinned (gint device_id,
                                                       GstObject * context);

gboolean       gst_cuda_box_blur_memory_is_managed (GstMemory * mem);

G_END_DECLS
