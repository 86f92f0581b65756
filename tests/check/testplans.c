/* cudaboxblur test helpers: what a frame's plan may touch
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A plan made on the CPU (plan/, host memory, no kernel run) held to the
 * memory rule: each launch's rectangle inside its plane; what it writes,
 * and what it may read by the rule of BOX_READ_BELOW in boxblur-args.h,
 * inside the frames and the work memory the plan measured; the column
 * sums inside those measured; the copies of planes inside the frames; and
 * every byte of an output frame written.  Each plan is also added to a
 * digest, its pointers as offsets into the memory they lie in.
 */

#include <gst/check/gstcheck.h>

#include "boxblur-args.h"
#include "testplans.h"

/* the counters and digest of the plan being checked (test_check_plan()) */
static guint *launched;
static GChecksum *digest;

/* A block of memory a plan may write: a frame, or work memory it
 * measured. */
typedef struct
{
  const guint8 *base;
  gsize size;
} Block;

/* Whether bytes @first to @last lie inside one of @blocks. */
static gboolean
inside (const Block * blocks, guint n, const guint8 * first,
    const guint8 * last)
{
  guint i;

  for (i = 0; i < n; i++)
    if ((guintptr) first >= (guintptr) blocks[i].base
        && (guintptr) last < (guintptr) blocks[i].base + blocks[i].size)
      return TRUE;
  return FALSE;
}

/* What a kernel reads of src (BOX_READ_BELOW in boxblur-args.h), besides
 * what it writes of dst. */
typedef enum
{
  READS_WINDOWS,                /* the windows around its rectangle */
  READS_COLUMNS,                /* those of columns x_first to x_last; it
                                 * writes the column sums, not dst */
  READS_SUMS,                   /* the column sums, not src */
  READS_BLOCKS,                 /* its rectangle */
  READS_REGION,                 /* its rectangle inside the plane, unless
                                 * it fills */
  READS_BYTES,                  /* w x h bytes from src */
} Reads;

#define K(name) GST_CUDA_BOX_BLUR_KERNEL_ ## name

/* Each kernel: the bytes of a sample it reads and writes at each (x, y),
 * dst_step (src_step) apart; what it reads; the bytes of a column sum as
 * mid_offset and mid_pitch count them. */
static const struct
{
  gint size;
  Reads reads;
  gint sum;
} kernel_rows[GST_CUDA_BOX_BLUR_N_KERNELS] = {
  [K (DIRECT_U8)] = {1, READS_WINDOWS},
  [K (DIRECT_U16)] = {2, READS_WINDOWS},
  [K (DIRECT_F32)] = {4, READS_WINDOWS},
  [K (DIRECT3X3_U8)] = {1, READS_WINDOWS},
  [K (DIRECT3X3_U16)] = {2, READS_WINDOWS},
  [K (DIRECT3X3_F32)] = {4, READS_WINDOWS},
  [K (COLUMNS_U8)] = {1, READS_COLUMNS, 4},
  [K (COLUMNS_U16)] = {2, READS_COLUMNS, 4},
  [K (COLUMNS_F32)] = {4, READS_COLUMNS, 4},
  [K (ROWS_U8)] = {1, READS_SUMS, 4},
  [K (ROWS_U16)] = {2, READS_SUMS, 4},
  [K (ROWS_F32)] = {4, READS_SUMS, 4},
  [K (PIXELATE_U8)] = {1, READS_BLOCKS},
  [K (PIXELATE_U16)] = {2, READS_BLOCKS},
  [K (PIXELATE_F32)] = {4, READS_BLOCKS},
  [K (COMPOSE_U8)] = {1, READS_REGION},
  [K (COMPOSE_U16)] = {2, READS_REGION},
  [K (COMPOSE_F32)] = {4, READS_REGION},
  [K (COLUMNS_U8_16)] = {1, READS_COLUMNS, 2},
  [K (ROWS_U8_16)] = {1, READS_SUMS, 2},
  [K (TILES_U8)] = {1, READS_WINDOWS},
  [K (TILES_U16)] = {2, READS_WINDOWS},
  [K (TILES_F32)] = {4, READS_WINDOWS},
  [K (TILES_PX3)] = {1, READS_WINDOWS},
  [K (TILES_PX4)] = {1, READS_WINDOWS},
  [K (TILES_422)] = {1, READS_WINDOWS},
  [K (STRIPS_U8)] = {1, READS_WINDOWS},
  [K (DIRECT_PX4)] = {4, READS_WINDOWS},
  [K (DIRECT3X3_PX4)] = {4, READS_WINDOWS},
  [K (ROWS_PX4)] = {4, READS_SUMS, 16},
  [K (ROWS_PX4_16)] = {4, READS_SUMS, 8},
  [K (PIXELATE_PX4)] = {4, READS_BLOCKS},
  [K (COPY)] = {1, READS_BYTES},
};

