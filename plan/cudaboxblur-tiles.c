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

/* The one pass (box_tiles_*) and the strip walker (box_strips_u8): the
 * windows and planes they take, and the widths of their tiles and
 * strips. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-plan-private.h"

/* The one pass (box_tiles_*) where it beats the two passes: for 8-bit
 * samples with both radii up to ONE_PASS_MAX_RADIUS (the sweep in
 * docs/kernels.md, "One pass"), pixels of four up to
 * ONE_PASS_MAX_RADIUS_PX4 (their two passes load a pixel at a time too;
 * H200 RGBA in one pass: 1080p 9 to 15% faster up to radius 7, 4K within
 * 2% either way, and 4K 8% slower at radius 15), float32 samples up to
 * ONE_PASS_MAX_RADIUS_F32 (H200: 3 to 17% faster up to radius 15; at 30
 * within 1% at 4K and 9% slower at 1080p, at 63 19 to 24% slower:
 * docs/kernels.md, "Float32 samples"), 16-bit samples up to
 * ONE_PASS_MAX_RADIUS_U16 (H100: 22 to 40% faster at 1080p and 4K up to
 * radius 15: docs/kernels.md, "16-bit samples"), on GPUs whose
 * multiprocessors hold at least ONE_PASS_MIN_TILES of its tiles in their
 * shared memory (the width of its tiles:
 * gst_cuda_box_blur_plan_size_tiles ()). */
#define ONE_PASS_MAX_RADIUS 15
#define ONE_PASS_MAX_RADIUS_PX4 7
#define ONE_PASS_MAX_RADIUS_F32 15
#define ONE_PASS_MAX_RADIUS_U16 15
#define ONE_PASS_MIN_TILES 2

/* The strip walker's warps walk STRIP_RUN rows each, or fewer, halved
 * down to STRIP_MIN_RUN and to no fewer than the rows of their first
 * window, while the region gives the GPU fewer than STRIP_WARPS_PER_SM
 * warps a multiprocessor (each run starts with its first row's whole
 * window; H100, 4K GRAY8 at radius 1 to 3, the runs of 32 rows this
 * gives against those of 16 that 32 warps gave: 7 to 9% faster). */
#define STRIP_RUN 64
#define STRIP_MIN_RUN 8
#define STRIP_WARPS_PER_SM 16

/**
 * gst_cuda_box_blur_kernel_is_tiles:
 *
 * Returns: whether @kernel is one of the one pass's (box_tiles_*), whose
 * entries' windows reach BoxBlurArgs.reach columns either side.
 */
gboolean
gst_cuda_box_blur_kernel_is_tiles (GstCudaBoxBlurKernel kernel)
{
  return kernel == GST_CUDA_BOX_BLUR_KERNEL_TILES_U8
      || kernel == GST_CUDA_BOX_BLUR_KERNEL_TILES_U16
      || kernel == GST_CUDA_BOX_BLUR_KERNEL_TILES_F32
      || kernel == GST_CUDA_BOX_BLUR_KERNEL_TILES_PX3
      || kernel == GST_CUDA_BOX_BLUR_KERNEL_TILES_PX4
      || kernel == GST_CUDA_BOX_BLUR_KERNEL_TILES_422;
}

/* What the width of @plan's tiles of @samples samples a pixel is a
 * multiple of, and the most columns a tile and its windows' reach take:
 * those of sums it keeps, less what rounding its first down to a multiple
 * of 4 8-bit samples (or of 2 wider ones) may add.  In samples. */
static gint
tile_unit (const GstCudaBoxBlurPlan * plan, gint samples)
{
  return plan->type != GST_CUDA_BOX_BLUR_U8 ? TILE_UNIT_WIDE :
      TILE_UNIT (samples);
}

static gint
tile_columns (const GstCudaBoxBlurPlan * plan)
{
  return plan->type != GST_CUDA_BOX_BLUR_U8 ? TILE_COLUMNS_WIDE - 1 :
      TILE_COLUMNS - 3;
}

/* The columns either side of a sample that the windows of @a, pixels of
 * @samples samples, reach in the one pass (BoxBlurArgs.reach), in
 * samples. */
static gint
pixels_reach (const BoxBlurArgs * a, gint samples)
{
  return samples * a->radius_x;
}

