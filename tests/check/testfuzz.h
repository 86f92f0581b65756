/* cudaboxblur test helpers: random settings and region metas
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gst/gst.h>
#include "cudaboxblur-params.h"

G_BEGIN_DECLS

/* The fuzz @name's generator, seeded from CUDABOXBLUR_FUZZ_SEED or the
 * clock; prints the seed (into @seed too), to replay the run with. */
GRand *      test_fuzz_rand_new  (const gchar * name, guint32 * seed);

/* Random redaction settings for frames of @width x @height. */
void         test_fuzz_settings  (GstCudaBoxBlurSettings * settings,
                                  GRand * rand, gint width, gint height);

/* A random region meta on @buf, a frame of @width x @height: hostile at
 * times (coordinates past G_MAXUINT, huge, empty, past the frame), with a
 * detector's confidence and track id now and then, and parameters of its
 * own, some ill-typed or out of range. */
void         test_fuzz_meta_add  (GstBuffer * buf, GRand * rand,
                                  gint width, gint height);

G_END_DECLS
