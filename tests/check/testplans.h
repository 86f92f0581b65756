/* cudaboxblur test helpers: what a frame's plan may touch
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "cudaboxblur-engine.h"
#include "cudaboxblur-frameplan.h"

G_BEGIN_DECLS

/* The plan for @target of @job from @src (@src_size bytes) into @dst
 * (@dst_size bytes; %NULL: in place), both in host memory, held to the
 * memory rule (testplans.c): a failed check fails the running test.  Its
 * kernels are counted into @kernels (GST_CUDA_BOX_BLUR_N_KERNELS
 * counters), and its launches, arguments and copies added to @plans. */
void         test_check_plan     (const GstCudaBoxBlurTarget * target,
                                  const GstCudaBoxBlurJob * job,
                                  const GstCudaBoxBlurImage * src,
                                  gsize src_size,
                                  const GstCudaBoxBlurImage * dst,
                                  gsize dst_size,
                                  guint * kernels,
                                  GChecksum * plans);

G_END_DECLS
