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

G_BEGIN_DECLS

/* What a window reads where it leaves the frame. */
typedef enum
{
  GST_CUDA_BOX_BLUR_BORDER_SHRINK,      /* nothing: the mean of the pixels
                                         * inside */
  GST_CUDA_BOX_BLUR_BORDER_CLAMP,       /* the nearest edge pixel */
  GST_CUDA_BOX_BLUR_BORDER_MIRROR,      /* reflected, edge not repeated
                                         * (dcb|abcd) */
  GST_CUDA_BOX_BLUR_BORDER_WRAP,        /* the other side of the frame */
  GST_CUDA_BOX_BLUR_BORDER_CONSTANT,    /* border_value */
} GstCudaBoxBlurBorder;

#define GST_CUDA_BOX_BLUR_N_BORDERS 5

/* What is done to the pixels of a region. */
typedef enum
{
  GST_CUDA_BOX_BLUR_MODE_BOX,   /* passes box blurs of the radii */
  GST_CUDA_BOX_BLUR_MODE_GAUSSIAN,      /* box blurs of variance sigma^2 */
  GST_CUDA_BOX_BLUR_MODE_PIXELATE,      /* blocks of their mean */
  GST_CUDA_BOX_BLUR_MODE_FILL,  /* one colour */
} GstCudaBoxBlurMode;

#define GST_CUDA_BOX_BLUR_N_MODES 4

/* What a window makes of a component's samples. */
typedef enum
{
  GST_CUDA_BOX_BLUR_WORK_WINDOWS,       /* each the mean of the window of
                                         * the radii around it */
  GST_CUDA_BOX_BLUR_WORK_BLOCKS,        /* each the mean of its block */
  GST_CUDA_BOX_BLUR_WORK_FILL,          /* the fill value, laid on by
                                         * compose alone */
} GstCudaBoxBlurWork;

/* The shape redacted in each region: the region's rectangle, or the
 * ellipse inscribed in it. */
typedef enum
{
  GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE,
  GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE,
} GstCudaBoxBlurShape;

#define GST_CUDA_BOX_BLUR_N_SHAPES 2

#define GST_CUDA_BOX_BLUR_SHAPE_NICKS { "rectangle", "ellipse" }

/* Where a held region (roi_hold) lies while its meta is missing. */
typedef enum
{
  GST_CUDA_BOX_BLUR_HOLD_MOTION_NONE,   /* where its meta last was */
  GST_CUDA_BOX_BLUR_HOLD_MOTION_LINEAR, /* moving on as its last two
                                         * detections moved, and growing */
} GstCudaBoxBlurHoldMotion;

#define GST_CUDA_BOX_BLUR_HOLD_MOTION_NICKS { "none", "linear" }

/* What a frame with roi_meta gets when no region of a matching meta
 * (nor a held one) lies in it. */
typedef enum
{
  GST_CUDA_BOX_BLUR_NO_REGION_PASS,     /* goes out as it came in */
  GST_CUDA_BOX_BLUR_NO_REGION_REDACT,   /* redacted whole */
} GstCudaBoxBlurNoRegion;

#define GST_CUDA_BOX_BLUR_NO_REGION_NICKS { "pass", "redact" }

/* Why a region of a frame is redacted. */
typedef enum
{
  GST_CUDA_BOX_BLUR_REASON_META,        /* a meta of this frame */
  GST_CUDA_BOX_BLUR_REASON_HELD,        /* a meta of an earlier frame */
  GST_CUDA_BOX_BLUR_REASON_ROI,         /* the roi properties */
  GST_CUDA_BOX_BLUR_REASON_NO_REGION,   /* no-region=redact */
  GST_CUDA_BOX_BLUR_REASON_MANY_REGIONS,        /* regions whose copies
                                                 * would take more than
                                                 * GST_CUDA_BOX_BLUR_MAX_REGION_FRAMES */
} GstCudaBoxBlurReason;

#define GST_CUDA_BOX_BLUR_REASON_NICKS { "meta", "held", "roi", "no-region", \
  "many-regions" }

/* Which kind of meta a region of a frame comes from. */
typedef enum
{
  GST_CUDA_BOX_BLUR_SOURCE_NONE,        /* none: the roi, or the frame */
  GST_CUDA_BOX_BLUR_SOURCE_VIDEO_ROI,   /* a GstVideoRegionOfInterestMeta */
  GST_CUDA_BOX_BLUR_SOURCE_ANALYTICS_OD,        /* a GstAnalyticsODMtd of a
                                                 * GstAnalyticsRelationMeta */
} GstCudaBoxBlurSource;