/* Checks that samples of @size bytes, @step apart, of rectangle @r of the
 * plane at @data, rows @stride apart, lie inside one of @blocks. */
static void
check_rect (const guint8 * data, gint stride, gint step, gint size,
    const GstVideoRectangle * r, const Block * blocks, guint n_blocks,
    const gchar * name, guint e, const gchar * what)
{
  const guint8 *first = data + (gssize) r->y * stride + (gssize) r->x * step;
  const guint8 *last = data + (gssize) (r->y + r->h - 1) * stride +
      (gssize) (r->x + r->w - 1) * step + size - 1;

  fail_unless (r->w > 0 && r->h > 0, "%s: entry %u %s %dx%d", name, e, what,
      r->w, r->h);
  fail_unless (inside (blocks, n_blocks, first, last), "%s: entry %u %s "
      "%dx%d at %d,%d (step %d, stride %d) outside the frames and work "
      "memory", name, e, what, r->w, r->h, r->x, r->y, step, stride);
}

/* @r clipped to the @width x @height plane. */
static GstVideoRectangle
clip (GstVideoRectangle r, gint width, gint height)
{
  GstVideoRectangle c;

  c.x = MAX (r.x, 0);
  c.y = MAX (r.y, 0);
  c.w = MIN (r.x + r.w, width) - c.x;
  c.h = MIN (r.y + r.h, height) - c.y;
  return c;
}

/* What entry @a of @kernel reads of src by the rule of BOX_READ_BELOW
 * (boxblur-args.h): the windows of the samples it writes (the one pass's
 * reach columns either side, which count samples, as its rectangle
 * does), and BOX_READ_BELOW rows more each way (a
 * mirror reflects the row below the windows above them), inside the
 * plane; the whole plane where a wrapping window, or the row below the
 * windows, reaches round. */
static GstVideoRectangle
windows_read (GstCudaBoxBlurKernel kernel, const BoxBlurArgs * a)
{
  const gint reach_x = gst_cuda_box_blur_kernel_is_tiles (kernel) ?
      a->reach : a->radius_x;
  const gint reach_y = a->radius_y + BOX_READ_BELOW;
  GstVideoRectangle r = { a->x - reach_x, a->y - reach_y,
    a->w + 2 * reach_x, a->h + 2 * reach_y
  };

  if (kernel_rows[kernel].reads == READS_COLUMNS) {
    r.x = a->x_first;
    r.w = a->x_last - a->x_first;
  }
  /* the row past the windows is below them: above, only the windows
   * reach round */
  if (a->border == BOX_BORDER_WRAP && (a->y - a->radius_y < 0
          || r.y + r.h > a->height
          || (kernel_rows[kernel].reads == READS_WINDOWS && (r.x < 0
                  || r.x + r.w > a->width)))) {
    r.y = 0;
    r.h = a->height;
    if (kernel_rows[kernel].reads == READS_WINDOWS) {
      r.x = 0;
      r.w = a->width;
    }
  }
  if (kernel_rows[kernel].reads == READS_COLUMNS)
    return clip (r, G_MAXINT, a->height);
  return clip (r, a->width, a->height);
}

