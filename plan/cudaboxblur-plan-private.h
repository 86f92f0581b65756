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

/* The inside of the plan, shared by its files: cudaboxblur-plan.c (the
 * plan, the direct and separable kernels, the batches) and
 * cudaboxblur-tiles.c (the one pass and the strip walker).  Not for use
 * outside plan/. */

#include "cudaboxblur-plan.h"
#include "boxblur-args.h"

G_BEGIN_DECLS

/* The order of the work of a batch. */
typedef enum
{
  STAGE_COPY,
  STAGE_FIRST,                  /* direct kernels, pixelate, column sums */
  STAGE_ROWS,                   /* row sums of the separable blurs */
  STAGE_COMPOSE,
  N_STAGES,
} Stage;

/* One kernel launch of some of plan->args, or one entry of a batch still
 * open (count 1, first its index in plan->pending_args). */
typedef GstCudaBoxBlurLaunch Launch;

struct _GstCudaBoxBlurPlan
{
  gint multiprocessors;         /* of the target; 0: unknown */
  gint tiles_per_sm;            /* of box_tiles_u8 at once; 0: unknown */
  GstCudaBoxBlurSampleType type;

  GArray *args;                 /* BoxBlurArgs of the closed batches */
  GArray *launches;             /* Launch */
  GArray *pending;              /* Launch of each entry of the open batch */
  GArray *pending_args;         /* BoxBlurArgs of the open batch */
  gsize mid_used;               /* bytes, by the open batch */
  gsize mid_needed;             /* bytes, by the largest batch */
};

/* Bytes of a sample. */
static const gint sample_bytes[] = {
  [GST_CUDA_BOX_BLUR_U8] = 1,
  [GST_CUDA_BOX_BLUR_U16] = 2,
  [GST_CUDA_BOX_BLUR_F32] = 4,
};

/* The most samples of a pixel blurred side by side, in the one pass and
 * by gst_cuda_box_blur_plan_blur_pixels (): pixels of four 8-bit
 * samples, pairs of 16-bit ones, float32 samples of their own. */
static const gint pixel_samples_most[] = {
  [GST_CUDA_BOX_BLUR_U8] = 4,
  [GST_CUDA_BOX_BLUR_U16] = 2,
  [GST_CUDA_BOX_BLUR_F32] = 1,
};

/* The kernel of @type of the family whose 8-bit kernel is @first. */
#define OF_TYPE(first, type) ((GstCudaBoxBlurKernel) ((first) + (type)))

/* The blocks of @per_block that @n takes. */
static inline guint
blocks (gint n, gint per_block)
{
  return (n + per_block - 1) / per_block;
}

/* Whether @data and rows @stride bytes apart from it are 4-byte aligned. */
static inline gboolean
aligned (gconstpointer data, gint stride)
{
  return (((guintptr) data | (guint) stride) & 3) == 0;
}

/* Whether the windows of @a, reaching @reach columns either side of its
 * region, wrap round the frame's sides: in samples, @a's x, w and width
 * counting pixels of @samples samples. */
static inline gboolean
windows_wrap (const BoxBlurArgs * a, gint samples, gint reach)
{
  return a->border == BOX_BORDER_WRAP && (a->x * samples - reach < 0
      || (a->x + a->w) * samples + reach > a->width * samples);
}

/* Sets @a's x_first and x_last to the columns of the frame that its
 * region's windows reach, @reach either side (src may hold no others). */
static inline void
set_reached_columns (BoxBlurArgs * a, gint reach)
{
  a->x_first = MAX (a->x - reach, 0);
  a->x_last = MIN (a->x + a->w + reach, a->width);
}

/* Adds @args to the open batch, run by @kernel at @stage with @block
 * threads per block in a grid of @grid_x x @grid_y blocks. */
static inline void
add_entry (GstCudaBoxBlurPlan * plan, Stage stage,
    GstCudaBoxBlurKernel kernel, const BoxBlurArgs * args, guint block_x,
    guint block_y, guint grid_x, guint grid_y)
{
  Launch entry = { stage, kernel, plan->pending_args->len, 1,
    {grid_x, grid_y}, {block_x, block_y}
  };

  g_array_append_vals (plan->pending_args, args, 1);
  g_array_append_val (plan->pending, entry);
}

G_GNUC_INTERNAL
gboolean  gst_cuda_box_blur_plan_takes_one_pass (const GstCudaBoxBlurPlan * plan,
                                                GstCudaBoxBlurVariant variant,
                                                const BoxBlurArgs * a,
                                                gint samples);

G_GNUC_INTERNAL
void      gst_cuda_box_blur_plan_queue_one_pass (GstCudaBoxBlurPlan * plan,
                                                BoxBlurArgs * a,
                                                gint samples);

G_GNUC_INTERNAL
gboolean  gst_cuda_box_blur_plan_queue_422     (GstCudaBoxBlurPlan * plan,
                                                GstCudaBoxBlurVariant variant,
                                                BoxBlurArgs * a);

G_GNUC_INTERNAL
gboolean  gst_cuda_box_blur_plan_strips_fit    (const GstCudaBoxBlurPlan * plan,
                                                const BoxBlurArgs * a);

G_GNUC_INTERNAL
void      gst_cuda_box_blur_plan_queue_strips  (GstCudaBoxBlurPlan * plan,
                                                BoxBlurArgs * a);

G_GNUC_INTERNAL
void      gst_cuda_box_blur_plan_size_tiles    (GstCudaBoxBlurPlan * plan);

G_END_DECLS
