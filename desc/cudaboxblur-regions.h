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

#include "cudaboxblur-info.h"
#include "cudaboxblur-params.h"

G_BEGIN_DECLS

/* Where a region of a frame comes from. */
typedef struct
{
  GstCudaBoxBlurReason reason;
  GQuark type;                  /* of its meta; 0 for the others */
  gint id;                      /* of its meta; 0 for the others */
  guint held;                   /* held: frames since its meta was seen */
  gboolean predicted;           /* held: moved on along its path */
  gdouble confidence;           /* its detector's; below 0: unknown */
  GstCudaBoxBlurSource source;  /* the kind of its meta */
} GstCudaBoxBlurRegionOrigin;

/* A region of interest as a meta gave it, or as roi_hold keeps it. */
typedef struct
{
  gint64 x;                     /* held ones may lie partly outside the */
  gint64 y;                     /* frame */
  gint64 w;
  gint64 h;
  GQuark type;
  gint id;                      /* above 0: an id to rank matches by */
  guint64 track;                /* above 0: a tracker's object id, matched
                                 * by before id and overlap */
  gdouble confidence;           /* its detector's; below 0: unknown */
  GstCudaBoxBlurSource source;  /* the kind of its meta */
  guint missed;                 /* frames since its meta was last seen */
  /* where its meta last was and, once two metas were matched, how it moved
   * a frame: x, y, w, h */
  gdouble at[4];
  gdouble velocity[4];
  gboolean moving;
  /* its velocity comes from a match that was not sure (another object may
   * have come near): held, it covers both where it moved to and where it
   * would lie had it not moved */
  gboolean guessed;
  /* what its meta's GST_CUDA_BOX_BLUR_META_PARAMS structure set */
  gint mode;                    /* -1: unset */
  gint radius;                  /* -1: unset */
  gdouble sigma;                /* below 0: unset */
  gint block_size;              /* -1: unset */
  gint shape;                   /* -1: unset */
  gint feather;                 /* -1: unset */
  gint64 fill_color;            /* -1: unset */
} GstCudaBoxBlurMetaRegion;

/* The regions of earlier frames that roi_hold keeps redacted. */
typedef struct
{
  GArray *regions;              /* GstCudaBoxBlurMetaRegion */
} GstCudaBoxBlurHold;

void      gst_cuda_box_blur_hold_init           (GstCudaBoxBlurHold * hold);

void      gst_cuda_box_blur_hold_reset          (GstCudaBoxBlurHold * hold);

void      gst_cuda_box_blur_hold_clear          (GstCudaBoxBlurHold * hold);

guint     gst_cuda_box_blur_settings_held_regions (const GstCudaBoxBlurSettings * settings,
                                                   const GstCudaBoxBlurInfo * info,
                                                   GstBuffer * buffer,
                                                   GstCudaBoxBlurHold * hold,
                                                   GArray * regions,
                                                   GArray * region_settings);

guint     gst_cuda_box_blur_settings_find_regions (const GstCudaBoxBlurSettings * settings,
                                                   const GstCudaBoxBlurInfo * info,
                                                   GstBuffer * buffer,
                                                   GstCudaBoxBlurHold * hold,
                                                   GArray * regions,
                                                   GArray * region_settings,
                                                   GArray * origins);

void      gst_cuda_box_blur_settings_for_frame  (const GstCudaBoxBlurSettings * settings,
                                                 const GstCudaBoxBlurInfo * info,
                                                 GstCudaBoxBlurSettings * out);

/* The settings of region @i: @region_settings[@i], or with no
 * per-region settings (NULL) @settings. */
static inline const GstCudaBoxBlurSettings *
gst_cuda_box_blur_region_settings (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurSettings * region_settings, guint i)
{
  return region_settings ? &region_settings[i] : settings;
}

guint     gst_cuda_box_blur_settings_regions    (const GstCudaBoxBlurSettings * settings,
                                                 const GstCudaBoxBlurInfo * info,
                                                 GstBuffer * buffer,
                                                 GArray * regions);

void      gst_cuda_box_blur_region_for_component (const GstCudaBoxBlurInfo * info,
                                                  gint component,
                                                  const GstVideoRectangle * region,
                                                  GstVideoRectangle * scaled);

G_END_DECLS
