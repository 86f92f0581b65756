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

/* A frame's kernel launches, batched: one launch per kind of work for all
 * its regions and components, each kernel chosen from the table of
 * kernels/ for its window, samples and pixels.  Plain C: no CUDA call. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-plan.h"
#include "cudaboxblur-groups.h"
#include "boxblur-args.h"

#include <math.h>
#include <string.h>

/* Launch geometry of the separable passes, whose column threads walk
 * COLUMN_RUN rows of column_vector[] columns each (8-bit and float32
 * samples COLUMN_SHORT_RUN below radius_y COLUMN_SHORT_RADIUS, where the
 * window each run starts with costs little, and wherever runs of
 * COLUMN_RUN would give the GPU fewer than COLUMN_WARPS_PER_SM warps a
 * multiprocessor: the sweeps in docs/kernels.md, "Column runs"), and whose
 * row warps take ROW_RUN samples of a row each. */
#define COLUMN_THREADS 128
#define COLUMN_SHORT_RUN 16
#define COLUMN_RUN 32
#define COLUMN_SHORT_RADIUS 16
#define COLUMN_WARPS_PER_SM 8
#define ROW_WARPS 4
#define ROW_RUN 512

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
 * shared memory (the width of its tiles: size_tiles()). */
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

static const gint column_vector[] = {
  [GST_CUDA_BOX_BLUR_U8] = COLUMN_VECTOR_U8,
  [GST_CUDA_BOX_BLUR_U16] = COLUMN_VECTOR_U16,
  [GST_CUDA_BOX_BLUR_F32] = COLUMN_VECTOR_F32,
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

/* Each entry's column sums start on 256 bytes.  A batch's column sums stay
 * within MID_BUDGET bytes where its entries allow: past it, the entries
 * that come next go to a batch of their own, after the others. */
#define MID_ALIGN 256
/* Bytes of one column sum: 16 bits for 8-bit samples with radius_y up to
 * 128, else 32 (integer or float). */
#define MID_NARROW 2
#define MID_WIDE 4
#define MID_BUDGET (64 << 20)

/* The most entries one launch takes: gridDim.z's limit. */
#define MAX_ENTRIES 65535

/* The names of the kernels in kernels/ (each in the file its name starts
 * with), by GstCudaBoxBlurKernel. */
#define KERNELS_OF_TYPE(first, stem) \
  [first] = stem "_u8", [first + 1] = stem "_u16", [first + 2] = stem "_f32"

static const gchar *const kernel_names[GST_CUDA_BOX_BLUR_N_KERNELS] = {
  KERNELS_OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_DIRECT_U8, "box_blur"),
  KERNELS_OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_DIRECT3X3_U8, "box_blur3"),
  KERNELS_OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_U8, "box_columns"),
  KERNELS_OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_ROWS_U8, "box_rows"),
  KERNELS_OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_PIXELATE_U8, "pixelate"),
  KERNELS_OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_COMPOSE_U8, "compose"),
  [GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_U8_16] = "box_columns_u8_16",
  [GST_CUDA_BOX_BLUR_KERNEL_ROWS_U8_16] = "box_rows_u8_16",
  KERNELS_OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_TILES_U8, "box_tiles"),
  [GST_CUDA_BOX_BLUR_KERNEL_TILES_PX3] = "box_tiles_px3",
  [GST_CUDA_BOX_BLUR_KERNEL_TILES_PX4] = "box_tiles_px4",
  [GST_CUDA_BOX_BLUR_KERNEL_TILES_422] = "box_tiles_422",
  [GST_CUDA_BOX_BLUR_KERNEL_STRIPS_U8] = "box_strips_u8",
  [GST_CUDA_BOX_BLUR_KERNEL_DIRECT_PX4] = "box_blur_px4",
  [GST_CUDA_BOX_BLUR_KERNEL_DIRECT3X3_PX4] = "box_blur3_px4",
  [GST_CUDA_BOX_BLUR_KERNEL_ROWS_PX4] = "box_rows_px4",
  [GST_CUDA_BOX_BLUR_KERNEL_ROWS_PX4_16] = "box_rows_px4_16",
  [GST_CUDA_BOX_BLUR_KERNEL_PIXELATE_PX4] = "pixelate_px4",
  [GST_CUDA_BOX_BLUR_KERNEL_COPY] = "copy_bytes",
};

