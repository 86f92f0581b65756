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

/* The environment variable that moves the kernel cache; empty turns it
 * off. */
#define GST_CUDA_BOX_BLUR_CACHE_ENV "CUDABOXBLUR_CACHE_DIR"

gchar *   gst_cuda_box_blur_cache_dir        (void);

GBytes *  gst_cuda_box_blur_cache_load       (const gchar * dir,
                                              const gchar * name);

GBytes *  gst_cuda_box_blur_cache_load_newest (const gchar * dir,
                                               const gchar * prefix,
                                               const gchar * suffix,
                                               gchar ** name);

gboolean  gst_cuda_box_blur_cache_store      (const gchar * dir,
                                              const gchar * name,
                                              GBytes * image,
                                              GError ** error);

void      gst_cuda_box_blur_cache_remove     (const gchar * path);

G_END_DECLS
