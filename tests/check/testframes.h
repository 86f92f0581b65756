/* cudaboxblur test helpers: frames in each kind of memory, for the suites
 * that drive the GPU engine with no pipeline
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "cudaboxblur-engine.h"
#include "testutils.h"

G_BEGIN_DECLS

extern const gchar *const test_location_names[];

/* @size bytes of new @location memory (device memory of exactly that
 * size) holding @bytes, or with NULL a fill pattern that no blur or copy
 * makes by chance. */
guint8 *     test_place          (GstCudaBoxBlurLocation location,
                                  gsize size, const guint8 * bytes);

/* A frame of @info's default layout in new @location memory, holding
 * @in's bytes (NULL: test_place()'s pattern), described by @image;
 * returns the memory, for test_release(). */
guint8 *     test_place_frame    (GstCudaBoxBlurImage * image,
                                  const GstCudaBoxBlurInfo * info,
                                  GstCudaBoxBlurLocation location,
                                  GstBuffer * in);

/* The same of @in in its own layout (padded rows, a GstVideoMeta). */
guint8 *     test_place_buffer   (GstCudaBoxBlurImage * image,
                                  const GstCudaBoxBlurInfo * info,
                                  GstCudaBoxBlurLocation location,
                                  GstBuffer * in);

void         test_release        (GstCudaBoxBlurLocation location,
                                  guint8 * mem);

/* Fails the running test unless the frame at @mem, in @format's default
 * layout, is what the reference makes of @in with @settings. */
void         test_assert_frame   (GstBuffer * in, const guint8 * mem,
                                  const gchar * format, gint width,
                                  gint height,
                                  const GstCudaBoxBlurSettings * settings);

/* The same of the frame at @mem in @in's own layout (blurred in place). */
void         test_assert_in_place (GstBuffer * in, const guint8 * mem,
                                   const gchar * format, gint width,
                                   gint height,
                                   const GstCudaBoxBlurSettings * settings);

G_END_DECLS