/* The kernel of @type of the family whose 8-bit kernel is @first. */
#define OF_TYPE(first, type) ((GstCudaBoxBlurKernel) ((first) + (type)))

/**
 * gst_cuda_box_blur_kernel_name:
 *
 * Returns: the name in kernels/ of @kernel.
 */
const gchar *
gst_cuda_box_blur_kernel_name (GstCudaBoxBlurKernel kernel)
{
  g_return_val_if_fail (kernel < GST_CUDA_BOX_BLUR_N_KERNELS, NULL);
  return kernel_names[kernel];
}

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

/**
 * gst_cuda_box_blur_plan_new:
 * @target: the GPU to plan for
 *
 * An empty plan of launches of the kernels of kernels/.
 */
GstCudaBoxBlurPlan *
gst_cuda_box_blur_plan_new (const GstCudaBoxBlurTarget * target)
{
  GstCudaBoxBlurPlan *plan = g_new0 (GstCudaBoxBlurPlan, 1);

  /* read for the column passes' run length (column_run()) and the one
   * pass's choice (takes_one_pass()) */
  plan->multiprocessors = target->multiprocessors;
  if (target->shared_per_multiprocessor > 0)
    /* the larger of the one pass's tiles */
    plan->tiles_per_sm = target->shared_per_multiprocessor /
        (TILE_SUMS (TILE_PITCH_PX4) * 2 + target->reserved_shared_per_block);
  plan->args = g_array_new (FALSE, FALSE, sizeof (BoxBlurArgs));
  plan->launches = g_array_new (FALSE, FALSE, sizeof (Launch));
  plan->pending = g_array_new (FALSE, FALSE, sizeof (Launch));
  plan->pending_args = g_array_new (FALSE, FALSE, sizeof (BoxBlurArgs));
  return plan;
}

void
gst_cuda_box_blur_plan_free (GstCudaBoxBlurPlan * plan)
{
  if (!plan)
    return;
  g_array_unref (plan->args);
  g_array_unref (plan->launches);
  g_array_unref (plan->pending);
  g_array_unref (plan->pending_args);
  g_free (plan);
}

/**
 * gst_cuda_box_blur_plan_reset:
 *
 * Empties @plan for a new frame of @type samples.
 */
void
gst_cuda_box_blur_plan_reset (GstCudaBoxBlurPlan * plan,
    GstCudaBoxBlurSampleType type)
{
  plan->type = type;
  g_array_set_size (plan->args, 0);
  g_array_set_size (plan->launches, 0);
  g_array_set_size (plan->pending, 0);
  g_array_set_size (plan->pending_args, 0);
  plan->mid_used = 0;
  plan->mid_needed = 0;
}

/* @value as an integer sample of @type, rounded and clamped. */
static guint
integer_sample (gdouble value, GstCudaBoxBlurSampleType type)
{
  return (guint) CLAMP (round (value), 0,
      type == GST_CUDA_BOX_BLUR_U8 ? 255 : 65535);
}

/* The kernels' codes of the description's border rules and shapes. */
static const int border_codes[GST_CUDA_BOX_BLUR_N_BORDERS] = {
  [GST_CUDA_BOX_BLUR_BORDER_SHRINK] = BOX_BORDER_SHRINK,
  [GST_CUDA_BOX_BLUR_BORDER_CLAMP] = BOX_BORDER_CLAMP,
  [GST_CUDA_BOX_BLUR_BORDER_MIRROR] = BOX_BORDER_MIRROR,
  [GST_CUDA_BOX_BLUR_BORDER_WRAP] = BOX_BORDER_WRAP,
  [GST_CUDA_BOX_BLUR_BORDER_CONSTANT] = BOX_BORDER_CONSTANT,
};

static const int shape_codes[GST_CUDA_BOX_BLUR_N_SHAPES] = {
  [GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE] = BOX_SHAPE_RECTANGLE,
  [GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE] = BOX_SHAPE_ELLIPSE,
};

