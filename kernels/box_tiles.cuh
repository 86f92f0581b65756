/* cudaboxblur: the one pass, box_tiles_*: column sums of a tile in
 * shared memory (included by boxblur.cu).
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* ------------------------------------------------------------------------
 * One pass, box_tiles_* (8-bit samples here, float32 and 16-bit ones in
 * box_tiles_wide () below): a CUDA block takes a tile of
 * TILE_ROWS rows and row_run bytes of the region, and no intermediate
 * frame is written.  The plane holds pixels of pixel_samples samples side
 * by side (1; 2 for NV12's UV, 3 for RGB, 4 for RGBA ...), each sample's
 * window taking every pixel_samples-th byte column.  Its threads first sum
 * the columns that the tile's windows reach, four a thread as
 * box_columns_u8_pairs() does (a narrow tile's rows split among them:
 * tile_group ()), into shared memory, twice over (at most TILE_COLUMNS of
 * them).  After one barrier each warp takes an equal part
 * of the tile's columns, a multiple of TILE_SEGMENT and of pixel_samples,
 * and each of its lanes one row of the tile, along which it slides the
 * window: the sum of x + 1 is that of x plus the column entering and minus
 * the one leaving, two reads of shared memory a sample (for pixels of
 * four, a pixel: tile_pixels ()) and no exchange between lanes, and one
 * multiplication for the mean.
 * Rows an odd number of words apart (TILE_PITCH) put the 32 lanes' reads
 * of one column in 32 different banks.  The windows must not wrap around
 * the frame's sides (the plan takes the two passes there): every other
 * border mode names a column that the tile has summed.  They hold at most
 * TILE_WINDOW samples and TILE_RADIUS_Y rows either side
 * (TILE_RADIUS_Y_PX4 for pixels of four).
 * ------------------------------------------------------------------------ */

/* What tile_row () multiplies by to divide by @d = 2 c, the count c of
 * a window of at most TILE_WINDOW samples: m = ceil (2^32 / d), so that
 * __umulhi (n, m) is floor (n / d) wherever n (m d - 2^32) < 2^32.  That
 * holds for every t = 2 s + c of the window's 8-bit samples, as
 * t (m d - 2^32) < 512 c d = 1024 c^2 <= 2^32 (and every n below 512 c
 * was checked against the division for every c up to TILE_WINDOW). */
__device__ __forceinline__ unsigned int
tile_divider (unsigned int d)
{
  return 0xffffffffu / d + 1;
}

/* The TILE_SEGMENT means @w of row @y from column @x on, four a word,
 * those from @xe on not written: at once where they are aligned, else
 * one at a time. */
__device__ __forceinline__ void
store_segment (const BoxBlurArgs & a, int x, int xe, int y,
    const unsigned int w[TILE_SEGMENT / 4])
{
  static_assert (TILE_SEGMENT == 16, "a segment is stored as one uint4");
  uint8 *p = a.dst + (long long) y * a.dst_stride +
      (long long) x * a.dst_step;

  if (x + TILE_SEGMENT <= xe && a.dst_step == 1
      && ((unsigned long long) p & 15) == 0) {
    *(uint4 *) p = make_uint4 (w[0], w[1], w[2], w[3]);
    return;
  }
#pragma unroll
  for (int c = 0; c < TILE_SEGMENT; c++)
    if (x + c < xe)
      store < uint8 > (a, x + c, y, (uint8) (w[c / 4] >> (8 * (c % 4))));
}

/* The column sum that column @j of a row of a tile's sums @row stands for,
 * in a plane of pixels of P samples, @width pixels wide (row_value () of
 * pixels): with INSIDE row[j]; else that of the column border_index ()
 * names, or where it names none @border_column, the load then made from
 * column @home and its value dropped. */
template <int P, bool INSIDE, typename Mid>
__device__ __forceinline__ unsigned int
pixel_value (const BoxBlurArgs & a, const Mid * row, int j, int width,
    unsigned int border_column, int home)
{
  if (INSIDE)
    return (unsigned int) row[j];

  /* j mod P, of any sign */
  const int sample = (P & (P - 1)) == 0 ? j & (P - 1) :
      j - P * (j >= 0 ? j / P : -((P - 1 - j) / P));
  const int m = border_index ((j - sample) / P, width, a.border);
  const unsigned int v = row[m < 0 ? home : m * P + sample];
  return m < 0 ? border_column : v;
}