/* Whether the tile's columns and the windows' @reach fit within the
 * tile's, and the windows of @a do not wrap around the frame's sides (the
 * tile sums only the columns beside it): in samples, @a's x, w and width
 * counting pixels of @samples samples. */
static gboolean
tile_holds (const GstCudaBoxBlurPlan * plan, const BoxBlurArgs * a,
    gint samples, gint reach)
{
  return tile_unit (plan, samples) + 2 * reach <= tile_columns (plan)
      && !windows_wrap (a, samples, reach);
}

/* Whether the one pass can take @a, a plane of pixels of @samples
 * samples side by side (1; 2 for pairs such as NV12's or P010's UV, 3 for
 * RGB, 4 for RGBA ...; float32 samples of their own) blurred alike: with
 * no other bytes between them (a lane would store a sample at a time,
 * which costs more than the two passes), pixels of four with their pixels
 * and rows 4-byte aligned, integer windows of at most TILE_WINDOW
 * samples, at most TILE_RADIUS_Y rows either side (pixels of four
 * TILE_RADIUS_Y_PX4), and tile_holds (). */
static gboolean
one_pass_fits (const GstCudaBoxBlurPlan * plan, const BoxBlurArgs * a,
    gint samples)
{
  const gint size = sample_bytes[plan->type];

  return samples <= pixel_samples_most[plan->type]
      && a->src_step == samples * size && a->dst_step == samples * size
      && (samples != 4 || (aligned (a->src, a->src_stride)
              && aligned (a->dst, a->dst_stride)))
      && a->radius_y <= (samples == 4 ? TILE_RADIUS_Y_PX4 : TILE_RADIUS_Y)
      && (plan->type == GST_CUDA_BOX_BLUR_F32
      || (2 * a->radius_x + 1) * (2 * a->radius_y + 1) <= TILE_WINDOW)
      && tile_holds (plan, a, samples, pixels_reach (a, samples));
}

/* Whether @variant asks for the one pass for windows of up to @radius
 * samples either side, where @most is the largest it wins at: asked for
 * by name, or the separable blur where it wins (ONE_PASS_MIN_TILES). */
static gboolean
wants_one_pass (const GstCudaBoxBlurPlan * plan,
    GstCudaBoxBlurVariant variant, gint radius, gint most)
{
  return variant == GST_CUDA_BOX_BLUR_ONE_PASS
      || (variant == GST_CUDA_BOX_BLUR_SEPARABLE && radius <= most
      && (plan->tiles_per_sm == 0
          || plan->tiles_per_sm >= ONE_PASS_MIN_TILES));
}

/* Whether @variant blurs @a (pixels of @samples samples) in one pass: the
 * separable blur where it wins (ONE_PASS_MAX_RADIUS, ONE_PASS_MIN_TILES),
 * or the one pass asked for, where it can. */
gboolean
gst_cuda_box_blur_plan_takes_one_pass (const GstCudaBoxBlurPlan * plan,
    GstCudaBoxBlurVariant variant, const BoxBlurArgs * a, gint samples)
{
  const gint most = plan->type == GST_CUDA_BOX_BLUR_F32 ?
      ONE_PASS_MAX_RADIUS_F32 : plan->type == GST_CUDA_BOX_BLUR_U16 ?
      ONE_PASS_MAX_RADIUS_U16 : samples == 4 ? ONE_PASS_MAX_RADIUS_PX4 :
      ONE_PASS_MAX_RADIUS;

  return wants_one_pass (plan, variant, MAX (a->radius_x, a->radius_y), most)
      && one_pass_fits (plan, a, samples);
}

/* The most tile_unit()s a tile of @a takes: as many as fit
 * tile_columns() with the windows' reach on both sides. */
static gint
tile_steps (const GstCudaBoxBlurPlan * plan, const BoxBlurArgs * a)
{
  return MAX ((tile_columns (plan) - 2 * a->reach) /
      tile_unit (plan, a->pixel_samples), 1);
}

/* Sets @a's tiles to at most @steps tile_unit()s wide, evened out over the
 * region, and @entry's grid to match; returns the number of tiles. */