static void
args_init (BoxBlurArgs * args, GstCudaBoxBlurSampleType type,
    const GstCudaBoxBlurPlane * src, const GstCudaBoxBlurPlane * dst,
    const GstCudaBoxBlurWindow * window, const GstVideoRectangle * region)
{
  memset (args, 0, sizeof (*args));
  args->src = src->data;
  args->dst = dst->data;
  args->src_stride = src->stride;
  args->dst_stride = dst->stride;
  args->src_step = src->step;
  args->dst_step = dst->step;
  args->width = dst->width;
  args->height = dst->height;
  args->radius_x = window->radius_x;
  args->radius_y = window->radius_y;
  args->block_w = window->block_w;
  args->block_h = window->block_h;
  if (region) {
    args->x = region->x;
    args->y = region->y;
    args->w = region->w;
    args->h = region->h;
  } else {
    args->w = dst->width;
    args->h = dst->height;
  }
  args->border = border_codes[window->border];
  args->border_int = integer_sample (window->border_value, type);
  args->border_float = (gfloat) window->border_value;
  args->shape = shape_codes[window->shape];
  args->feather = window->feather;
  args->fill = window->work == GST_CUDA_BOX_BLUR_WORK_FILL;
  args->shift = dst->shift;
  args->fill_int = integer_sample (window->fill_value, type);
  args->fill_float = (gfloat) window->fill_value;
}

/* Adds @args to the open batch, run by @kernel at @stage with @block
 * threads per block in a grid of @grid_x x @grid_y blocks. */
static void
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

static guint
blocks (gint n, gint per_block)
{
  return (n + per_block - 1) / per_block;
}

/**
 * gst_cuda_box_blur_plan_copy:
 *
 * Queues a copy of @height rows of @width_bytes bytes, in the open batch's
 * copy stage.
 */
void
gst_cuda_box_blur_plan_copy (GstCudaBoxBlurPlan * plan, const guint8 * src,
    gint src_stride, guint8 * dst, gint dst_stride, gint width_bytes,
    gint height)
{
  BoxBlurArgs args;

  if (width_bytes <= 0 || height <= 0)
    return;
  memset (&args, 0, sizeof (args));
  args.src = src;
  args.dst = dst;
  args.src_stride = src_stride;
  args.dst_stride = dst_stride;
  args.src_step = args.dst_step = 1;
  args.w = width_bytes;
  args.h = height;
  add_entry (plan, STAGE_COPY, GST_CUDA_BOX_BLUR_KERNEL_COPY, &args, BLOCK_W,
      BLOCK_H, blocks (width_bytes, BLOCK_W), blocks (height, BLOCK_H));
}

/**
 * gst_cuda_box_blur_plan_choose:
 *
 * Picks the kernels for a window: the block means of pixelate, the direct
 * kernel (which keeps the sample's summation order) for small boxes, the
 * separable passes for larger ones.
 */
GstCudaBoxBlurVariant
gst_cuda_box_blur_plan_choose (const GstCudaBoxBlurWindow * window)
{
  if (window->work == GST_CUDA_BOX_BLUR_WORK_BLOCKS)
    return GST_CUDA_BOX_BLUR_PIXELATE;
  return gst_cuda_box_blur_window_is_direct (window->radius_x,
      window->radius_y) ? GST_CUDA_BOX_BLUR_DIRECT :
      GST_CUDA_BOX_BLUR_SEPARABLE;
}

/* The rows a column thread of @a's column pass walks (with mid_pitch
 * counted in samples). */
static gint
column_run (const GstCudaBoxBlurPlan * plan, const BoxBlurArgs * a)
{
  const GstCudaBoxBlurSampleType type = plan->type;
  const gint warps = blocks (a->mid_pitch / column_vector[type],
      COLUMN_THREADS) * (COLUMN_THREADS / 32) * blocks (a->h, COLUMN_RUN);

  if (type == GST_CUDA_BOX_BLUR_U16)
    return COLUMN_RUN;
  if (a->radius_y < COLUMN_SHORT_RADIUS
      || warps < plan->multiprocessors * COLUMN_WARPS_PER_SM)
    return COLUMN_SHORT_RUN;
  return COLUMN_RUN;
}

