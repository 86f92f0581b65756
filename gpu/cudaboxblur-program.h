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

/* A kernel image built with the plugin (kernels/meson.build): a fatbin of
 * machine code for sm_<arch>, or of PTX for compute_<arch>. */
typedef struct
{
  gint arch;                    /* 90 for sm_90 or compute_90 */
  gboolean ptx;
  const guint8 *data;
  gsize size;
} GstCudaBoxBlurBuiltIn;

/* Where a program's kernels came from, in the order they are looked for. */
typedef enum
{
  GST_CUDA_BOX_BLUR_BUILT_IN,       /* machine code built with the plugin */
  GST_CUDA_BOX_BLUR_BUILT_IN_PTX,   /* PTX built with the plugin, which the
                                     * driver compiled for the GPU */
  GST_CUDA_BOX_BLUR_NVRTC,          /* compiled by NVRTC at run time */
  GST_CUDA_BOX_BLUR_NVRTC_CACHE,    /* NVRTC's, from the kernel cache */
} GstCudaBoxBlurOrigin;

/* The kernels of kernels/ (boxblur.cu and its families), compiled for one
 * GPU architecture and loaded.  Programs are cached for the life of the
 * process and never freed. */
typedef struct
{
  gchar *arch;                  /* "sm_90", or "compute_90" for PTX */
  GstCudaBoxBlurOrigin origin;
  gchar *description;           /* the arch and the origin, for people */
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
  /* both passes in one, column sums in shared memory: 8-bit samples of
   * their own and pairs (NV12's UV), pixels of three (RGB) and four
   * (RGBA ...), and float32 samples */
  cudaKernel_t tiles;
  cudaKernel_t tiles_px3;
  cudaKernel_t tiles_px4;
  cudaKernel_t tiles_f32;
  /* packed pixels of four 8-bit samples blurred together, the row passes
   * after columns[GST_CUDA_BOX_BLUR_U8] or columns16 over the rows'
   * bytes */
  cudaKernel_t direct_px4;
  cudaKernel_t direct3x3_px4;
  cudaKernel_t rows_px4;
  cudaKernel_t rows16_px4;
  cudaKernel_t pixelate_px4;
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
  GST_CUDA_BOX_BLUR_SEPARABLE,  /* column sums, then row sums: in one
                                 * pass or two, whichever the plan finds
                                 * faster */
  GST_CUDA_BOX_BLUR_TWO_PASS,   /* column sums through device memory */
  GST_CUDA_BOX_BLUR_ONE_PASS,   /* column sums of tiles in shared memory
                                 * (8-bit and float32 samples, windows that
                                 * do not wrap around the sides; two passes
                                 * elsewhere) */
  GST_CUDA_BOX_BLUR_PIXELATE,   /* block means */
} GstCudaBoxBlurVariant;

const GstCudaBoxBlurBuiltIn *
          gst_cuda_box_blur_program_built_in    (guint * n_images);

const GstCudaBoxBlurBuiltIn *
          gst_cuda_box_blur_program_pick        (const GstCudaBoxBlurBuiltIn * images,
                                                 guint n_images,
                                                 gint major,
                                                 gint minor);

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

gchar *   gst_cuda_box_blur_program_source      (const gchar * override,
                                                 GError ** error);

guint     gst_cuda_box_blur_program_n_kernels   (void);

const gchar *
          gst_cuda_box_blur_program_kernel_name (guint i);

gint      gst_cuda_box_blur_program_kernel_index (const GstCudaBoxBlurProgram * program,
                                                  cudaKernel_t kernel);

G_END_DECLS