/* The means of row @y, bytes @xs .. @xe - 1 (@xs a multiple of P), from
 * the tile's column sums @row, each stored twice over (byte column j at
 * row[j]; @home is one of them), of pixels of P samples: each sample's
 * window takes every P-th column, and the P sums slide side by side.
 * INSIDE: every window is inside the frame. */
template <int P, bool INSIDE>
__device__ __forceinline__ void
tile_row (const BoxBlurArgs & a, const uint16 * row, int home, int xs,
    int xe, int y)
{
  const int rx = a.radius_x, ry = a.radius_y, width = a.width / P;
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const unsigned int border_column = shrink ? 0u :
      2 * (a.border_int & 0xff) * (2 * ry + 1);
  /* twice the column sum that byte column j stands for */
  auto value = [&](int j) {
    return pixel_value < P, INSIDE > (a, row, j, width, border_column,
        home);
  };
  const unsigned int rows = window_rows (a, y);
  const unsigned int full = (2 * rx + 1) * rows;
  /* the rounded mean of a window of sum s and count c is
   * floor ((2 s + c) / (2 c)); the lane slides t = 2 s + full, and
   * divides it by one multiplication (tile_divider ()) */
  const unsigned int by = tile_divider (2 * full);
  unsigned int t[P];

#pragma unroll
  for (int s = 0; s < P; s++) {
    t[s] = full;
    for (int i = -rx; i <= rx; i++)
      t[s] += value (xs + s + i * P);
  }
  for (int x = xs; x < xe; x += TILE_SEGMENT) {
    unsigned int step[TILE_SEGMENT], w[TILE_SEGMENT / 4];

    /* every read of the segment first, with no branch between them, so
     * that they are in flight together; past xe they read columns of no
     * use, whose steps go into sums no mean is taken of: within the row's
     * pitch or the padding after the last row, or where a mirror at the
     * frame's right edge folds them back, up to TILE_SEGMENT columns
     * before the tile's first, in the padding before the first row */
#pragma unroll
    for (int c = 0; c < TILE_SEGMENT; c++)
      step[c] = value (x + c + P * (rx + 1)) - value (x + c - P * rx);
#pragma unroll
    for (int c = 0; c < TILE_SEGMENT; c++) {
      const int xc = (x + c) / P;
      const unsigned int count = INSIDE || !shrink || x + c >= xe ? full :
          (unsigned int) (min (xc + rx, width - 1) - max (xc - rx, 0) + 1) *
          rows;
      const unsigned int m = count == full ? __umulhi (t[c % P], by) :
          finish ((t[c % P] - full) / 2, count);

      /* the means below 256: the bytes of a word added up */
      w[c / 4] = c % 4 == 0 ? m : w[c / 4] + (m << (8 * (c % 4)));
      t[c % P] += step[c];
    }
    store_segment (a, x, xe, y, w);
    /* the next segment starts TILE_SEGMENT bytes on, at the second
     * sample of a pixel of three */
    if (P == 3) {
      const unsigned int t0 = t[0];

      static_assert (TILE_SEGMENT % 3 == 1, "pixels of 3 move on by one");
      t[0] = t[1];
      t[1] = t[2];
      t[2] = t0;
    }
  }
}

/* Half @h of a word of two 16-bit values. */
__device__ __forceinline__ unsigned int
half16 (unsigned int w, int h)
{
  return h ? w >> 16 : w & 0xffff;
}

/* tile_row () of pixels of four samples, rows TILE_PITCH_PX4 apart: a
 * pixel's four column sums are read as one 64-bit word, two sums a half,
 * and the differences of the entering pixel's and the leaving one's taken
 * two at a time, each half biased by 2^15 so that none borrows from the
 * other (every sum, twice a column of at most 2 TILE_RADIUS_Y_PX4 + 1
 * rows, is below 2^15).  The bytes in a.pixel_keep are copied from src,
 * whose pixels and rows are 4-byte aligned (the plan's rule). */