/* as the audit messages name them: the metas' type names */
#define GST_CUDA_BOX_BLUR_SOURCE_NICKS { "", "GstVideoRegionOfInterestMeta", \
  "GstAnalyticsODMtd" }

/* The frames' worth of samples a frame's regions may take, each grown by
 * its windows' reach (what the plan copies of it, twice with several
 * passes): beyond, the whole frame is redacted instead, so that a flood
 * of metas neither runs the GPU out of memory nor leaves a region clear. */
#define GST_CUDA_BOX_BLUR_MAX_REGION_FRAMES 8

/* Which components the planes property selects. */
typedef enum
{
  GST_CUDA_BOX_BLUR_PLANE_Y = 1 << 0,   /* luma, and the gray formats */
  GST_CUDA_BOX_BLUR_PLANE_U = 1 << 1,
  GST_CUDA_BOX_BLUR_PLANE_V = 1 << 2,
  GST_CUDA_BOX_BLUR_PLANE_R = 1 << 3,
  GST_CUDA_BOX_BLUR_PLANE_G = 1 << 4,
  GST_CUDA_BOX_BLUR_PLANE_B = 1 << 5,
} GstCudaBoxBlurPlanes;

#define GST_CUDA_BOX_BLUR_PLANES_ALL 0x3f

#define GST_CUDA_BOX_BLUR_MAX_RADIUS 255

/* The largest window, in pixels, summed directly, sample by sample in the
 * NVIDIA sample's order, so that float32 results equal the sample's (and
 * the reference's) bit for bit; larger windows take sums whose cost does
 * not depend on the radius.  Measured on an H200: at radius 1 the direct
 * (3x3) kernel wins (4K GRAY32F 0.033 ms against 0.081 ms); from radius 2
 * on the separable passes win in both formats at 1080p and 4K (4K GRAY32F
 * 0.082 against 0.161 ms). */
#define GST_CUDA_BOX_BLUR_DIRECT_MAX_WINDOW 9
#define GST_CUDA_BOX_BLUR_MAX_PASSES 8
/* A sigma whose boxes stay within GST_CUDA_BOX_BLUR_MAX_RADIUS: three
 * boxes of radius r have variance r (r + 1). */
#define GST_CUDA_BOX_BLUR_MAX_SIGMA 128.0
/* The least sigma a sigma-scale gives: above 1/sqrt(3), where the
 * Gaussian's last box has radius 1 (gst_cuda_box_blur_gaussian_radius()) */
#define GST_CUDA_BOX_BLUR_MIN_SCALED_SIGMA 0.6
/* The fewest boxes a Gaussian is made of: fewer are too far from one. */
#define GST_CUDA_BOX_BLUR_GAUSSIAN_MIN_BOXES 3

/* The defaults of the element's blur properties, which
 * gst_cuda_box_blur_settings_init() gives too. */
#define GST_CUDA_BOX_BLUR_DEFAULT_RADIUS 1
#define GST_CUDA_BOX_BLUR_DEFAULT_CHROMA_RADIUS (-1)
#define GST_CUDA_BOX_BLUR_DEFAULT_PLANES GST_CUDA_BOX_BLUR_PLANES_ALL
#define GST_CUDA_BOX_BLUR_DEFAULT_BLUR_ALPHA FALSE
#define GST_CUDA_BOX_BLUR_DEFAULT_PASSES 1
#define GST_CUDA_BOX_BLUR_DEFAULT_MODE GST_CUDA_BOX_BLUR_MODE_BOX
#define GST_CUDA_BOX_BLUR_DEFAULT_SIGMA 2.0
#define GST_CUDA_BOX_BLUR_DEFAULT_BORDER GST_CUDA_BOX_BLUR_BORDER_SHRINK
#define GST_CUDA_BOX_BLUR_DEFAULT_BORDER_VALUE 0.0
#define GST_CUDA_BOX_BLUR_DEFAULT_ROI 0       /* each of x, y, width, height */
#define GST_CUDA_BOX_BLUR_DEFAULT_ROI_META FALSE
#define GST_CUDA_BOX_BLUR_DEFAULT_ROI_META_TYPE NULL
#define GST_CUDA_BOX_BLUR_DEFAULT_NO_REGION GST_CUDA_BOX_BLUR_NO_REGION_PASS
#define GST_CUDA_BOX_BLUR_DEFAULT_INVERT FALSE
#define GST_CUDA_BOX_BLUR_DEFAULT_ROI_PADDING 0
#define GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD 0
#define GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD_MOTION GST_CUDA_BOX_BLUR_HOLD_MOTION_LINEAR
/* the fraction of its size a held region grows by each frame it is held:
 * docs/redaction.md, "Held regions that move", says how it was chosen */
