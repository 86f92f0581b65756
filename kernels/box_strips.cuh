/* cudaboxblur: the strip walker, box_strips_u8: column sums slid down a
 * strip in registers (included by boxblur.cu).
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* ------------------------------------------------------------------------
 * Strips, box_strips_u8: a plane of 8-bit samples of their own (src_step
 * and dst_step 1), windows of at most STRIP_MAX_RADIUS_X columns and
 * STRIP_MAX_RADIUS_Y rows either side.  Each warp walks down a strip of the
 * region, column_run rows from blockIdx.y's, and writes no intermediate
 * frame.  Its 32 lanes take a word of V = STRIP_BYTES (radius_x) bytes
 * each, side by side, words of the plane (a lane's first column a multiple
 * of V): lanes 1 to STRIP_LANES_OUT write theirs; lanes 0 and 31 hold the
 * columns beside them.  Each lane keeps the sums of its columns' windows
 * of rows, two 16-bit sums a register, and slides them a row at a time:
 * the row entering added, the row leaving taken away, one load each.  The
 * sums of a row's windows then come from the lane's own column sums and
 * the radius_x ones of each neighbouring lane, by shuffle, the window slid
 * along the lane's V columns; one multiplication divides.  Loads and
 * stores move whole 32-bit words (the plane's data and rows 4-byte
 * aligned), but where a word is not all within the columns the region's
 * windows reach or the frame (a byte at a time, each column through the
 * border rule).  A warp walks the rows whose windows lie within the frame
 * without checks where none of its lanes needs the border rule
 * (strip_walk_inside ()), the others a row at a time.  The windows must
 * not wrap around the frame's sides (the plan takes another kernel
 * there); they take at most TILE_WINDOW samples (tile_divider ()).
 * ------------------------------------------------------------------------ */

/* A lane's V bytes of a row, or V means, four a 32-bit word (byte v of
 * word v / 4 at column c0 + v); a lane's V window sums. */
template <int V>
struct StripWords
{
  unsigned int u[V / 4];
};

template <int V>
struct StripSums
{
  unsigned int s[V];
};

/* strip_row () where the row is outside the frame or the lane's word not
 * all within the columns the region's windows reach: each column through
 * the border rule, a byte at a time, those beyond the reach (of no
 * window's use) 0.  Out of line, as is strip_edge_means (), so that the
 * walk's loops stay small for the instruction cache (their copies of this
 * slow path, unrolled, made the kernel five times as long); it reads the
 * arguments from the launch's list, entry @e. */
template <int V>
__device__ __noinline__ StripWords < V >
strip_row_edge (const BoxBlurArgs * __restrict__ e, int i, int c0)
{
  const BoxBlurArgs & a = *e;
  const int m = border_index (i, a.height, a.border);
  const unsigned int outside = a.border == BOX_BORDER_CONSTANT ?
      a.border_int & 0xff : 0;
  StripWords < V > w;

#pragma unroll
  for (int k = 0; k < V / 4; k++)
    w.u[k] = m < 0 ? outside * 0x01010101u : 0;
  if (m < 0)
    return w;

  const uint8 *row = a.src + (long long) m * a.src_stride;

  for (int v = 0; v < V; v++) {
    const int j = c0 + v;
    const bool in_frame = j >= 0 && j < a.width;
    const int mj = in_frame ? j : border_index (j, a.width, a.border);
    const unsigned int b = mj >= a.x_first && mj < a.x_last ? row[mj] :
        in_frame || mj >= 0 ? 0 : outside;

    w.u[v / 4] |= b << (8 * (v % 4));
  }
  return w;
}

/* The V bytes of row @i (through the border rule) that the lane whose
 * first column is @c0 sums: at once where @whole (its word all within the
 * columns the windows reach) and the row inside the frame. */
template <int V>
__device__ __forceinline__ StripWords < V >
strip_row (const BoxBlurArgs & a, const BoxBlurArgs * __restrict__ e, int i,
    int c0, bool whole)
{
  StripWords < V > w;

  if (!whole || i < 0 || i >= a.height)
    return strip_row_edge < V > (e, i, c0);

  const uint8 *row = a.src + (long long) i * a.src_stride + c0;

#pragma unroll
  for (int k = 0; k < V / 4; k++)
    w.u[k] = ((const unsigned int *) row)[k];
  return w;
}

