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
 * GPU architecture and loaded, by GstCudaBoxBlurKernel.  Programs are
 * cached for the life of the process and never freed. */
typedef struct
{
  gchar *arch;                  /* "sm_90", or "compute_90" for PTX */
  GstCudaBoxBlurOrigin origin;
  gchar *description;           /* the arch and the origin, for people */
  cudaLibrary_t library;
  cudaKernel_t kernels[GST_CUDA_BOX_BLUR_N_KERNELS];
  /* after a warm start, for gst_cuda_box_blur_program_settle() */
  gchar *refresh_source;
  gchar *refresh_entry;
  gint major;
  gint minor;
} GstCudaBoxBlurProgram;

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

gchar *   gst_cuda_box_blur_program_source      (const gchar * override,
                                                 GError ** error);

G_END_DECLS