template <bool INSIDE>
__device__ __forceinline__ void
tile_pixels (const BoxBlurArgs & a, const uint16 * row, int home, int xs,
    int xe, int y)
{
  const int rx = a.radius_x, ry = a.radius_y, width = a.width / 4;
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const unsigned int edge = shrink ? 0u :
      2 * (a.border_int & 0xff) * (2 * ry + 1) * 0x10001u;
  /* twice the column sums of pixel i's four bytes, two a word */
  auto pixel = [&](int i) {
    if (INSIDE)
      return *(const uint2 *) (row + 4 * i);

    const int m = border_index (i, width, a.border);
    const uint2 v = *(const uint2 *) (row + (m < 0 ? home : 4 * m));
    return m < 0 ? make_uint2 (edge, edge) : v;
  };
  const unsigned int rows = window_rows (a, y);
  const unsigned int full = (2 * rx + 1) * rows;
  const unsigned int by = tile_divider (2 * full);
  unsigned int t[4] = { full, full, full, full };

  for (int i = -rx; i <= rx; i++) {
    const uint2 v = pixel (xs / 4 + i);

#pragma unroll
    for (int s = 0; s < 4; s++)
      t[s] += half16 (s < 2 ? v.x : v.y, s & 1);
  }
  for (int x = xs; x < xe; x += TILE_SEGMENT) {
    const int p = x / 4;
    unsigned int d[TILE_SEGMENT / 2], w[TILE_SEGMENT / 4];

    /* every read first, as tile_row () does */
#pragma unroll
    for (int k = 0; k < TILE_SEGMENT / 4; k++) {
      const uint2 e = pixel (p + k + rx + 1), l = pixel (p + k - rx);

      d[2 * k] = e.x + 0x80008000u - l.x;
      d[2 * k + 1] = e.y + 0x80008000u - l.y;
    }
#pragma unroll
    for (int k = 0; k < TILE_SEGMENT / 4; k++) {
      const int xc = p + k;
      const unsigned int count = INSIDE || !shrink || 4 * xc >= xe ? full :
          (unsigned int) (min (xc + rx, width - 1) - max (xc - rx, 0) + 1) *
          rows;

#pragma unroll
      for (int s = 0; s < 4; s++) {
        const unsigned int m = count == full ? __umulhi (t[s], by) :
            finish ((t[s] - full) / 2, count);

        w[k] = s == 0 ? m : w[k] + (m << (8 * s));
        t[s] += half16 (d[2 * k + s / 2], s & 1) - 0x8000;
      }
    }
    if (a.pixel_keep != 0) {
      const unsigned int *in = (const unsigned int *) (a.src +
          (long long) y * a.src_stride + x);

#pragma unroll
      for (int k = 0; k < TILE_SEGMENT / 4; k++)
        if (x + 4 * k < xe)
          w[k] = (w[k] & ~a.pixel_keep) | (in[k] & a.pixel_keep);
    }
    store_segment (a, x, xe, y, w);
  }
}

/* tile_row () of packed 4:2:2 (YUY2, UYVY, YVYU): macropixels of four
 * bytes, the luma samples at bytes LUMA and LUMA + 2, whose windows take
 * every other byte column, radius_x either side, and the two chroma
 * samples at the others, whose windows take every fourth, chroma_radius_x
 * either side.  Three sums slide: the luma's, two columns on at each luma
 * sample, and each chroma's, four on at each of its samples. */