/* Whether @data and rows @stride bytes apart from it are 4-byte aligned. */
static gboolean
aligned (gconstpointer data, gint stride)
{
  return (((guintptr) data | (guint) stride) & 3) == 0;
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
      && !(a->border == BOX_BORDER_WRAP && (a->x * samples - reach < 0
              || (a->x + a->w) * samples + reach > a->width * samples));
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
static gboolean
takes_one_pass (const GstCudaBoxBlurPlan * plan,
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
static void
size_tiles (GstCudaBoxBlurPlan * plan)
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
  /* the columns the region's windows reach (src may hold no others) */
  a->x_first = MAX (a->x - reach, 0);
  a->x_last = MIN (a->x + a->w + reach, a->width);
  /* as wide as they may be, until size_tiles () */
  a->row_run = tile_steps (plan, a) * tile_unit (plan, samples);
  add_entry (plan, STAGE_FIRST, kernel, a, TILE_THREADS, 1,
      blocks (a->w, a->row_run), blocks (a->h, TILE_ROWS));
}

/* Whether the strip walker (box_strips_u8) can take @a: 8-bit samples of
 * their own, the planes' data and rows 4-byte aligned, windows
 * of at most STRIP_MAX_RADIUS_X columns and STRIP_MAX_RADIUS_Y rows either
 * side and TILE_WINDOW samples, that do not wrap around the frame's sides
 * (a warp sums only the columns beside its strip). */
static gboolean
strips_fit (const GstCudaBoxBlurPlan * plan, const BoxBlurArgs * a)
{
  return plan->type == GST_CUDA_BOX_BLUR_U8
      && a->src_step == 1 && a->dst_step == 1
      && aligned (a->src, a->src_stride) && aligned (a->dst, a->dst_stride)
      && a->radius_x <= STRIP_MAX_RADIUS_X
      && a->radius_y <= STRIP_MAX_RADIUS_Y
      && (2 * a->radius_x + 1) * (2 * a->radius_y + 1) <= TILE_WINDOW
      && !(a->border == BOX_BORDER_WRAP && (a->x - a->radius_x < 0
              || a->x + a->w + a->radius_x > a->width));
}

/* Queues the strip walker for @a (strips_fit ()). */
static void
queue_strips (GstCudaBoxBlurPlan * plan, BoxBlurArgs * a)
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
  /* the columns the region's windows reach (src may hold no others) */
  a->x_first = MAX (a->x - a->radius_x, 0);
  a->x_last = MIN (a->x + a->w + a->radius_x, a->width);
  a->column_run = run;
  add_entry (plan, STAGE_FIRST, GST_CUDA_BOX_BLUR_KERNEL_STRIPS_U8, a,
      STRIP_WARPS * 32, 1, blocks (strips, STRIP_WARPS), blocks (a->h, run));
}

/* Queues the kernels of @variant for @a, a component plane, or with
 * @pixels a plane of packed pixels of four 8-bit samples. */
