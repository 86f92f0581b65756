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

/* An object detection of GStreamer's analytics metas, as the regions of
 * metas take it. */
typedef struct
{
  gint64 x;                     /* the axis-aligned box that holds it, in */
  gint64 y;                     /* frame pixels */
  gint64 w;
  gint64 h;
  GQuark type;                  /* its class; 0: none */
  gint id;                      /* its id in its relation meta */
  guint64 track;                /* a related tracking id; 0: none */
  gdouble confidence;           /* its location's; below 0: unknown */
} GstCudaBoxBlurDetection;

#ifdef HAVE_GST_ANALYTICS

guint     gst_cuda_box_blur_analytics_detections (GstBuffer * buffer,
                                                  GArray * detections);

#else

/* Built against GStreamer 1.22, which has no analytics metas: none. */
static inline guint
gst_cuda_box_blur_analytics_detections (GstBuffer * buffer,
    GArray * detections)
{
  return 0;
}

#endif

G_END_DECLS
