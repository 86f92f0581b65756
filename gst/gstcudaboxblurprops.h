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

#include "gstcudaboxblur.h"
#include "cudaboxblur-params.h"

G_BEGIN_DECLS

/* frames-in-flight's largest value: an engine (stream and scratch) each */
#define GST_CUDA_BOX_BLUR_MAX_FRAMES_IN_FLIGHT 8

/* What the element's properties hold, under its object lock. */
typedef struct
{
  GstCudaBoxBlurSettings settings;
  gint device_id;
  GstCudaBoxBlurMemoryMode memory_mode;
  GstCudaBoxBlurMemoryMode memory_in_use;       /* taken at start */
  guint frames_in_flight;
  gboolean post_messages;
  const gchar *arch;            /* the program's description, once started */
  guint64 work_memory;          /* bytes the engines hold, after a frame */
} GstCudaBoxBlurProps;

/* What a property's new value calls for besides being stored. */
typedef enum
{
  GST_CUDA_BOX_BLUR_PROP_BLURS = 1 << 0,        /* passthrough may change */
  GST_CUDA_BOX_BLUR_PROP_LATENCY = 1 << 1,      /* a value changed: the
                                                 * frames held back, so the
                                                 * latency, did */
} GstCudaBoxBlurPropEffect;

void      gst_cuda_box_blur_props_init    (GstCudaBoxBlurProps * props);

void      gst_cuda_box_blur_props_install (GObjectClass * klass);

GstCudaBoxBlurPropEffect
          gst_cuda_box_blur_props_set     (GstCudaBoxBlurProps * props,
                                           guint prop_id,
                                           const GValue * value);

void      gst_cuda_box_blur_props_get     (const GstCudaBoxBlurProps * props,
                                           guint prop_id,
                                           GValue * value);

G_END_DECLS