#define GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD_GROW 0.05
#define GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD_REACH 0.2
#define GST_CUDA_BOX_BLUR_DEFAULT_ROI_MIN_CONFIDENCE 0.0
#define GST_CUDA_BOX_BLUR_DEFAULT_SCALE 0.0
#define GST_CUDA_BOX_BLUR_DEFAULT_BLOCK_SIZE 16
#define GST_CUDA_BOX_BLUR_DEFAULT_SHAPE GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE
#define GST_CUDA_BOX_BLUR_DEFAULT_FEATHER 0
#define GST_CUDA_BOX_BLUR_DEFAULT_FILL_COLOR 0xff000000      /* opaque black */

/* The name of the GstStructure of per-region parameters on a
 * GstVideoRegionOfInterestMeta. */
#define GST_CUDA_BOX_BLUR_META_PARAMS "cudaboxblur"

#define GST_CUDA_BOX_BLUR_MAX_ROI_HOLD 1000
#define GST_CUDA_BOX_BLUR_MAX_ROI_HOLD_GROW 1.0
/* roi-meta-type's list */
#define GST_CUDA_BOX_BLUR_MAX_ROI_META_TYPES 16
/* radius-scale and sigma-scale: at 1 a region's radius is its size */
#define GST_CUDA_BOX_BLUR_MAX_SCALE 1.0
/* pixelate's blocks: 256 x 256 8-bit samples still sum in 32 bits */
#define GST_CUDA_BOX_BLUR_MAX_BLOCK_SIZE 256
/* feather: 16-bit blends (sample times weight, doubled) stay in 32 bits */
#define GST_CUDA_BOX_BLUR_MAX_FEATHER 1024
/* The overlap (intersection over union) from which a region without an id
 * is taken for a held one. */
#define GST_CUDA_BOX_BLUR_HOLD_MIN_IOU 0.3
/* The share of its pixels a region lies inside a held one's prediction by,
 * from which it is taken for it for sure. */
#define GST_CUDA_BOX_BLUR_HOLD_MIN_INSIDE 0.9

/* Everything the properties say about how to blur a frame: copied from the
 * element once per frame. */
typedef struct
{
  gint radius_x;
  gint radius_y;
  gint chroma_radius_x;         /* -1: radius_x scaled by the subsampling */
  gint chroma_radius_y;
  guint planes;                 /* GstCudaBoxBlurPlanes */
  gboolean blur_alpha;
  gint passes;
  GstCudaBoxBlurMode mode;
  gdouble sigma;                /* of mode gaussian, in pixels */
  gint block_size;              /* of mode pixelate, in pixels */
  guint32 fill_color;           /* of mode fill, ARGB */
  GstCudaBoxBlurShape shape;
  gint feather;                 /* pixels over which the edge fades in */
  GstCudaBoxBlurBorder border;
  gdouble border_value;
  GstVideoRectangle roi;        /* 0 width or height: to the frame's edge */
  gboolean roi_meta;
  /* roi_meta's types, those of roi_meta_excluded (bit i for type i) left
   * out and the others taken; none taken: every type not left out */
  GQuark roi_meta_types[GST_CUDA_BOX_BLUR_MAX_ROI_META_TYPES];
  guint n_roi_meta_types;
  guint32 roi_meta_excluded;
  gdouble roi_min_confidence;   /* metas of a detector less confident are
                                 * left out */
  GstCudaBoxBlurNoRegion no_region;
  /* the regions are kept clear and the rest of the frame redacted */
  gboolean invert;
  gint roi_padding;
  guint roi_hold;               /* frames a region outlives its meta */
  GstCudaBoxBlurHoldMotion roi_hold_motion;
  gdouble roi_hold_grow;        /* with linear motion, a fraction of its
                                 * size a held region grows by a frame */
  gdouble roi_hold_reach;       /* with linear motion, a fraction of its
                                 * size a held region seen once grows by
                                 * on every side a frame */
  gdouble radius_scale;         /* above 0: radii of scale * min (w, h) */
  gdouble sigma_scale;          /* above 0: sigma of scale * min (w, h) */
  gdouble block_scale;          /* above 0: blocks of scale * min (w, h) */
} GstCudaBoxBlurSettings;

