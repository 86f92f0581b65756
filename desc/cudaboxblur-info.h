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
#include <gst/video/video.h>

G_BEGIN_DECLS

/* Largest width or height.  Keeps every byte offset of a row (stride times
 * height) and the launch grid far inside their 32-bit limits. */
#define GST_CUDA_BOX_BLUR_MAX_DIMENSION 32768

/* The formats the element accepts, in and out alike.  GStreamer 1.22 has no
 * GstVideoFormat for single-channel float32, so GRAY32F is described here
 * rather than by a GstVideoInfo. */
#define GST_CUDA_BOX_BLUR_FORMATS "{ GRAY8, GRAY16_LE, GRAY32F, I420, YV12, " \
    "NV12, NV21, Y42B, Y444, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, xRGB, " \
    "xBGR, AYUV, RGB, BGR, YUY2, UYVY, YVYU, I420_10LE, I420_12LE, " \
    "I422_10LE, I422_12LE, Y444_10LE, Y444_12LE, Y444_16LE, P010_10LE, " \
    "P012_LE, P016_LE }"

/* The formats of GStreamer's CUDA memory (memory:CUDAMemory) that the
 * element takes: those GStreamer 1.22's CUDA allocator can lay out
 * (gst_cuda_allocator_update_info()). */
#define GST_CUDA_BOX_BLUR_CUDA_FORMATS "{ I420, YV12, NV12, NV21, Y42B, " \
    "Y444, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, YUY2, UYVY, " \
    "I420_10LE, I422_10LE, I422_12LE, Y444_16LE, P010_10LE, P016_LE }"

#define GST_CUDA_BOX_BLUR_CUDA_MEMORY_FEATURE "memory:CUDAMemory"

#define GST_CUDA_BOX_BLUR_CAPS_FIELDS \
    "width = (int) [ 1, " G_STRINGIFY (GST_CUDA_BOX_BLUR_MAX_DIMENSION) " ], " \
    "height = (int) [ 1, " G_STRINGIFY (GST_CUDA_BOX_BLUR_MAX_DIMENSION) " ], " \
    "framerate = (fraction) [ 0, max ], " \
    "interlace-mode = (string) progressive"

/* System memory, which includes the element's managed and pinned pools. */
#define GST_CUDA_BOX_BLUR_CAPS \
    "video/x-raw, format = (string) " GST_CUDA_BOX_BLUR_FORMATS ", " \
    GST_CUDA_BOX_BLUR_CAPS_FIELDS

#define GST_CUDA_BOX_BLUR_CUDA_CAPS \
    "video/x-raw(" GST_CUDA_BOX_BLUR_CUDA_MEMORY_FEATURE "), " \
    "format = (string) " GST_CUDA_BOX_BLUR_CUDA_FORMATS ", " \
    GST_CUDA_BOX_BLUR_CAPS_FIELDS

/* How one sample (one component of one pixel) is stored. */
typedef enum
{
  GST_CUDA_BOX_BLUR_U8,         /* 8-bit unsigned */
  GST_CUDA_BOX_BLUR_U16,        /* 16-bit unsigned, native (little) endian */
  GST_CUDA_BOX_BLUR_F32,        /* float32 */
} GstCudaBoxBlurSampleType;

#define GST_CUDA_BOX_BLUR_N_SAMPLE_TYPES 3

/* What a component means, which decides its radius and whether the planes
 * property selects it. */
typedef enum
{
  GST_CUDA_BOX_BLUR_LUMA,       /* Y of YUV, and the gray formats */
  GST_CUDA_BOX_BLUR_CHROMA_U,
  GST_CUDA_BOX_BLUR_CHROMA_V,
  GST_CUDA_BOX_BLUR_RED,
  GST_CUDA_BOX_BLUR_GREEN,
  GST_CUDA_BOX_BLUR_BLUE,
  GST_CUDA_BOX_BLUR_ALPHA,
} GstCudaBoxBlurComponentKind;