/* Whether any of columns @first .. @last - 1 of a lane's V lies in its
 * column sums' register @q (columns 4 k + p and 4 k + p + 2 of word k, for
 * q = 2 k + p). */
__host__ __device__ constexpr bool
strip_holds (int first, int last, int q)
{
  bool any = false;

  for (int v = first; v < last; v++)
    any = any || (v / 4) * 2 + (v % 4) % 2 == q;
  return any;
}

/* Column @v's sum of the column sums @c (two 16-bit sums a register). */
template <int V>
__device__ __forceinline__ unsigned int
strip_column (const unsigned int c[V / 2], int v)
{
  const unsigned int r = c[(v / 4) * 2 + (v % 4) % 2];

  return (v % 4) / 2 ? r >> 16 : r & 0xffff;
}

/* The means of the window sums @sums of the lane whose first column is
 * @c0, some of whose windows leave the frame's sides, with the shrink
 * rule: each divided by its own count (out of line: strip_row_edge ()). */
template <int V, int RX>
__device__ __noinline__ StripWords < V >
strip_edge_means (const BoxBlurArgs * __restrict__ e, StripSums < V > sums,
    int c0, unsigned int rows)
{
  const int width = e->width;
  StripWords < V > w;

#pragma unroll
  for (int k = 0; k < V / 4; k++)
    w.u[k] = 0;
  for (int v = 0; v < V; v++) {
    const int j = c0 + v;
    const unsigned int m = finish (sums.s[v],
        (unsigned int) (min (j + RX, width - 1) - max (j - RX, 0) + 1) * rows);

    w.u[v / 4] |= (m & 0xff) << (8 * (v % 4));
  }
  return w;
}

/* The window sums @s of the lane's V columns, from the column sums @c of
 * its own lane and the RX columns of each lane beside it, by shuffle. */
template <int V, int RX>
__device__ __forceinline__ void
strip_sums (const unsigned int c[V / 2], unsigned int s[V])
{
  static_assert (RX <= V, "the windows reach the lanes beside only");
  unsigned int left[V / 2], right[V / 2], cc[V + 2 * RX];

#pragma unroll
  for (int q = 0; q < V / 2; q++) {
    if (strip_holds (V - RX, V, q))
      left[q] = __shfl_up_sync (0xffffffffu, c[q], 1);
    if (strip_holds (0, RX, q))
      right[q] = __shfl_down_sync (0xffffffffu, c[q], 1);
  }
#pragma unroll
  for (int v = 0; v < RX; v++) {
    cc[v] = strip_column < V > (left, V - RX + v);
    cc[RX + V + v] = strip_column < V > (right, v);
  }
#pragma unroll
  for (int v = 0; v < V; v++)
    cc[RX + v] = strip_column < V > (c, v);

  unsigned int sum = 0;
#pragma unroll
  for (int i = 0; i <= 2 * RX; i++)
    sum += cc[i];
  s[0] = sum;
#pragma unroll
  for (int v = 1; v < V; v++) {
    sum += cc[v + 2 * RX] - cc[v - 1];
    s[v] = sum;
  }
}

/* The means of the window sums @s, column v's windows of @full[v]
 * samples; @by[v]: tile_divider () of 2 @full[v]. */
template <int V>
__device__ __forceinline__ StripWords < V >
strip_full_means (const unsigned int s[V], const unsigned int full[V],
    const unsigned int by[V])
{
  StripWords < V > w;

#pragma unroll
  for (int v = 0; v < V; v++) {
    const unsigned int m = __umulhi (2 * s[v] + full[v], by[v]);

    w.u[v / 4] = v % 4 == 0 ? m : w.u[v / 4] | (m << (8 * (v % 4)));
  }
  return w;
}

/* Row @y of the region: the means of the lane's columns from the column
 * sums @c of its own lane and those beside it, stored where the lane
 * writes, through the border rule.  @rows: the rows of row @y's windows;
 * @by: tile_divider () of twice (2 RX + 1) @rows. */