static guint
set_tile_width (const GstCudaBoxBlurPlan * plan, BoxBlurArgs * a,
    Launch * entry, gint steps)
{
  const gint unit = tile_unit (plan, a->pixel_samples);
  const gint most = MIN (steps, tile_steps (plan, a)) * unit;

  a->row_run = unit * blocks (blocks (a->w, blocks (a->w, most)), unit);
  entry->grid[0] = blocks (a->w, a->row_run);
  return entry->grid[0] * entry->grid[1];
}

/* Sizes the tiles of the open batch's one-pass entries (queued as
 * wide as they may be): all of them as narrow as lets every block of the
 * batch's tiles be on the GPU at once, then each narrower still, a step at
 * a time, while they all still are; as wide as they may be where even
 * those are too many, or where the GPU is unknown.  More blocks hide more
 * of each other's latency, a second wave costs more (H200: 1080p GRAY8
 * took 4 to 8% less time in 510 tiles of 128 bytes than in 272 of 256,
 * and NV12 8% more in 765). */
void
gst_cuda_box_blur_plan_size_tiles (GstCudaBoxBlurPlan * plan)
{
  const guint at_once = plan->multiprocessors *
      MIN (TILE_BLOCKS_PER_SM, plan->tiles_per_sm);
  gint widest = 0, steps;
  guint i, total = 0;

  for (i = 0; i < plan->pending->len; i++) {
    const Launch *e = &g_array_index (plan->pending, Launch, i);

    if (gst_cuda_box_blur_kernel_is_tiles (e->kernel))
      widest = MAX (widest, tile_steps (plan,
              &g_array_index (plan->pending_args, BoxBlurArgs, e->first)));
  }
  if (widest == 0)
    return;
  for (steps = 1; steps <= widest; steps++) {
    total = 0;
    for (i = 0; i < plan->pending->len; i++) {
      Launch *e = &g_array_index (plan->pending, Launch, i);

      if (gst_cuda_box_blur_kernel_is_tiles (e->kernel))
        total += set_tile_width (plan, &g_array_index (plan->pending_args,
                BoxBlurArgs, e->first), e, steps);
    }
    if (total <= at_once)
      break;
  }
  for (i = 0; i < plan->pending->len && total <= at_once; i++) {
    Launch *e = &g_array_index (plan->pending, Launch, i);
    BoxBlurArgs *a = &g_array_index (plan->pending_args, BoxBlurArgs,
        e->first);

    while (gst_cuda_box_blur_kernel_is_tiles (e->kernel)
        && a->row_run > tile_unit (plan, a->pixel_samples)) {
      const gint width = a->row_run;
      const guint before = e->grid[0] * e->grid[1];
      const guint after = set_tile_width (plan, a, e,
          width / tile_unit (plan, a->pixel_samples) - 1);

      if (total - before + after > at_once) {
        a->row_run = width;
        e->grid[0] = blocks (a->w, width);
        break;
      }
      total += after - before;
    }
  }
}

/* The one pass's kernel for pixels of @samples samples of the plan's
 * type: box_tiles_u8, box_tiles_u16 or box_tiles_f32 for 1 and 2 (float32
 * samples: 1), box_tiles_px3 and box_tiles_px4 for 3 and 4 (8-bit). */
static GstCudaBoxBlurKernel
tiles_kernel (const GstCudaBoxBlurPlan * plan, gint samples)
{
  if (samples == 3)
    return GST_CUDA_BOX_BLUR_KERNEL_TILES_PX3;
  if (samples == 4)
    return GST_CUDA_BOX_BLUR_KERNEL_TILES_PX4;
  return OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_TILES_U8, plan->type);
}

/* Queues the one pass @kernel for @a, pixels of @samples samples whose
 * windows reach @reach columns either side (BoxBlurArgs.reach), counted
 * in samples from here on. */
static void
queue_tiles (GstCudaBoxBlurPlan * plan, BoxBlurArgs * a, gint samples,
    gint reach, GstCudaBoxBlurKernel kernel)
{
  a->pixel_samples = samples;
  a->reach = reach;
  a->x *= samples;
  a->w *= samples;
  a->width *= samples;
  a->src_step = a->dst_step = sample_bytes[plan->type];
  set_reached_columns (a, reach);
  /* as wide as they may be, until gst_cuda_box_blur_plan_size_tiles () */
  a->row_run = tile_steps (plan, a) * tile_unit (plan, samples);
  add_entry (plan, STAGE_FIRST, kernel, a, TILE_THREADS, 1,
      blocks (a->w, a->row_run), blocks (a->h, TILE_ROWS));
}

