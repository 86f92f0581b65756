/* cudaboxblur test helpers
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gst/gst.h>
#include "cudaboxblur-info.h"

G_BEGIN_DECLS

/* Exit status meson reads as "skipped". */
#define TEST_EXIT_SKIP 77

gboolean     test_gpu_available  (gchar ** reason);

/* Exits with TEST_EXIT_SKIP, saying why, when there is no usable GPU. */
void         test_skip_without_gpu (const gchar * name);

GstCaps *    test_caps_new       (GstCudaBoxBlurFormat format,
                                  gint width, gint height);

/* Deterministic pixels from @seed; the bytes of each row past the pixels
 * (padding) are filled with 0xff, a NaN in GRAY32F, so that a kernel that
 * reads padding gives visibly wrong results. */
void         test_fill           (guint8 * data, gint stride,
                                  GstCudaBoxBlurFormat format,
                                  gint width, gint height, guint seed);

/* A frame of @stride bytes per row in @allocator's memory (NULL: system
 * memory), with a GstVideoMeta when @stride is not the caps' default. */
GstBuffer *  test_buffer_new     (GstAllocator * allocator,
                                  GstCudaBoxBlurFormat format,
                                  gint width, gint height, gint stride,
                                  guint seed);

/* Fails the running test unless @out is the CPU reference blur of @in:
 * equal for GRAY8, and for GRAY32F with windows up to 3x3 (the sample's
 * order); other GRAY32F windows within 1e-5 of the exact mean, relative to
 * the window's mean absolute value. */
void         test_assert_blurred (GstBuffer * in, GstBuffer * out,
                                  GstCudaBoxBlurFormat format,
                                  gint width, gint height,
                                  gint radius_x, gint radius_y);

G_END_DECLS