template <int LUMA, bool INSIDE>
__device__ __forceinline__ void
tile_422 (const BoxBlurArgs & a, const uint16 * row, int home, int xs,
    int xe, int y)
{
  const int ry = a.radius_y;
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const unsigned int border_column = shrink ? 0u :
      2 * (a.border_int & 0xff) * (2 * ry + 1);
  /* byte q of a macropixel: its sum (0 the luma's, 1 and 2 the chroma
   * ones'), the bytes from one of its samples to the next; [0] of the
   * luma, [1] of the chroma */
  auto sum_of = [](int q) { return (q & 1) == LUMA ? 0 : 1 + (q >> 1); };
  auto apart = [](int q) { return (q & 1) == LUMA ? 2 : 4; };
  const int radius[2] = { a.radius_x, a.chroma_radius_x };
  /* twice the column sum that byte column j stands for, j a byte of a
   * component whose samples are S bytes apart */
  auto value = [&](int j, int S) {
    if (INSIDE)
      return (unsigned int) row[j];

    const int sample = j & (S - 1);
    const int m = border_index ((j - sample) / S, a.width / S, a.border);
    const unsigned int v = row[m < 0 ? home : m * S + sample];
    return m < 0 ? border_column : v;
  };
  const unsigned int rows = window_rows (a, y);
  unsigned int full[2], by[2], t[3];

#pragma unroll
  for (int k = 0; k < 2; k++) {
    full[k] = (2 * radius[k] + 1) * rows;
    by[k] = tile_divider (2 * full[k]);
  }
#pragma unroll
  for (int k = 0; k < 3; k++) {
    /* the sum's first sample: byte LUMA, LUMA ^ 1 or (LUMA ^ 1) + 2 */
    const int q = k == 0 ? LUMA : (LUMA ^ 1) + 2 * (k - 1), S = apart (q);
    const int r = radius[k > 0];

    t[k] = full[k > 0];
    for (int i = -r; i <= r; i++)
      t[k] += value (xs + q + i * S, S);
  }
  for (int x = xs; x < xe; x += TILE_SEGMENT) {
    unsigned int step[TILE_SEGMENT], w[TILE_SEGMENT / 4];

    /* every read first, as tile_row () does */
#pragma unroll
    for (int c = 0; c < TILE_SEGMENT; c++) {
      const int S = apart (c & 3), r = radius[sum_of (c & 3) > 0];

      step[c] = value (x + c + S * (r + 1), S) - value (x + c - S * r, S);
    }
#pragma unroll
    for (int c = 0; c < TILE_SEGMENT; c++) {
      const int k = sum_of (c & 3), S = apart (c & 3), r = radius[k > 0];
      const int xc = (x + c) / S, width = a.width / S;
      const unsigned int f = full[k > 0];
      const unsigned int count = INSIDE || !shrink || x + c >= xe ? f :
          (unsigned int) (min (xc + r, width - 1) - max (xc - r, 0) + 1) *
          rows;
      const unsigned int m = count == f ? __umulhi (t[k], by[k > 0]) :
          finish ((t[k] - f) / 2, count);

      w[c / 4] = c % 4 == 0 ? m : w[c / 4] + (m << (8 * (c % 4)));
      t[k] += step[c];
    }
    store_segment (a, x, xe, y, w);
  }
}

/* The part of a tile's column sums that a thread makes: those of rows
 * y0 .. y1 - 1 of its column of @across side by side.  Tiles wide enough
 * take every thread side by side down all TILE_ROWS rows; narrower ones
 * (the plan narrows them until the GPU holds every tile at once) split
 * their rows in TILE_GROUPS or 2 groups, each thread then walking fewer
 * rows after a first window of its own, rather than most threads waiting
 * at the barrier for the few. */
struct TileGroup
{
  int column, y0, y1;
};

__device__ __forceinline__ TileGroup
tile_group (int across, int y0, int y1)
{
  const int groups = across * TILE_GROUPS <= TILE_THREADS ? TILE_GROUPS :
      across * 2 <= TILE_THREADS ? 2 : 1;
  const int rows = TILE_ROWS / groups, k = threadIdx.x / across;
  TileGroup g;

  g.column = threadIdx.x - k * across;
  g.y0 = k < groups ? y0 + k * rows : y1;
  g.y1 = min (g.y0 + rows, y1);
  return g;
}

/* box_tiles ()'s P for the macropixels of packed 4:2:2 (tile_422 ()) */
#define TILE_PACKED_422 0

