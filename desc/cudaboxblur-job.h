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

#include "cudaboxblur-info.h"
#include "cudaboxblur-params.h"
#include "cudaboxblur-regions.h"

G_BEGIN_DECLS

/* One component of one region, as the kernels redact it. */
typedef struct
{
  guint region;                 /* its index in the job's regions */
  gint component;
  GstVideoRectangle rect;       /* the region in the component's samples */
  /* the widest of the passes, which bounds what they read; with its
   * shape, feather and fill value */
  GstCudaBoxBlurWindow window;
  /* the window of each of the job's passes; a pass past the region's own
   * copies (a 1x1 window) */
  GstCudaBoxBlurWindow pass[GST_CUDA_BOX_BLUR_MAX_PASSES];
} GstCudaBoxBlurTask;

/* What one frame gets, resolved once from the settings, the caps and the
 * region metas: the regions, and for each the components it changes with
 * their windows.  The engine and the plan read nothing else.  See
 * docs/design.md, "One frame". */
typedef struct
{
  const GstCudaBoxBlurInfo *info;
  GArray *regions;              /* GstVideoRectangle, in frame pixels,
                                 * clipped; a later one lies over an
                                 * earlier one */
  GArray *region_settings;      /* GstCudaBoxBlurSettings of each region */
  GArray *origins;              /* GstCudaBoxBlurRegionOrigin of each region */
  GArray *tasks;                /* GstCudaBoxBlurTask, region by region;
                                 * with invert, the whole frame's (region
                                 * G_MAXUINT) */
  /* invert: the whole frame is redacted with the element's settings, then
   * each region laid back from the input through its shape and feather:
   * keeps has a GstCudaBoxBlurTask for each region and component the
   * redaction changes, its rect grown by its feather (it may reach past
   * the plane), its window's shape and feather those of the region */
  gboolean invert;
  GArray *keeps;
  gint n_passes;                /* the most any region takes */
  /* one region, the whole frame, hard-edged: the passes run over whole
   * planes */
  gboolean whole_frame;
  /* whole_frame, and every byte of every pixel is written: the output
   * needs no copy of the input first */
  gboolean covers;
} GstCudaBoxBlurJob;

void      gst_cuda_box_blur_job_init          (GstCudaBoxBlurJob * job);

void      gst_cuda_box_blur_job_clear         (GstCudaBoxBlurJob * job);

guint     gst_cuda_box_blur_job_resolve       (GstCudaBoxBlurJob * job,
                                               const GstCudaBoxBlurSettings * settings,
                                               const GstCudaBoxBlurInfo * info,
                                               GstBuffer * buffer,
                                               GstCudaBoxBlurHold * hold);

guint     gst_cuda_box_blur_job_set           (GstCudaBoxBlurJob * job,
                                               const GstCudaBoxBlurSettings * settings,
                                               const GstCudaBoxBlurInfo * info,
                                               const GstVideoRectangle * regions,
                                               guint n_regions,
                                               const GstCudaBoxBlurSettings * region_settings);

gboolean  gst_cuda_box_blur_job_redacts     (const GstCudaBoxBlurJob * job);

gboolean  gst_cuda_box_blur_job_in_place_helps (const GstCudaBoxBlurJob * job);

gchar *   gst_cuda_box_blur_job_to_string     (const GstCudaBoxBlurJob * job);

GstStructure * gst_cuda_box_blur_job_audit    (const GstCudaBoxBlurJob * job,
                                               const GstSegment * segment,
                                               GstBuffer * buffer);

G_END_DECLS