template <int V, int RX>
__device__ __forceinline__ void
strip_means (const BoxBlurArgs & a, const BoxBlurArgs * __restrict__ e,
    const unsigned int c[V / 2], int c0, int y, bool writes,
    unsigned int rows, unsigned int by)
{
  unsigned int s[V];

  strip_sums < V, RX > (c, s);
  if (!writes)
    return;

  StripWords < V > w;

  if (a.border == BOX_BORDER_SHRINK
      && (c0 - RX < 0 || c0 + V - 1 + RX >= a.width)) {
    StripSums < V > sums;

#pragma unroll
    for (int v = 0; v < V; v++)
      sums.s[v] = s[v];
    w = strip_edge_means < V, RX > (e, sums, c0, rows);
  } else {
    unsigned int full[V], by_v[V];

#pragma unroll
    for (int v = 0; v < V; v++) {
      full[v] = (2 * RX + 1) * rows;
      by_v[v] = by;
    }
    w = strip_full_means < V > (s, full, by_v);
  }

  uint8 *out = a.dst + (long long) y * a.dst_stride;

  if (c0 >= a.x && c0 + V <= a.x + a.w) {
#pragma unroll
    for (int k = 0; k < V / 4; k++)
      ((unsigned int *) (out + c0))[k] = w.u[k];
    return;
  }
#pragma unroll
  for (int v = 0; v < V; v++)
    if (c0 + v >= a.x && c0 + v < a.x + a.w)
      out[c0 + v] = (uint8) (w.u[v / 4] >> (8 * (v % 4)));
}

/* Adds row @in to the column sums @c and takes row @gone away: 16-bit
 * sums of up to 2 STRIP_MAX_RADIUS_Y + 2 rows of 8-bit samples, neither
 * half carrying into the other. */
template <int V>
__device__ __forceinline__ void
strip_slide (unsigned int c[V / 2], const StripWords < V > &in,
    const StripWords < V > &gone)
{
#pragma unroll
  for (int k = 0; k < V / 4; k++) {
    c[2 * k] += even_bytes (in.u[k]) - even_bytes (gone.u[k]);
    c[2 * k + 1] += odd_bytes (in.u[k]) - odd_bytes (gone.u[k]);
  }
}

/* Rows @y to @y_end - 1 of a warp none of whose lanes needs the border
 * rule: each lane's word within the columns the windows reach (@whole),
 * or with the shrink rule all outside them, and where it writes within
 * the region; the rows' windows all within the frame, and the rows
 * entering and leaving up to row @y_end's.  U rows at a time, their rows
 * entering and leaving loaded first, by pointers that step a row; column
 * v's windows of @full[v] samples, @by[v] its divider; no bounds.  @y_end
 * - @y: a multiple of U. */
template <int V, int RX, int U>
__device__ __forceinline__ void
strip_walk_inside (const BoxBlurArgs & a, unsigned int c[V / 2], int c0,
    int y, int y_end, bool whole, bool writes, const unsigned int full[V],
    const unsigned int by[V])
{
  const int stride = a.src_stride;
  const long long span = (long long) (2 * a.radius_y + 1) * stride;
  const uint8 *enter = a.src + (long long) (y + 1 + a.radius_y) * stride
      + c0;
  uint8 *out = a.dst + (long long) y * a.dst_stride + c0;

  for (; y < y_end; y += U) {
    StripWords < V > in[U], gone[U];

#pragma unroll
    for (int r = 0; r < U; r++)
#pragma unroll
      for (int k = 0; k < V / 4; k++) {
        in[r].u[k] = whole ?
            ((const unsigned int *) (enter + r * stride))[k] : 0;
        gone[r].u[k] = whole ?
            ((const unsigned int *) (enter + r * stride - span))[k] : 0;
      }
    enter += U * stride;
#pragma unroll
    for (int r = 0; r < U; r++) {
      unsigned int s[V];

      strip_sums < V, RX > (c, s);

      const StripWords < V > w = strip_full_means < V > (s, full, by);

      if (writes)
#pragma unroll
        for (int k = 0; k < V / 4; k++)
          ((unsigned int *) (out + r * a.dst_stride))[k] = w.u[k];
      strip_slide < V > (c, in[r], gone[r]);
    }
    out += U * a.dst_stride;
  }
}

/* A warp's walk down its strip, V bytes a lane, windows RX columns either
 * side. */