/* tile_row () of pixels of P samples, @inside or not */
template <int P>
__device__ __forceinline__ void
tiles_row (const BoxBlurArgs & a, bool inside, const uint16 * row, int home,
    int xs, int xe, int y)
{
  if constexpr (P == TILE_PACKED_422) {
    if (a.luma_byte == 0 && inside)
      tile_422 < 0, true > (a, row, home, xs, xe, y);
    else if (a.luma_byte == 0)
      tile_422 < 0, false > (a, row, home, xs, xe, y);
    else if (inside)
      tile_422 < 1, true > (a, row, home, xs, xe, y);
    else
      tile_422 < 1, false > (a, row, home, xs, xe, y);
  } else if (P == 4 && inside)
    tile_pixels < true > (a, row, home, xs, xe, y);
  else if (P == 4)
    tile_pixels < false > (a, row, home, xs, xe, y);
  else if (inside)
    tile_row < P, true > (a, row, home, xs, xe, y);
  else
    tile_row < P, false > (a, row, home, xs, xe, y);
}

/* The one pass over pixels of P samples, or of Q where a.pixel_samples
 * says so, rows PITCH apart in shared memory. */
template <int P, int Q, int PITCH>
__device__ __forceinline__ void
box_tiles (const BoxBlurArgs * __restrict__ list)
{
  /* the tile's rows from TILE_PAD on, padding on either side */
  __shared__ alignas (8) unsigned int sums[TILE_SUMS (PITCH) / 2];
  const BoxBlurArgs a = entry (list);
  const int tx0 = a.x + blockIdx.x * a.row_run;
  const int tx1 = min (tx0 + a.row_run, a.x + a.w);
  const int y0 = a.y + blockIdx.y * TILE_ROWS;

  /* the whole block leaves together, before the barrier */
  if (tx0 >= a.x + a.w || y0 >= a.y + a.h)
    return;

  const int y1 = min (y0 + TILE_ROWS, a.y + a.h);
  /* the columns the tile's windows reach, from a multiple of 4 where the
   * region's reach [x_first, x_last) allows (src may hold no others) */
  const int reach = a.reach;
  const int c0 = max ((tx0 - reach) & ~3, a.x_first);
  const int c1 = min (tx1 + reach, a.x_last);
  const TileGroup g = tile_group ((c1 - c0 + 3) / 4, y0, y1);
  const int x = c0 + 4 * g.column;

  if (g.y0 < g.y1 && x < c1 && 4 * g.column < TILE_COLUMNS) {
    const unsigned long long at = (unsigned long long) a.src +
        (unsigned long long) x * a.src_step;
    const bool vector = x + 4 <= a.x_last && a.src_step == 1
        && ((at | (unsigned int) a.src_stride) & 3) == 0;
    unsigned int *out = sums + TILE_PAD / 2 + (g.y0 - y0) * (PITCH / 2) +
        2 * g.column;
    /* each sum twice over (tile_row ()), within its 16 bits */
    auto put = [&](unsigned int lo, unsigned int hi) {
      out[0] = lo << 1;
      out[1] = hi << 1;
      out += PITCH / 2;
    };

    if (vector)
      box_columns_u8_pairs < COLUMN_UNROLL_U8, true > (a, x, a.x_last - x,
          g.y0, g.y1, put);
    else
      box_columns_u8_pairs < COLUMN_UNROLL_U8, false > (a, x, a.x_last - x,
          g.y0, g.y1, put);
  }
  __syncthreads ();

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int part = a.row_run / (TILE_THREADS / 32);
  const int xs = tx0 + warp * part, xe = min (xs + part, tx1);

  if (y0 + lane >= y1 || xs >= xe)
    return;

  const uint16 *row = (const uint16 *) sums + TILE_PAD +
      lane * PITCH - c0;
  const bool inside = xs - reach >= 0 && xe + reach <= a.width;

  if (a.pixel_samples == Q)
    tiles_row < Q > (a, inside, row, c0, xs, xe, y0 + lane);
  else
    tiles_row < P > (a, inside, row, c0, xs, xe, y0 + lane);
}

/* Samples of their own and pairs (NV12's UV) ... */
extern "C" __global__ void __launch_bounds__ (TILE_THREADS, TILE_BLOCKS_PER_SM)
box_tiles_u8 (const BoxBlurArgs * __restrict__ list)
{
  box_tiles < 1, 2, TILE_PITCH > (list);
}

/* ... and pixels of three (RGB) and four (RGBA ...), apart, so that they
 * leave the register allocation of the others' code as it was measured */