typedef struct
{
  GstCudaBoxBlurComponentKind kind;
  gint plane;
  gint offset;                  /* bytes from a pixel to this component */
  gint step;                    /* bytes from one pixel to the next */
  gint width;                   /* samples per row and rows, after */
  gint height;                  /* subsampling */
  gint w_sub;                   /* log2 of the subsampling */
  gint h_sub;
  gint shift;                   /* low bits of each 16-bit word below the
                                 * sample (P010's 6, P012's 4), always 0 */
} GstCudaBoxBlurComponent;

/* What the caps say about a frame.  The layout is the default one for the
 * caps; a buffer's GstVideoMeta may move planes and pad rows. */
typedef struct
{
  const gchar *format;          /* its caps name */
  GstVideoFormat video_format;  /* GST_VIDEO_FORMAT_UNKNOWN for GRAY32F */
  GstCudaBoxBlurSampleType type;
  gint sample_size;             /* bytes */
  gint width;
  gint height;
  gint n_planes;
  gint stride[GST_VIDEO_MAX_PLANES];
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint row_bytes[GST_VIDEO_MAX_PLANES]; /* bytes of pixels in a row */
  gint plane_height[GST_VIDEO_MAX_PLANES];
  gint plane_components[GST_VIDEO_MAX_PLANES];  /* components in the plane */
  gint pixel_bytes[GST_VIDEO_MAX_PLANES];       /* the largest step in it */
  gsize size;                   /* default frame size in bytes */
  gint n_components;
  GstCudaBoxBlurComponent comp[GST_VIDEO_MAX_COMPONENTS];
  gboolean has_padding;         /* rows hold bytes of no component (RGBx,
                                 * YUY2 of an odd width) */
  /* for colours: GRAY32F takes GRAY8's, unrounded */
  const GstVideoFormatInfo *finfo;
  GstVideoColorimetry colorimetry;
} GstCudaBoxBlurInfo;

/* Where the planes of one frame are. */
typedef struct
{
  guint8 *data[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
} GstCudaBoxBlurFrame;

/* One component of one plane as the kernels see it. */
typedef struct
{
  guint8 *data;                 /* the component of pixel (0, 0) */
  gint width;
  gint height;
  gint stride;                  /* bytes from one row to the next */
  gint step;                    /* bytes from one pixel to the next */
  gint shift;                   /* the component's (GstCudaBoxBlurComponent) */
} GstCudaBoxBlurPlane;

gboolean      gst_cuda_box_blur_info_from_caps     (GstCudaBoxBlurInfo * info,
                                                    const GstCaps * caps);

gdouble       gst_cuda_box_blur_info_sample_max    (const GstCudaBoxBlurInfo * info,
                                                    gint component);

gdouble       gst_cuda_box_blur_info_color_sample  (const GstCudaBoxBlurInfo * info,
                                                    gint component,
                                                    guint32 argb);

gboolean      gst_cuda_box_blur_caps_are_cuda      (const GstCaps * caps,
                                                    guint index);

gboolean      gst_cuda_box_blur_frame_from_buffer  (GstCudaBoxBlurFrame * frame,
                                                    const GstCudaBoxBlurInfo * info,
                                                    GstBuffer * buffer,
                                                    GstMapInfo * map,
                                                    GError ** error);

void          gst_cuda_box_blur_frame_from_data    (GstCudaBoxBlurFrame * frame,
                                                    const GstCudaBoxBlurInfo * info,
                                                    guint8 * data);

void          gst_cuda_box_blur_frame_get_plane    (const GstCudaBoxBlurFrame * frame,
                                                    const GstCudaBoxBlurInfo * info,
                                                    gint component,
                                                    GstCudaBoxBlurPlane * plane);

guint8 *      gst_cuda_box_blur_frame_span         (const GstCudaBoxBlurFrame * frame,
                                                    const GstCudaBoxBlurInfo * info,
                                                    gsize * size);

void          gst_cuda_box_blur_frame_rebase       (GstCudaBoxBlurFrame * frame,
                                                    const GstCudaBoxBlurInfo * info,
                                                    guint8 * base);

G_END_DECLS
