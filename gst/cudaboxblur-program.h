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
  cudaKernel_t direct3x3[2];    /* the same for 3x3, unrolled */
  cudaKernel_t columns[2];      /* separable pass 1: column sums */
  cudaKernel_t rows[2];         /* separable pass 2: row sums, mean */
  /* GRAY8 passes with 16-bit column sums, for radius_y <= 128 */
  cudaKernel_t columns16;
  cudaKernel_t rows16;
} GstCudaBoxBlurProgram;

typedef enum
{
  GST_CUDA_BOX_BLUR_DIRECT,     /* one thread per pixel, whole window */
  GST_CUDA_BOX_BLUR_SEPARABLE,  /* column sums, then row sums */
} GstCudaBoxBlurVariant;

gchar *   gst_cuda_box_blur_program_choose_arch (gint major,
                                                 gint minor);

GBytes *  gst_cuda_box_blur_program_compile     (const gchar * source,
                                                 const gchar * arch,
                                                 GError ** error);

const GstCudaBoxBlurProgram *
          gst_cuda_box_blur_program_get         (gint major,
                                                 gint minor,
                                                 GError ** error);

GstCudaBoxBlurVariant
          gst_cuda_box_blur_program_choose      (gint radius_x,
                                                 gint radius_y);

gsize     gst_cuda_box_blur_program_mid_size    (gint width,
                                                 gint height);

gboolean  gst_cuda_box_blur_program_launch      (const GstCudaBoxBlurProgram * program,
                                                 GstCudaBoxBlurFormat format,
                                                 GstCudaBoxBlurVariant variant,
                                                 const GstCudaBoxBlurPlane * src,
                                                 const GstCudaBoxBlurPlane * dst,
                                                 gint radius_x,
                                                 gint radius_y,
                                                 gpointer mid,
                                                 cudaStream_t stream,
                                                 GError ** error);

G_END_DECLS