extern "C" __global__ void __launch_bounds__ (TILE_THREADS, TILE_BLOCKS_PER_SM)
box_tiles_px3 (const BoxBlurArgs * __restrict__ list)
{
  box_tiles < 3, 3, TILE_PITCH > (list);
}

extern "C" __global__ void __launch_bounds__ (TILE_THREADS, TILE_BLOCKS_PER_SM)
box_tiles_px4 (const BoxBlurArgs * __restrict__ list)
{
  box_tiles < 4, 4, TILE_PITCH_PX4 > (list);
}

/* ... and the macropixels of packed 4:2:2 (YUY2, UYVY, YVYU) */
extern "C" __global__ void __launch_bounds__ (TILE_THREADS, TILE_BLOCKS_PER_SM)
box_tiles_422 (const BoxBlurArgs * __restrict__ list)
{
  box_tiles < TILE_PACKED_422, TILE_PACKED_422, TILE_PITCH > (list);
}

/* The one pass for samples whose column sums take 32 bits, float32 and
 * 16-bit ones (box_tiles_f32, box_tiles_u16): TILE_COLUMNS_WIDE sums a
 * row in shared memory, rows TILE_PITCH_WIDE words apart, two columns a
 * thread, slid down as box_columns_at () slides them (float32 in pairs,
 * Fsum; 16-bit exactly); then each lane slides its row's window along,
 * the steps (the column entering minus the one leaving) found first,
 * TILE_SEGMENT_WIDE means stored at once.  x, w, width, x_first, x_last,
 * reach and row_run count samples.  For float32 samples the roundings
 * that matter are those of the two passes: one per column sum, and the
 * mean's own. */
template <bool INSIDE>
__device__ __forceinline__ void
tile_row_f32 (const BoxBlurArgs & a, const float *row, int home, int xs,
    int xe, int y)
{
  const int S = TILE_SEGMENT_WIDE;
  const int rx = a.radius_x, ry = a.radius_y;
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const float border_column = shrink ? 0.0f :
      a.border_float * (float) (2 * ry + 1);
  auto value = [&](int j) {
    return row_value < float, float, INSIDE > (a, row, j, border_column,
        home);
  };
  const unsigned int rows = window_rows (a, y);
  const unsigned int full = (2 * rx + 1) * rows;
  const float inv = reciprocal (full, Fsum (0.0f));
  Fsum t = 0.0f;

  for (int i = -rx; i <= rx; i++)
    t += value (xs + i);
  for (int x = xs; x < xe; x += S) {
    Fsum step[S];
    float out[S];

    /* every read first, as tile_row () does; past xe they read sums of
     * no use (within the row's pitch or the padding, or folded back by a
     * mirror at most S columns before the tile's first), which go into no
     * mean */
#pragma unroll
    for (int c = 0; c < S; c++)
      step[c] = two_sum (value (x + c + rx + 1), -value (x + c - rx));
#pragma unroll
    for (int c = 0; c < S; c++) {
      const int xc = x + c;
      const unsigned int count = INSIDE || !shrink || xc >= xe ? full :
          (unsigned int) (min (xc + rx, a.width - 1) - max (xc - rx, 0) + 1) *
          rows;

      out[c] = count == full ? finish_by (t, full, inv) : finish (t, count);
      t += step[c];
    }

    uint8 *p = a.dst + (long long) y * a.dst_stride +
        (long long) x * a.dst_step;
    if (x + S <= xe && a.dst_step == sizeof (float)
        && ((unsigned long long) p & 15) == 0) {
#pragma unroll
      for (int c = 0; c < S; c += 4)
        *(float4 *) (p + 4 * c) = make_float4 (out[c], out[c + 1],
            out[c + 2], out[c + 3]);
    } else {
#pragma unroll
      for (int c = 0; c < S; c++)
        if (x + c < xe)
          store < float >(a, x + c, y, out[c]);
    }
  }
}

/* tile_row_f32 () of 16-bit samples, pixels of P side by side (1; 2 for
 * the UV pairs of P010, P012 and P016), each sample's window taking every
 * P-th column: P integer sums slide exactly, and each mean is rounded at
 * the samples' depth (Mean<uint16>).  A window of at most TILE_WINDOW
 * samples sums to less than 2^28, so its Divider divides exactly. */
