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

#include <glib.h>

#include "cudaboxblur-info.h"
#include "cudaboxblur-params.h"
#include "cudaboxblur-regions.h"

G_BEGIN_DECLS

/* CPU reference of the box blur, written for clarity, not speed: it is the
 * oracle the GPU output is checked against.
 *
 * box_blur_ref_plane() blurs @region of one component plane (NULL: all of
 * it) with the direct window loops: integer sums exact and rounded half up,
 * float32 summed in float, rows outer and columns inner, as the NVIDIA
 * sample does.  box_blur_sat_plane() computes the same means from a
 * summed-area table in double, in time independent of the radius: exact for
 * 8- and 16-bit samples, the exact mean rounded once to float32 for float
 * samples.  Both leave the rest of @dst untouched. */

void box_blur_ref_plane (GstCudaBoxBlurSampleType type,
                         const GstCudaBoxBlurPlane * src,
                         const GstCudaBoxBlurPlane * dst,
                         const GstCudaBoxBlurWindow * window,
                         const GstVideoRectangle * region);

void box_blur_sat_plane (GstCudaBoxBlurSampleType type,
                         const GstCudaBoxBlurPlane * src,
                         const GstCudaBoxBlurPlane * dst,
                         const GstCudaBoxBlurWindow * window,
                         const GstVideoRectangle * region);

/* Copies the pixels of every plane of @src into @dst. */
void box_blur_ref_pixelate (GstCudaBoxBlurSampleType type,
                            const GstCudaBoxBlurPlane * src,
                            const GstCudaBoxBlurPlane * dst,
                            const GstCudaBoxBlurWindow * window,
                            const GstVideoRectangle * region);

void box_blur_ref_copy_frame (const GstCudaBoxBlurInfo * info,
                              const GstCudaBoxBlurFrame * src,
                              const GstCudaBoxBlurFrame * dst);

/* What the element makes of a frame: @dst is @src with each of @regions
 * (frame pixels) redacted in turn.  Each region is redacted on its own
 * from @src, with its own settings (@region_settings[i], or with NULL
 * @settings): pass after pass, every component the settings select inside
 * the region, each pass reading the previous one's output inside the
 * region and @src outside it.  The result is then laid onto @dst through
 * the region's shape and feather (box_blur_ref_weight()), over whatever
 * the regions before it left there.  Windows of up to 9 pixels use the
 * direct loops, larger ones the summed-area table.  With settings->invert,
 * the whole frame is redacted with @settings (hard-edged) and each region
 * laid back from @src through its shape, fading into the redaction over
 * its feather outside the shape. */
/* The weight, 0 .. window->feather + 1 out of window->feather + 1, with
 * which sample (@dx, @dy) of a @w x @h region takes its redacted value:
 * one more than the largest k up to window->feather for which the sample
 * lies in the window's shape shrunk by k samples on every side, 0 outside
 * the shape. */
guint box_blur_ref_weight (const GstCudaBoxBlurWindow * window,
                           gint dx,
                           gint dy,
                           gint w,
                           gint h);

void box_blur_ref_frame (const GstCudaBoxBlurInfo * info,
                         const GstCudaBoxBlurSettings * settings,
                         const GstCudaBoxBlurFrame * src,
                         const GstCudaBoxBlurFrame * dst,
                         const GstVideoRectangle * regions,
                         guint n_regions,
                         const GstCudaBoxBlurSettings * region_settings);

G_END_DECLS