/* How one pass redacts one component (work): windows of radius_x,
 * radius_y, blocks of block_w x block_h samples, or fill_value; then laid
 * onto the frame in shape, its edge fading in over feather samples. */
typedef struct
{
  gint radius_x;
  gint radius_y;
  GstCudaBoxBlurBorder border;
  gdouble border_value;
  gint block_w;
  gint block_h;
  gdouble fill_value;           /* in the component's sample units */
  GstCudaBoxBlurShape shape;
  gint feather;
  GstCudaBoxBlurWork work;
} GstCudaBoxBlurWindow;

/* A mode as data, one row for each GstCudaBoxBlurMode (the table in
 * cudaboxblur-params.c): a new mode is a row, its kernel and its
 * reference. */
typedef struct
{
  const gchar *nick;            /* as properties and region parameters
                                 * write it */
  const gchar *description;     /* for people (gst-inspect-1.0) */
  GstCudaBoxBlurWork work;      /* what its windows do */
  /* how many passes it takes, each over the last one's output */
  gint (*passes) (const GstCudaBoxBlurSettings * settings);
  /* the radii (windows) or the block's sides (blocks) of pass @pass, of
   * @n, over a component (@chroma: U or V) subsampled by 2^w_sub x 2^h_sub
   * horizontally and vertically */
  void (*size) (const GstCudaBoxBlurSettings * settings, gboolean chroma,
      gint w_sub, gint h_sub, gint pass, gint n, gint * x, gint * y);
} GstCudaBoxBlurModeRow;

const GstCudaBoxBlurModeRow *
          gst_cuda_box_blur_mode_row            (GstCudaBoxBlurMode mode);

gboolean  gst_cuda_box_blur_mode_from_nick      (const gchar * nick,
                                                 GstCudaBoxBlurMode * mode);

/* TRUE when @window's result is laid onto the frame by compose: a fill, or
 * any edge but a hard rectangle. */
static inline gboolean
gst_cuda_box_blur_window_composes (const GstCudaBoxBlurWindow * window)
{
  return window->work == GST_CUDA_BOX_BLUR_WORK_FILL
      || window->shape != GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE
      || window->feather > 0;
}

gboolean  gst_cuda_box_blur_windows_alike       (const GstCudaBoxBlurWindow * a,
                                                 const GstCudaBoxBlurWindow * b);

void      gst_cuda_box_blur_window_describe     (const GstCudaBoxBlurWindow * window,
                                                 GString * s);

void      gst_cuda_box_blur_settings_init       (GstCudaBoxBlurSettings * settings);

gint      gst_cuda_box_blur_settings_passes     (const GstCudaBoxBlurSettings * settings);

gint      gst_cuda_box_blur_gaussian_radius     (gdouble sigma,
                                                 gint n_boxes,
                                                 gint box);

gboolean  gst_cuda_box_blur_settings_window     (const GstCudaBoxBlurSettings * settings,
                                                 const GstCudaBoxBlurInfo * info,
                                                 gint component,
                                                 GstCudaBoxBlurWindow * window);

gboolean  gst_cuda_box_blur_settings_pass_window (const GstCudaBoxBlurSettings * settings,
                                                  const GstCudaBoxBlurInfo * info,
                                                  gint component,
                                                  gint pass,
                                                  GstCudaBoxBlurWindow * window);

gboolean  gst_cuda_box_blur_window_is_direct    (gint radius_x,
                                                 gint radius_y);

gboolean  gst_cuda_box_blur_settings_blurs_nothing (const GstCudaBoxBlurSettings * settings,
                                                    const GstCudaBoxBlurInfo * info);

gboolean  gst_cuda_box_blur_settings_set_roi_meta_types (GstCudaBoxBlurSettings * settings,
                                                         const gchar * types);

gchar *   gst_cuda_box_blur_settings_get_roi_meta_types (const GstCudaBoxBlurSettings * settings);

gboolean  gst_cuda_box_blur_settings_wants_type  (const GstCudaBoxBlurSettings * settings,
                                                  GQuark type);

G_END_DECLS
