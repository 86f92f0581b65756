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

/* A GstBuffer as the engine sees it: mapped, and said where its bytes
 * live, so that the engine uses device and managed memory where it is and
 * copies anything else through the GPU. */

#include <gst/gst.h>

#include "cudaboxblur-engine.h"

G_BEGIN_DECLS

gboolean gst_cuda_box_blur_image_map           (GstCudaBoxBlurImage * image,
                                                GstBuffer * buffer,
                                                const GstCudaBoxBlurInfo * info,
                                                GstObject * cuda_context,
                                                GstMapFlags flags,
                                                GstMapInfo * map,
                                                gboolean * foreign,
                                                GError ** error);

gboolean gst_cuda_box_blur_image_is_writable_in_place (GstBuffer * buffer,
                                                       GstObject * cuda_context);

G_END_DECLS
