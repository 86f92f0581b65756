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

G_BEGIN_DECLS

/* CPU reference of the box blur: each output pixel is the mean of the input
 * pixels of its (2 * radius_x + 1) x (2 * radius_y + 1) window that lie
 * inside the image.  Written for clarity, not speed: it is the oracle the
 * GPU output is checked against.  Strides are in bytes. */

void box_blur_ref_gray8   (const guint8 * src, gsize src_stride,
                           guint8 * dst, gsize dst_stride,
                           gint width, gint height,
                           gint radius_x, gint radius_y);

void box_blur_ref_gray32f (const guint8 * src, gsize src_stride,
                           guint8 * dst, gsize dst_stride,
                           gint width, gint height,
                           gint radius_x, gint radius_y);

/* The same means computed from summed-area tables, in time independent of
 * the radius: exact for GRAY8 (64-bit integer tables) and in double for
 * float input, written as double.  An independent oracle for large windows,
 * where the direct loops above would take minutes. */

void box_blur_sat_gray8   (const guint8 * src, gsize src_stride,
                           guint8 * dst, gsize dst_stride,
                           gint width, gint height,
                           gint radius_x, gint radius_y);

void box_blur_sat_gray32f (const guint8 * src, gsize src_stride,
                           gdouble * dst,
                           gint width, gint height,
                           gint radius_x, gint radius_y,
                           gboolean absolute);

G_END_DECLS
