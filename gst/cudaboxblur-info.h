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

/* Largest width or height.  Keeps every byte offset of a row (stride times
 * height) and the launch grid far inside their 32-bit limits. */
#define GST_CUDA_BOX_BLUR_MAX_DIMENSION 32768

/* The formats the element accepts.  GStreamer 1.22 has no GstVideoFormat for
 * single-channel float32, so GRAY32F is described here rather than by a
 * GstVideoInfo. */
#define GST_CUDA_BOX_BLUR_FORMATS "{ GRAY8, GRAY32F }"

#define GST_CUDA_BOX_BLUR_CAPS \
    "video/x-raw, format = (string) " GST_CUDA_BOX_BLUR_FORMATS ", " \
    "width = (int) [ 1, " G_STRINGIFY (GST_CUDA_BOX_BLUR_MAX_DIMENSION) " ], " \
    "height = (int) [ 1, " G_STRINGIFY (GST_CUDA_BOX_BLUR_MAX_DIMENSION) " ], " \
    "framerate = (fraction) [ 0, max ]"

typedef enum
{
  GST_CUDA_BOX_BLUR_FORMAT_GRAY8,
  GST_CUDA_BOX_BLUR_FORMAT_GRAY32F,
} GstCudaBoxBlurFormat;

/* What the caps say about a frame. */
typedef struct
{
  GstCudaBoxBlurFormat format;
  gint width;
  gint height;
  gint bpp;                     /* bytes per pixel */
  gint stride;                  /* default stride in bytes for these caps */
  gsize size;                   /* default frame size in bytes */
} GstCudaBoxBlurInfo;

/* One frame as the kernels see it: where it is and how its rows are laid
 * out.  Both formats are described by this alone. */
typedef struct
{
  guint8 *data;
  gint width;
  gint height;
  gint stride;
  gint bpp;
} GstCudaBoxBlurPlane;

gboolean      gst_cuda_box_blur_info_from_caps (GstCudaBoxBlurInfo * info,
                                                const GstCaps * caps);

const gchar * gst_cuda_box_blur_format_to_string (GstCudaBoxBlurFormat format);

gboolean      gst_cuda_box_blur_plane_from_buffer (GstCudaBoxBlurPlane * plane,
                                                   const GstCudaBoxBlurInfo * info,
                                                   GstBuffer * buffer,
                                                   GstMapInfo * map,
                                                   GError ** error);

G_END_DECLS