/* Adds @p to the digest as the block of @blocks that @anchor (a byte @p
 * points to, or an argument's first sample: a halo's origin may lie
 * before its memory) lies in and its offset from there, so that the
 * digest does not depend on where the memory was allocated. */
static void
digest_pointer (gconstpointer p, gconstpointer anchor, const Block * blocks,
    guint n_blocks)
{
  gint64 where[2] = { -1, (gint64) (guintptr) p };
  guint i;

  for (i = 0; i < n_blocks; i++)
    if ((guintptr) anchor >= (guintptr) blocks[i].base
        && (guintptr) anchor < (guintptr) blocks[i].base + blocks[i].size) {
      where[0] = i;
      where[1] = (gint64) ((guintptr) p - (guintptr) blocks[i].base);
      break;
    }
  g_checksum_update (digest, (const guchar *) where, sizeof (where));
}

/* Adds launch @l and its entries' arguments @args to the digest. */
static void
digest_launch (const GstCudaBoxBlurLaunch * l, const BoxBlurArgs * args,
    const Block * blocks, guint n_blocks)
{
  guint e;

  g_checksum_update (digest, (const guchar *) l, sizeof (*l));
  for (e = l->first; e < l->first + l->count; e++) {
    BoxBlurArgs a = args[e];
    const gint x = MAX (a.x, 0), y = MAX (a.y, 0);

    digest_pointer (a.src, a.src ? a.src + (gsize) y * a.src_stride +
        (gsize) x * a.src_step : NULL, blocks, n_blocks);
    digest_pointer (a.dst, a.dst + (gsize) y * a.dst_stride +
        (gsize) x * a.dst_step, blocks, n_blocks);
    a.src = a.dst = NULL;
    g_checksum_update (digest, (const guchar *) &a, sizeof (a));
  }
}

/* Checks entry @e of launch @l of @plan against @blocks: its rectangle
 * inside its plane (a copy's is its own, compose's is clipped to the
 * plane as the kernel does: a keep of invert grown by its feather may
 * reach past it); the samples it writes and reads, by the rule of
 * BOX_READ_BELOW, inside the frames and work memory; its column sums
 * inside those the plan measured. */
static void
check_entry (const GstCudaBoxBlurPlan * plan, const GstCudaBoxBlurLaunch * l,
    const BoxBlurArgs * a, guint e, const Block * blocks, guint n_blocks)
{
  const gchar *name = gst_cuda_box_blur_kernel_name (l->kernel);
  const gint size = kernel_rows[l->kernel].size;
  const Reads reads = kernel_rows[l->kernel].reads;
  GstVideoRectangle r = { a->x, a->y, a->w, a->h }, in;

  if (reads == READS_REGION)
    r = clip (r, a->width, a->height);
  fail_unless (r.x >= 0 && r.y >= 0 && (reads == READS_BYTES
          || (r.x + r.w <= a->width && r.y + r.h <= a->height)),
      "%s: entry %u writes %dx%d at %d,%d of a %dx%d plane", name, e, r.w,
      r.h, r.x, r.y, a->width, a->height);

  if (reads == READS_COLUMNS || reads == READS_SUMS)
    fail_unless (a->mid_offset >= 0 && ((gsize) a->mid_offset +
            (gsize) a->h * a->mid_pitch) * kernel_rows[l->kernel].sum <=
        gst_cuda_box_blur_plan_mid_needed (plan), "%s: entry %u takes "
        "column sums past those measured", name, e);
  if (reads != READS_COLUMNS)
    check_rect (a->dst, a->dst_stride, reads == READS_BYTES ? 1 :
        a->dst_step, size, &r, blocks, n_blocks, name, e, "writes");

  switch (reads) {
    case READS_WINDOWS:
    case READS_COLUMNS:
      in = windows_read (l->kernel, a);
      break;
    case READS_BLOCKS:
    case READS_BYTES:
      in = r;
      break;
    case READS_REGION:
      if (a->fill)
        return;
      in = r;
      break;
    case READS_SUMS:
      return;
  }
  check_rect (a->src, a->src_stride, reads == READS_BYTES ? 1 : a->src_step,
      size, &in, blocks, n_blocks, name, e, "reads");
}