static void
queue_blur (GstCudaBoxBlurPlan * plan, GstCudaBoxBlurVariant variant,
    BoxBlurArgs * a, gboolean pixels)
{
  const GstCudaBoxBlurSampleType type = plan->type;
  /* the column sums of a pixel: one a sample */
  const gint samples = pixels ? 4 : 1;
  gboolean narrow;
  gsize mid_element, mid_bytes;
  BoxBlurArgs columns;

  /* the callers take the strip walker only where strips_fit () */
  if (variant == GST_CUDA_BOX_BLUR_STRIPS) {
    queue_strips (plan, a);
    return;
  }
  if (variant == GST_CUDA_BOX_BLUR_PIXELATE) {
    add_entry (plan, STAGE_FIRST, pixels ?
        GST_CUDA_BOX_BLUR_KERNEL_PIXELATE_PX4 :
        OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_PIXELATE_U8, type), a,
        PIXELATE_THREADS, 1, blocks (a->w, PIXELATE_TILE (a->block_w)),
        blocks (a->h,
            a->block_h));
    return;
  }
  if (variant == GST_CUDA_BOX_BLUR_DIRECT) {
    const gboolean box3 = a->radius_x == 1 && a->radius_y == 1;
    const gint per_thread = box3 && type == GST_CUDA_BOX_BLUR_U8 && !pixels ?
        BOX3_U8_COLUMNS : 1;
    GstCudaBoxBlurKernel kernel;

    if (pixels)
      kernel = box3 ? GST_CUDA_BOX_BLUR_KERNEL_DIRECT3X3_PX4 :
          GST_CUDA_BOX_BLUR_KERNEL_DIRECT_PX4;
    else
      kernel = OF_TYPE (box3 ? GST_CUDA_BOX_BLUR_KERNEL_DIRECT3X3_U8 :
          GST_CUDA_BOX_BLUR_KERNEL_DIRECT_U8, type);
    add_entry (plan, STAGE_FIRST, kernel, a, BLOCK_W, BLOCK_H,
        blocks (a->w, BLOCK_W * per_thread), blocks (a->h, box3 ?
            BLOCK_H * BOX3_ROWS : BLOCK_H));
    return;
  }
  if (takes_one_pass (plan, variant, a, samples)) {
    queue_tiles (plan, a, samples, pixels_reach (a, samples),
        tiles_kernel (plan, samples));
    return;
  }

  /* The columns the region's windows reach (src may hold no others);
   * wrapping around may reach the other side of the frame. */
  a->x_first = MAX (a->x - a->radius_x, 0);
  a->x_last = MIN (a->x + a->w + a->radius_x, a->width);
  if (a->border == BOX_BORDER_WRAP && (a->x - a->radius_x < 0
          || a->x + a->w + a->radius_x > a->width)) {
    a->x_first = 0;
    a->x_last = a->width;
  }
  /* 16-bit column sums halve the intermediate traffic where they fit;
   * the others take 32 bits */
  narrow = type == GST_CUDA_BOX_BLUR_U8 && a->radius_y <= 128;
  mid_element = narrow ? MID_NARROW : MID_WIDE;
  a->mid_pitch = GST_ROUND_UP_N ((a->x_last - a->x_first) * samples,
      column_vector[type]);
  mid_bytes = GST_ROUND_UP_N ((gsize) a->h * a->mid_pitch * mid_element,
      MID_ALIGN);
  if (plan->mid_used > 0 && plan->mid_used + mid_bytes > MID_BUDGET)
    gst_cuda_box_blur_plan_end_batch (plan);
  a->mid_offset = plan->mid_used / mid_element;
  a->column_run = column_run (plan, a);
  a->row_run = MIN (a->w, ROW_RUN);
  plan->mid_used += mid_bytes;

  /* the column sums of packed pixels are those of their bytes, an 8-bit
   * plane four times as wide; the row pass reads them a pixel at a time */
  columns = *a;
  if (pixels) {
    columns.x_first *= samples;
    columns.x_last *= samples;
    columns.src_step = 1;
    a->mid_offset /= samples;
    a->mid_pitch /= samples;
  }
  add_entry (plan, STAGE_FIRST, narrow ?
      GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_U8_16 :
      OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_COLUMNS_U8, type), &columns,
      COLUMN_THREADS, 1,
      blocks (columns.mid_pitch / column_vector[type], COLUMN_THREADS),
      blocks (a->h, a->column_run));
  /* a warp per run of a row */
  if (pixels)
    add_entry (plan, STAGE_ROWS, narrow ?
        GST_CUDA_BOX_BLUR_KERNEL_ROWS_PX4_16 :
        GST_CUDA_BOX_BLUR_KERNEL_ROWS_PX4, a, ROW_WARPS * 32, 1,
        blocks (a->w, a->row_run), blocks (a->h, ROW_WARPS));
  else
    add_entry (plan, STAGE_ROWS, narrow ?
        GST_CUDA_BOX_BLUR_KERNEL_ROWS_U8_16 :
        OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_ROWS_U8, type), a, ROW_WARPS * 32, 1,
        blocks (a->w, a->row_run), blocks (a->h, ROW_WARPS));
}

/**
 * gst_cuda_box_blur_plan_blur_variant:
 * @region: the rectangle of @dst to write, or %NULL for all of it
 *
 * Queues one pass of @window over the component plane @src into @dst,
 * with the kernels of @variant (gst_cuda_box_blur_plan_choose() gives the
 * window's own).  Only @region of @dst is written; its windows read all of
 * @src.  @src and @dst must be addressable by the GPU and must not
 * overlap.
 */