/* Queues the one pass for @a, pixels of @samples samples
 * (gst_cuda_box_blur_plan_takes_one_pass ()). */
void
gst_cuda_box_blur_plan_queue_one_pass (GstCudaBoxBlurPlan * plan,
    BoxBlurArgs * a, gint samples)
{
  queue_tiles (plan, a, samples, pixels_reach (a, samples),
      tiles_kernel (plan, samples));
}

/* Whether the strip walker (box_strips_u8) can take @a: 8-bit samples of
 * their own, the planes' data and rows 4-byte aligned, windows
 * of at most STRIP_MAX_RADIUS_X columns and STRIP_MAX_RADIUS_Y rows either
 * side and TILE_WINDOW samples, that do not wrap around the frame's sides
 * (a warp sums only the columns beside its strip). */
gboolean
gst_cuda_box_blur_plan_strips_fit (const GstCudaBoxBlurPlan * plan,
    const BoxBlurArgs * a)
{
  return plan->type == GST_CUDA_BOX_BLUR_U8
      && a->src_step == 1 && a->dst_step == 1
      && aligned (a->src, a->src_stride) && aligned (a->dst, a->dst_stride)
      && a->radius_x <= STRIP_MAX_RADIUS_X
      && a->radius_y <= STRIP_MAX_RADIUS_Y
      && (2 * a->radius_x + 1) * (2 * a->radius_y + 1) <= TILE_WINDOW
      && !windows_wrap (a, 1, a->radius_x);
}

/* Queues the strip walker for @a (gst_cuda_box_blur_plan_strips_fit ()). */
void
gst_cuda_box_blur_plan_queue_strips (GstCudaBoxBlurPlan * plan,
    BoxBlurArgs * a)
{
  const gint word = STRIP_BYTES (a->radius_x);
  const gint words = (a->x + a->w - 1) / word - a->x / word + 1;
  const guint strips = blocks (words, STRIP_LANES_OUT);
  gint run = STRIP_RUN;

  while (run > STRIP_MIN_RUN && run / 2 > 2 * a->radius_y
      && (plan->multiprocessors == 0
          || strips * blocks (a->h, run) <
          (guint) plan->multiprocessors * STRIP_WARPS_PER_SM))
    run /= 2;
  set_reached_columns (a, a->radius_x);
  a->column_run = run;
  add_entry (plan, STAGE_FIRST, GST_CUDA_BOX_BLUR_KERNEL_STRIPS_U8, a,
      STRIP_WARPS * 32, 1, blocks (strips, STRIP_WARPS), blocks (a->h, run));
}

/* Queues the one pass over the macropixels of @a, packed 4:2:2 (its
 * luma_byte and chroma_radius_x set), where @variant takes it:
 * gst_cuda_box_blur_plan_blur_422 ().  Returns whether it does. */
gboolean
gst_cuda_box_blur_plan_queue_422 (GstCudaBoxBlurPlan * plan,
    GstCudaBoxBlurVariant variant, BoxBlurArgs * a)
{
  const gint rows = 2 * a->radius_y + 1;
  const gint widest = MAX (a->radius_x, a->chroma_radius_x);
  /* two bytes from a luma sample to the next, four from a chroma one */
  const gint reach = MAX (2 * a->radius_x, 4 * a->chroma_radius_x);

  if (variant == GST_CUDA_BOX_BLUR_DIRECT)
    variant = GST_CUDA_BOX_BLUR_SEPARABLE;
  if (plan->type != GST_CUDA_BOX_BLUR_U8
      || !wants_one_pass (plan, variant, MAX (widest, a->radius_y),
          ONE_PASS_MAX_RADIUS)
      || a->radius_y > TILE_RADIUS_Y || (2 * widest + 1) * rows > TILE_WINDOW
      || !tile_holds (plan, a, 4, reach))
    return FALSE;
  if (a->w > 0 && a->h > 0)
    queue_tiles (plan, a, 4, reach, GST_CUDA_BOX_BLUR_KERNEL_TILES_422);
  return TRUE;
}