/* Checks every entry of @plan's launches (check_entry()), and counts its
 * kernels. */
static void
check_launches (const GstCudaBoxBlurPlan * plan, const Block * blocks,
    guint n_blocks)
{
  gsize bytes;
  const BoxBlurArgs *args = gst_cuda_box_blur_plan_get_args (plan, &bytes);
  guint i, e;

  for (i = 0; i < gst_cuda_box_blur_plan_n_launches (plan); i++) {
    const GstCudaBoxBlurLaunch *l = gst_cuda_box_blur_plan_get_launch (plan,
        i);

    fail_unless ((l->first + l->count) * sizeof (BoxBlurArgs) <= bytes);
    for (e = l->first; e < l->first + l->count; e++)
      check_entry (plan, l, &args[e], e, blocks, n_blocks);
    digest_launch (l, args, blocks, n_blocks);
    launched[l->kernel]++;
  }
}

/* Checks that the copies of whole planes of @frame, before or @after the
 * launches, read and write inside @blocks. */
static void
check_copies (const GstCudaBoxBlurFramePlan * frame, gboolean after,
    const Block * blocks, guint n_blocks)
{
  guint i, n;
  const GstCudaBoxBlurCopy *copies =
      gst_cuda_box_blur_frame_plan_get_copies (frame, after, &n);

  for (i = 0; i < n; i++) {
    const GstCudaBoxBlurCopy *c = &copies[i];

    fail_unless (c->width > 0 && c->height > 0);
    fail_unless (inside (blocks, n_blocks, c->src, c->src + (gsize)
            (c->height - 1) * c->src_stride + c->width - 1), "copy %u "
        "reads outside the frames", i);
    fail_unless (inside (blocks, n_blocks, c->dst, c->dst + (gsize)
            (c->height - 1) * c->dst_stride + c->width - 1), "copy %u "
        "writes outside the frames", i);
    digest_pointer (c->src, c->src, blocks, n_blocks);
    digest_pointer (c->dst, c->dst, blocks, n_blocks);
    g_checksum_update (digest, (const guchar *) &c->src_stride,
        sizeof (c->src_stride));
    g_checksum_update (digest, (const guchar *) &c->dst_stride,
        sizeof (c->dst_stride));
    g_checksum_update (digest, (const guchar *) &c->width, sizeof (c->width));
    g_checksum_update (digest, (const guchar *) &c->height,
        sizeof (c->height));
  }
}

/* Marks in @written (a byte for each of @dst_size bytes from @dst) the
 * samples of @size bytes, @step apart, of rectangle @r of the plane at
 * @data, rows @stride apart, that lie in it. */
static void
mark_rect (guint8 * written, const guint8 * dst, gsize dst_size,
    const guint8 * data, gint stride, gint step, gint size,
    const GstVideoRectangle * r)
{
  gint x, y, b;

  for (y = r->y; y < r->y + r->h; y++)
    for (x = r->x; x < r->x + r->w; x++)
      for (b = 0; b < size; b++) {
        const guint8 *at = data + (gssize) y * stride + (gssize) x * step + b;

        if (at >= dst && at < dst + dst_size)
          written[at - dst] = 1;
      }
}

/* Checks that @frame's copies and launches write every byte of every row
 * of @job's frame at @dst (@dst_size bytes): the output has no byte left
 * as the memory it landed in held it (a pool's earlier frame). */