void
gst_cuda_box_blur_plan_blur_variant (GstCudaBoxBlurPlan * plan,
    GstCudaBoxBlurVariant variant, const GstCudaBoxBlurPlane * src,
    const GstCudaBoxBlurPlane * dst, const GstCudaBoxBlurWindow * window,
    const GstVideoRectangle * region)
{
  BoxBlurArgs a;

  args_init (&a, plan->type, src, dst, window, region);
  if (variant == GST_CUDA_BOX_BLUR_STRIPS && !strips_fit (plan, &a))
    variant = gst_cuda_box_blur_plan_choose (window);
  if (a.w > 0 && a.h > 0)
    queue_blur (plan, variant, &a, FALSE);
}

/**
 * gst_cuda_box_blur_plan_choose_plane:
 * @region: the rectangle of @dst to write, or %NULL for all of it
 *
 * The kernels the element takes for @window over the component plane
 * @src into @dst: the window's own (gst_cuda_box_blur_plan_choose()), but
 * for the 3x3 box of 8-bit samples of their own the one pass where it
 * takes them: faster than the unrolled kernel up to 3200x1800 and within
 * 5% of it at 4K, where NV12's Y plane then shares its UV pairs' launch
 * (docs/performance.md, "Radius 1, the one pass and the strip walker").
 */
GstCudaBoxBlurVariant
gst_cuda_box_blur_plan_choose_plane (const GstCudaBoxBlurPlan * plan,
    const GstCudaBoxBlurPlane * src, const GstCudaBoxBlurPlane * dst,
    const GstCudaBoxBlurWindow * window, const GstVideoRectangle * region)
{
  const GstCudaBoxBlurVariant variant = gst_cuda_box_blur_plan_choose (window);
  BoxBlurArgs a;

  if (variant != GST_CUDA_BOX_BLUR_DIRECT
      || plan->type != GST_CUDA_BOX_BLUR_U8 || window->radius_x != 1
      || window->radius_y != 1)
    return variant;
  args_init (&a, plan->type, src, dst, window, region);
  return takes_one_pass (plan, GST_CUDA_BOX_BLUR_ONE_PASS, &a, 1) ?
      GST_CUDA_BOX_BLUR_ONE_PASS : GST_CUDA_BOX_BLUR_DIRECT;
}

/**
 * gst_cuda_box_blur_plane_is_aligned:
 *
 * Whether @plane's data and rows are 4-byte aligned: for a plane of packed
 * pixels, whether gst_cuda_box_blur_plan_blur_pixels() moves them whole.
 */
gboolean
gst_cuda_box_blur_plane_is_aligned (const GstCudaBoxBlurPlane * plane)
{
  return aligned (plane->data, plane->stride);
}

/**
 * gst_cuda_box_blur_plan_blur_pixels:
 * @src: a plane of packed pixels of four or three 8-bit samples, or of
 *   pairs of 8-bit or 16-bit samples (NV12's or P010's UV): data at the
 *   first byte of pixel (0, 0), step 4, 3 or 2 samples
 * @dst: the same of the output, whose other bytes (those not in @blurred)
 *   must hold @src's already: they are written back unchanged or left
 * @blurred: the bytes of a pixel to blur, bit i for byte i (a sample's
 *   bytes all or none)
 *
 * gst_cuda_box_blur_plan_blur_variant() of the components @blurred of a
 * plane of packed pixels, which share @window: pixels of four are loaded
 * and stored whole where the planes' pixels and rows are 4-byte aligned,
 * every sample of pairs and of pixels of three goes through the one pass
 * side by side where it takes them; otherwise each component is blurred on
 * its own.
 */
