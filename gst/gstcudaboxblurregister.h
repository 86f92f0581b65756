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

gboolean gst_cuda_box_blur_register_host (gconstpointer seer,
                                          GstBuffer * buffer,
                                          const GstMapInfo * map,
                                          GstObject * context,
                                          gint device_id);

G_END_DECLS