template <int P, bool INSIDE>
__device__ __forceinline__ void
tile_row_u16 (const BoxBlurArgs & a, const unsigned int *row, int home,
    int xs, int xe, int y)
{
  const int S = TILE_SEGMENT_WIDE;
  const int rx = a.radius_x, ry = a.radius_y, width = a.width / P;
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const unsigned int border_column = shrink ? 0u :
      constant_sample < uint16 > (a) * (unsigned int) (2 * ry + 1);
  /* the column sum that column j stands for */
  auto value = [&](int j) {
    return pixel_value < P, INSIDE > (a, row, j, width, border_column,
        home);
  };
  const unsigned int rows = window_rows (a, y);
  const unsigned int full = (2 * rx + 1) * rows;
  const Divider by = reciprocal (Mean < uint16 >::divisor (a, full), 0u);
  unsigned int t[P];

#pragma unroll
  for (int s = 0; s < P; s++) {
    t[s] = 0;
    for (int i = -rx; i <= rx; i++)
      t[s] += value (xs + s + i * P);
  }
  for (int x = xs; x < xe; x += S) {
    unsigned int step[S], w[S / 2];

    /* every read first, as tile_row_f32 () does */
#pragma unroll
    for (int c = 0; c < S; c++)
      step[c] = value (x + c + P * (rx + 1)) - value (x + c - P * rx);
#pragma unroll
    for (int c = 0; c < S; c++) {
      const int xc = (x + c) / P;
      const unsigned int count = INSIDE || !shrink || x + c >= xe ? full :
          (unsigned int) (min (xc + rx, width - 1) - max (xc - rx, 0) + 1) *
          rows;
      const unsigned int m = count == full ?
          RowMean < uint16 >::by (a, t[c % P], full, by) :
          Mean < uint16 >::of (a, t[c % P], count);

      /* two means a word */
      w[c / 2] = c % 2 == 0 ? m : w[c / 2] + (m << 16);
      t[c % P] += step[c];
    }

    uint8 *p = a.dst + (long long) y * a.dst_stride +
        (long long) x * a.dst_step;
    static_assert (TILE_SEGMENT_WIDE == 8, "a segment is stored as one uint4");
    if (x + S <= xe && a.dst_step == sizeof (uint16)
        && ((unsigned long long) p & 15) == 0) {
      *(uint4 *) p = make_uint4 (w[0], w[1], w[2], w[3]);
    } else {
#pragma unroll
      for (int c = 0; c < S; c++)
        if (x + c < xe)
          store < uint16 > (a, x + c, y, (uint16) half16 (w[c / 2], c % 2));
    }
  }
}

/* What box_tiles_wide () keeps of a column of samples T (Sum), what
 * box_columns_at () slides it in (the row passes' RowAcc, whose
 * ColumnSums::Sum it takes: float32 sums from pairs, or 32-bit integer
 * ones of at most 2 TILE_RADIUS_Y + 1 16-bit samples) and the rows it
 * loads at a time for windows of more than TILE_SHORT_RADIUS_WIDE rows
 * either side (those of the two passes). */
template <typename T>
struct TileColumns;

template <>
struct TileColumns <float >
{
  typedef float Sum;
  typedef Fsum RowAcc;
  static const int unroll = COLUMN_UNROLL_F32;
};

template <>
struct TileColumns <uint16 >
{
  typedef unsigned int Sum;
  typedef uint64 RowAcc;
  static const int unroll = COLUMN_UNROLL_U16;
};

/* The row part of box_tiles_wide (): tile_row_f32 () or tile_row_u16 ()
 * of @a.pixel_samples, @inside or not. */
__device__ __forceinline__ void
tiles_row_wide (const BoxBlurArgs & a, bool inside, const float *row,
    int home, int xs, int xe, int y)
{
  if (inside)
    tile_row_f32 < true > (a, row, home, xs, xe, y);
  else
    tile_row_f32 < false > (a, row, home, xs, xe, y);
}

