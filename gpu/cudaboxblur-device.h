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

G_BEGIN_DECLS

typedef struct
{
  gint device_id;
  gchar name[256];
  gint major;
  gint minor;
  gboolean integrated;          /* shares the host's memory (Jetson) */
  gboolean host_page_tables;    /* reads the host's memory coherently,
                                 * through its page tables (Grace Hopper) */
  gboolean concurrent_managed;  /* the CPU may touch managed memory while
                                 * kernels run (concurrentManagedAccess:
                                 * not on Jetson) */
  GstCudaBoxBlurTarget target;  /* what the plan needs to know of it */
} GstCudaBoxBlurDevice;

gboolean gst_cuda_box_blur_device_prefers_managed (const GstCudaBoxBlurDevice * device);

gboolean gst_cuda_box_blur_device_query    (gint device_id,
                                            GstCudaBoxBlurDevice * device,
                                            GError ** error);

gboolean gst_cuda_box_blur_device_init     (gint device_id,
                                            GstCudaBoxBlurDevice * device,
                                            GError ** error);

gboolean gst_cuda_box_blur_device_open     (gint device_id,
                                            GstCudaBoxBlurDevice * device,
                                            GError ** error);

gboolean gst_cuda_box_blur_check_cuda      (cudaError_t err,
                                            const gchar * what,
                                            const gchar * file,
                                            gint line,
                                            GError ** error);

/* Checks a cudart call; on failure sets @error to the error, call, file and
 * line (and traces them at DEBUG level: the caller reports the error).
 * Evaluates to TRUE on success. */
#define GST_CUDA_BOX_BLUR_CHECK(call, error) \
    gst_cuda_box_blur_check_cuda ((call), #call, __FILE__, __LINE__, (error))

gchar *  gst_cuda_box_blur_no_device_explain (gboolean has_driver,
                                              gint driver,
                                              gint runtime,
                                              const gchar * visible);

gboolean gst_cuda_box_blur_context_lost    (void);

void     gst_cuda_box_blur_device_mark_lost (gint device_id);

cudaError_t gst_cuda_box_blur_keep_on_host  (const void * ptr,
                                             gsize size,
                                             gint device_id);

/* Memory an engine works in besides the frames, grown to the most a frame
 * has needed and kept: on the GPU, or page-locked on the host. */
typedef struct
{
  gpointer mem;
  gsize size;
  gboolean host;                /* cudaMallocHost rather than cudaMalloc */
} GstCudaBoxBlurWorkMemory;

gboolean gst_cuda_box_blur_work_memory_ensure  (GstCudaBoxBlurWorkMemory * m,
                                                gsize needed,
                                                GError ** error);

void     gst_cuda_box_blur_work_memory_release (GstCudaBoxBlurWorkMemory * m);

G_END_DECLS
