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

/* The CUDA context the element and its allocator work in, made current on
 * any thread and taken off it again, leaving the thread as it was found.
 * Built with and without gstreamer-cuda-1.0. */

#include <gst/gst.h>

G_BEGIN_DECLS

gboolean gst_cuda_box_blur_context_enter (GstObject * context,
                                          gint device_id,
                                          GError ** error);

void     gst_cuda_box_blur_context_leave (GstObject * context);

G_END_DECLS