void
gst_cuda_box_blur_plan_blur_pixels (GstCudaBoxBlurPlan * plan,
    GstCudaBoxBlurVariant variant, const GstCudaBoxBlurPlane * src,
    const GstCudaBoxBlurPlane * dst, const GstCudaBoxBlurWindow * window,
    const GstVideoRectangle * region, guint blurred)
{
  const gint size = sample_bytes[plan->type];
  const gint samples = src->step / size;
  BoxBlurArgs a;
  gint i;

  g_return_if_fail (samples >= 2 && samples <= pixel_samples_most[plan->type]
      && src->step == samples * size && dst->step == src->step);
  if (variant == GST_CUDA_BOX_BLUR_STRIPS)
    variant = gst_cuda_box_blur_plan_choose (window);

  args_init (&a, plan->type, src, dst, window, region);
  if (samples < 4 && blurred == (1u << src->step) - 1 && a.w > 0
      && a.h > 0 && takes_one_pass (plan, variant, &a, samples)) {
    queue_tiles (plan, &a, samples, pixels_reach (&a, samples),
        tiles_kernel (plan, samples));
    return;
  }
  if (samples < 4 || !gst_cuda_box_blur_plane_is_aligned (src)
      || !gst_cuda_box_blur_plane_is_aligned (dst)) {
    for (i = 0; i < samples; i++) {
      GstCudaBoxBlurPlane s = *src, d = *dst;

      if (!(blurred & (1u << (i * size))))
        continue;
      s.data += i * size;
      d.data += i * size;
      gst_cuda_box_blur_plan_blur_variant (plan, variant, &s, &d, window,
          region);
    }
    return;
  }

  for (i = 0; i < 4; i++)
    if (!(blurred & (1u << i)))
      a.pixel_keep |= 0xffu << (8 * i);
  if (a.w > 0 && a.h > 0)
    queue_blur (plan, variant, &a, TRUE);
}

/**
 * gst_cuda_box_blur_plan_blur_422:
 * @src: a plane of packed 4:2:2 (YUY2, UYVY, YVYU): data at the first byte
 *   of macropixel (0, 0), step 4, width in macropixels
 * @luma: the window of its luma samples
 * @chroma_radius_x: its chroma samples' radius_x, the rest of their window
 *   @luma's
 * @luma_byte: the byte of a macropixel's first luma sample (0 or 1)
 * @region: (nullable): the macropixels of @dst to write, or %NULL for all
 *
 * Queues one pass of the windows over every sample of the macropixels in
 * one launch, the one pass (box_tiles_422), where @variant, the luma
 * window's own (gst_cuda_box_blur_plan_choose()), takes it as it takes
 * planes of their own: 8-bit samples, radii up to ONE_PASS_MAX_RADIUS, at
 * most TILE_RADIUS_Y rows and TILE_WINDOW samples, within a tile, not
 * wrapping round the sides.  Direct windows too: their means are the same
 * bytes.
 *
 * Returns: whether it queued them; if not, the caller blurs each component
 * on its own.
 */
gboolean
gst_cuda_box_blur_plan_blur_422 (GstCudaBoxBlurPlan * plan,
    GstCudaBoxBlurVariant variant, const GstCudaBoxBlurPlane * src,
    const GstCudaBoxBlurPlane * dst, const GstCudaBoxBlurWindow * luma,
    gint chroma_radius_x, gint luma_byte, const GstVideoRectangle * region)
{
  const gint rows = 2 * luma->radius_y + 1;
  /* two bytes from a luma sample to the next, four from a chroma one */
  const gint reach = MAX (2 * luma->radius_x, 4 * chroma_radius_x);
  BoxBlurArgs a;

  g_return_val_if_fail (src->step == 4 && dst->step == 4, FALSE);
  if (variant == GST_CUDA_BOX_BLUR_DIRECT)
    variant = GST_CUDA_BOX_BLUR_SEPARABLE;
  if (plan->type != GST_CUDA_BOX_BLUR_U8
      || !wants_one_pass (plan, variant, MAX (MAX (luma->radius_x,
                  chroma_radius_x), luma->radius_y), ONE_PASS_MAX_RADIUS))
    return FALSE;

  args_init (&a, plan->type, src, dst, luma, region);
  a.luma_byte = luma_byte;
  a.chroma_radius_x = chroma_radius_x;
  if (a.radius_y > TILE_RADIUS_Y
      || (2 * MAX (a.radius_x, chroma_radius_x) + 1) * rows > TILE_WINDOW
      || !tile_holds (plan, &a, 4, reach))
    return FALSE;
  if (a.w > 0 && a.h > 0)
    queue_tiles (plan, &a, 4, reach, GST_CUDA_BOX_BLUR_KERNEL_TILES_422);
  return TRUE;
}

