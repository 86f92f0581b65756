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

#include "cudaboxblur-info.h"

G_BEGIN_DECLS

/* The kernels of kernels/boxblur.cu, compiled for one GPU architecture and
 * loaded.  Programs are cached for the life of the process and never
 * freed. */
typedef struct
{
  gchar *arch;                  /* "sm_90", or "compute_90" for PTX */
  cudaLibrary_t library;
  /* each indexed by GstCudaBoxBlurFormat */
  cudaKernel_t direct[2];       /* one thread per pixel, whole window */
  cudaKernel_t columns[2];      /* separable pass 1: column sums */
  cudaKernel_t rows[2];         /* separable pass 2: row sums, mean */
} GstCudaBoxBlurProgram;

/* Launch geometry shared with kernels/boxblur.cu. */
#define GST_CUDA_BOX_BLUR_COLUMN_RUN 64
#define GST_CUDA_BOX_BLUR_ROW_THREADS 256

gchar *   gst_cuda_box_blur_program_choose_arch (gint major,
                                                 gint minor);

GBytes *  gst_cuda_box_blur_program_compile     (const gchar * source,
                                                 const gchar * arch,
                                                 GError ** error);

const GstCudaBoxBlurProgram *
          gst_cuda_box_blur_program_get         (gint major,
                                                 gint minor,
                                                 GError ** error);

G_END_DECLS
