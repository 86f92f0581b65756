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

/* The debug category of one unit of the core library, made on first use:
 * the library has no plugin_init to make it in, and tests and the bench
 * link it without loading the plugin.  Defines GST_CAT_DEFAULT. */
#define CUDA_BOX_BLUR_DEBUG_CATEGORY(name, description) \
static GstDebugCategory * \
ensure_debug_category (void) \
{ \
  static gsize made = 0; \
  static GstDebugCategory *cat = NULL; \
  \
  if (g_once_init_enter (&made)) { \
    GST_DEBUG_CATEGORY_INIT (cat, name, 0, description); \
    g_once_init_leave (&made, 1); \
  } \
  return cat; \
}

#define GST_CAT_DEFAULT ensure_debug_category ()
