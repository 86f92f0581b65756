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
#include "cudaboxblur-params.h"

G_BEGIN_DECLS

/* The kernels of kernels/boxblur.cu, compiled for one GPU architecture and
 * loaded.  Programs are cached for the life of the process and never
 * freed. */
typedef struct
{
  gchar *arch;                  /* "sm_90", or "compute_90" for PTX */
  cudaLibrary_t library;
  /* each indexed by GstCudaBoxBlurSampleType */
  cudaKernel_t direct[GST_CUDA_BOX_BLUR_N_SAMPLE_TYPES];     /* whole window */
  cudaKernel_t direct3x3[GST_CUDA_BOX_BLUR_N_SAMPLE_TYPES]; /* unrolled 3x3 */
  cudaKernel_t columns[GST_CUDA_BOX_BLUR_N_SAMPLE_TYPES];   /* column sums */
  cudaKernel_t rows[GST_CUDA_BOX_BLUR_N_SAMPLE_TYPES];      /* row sums, mean */
  cudaKernel_t pixelate[GST_CUDA_BOX_BLUR_N_SAMPLE_TYPES];  /* block means */
  cudaKernel_t compose[GST_CUDA_BOX_BLUR_N_SAMPLE_TYPES];   /* shape, fill */
  /* 8-bit passes with 16-bit column sums, for radius_y <= 128 */
  cudaKernel_t columns16;
  cudaKernel_t rows16;
  cudaKernel_t copy;            /* bytes, for halos */
  /* after a warm start, for gst_cuda_box_blur_program_settle() */
  gchar *refresh_source;
  gchar *refresh_entry;
  gint major;
  gint minor;
} GstCudaBoxBlurProgram;

typedef enum
{
  GST_CUDA_BOX_BLUR_DIRECT,     /* one thread per pixel, whole window */
  GST_CUDA_BOX_BLUR_SEPARABLE,  /* column sums, then row sums */
  GST_CUDA_BOX_BLUR_PIXELATE,   /* block means */
} GstCudaBoxBlurVariant;

gchar *   gst_cuda_box_blur_program_choose_arch (gint major,
                                                 gint minor);

GBytes *  gst_cuda_box_blur_program_compile     (const gchar * source,
                                                 const gchar * arch,
                                                 GError ** error);

GBytes *  gst_cuda_box_blur_program_image       (const gchar * source,
                                                 gint major,
                                                 gint minor,
                                                 gboolean read_cache,
                                                 gchar ** arch,
                                                 gchar ** entry,
                                                 gboolean * cached,
                                                 GError ** error);

gboolean  gst_cuda_box_blur_program_refresh     (const gchar * source,
                                                 gint major,
                                                 gint minor,
                                                 const gchar * entry);

const GstCudaBoxBlurProgram *
          gst_cuda_box_blur_program_get         (gint major,
                                                 gint minor,
                                                 GError ** error);

void      gst_cuda_box_blur_program_settle      (const GstCudaBoxBlurProgram * program);

GstCudaBoxBlurVariant
          gst_cuda_box_blur_program_choose      (const GstCudaBoxBlurWindow * window);

G_END_DECLS
