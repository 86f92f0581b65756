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
 * kernels/ for its window, samples and pixels (the one pass's and the
 * strip walker's in cudaboxblur-tiles.c).  Plain C: no CUDA call. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-plan-private.h"

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

static const gint column_vector[] = {
  [GST_CUDA_BOX_BLUR_U8] = COLUMN_VECTOR_U8,
  [GST_CUDA_BOX_BLUR_U16] = COLUMN_VECTOR_U16,
  [GST_CUDA_BOX_BLUR_F32] = COLUMN_VECTOR_F32,
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
   * pass's choice (gst_cuda_box_blur_plan_takes_one_pass ()) */
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

  /* the callers take the strip walker only where
   * gst_cuda_box_blur_plan_strips_fit () */
  if (variant == GST_CUDA_BOX_BLUR_STRIPS) {
    gst_cuda_box_blur_plan_queue_strips (plan, a);
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
  if (gst_cuda_box_blur_plan_takes_one_pass (plan, variant, a, samples)) {
    gst_cuda_box_blur_plan_queue_one_pass (plan, a, samples);
    return;
  }

  /* The columns the region's windows reach (src may hold no others);
   * wrapping around may reach the other side of the frame. */
  set_reached_columns (a, a->radius_x);
  if (windows_wrap (a, 1, a->radius_x)) {
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
  if (variant == GST_CUDA_BOX_BLUR_STRIPS
      && !gst_cuda_box_blur_plan_strips_fit (plan, &a))
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
  return gst_cuda_box_blur_plan_takes_one_pass (plan,
      GST_CUDA_BOX_BLUR_ONE_PASS, &a, 1) ? GST_CUDA_BOX_BLUR_ONE_PASS :
      GST_CUDA_BOX_BLUR_DIRECT;
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
      && a.h > 0
      && gst_cuda_box_blur_plan_takes_one_pass (plan, variant, &a, samples)) {
    gst_cuda_box_blur_plan_queue_one_pass (plan, &a, samples);
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
  BoxBlurArgs a;

  g_return_val_if_fail (src->step == 4 && dst->step == 4, FALSE);
  args_init (&a, plan->type, src, dst, luma, region);
  a.luma_byte = luma_byte;
  a.chroma_radius_x = chroma_radius_x;
  return gst_cuda_box_blur_plan_queue_422 (plan, variant, &a);
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

  gst_cuda_box_blur_plan_size_tiles (plan);
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
