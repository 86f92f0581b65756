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

#define GST_TYPE_CUDA_MANAGED_ALLOCATOR (gst_cuda_managed_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaManagedAllocator, gst_cuda_managed_allocator,
    GST, CUDA_MANAGED_ALLOCATOR, GstAllocator)

GstAllocator * gst_cuda_managed_allocator_new (gint device_id);

GstAllocator * gst_cuda_pinned_allocator_new (gint device_id);

gint           gst_cuda_managed_allocator_get_device_id (GstCudaManagedAllocator * self);

gboolean       gst_is_cuda_managed_memory (GstMemory * mem);

gboolean       gst_cuda_managed_memory_get_allocation (GstMemory * mem,
                                                       gpointer * data,
                                                       gsize * size);

G_END_DECLS