template <int V, int RX>
__device__ __forceinline__ void
strip_walk (const BoxBlurArgs & a, const BoxBlurArgs * __restrict__ e)
{
  const int lane = threadIdx.x % 32;
  const int strip = blockIdx.x * STRIP_WARPS + threadIdx.x / 32;
  const int first_word = a.x / V + strip * STRIP_LANES_OUT;
  const int y0 = a.y + blockIdx.y * a.column_run;

  /* whole warps only, for the shuffles */
  if (first_word * V >= a.x + a.w || y0 >= a.y + a.h)
    return;

  const int c0 = (first_word + lane - 1) * V;
  const int y1 = min (y0 + a.column_run, a.y + a.h);
  const int ry = a.radius_y;
  const bool whole = c0 >= a.x_first && c0 + V <= a.x_last;
  const bool writes = lane >= 1 && lane <= STRIP_LANES_OUT
      && c0 < a.x + a.w && c0 + V > a.x;
  const unsigned int all_rows = 2 * ry + 1;
  unsigned int by_all = tile_divider (2 * (2 * RX + 1) * all_rows);
  unsigned int c[V / 2];

  /* by_all kept opaque: seen as tile_divider () of all_rows, it lets the
   * compiler take the divider of each row's count in its place wherever
   * the two counts are equal, a division every row */
  asm ("" : "+r" (by_all));
#pragma unroll
  for (int q = 0; q < V / 2; q++)
    c[q] = 0;
#pragma unroll 4
  for (int i = y0 - ry; i <= y0 + ry; i++) {
    const StripWords < V > u = strip_row < V > (a, e, i, c0, whole);

#pragma unroll
    for (int k = 0; k < V / 4; k++) {
      c[2 * k] += even_bytes (u.u[k]);
      c[2 * k + 1] += odd_bytes (u.u[k]);
    }
  }
  /* STRIP_AHEAD words a lane of rows entering and leaving loaded at once
   * inside (strip_walk_inside ()), so that their loads are in flight
   * together; where the border rule may apply, a row at a time */
  constexpr int U = STRIP_AHEAD / (V / 4);
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const bool plain = (whole || (shrink && (c0 + V <= a.x_first
              || c0 >= a.x_last))) && (!writes || (c0 >= a.x
          && c0 + V <= a.x + a.w));
  const int inside0 = max (y0, ry);
  const int inside1 = __all_sync (0xffffffffu, plain) ? inside0 +
      max (min (y1, a.height - 1 - ry) - inside0, 0) / U * U : inside0;

  for (int y = y0; y < y1; y++) {
    if (y == inside0 && inside1 > inside0) {
      /* the windows' samples and dividers of the lane's columns there:
       * fewer columns at the frame's sides with the shrink rule */
      unsigned int full[V], by[V];

#pragma unroll
      for (int v = 0; v < V; v++) {
        const int j = c0 + v;
        const int columns = shrink ? max (min (j + RX, a.width - 1) -
            max (j - RX, 0) + 1, 1) : 2 * RX + 1;

        full[v] = columns * all_rows;
        by[v] = columns == 2 * RX + 1 ? by_all : tile_divider (2 * full[v]);
      }
      strip_walk_inside < V, RX, U > (a, c, c0, y, inside1, whole, writes,
          full, by);
      y = inside1;
      if (y >= y1)
        break;
    }

    const unsigned int rows = window_rows (a, y);

    strip_means < V, RX > (a, e, c, c0, y, writes, rows,
        rows == all_rows ? by_all : tile_divider (2 * (2 * RX + 1) * rows));
    if (y + 1 < y1)
      strip_slide < V > (c, strip_row < V > (a, e, y + 1 + ry, c0, whole),
          strip_row < V > (a, e, y - ry, c0, whole));
  }
}

/* strip_walk () of a.radius_x, RX or more, up to STRIP_MAX_RADIUS_X: an
 * instance a radius. */
template <int RX>
__device__ __forceinline__ void
strip_walk_radius (const BoxBlurArgs & a, const BoxBlurArgs * e)
{
  if (a.radius_x == RX)
    strip_walk < STRIP_BYTES (RX), RX > (a, e);
  else if constexpr (RX < STRIP_MAX_RADIUS_X)
    strip_walk_radius < RX + 1 > (a, e);
}

extern "C" __global__ void
__launch_bounds__ (STRIP_WARPS * 32)
box_strips_u8 (const BoxBlurArgs * __restrict__ list)
{
  strip_walk_radius < 0 > (entry (list), list + blockIdx.z);
}