/**
 * gst_cuda_box_blur_plan_compose:
 * @src: (nullable): the redacted samples, or %NULL for a fill
 *
 * Queues the laying of @region of @src (or of the fill value) onto the same
 * region of @dst through the window's shape and feather, in the open
 * batch's compose stage.
 */
void
gst_cuda_box_blur_plan_compose (GstCudaBoxBlurPlan * plan,
    const GstCudaBoxBlurPlane * src, const GstCudaBoxBlurPlane * dst,
    const GstCudaBoxBlurWindow * window, const GstVideoRectangle * region)
{
  BoxBlurArgs a;

  args_init (&a, plan->type, src ? src : dst, dst, window, region);
  if (a.w <= 0 || a.h <= 0)
    return;
  add_entry (plan, STAGE_COMPOSE,
      OF_TYPE (GST_CUDA_BOX_BLUR_KERNEL_COMPOSE_U8, plan->type), &a, BLOCK_W,
      BLOCK_H, blocks (a.w, BLOCK_W), blocks (a.h, BLOCK_H));
}

/**
 * gst_cuda_box_blur_plan_end_batch:
 *
 * Closes the open batch: its entries become launches, stage by stage, one
 * per kernel (in the order the kernels first came), each as large as its
 * largest entry.
 */
void
gst_cuda_box_blur_plan_end_batch (GstCudaBoxBlurPlan * plan)
{
  guint i, j;
  gint stage;

  size_tiles (plan);
  for (stage = 0; stage < N_STAGES; stage++) {
    for (i = 0; i < plan->pending->len; i++) {
      Launch *first = &g_array_index (plan->pending, Launch, i);
      Launch launch;

      if ((gint) first->stage != stage || first->count == 0)
        continue;
      launch = *first;
      launch.first = plan->args->len;
      launch.count = 0;
      for (j = i; j < plan->pending->len; j++) {
        Launch *e = &g_array_index (plan->pending, Launch, j);

        if (e->count == 0 || e->stage != first->stage
            || e->kernel != first->kernel)
          continue;
        if (launch.count == MAX_ENTRIES) {
          g_array_append_val (plan->launches, launch);
          launch.first = plan->args->len;
          launch.count = 0;
        }
        g_array_append_vals (plan->args, &g_array_index (plan->pending_args,
                BoxBlurArgs, e->first), 1);
        launch.count++;
        launch.grid[0] = MAX (launch.grid[0], e->grid[0]);
        launch.grid[1] = MAX (launch.grid[1], e->grid[1]);
        e->count = 0;           /* taken */
      }
      g_array_append_val (plan->launches, launch);
    }
  }
  g_array_set_size (plan->pending, 0);
  g_array_set_size (plan->pending_args, 0);
  plan->mid_needed = MAX (plan->mid_needed, plan->mid_used);
  plan->mid_used = 0;
}

/**
 * gst_cuda_box_blur_plan_mid_size:
 *
 * The most bytes the column sums of a whole plane of @height rows of
 * @width samples take.
 */
gsize
gst_cuda_box_blur_plan_mid_size (gint width, gint height)
{
  return (gsize) width * height * MID_WIDE;
}

guint
gst_cuda_box_blur_plan_n_launches (const GstCudaBoxBlurPlan * plan)
{
  return plan->launches->len;
}

const GstCudaBoxBlurLaunch *
gst_cuda_box_blur_plan_get_launch (const GstCudaBoxBlurPlan * plan, guint i)
{
  g_return_val_if_fail (i < plan->launches->len, NULL);
  return &g_array_index (plan->launches, Launch, i);
}

/**
 * gst_cuda_box_blur_plan_get_args:
 * @bytes: (out): their size
 *
 * Returns: the BoxBlurArgs of every launch of the finished plan, one after
 * the other (a launch's from its first).
 */
gconstpointer
gst_cuda_box_blur_plan_get_args (const GstCudaBoxBlurPlan * plan,
    gsize * bytes)
{
  *bytes = plan->args->len * sizeof (BoxBlurArgs);
  return plan->args->data;
}

/**
 * gst_cuda_box_blur_plan_mid_needed:
 *
 * Returns: the bytes of column sums the finished plan's largest batch
 * takes.
 */
gsize
gst_cuda_box_blur_plan_mid_needed (const GstCudaBoxBlurPlan * plan)
{
  return plan->mid_needed;
}