__device__ __forceinline__ void
tiles_row_wide (const BoxBlurArgs & a, bool inside,
    const unsigned int *row, int home, int xs, int xe, int y)
{
  if (a.pixel_samples == 2 && inside)
    tile_row_u16 < 2, true > (a, row, home, xs, xe, y);
  else if (a.pixel_samples == 2)
    tile_row_u16 < 2, false > (a, row, home, xs, xe, y);
  else if (inside)
    tile_row_u16 < 1, true > (a, row, home, xs, xe, y);
  else
    tile_row_u16 < 1, false > (a, row, home, xs, xe, y);
}

/* box_tiles () of samples T whose column sums take 32 bits. */
template <typename T>
__device__ __forceinline__ void
box_tiles_wide (const BoxBlurArgs * __restrict__ list)
{
  typedef typename TileColumns < T >::Sum Sum;
  typedef typename TileColumns < T >::RowAcc RowAcc;
  const int U = TileColumns < T >::unroll;
  /* the tile's rows from TILE_PAD_WIDE on, padding on either side */
  __shared__ alignas (8) Sum sums[TILE_SUMS_WIDE];
  const BoxBlurArgs a = entry (list);
  const int tx0 = a.x + blockIdx.x * a.row_run;
  const int tx1 = min (tx0 + a.row_run, a.x + a.w);
  const int y0 = a.y + blockIdx.y * TILE_ROWS;

  /* the whole block leaves together, before the barrier */
  if (tx0 >= a.x + a.w || y0 >= a.y + a.h)
    return;

  const int y1 = min (y0 + TILE_ROWS, a.y + a.h);
  /* the columns the tile's windows reach, from an even one where the
   * region's reach allows */
  const int reach = a.reach;
  const int c0 = max ((tx0 - reach) & ~1, a.x_first);
  const int c1 = min (tx1 + reach, a.x_last);
  const int x = c0 + 2 * threadIdx.x;

  if (x < c1 && 2 * threadIdx.x < TILE_COLUMNS_WIDE) {
    const unsigned long long at = (unsigned long long) a.src +
        (unsigned long long) x * a.src_step;
    const bool vector = x + 2 <= a.x_last && a.src_step == sizeof (T)
        && ((at | (unsigned int) a.src_stride) & (2 * sizeof (T) - 1)) == 0;
    /* both sums stored, a second one past x_last within the row's pitch */
    Sum *out = sums + TILE_PAD_WIDE + 2 * threadIdx.x;
    auto put = [&](const typename ColumnSums < RowAcc >::Sum * sum) {
      out[0] = (Sum) sum[0];
      out[1] = (Sum) sum[1];
      out += TILE_PITCH_WIDE;
    };

    if (a.radius_y <= TILE_SHORT_RADIUS_WIDE && vector)
      box_columns_at < T, RowAcc, TILE_UNROLL_WIDE, 2, true > (a, x, y0,
          y1, put);
    else if (a.radius_y <= TILE_SHORT_RADIUS_WIDE)
      box_columns_at < T, RowAcc, TILE_UNROLL_WIDE, 2, false > (a, x, y0,
          y1, put);
    else if (vector)
      box_columns_at < T, RowAcc, U, 2, true > (a, x, y0, y1, put);
    else
      box_columns_at < T, RowAcc, U, 2, false > (a, x, y0, y1, put);
  }
  __syncthreads ();

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int part = a.row_run / (TILE_THREADS / 32);
  const int xs = tx0 + warp * part, xe = min (xs + part, tx1);

  if (y0 + lane >= y1 || xs >= xe)
    return;

  const Sum *row = sums + TILE_PAD_WIDE + lane * TILE_PITCH_WIDE - c0;

  tiles_row_wide (a, xs - reach >= 0 && xe + reach <= a.width, row, c0, xs,
      xe, y0 + lane);
}

extern "C" __global__ void __launch_bounds__ (TILE_THREADS, TILE_BLOCKS_PER_SM)
box_tiles_f32 (const BoxBlurArgs * __restrict__ list)
{
  box_tiles_wide < float >(list);
}

extern "C" __global__ void __launch_bounds__ (TILE_THREADS, TILE_BLOCKS_PER_SM)
box_tiles_u16 (const BoxBlurArgs * __restrict__ list)
{
  box_tiles_wide < uint16 > (list);
}