static void
check_output_written (const GstCudaBoxBlurFramePlan * frame,
    const GstCudaBoxBlurJob * job, const GstCudaBoxBlurFrame * dst,
    gsize dst_size)
{
  const GstCudaBoxBlurPlan *plan =
      gst_cuda_box_blur_frame_plan_get_launches ((GstCudaBoxBlurFramePlan *)
      frame);
  const guint8 *base = dst->data[0];
  guint8 *written = g_malloc0 (dst_size);
  const BoxBlurArgs *args;
  gsize bytes;
  guint after, i, n, e;
  gint p, y, b;

  for (after = 0; after < 2; after++) {
    const GstCudaBoxBlurCopy *c =
        gst_cuda_box_blur_frame_plan_get_copies (frame, after, &n);

    for (i = 0; i < n; i++) {
      const GstVideoRectangle r = { 0, 0, c[i].width, c[i].height };

      mark_rect (written, base, dst_size, c[i].dst, c[i].dst_stride, 1, 1,
          &r);
    }
  }
  args = gst_cuda_box_blur_plan_get_args (plan, &bytes);
  for (i = 0; i < gst_cuda_box_blur_plan_n_launches (plan); i++) {
    const GstCudaBoxBlurLaunch *l = gst_cuda_box_blur_plan_get_launch (plan,
        i);
    const Reads reads = kernel_rows[l->kernel].reads;

    if (reads == READS_COLUMNS)
      continue;
    for (e = l->first; e < l->first + l->count; e++) {
      const BoxBlurArgs *a = &args[e];
      GstVideoRectangle r = { a->x, a->y, a->w, a->h };

      if (reads == READS_REGION)
        r = clip (r, a->width, a->height);
      mark_rect (written, base, dst_size, a->dst, a->dst_stride,
          reads == READS_BYTES ? 1 : a->dst_step,
          reads == READS_BYTES ? 1 : kernel_rows[l->kernel].size, &r);
    }
  }
  /* (an assertion a byte would cost check a write to its pipe each) */
  for (p = 0; p < job->info->n_planes; p++)
    for (y = 0; y < job->info->plane_height[p]; y++)
      for (b = 0; b < job->info->row_bytes[p]; b++)
        if (!written[dst->data[p] + (gsize) y * dst->stride[p] + b - base])
          fail ("%s %dx%d: byte %d of row %d of plane %d of the output is "
              "never written", job->info->format, job->info->width,
              job->info->height, b, y, p);
  g_free (written);
}

/**
 * test_check_plan:
 *
 * See testplans.h.
 */
void
test_check_plan (const GstCudaBoxBlurTarget * target,
    const GstCudaBoxBlurJob * job, const GstCudaBoxBlurImage * src,
    gsize src_size, const GstCudaBoxBlurImage * dst, gsize dst_size,
    guint * kernels, GChecksum * plans)
{
  GstCudaBoxBlurFramePlan *frame = gst_cuda_box_blur_frame_plan_new (target,
      NULL);
  GstCudaBoxBlurFrameNeeds needs;
  guint8 *scratch, *halos, *begin;
  Block blocks[4];
  gsize size;

  launched = kernels;
  digest = plans;
  gst_cuda_box_blur_frame_plan_measure (frame, job,
      dst ? &dst->frame : NULL, &needs);
  g_checksum_update (digest, (const guchar *) &needs, sizeof (needs));
  scratch = g_malloc (needs.scratch);
  halos = g_malloc (needs.halos);
  gst_cuda_box_blur_frame_plan_make (frame, job, &src->frame,
      dst ? &dst->frame : NULL, scratch, halos, NULL);

  begin = gst_cuda_box_blur_frame_span (&src->frame, job->info, &size);
  fail_unless (size <= src_size);
  blocks[0] = (Block) { begin, size };
  blocks[1] = (Block) { scratch, needs.scratch };
  blocks[2] = (Block) { halos, needs.halos };
  blocks[3] = (Block) { dst ? dst->frame.data[0] : NULL, dst ? dst_size : 0 };
  check_copies (frame, FALSE, blocks, 4);
  check_launches (gst_cuda_box_blur_frame_plan_get_launches (frame), blocks,
      4);
  check_copies (frame, TRUE, blocks, 4);
  if (dst)
    check_output_written (frame, job, &dst->frame, dst_size);
  g_free (scratch);
  g_free (halos);
  gst_cuda_box_blur_frame_plan_free (frame);
}

