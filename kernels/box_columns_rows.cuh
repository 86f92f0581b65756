/* cudaboxblur: the two passes, box_columns_* then box_rows_* through
 * column sums in device memory (included by boxblur.cu).
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* ------------------------------------------------------------------------
 * Separable kernels: cost independent of the radius.
 *
 * The window sum is a sum of column sums, so a region is blurred in two
 * passes through column sums `mid` (one row per row of the region, as
 * wide as the columns its windows reach, each entry of a launch in its own
 * part):
 *
 *   box_columns_*: each thread walks down COLUMN_VECTOR_* neighbouring
 *     columns over a run of column_run rows, keeping the sums of the
 *     2 * radius_y + 1 rows around it and sliding them one row at a time
 *     (add the row entering, subtract the row leaving), loading and
 *     storing the columns at once where they are aligned.  Threads of a
 *     warp own neighbouring columns, so loads are coalesced.  Only the
 *     columns the region's windows reach are summed.
 *   box_rows_*: each warp slides the window along a run of one row of
 *     `mid`, the lanes' steps added up by a warp-wide scan, with no shared
 *     memory.  Columns outside the frame stand in by border_index, or are
 *     whole columns of the constant border.
 *
 * Integer samples accumulate exactly (8-bit in 32 bits; 16-bit columns in
 * 32 bits and rows in 64), so the result equals the direct kernel's.  Float
 * samples slide and scan in pairs (Fsum) and keep the column sums as
 * float: the roundings that matter are one per column sum (relative
 * 2^-24) and the last few of each sample (relative 2^-24 each); those of
 * the pairs are of the order of u^2 times the sum of the magnitudes the
 * slide has passed (the pairs are not renormalised, so lo may grow after
 * heavy cancellation), so the result stays within a few 1e-7 relative of
 * the exact mean for non-negative data, whatever the radius, instead of
 * accumulating the drift a float running sum would: a window that slid
 * off samples of 10^6 onto samples of 1 keeps no measurable trace of them
 * (the kernels suite's extremes test), one that slid off samples of 10^8
 * an error of the order of 1e-6 relative.  A window that meets an
 * infinite or NaN sample gives NaN here (the direct kernels give
 * infinity for an infinite one).
 * ------------------------------------------------------------------------ */

/* The frame row that window row @i stands for, or -1 where the window
 * reads the constant border (or, in shrink mode, nothing). */
__device__ __forceinline__ int
window_row (const BoxBlurArgs & a, int i)
{
  return border_index (i, a.height, a.border);
}

/* The thread's V columns of source row @r (-1: @outside), at @col, the
 * thread's first column of row 0, as Out; with VECTOR in one aligned
 * load, else one at a time, the columns from @n on repeating the last.
 * The load is made whatever @r, from row @home where it is -1, and its
 * value chosen after, so that no branch stands between the loads of a
 * thread. */
template <typename T, typename Out, int V, bool VECTOR>
__device__ __forceinline__ void
load_columns (const BoxBlurArgs & a, const uint8 * col, int r, int home,
    int n, Out outside, Out * v)
{
  const uint8 *p = col + (long long) (r < 0 ? home : r) * a.src_stride;
  T w[V];

  if (VECTOR) {
    const Vector < T, V > vec = *(const Vector < T, V > *) p;
#pragma unroll
    for (int c = 0; c < V; c++)
      w[c] = vec.v[c];
  } else {
#pragma unroll
    for (int c = 0; c < V; c++)
      w[c] = *(const T *) (p + min (c, n - 1) * a.src_step);
  }
#pragma unroll
  for (int c = 0; c < V; c++)
    v[c] = r < 0 ? outside : (Out) w[c];
}

/* The rows entering (@enter) and leaving (@leave) the sums of rows y ..
 * y + U - 1, those from @y1 on adding nothing.  INSIDE: all of them are
 * frame rows, which need no border rule.  They are kept as samples, which
 * take fewer registers than float32's pairs. */
template <typename T, int U, int V, bool VECTOR, bool INSIDE>
__device__ __forceinline__ void
load_slide (const BoxBlurArgs & a, const uint8 * col, int y, int y1,
    int n, T outside, T enter[U][V], T leave[U][V])
{
  const int ry = a.radius_y;

#pragma unroll
  for (int u = 0; u < U; u++) {
    const bool in = y + u < y1;
    const int e = y + u + ry + 1, l = y + u - ry;

    load_columns < T, T, V, VECTOR > (a, col,
        !in ? -1 : INSIDE ? e : window_row (a, e), y, n,
        in ? outside : (T) 0, enter[u]);
    load_columns < T, T, V, VECTOR > (a, col,
        !in ? -1 : INSIDE ? l : window_row (a, l), y, n,
        in ? outside : (T) 0, leave[u]);
  }
}

/* Every row of the window of row @y0: first its rows @lo .. @hi inside the
 * frame, U at a time, with no border rule, by @add_rows (r, n) (rows r ..
 * r + n - 1, n <= U), then those above and below them by @add_row (r),
 * through the border rule (-1: not there). */
template <int U, typename Rows, typename Row>
__device__ __forceinline__ void
for_window_rows (const BoxBlurArgs & a, int y0, int lo, int hi,
    Rows add_rows, Row add_row)
{
  const int ry = a.radius_y;

  for (int yy = lo; yy <= hi; yy += U)
    add_rows (yy, min (U, hi + 1 - yy));
  for (int yy = y0 - ry; yy < lo; yy++)
    add_row (window_row (a, yy));
  for (int yy = hi + 1; yy <= y0 + ry; yy++)
    add_row (window_row (a, yy));
}

/* What box_columns_at() slides its column sums in, for samples summed in
 * Acc (the row pass's): 16-bit ones in 32 bits (at most 511 x 65535),
 * others in Acc; and the Part that the first window's rows are added up
 * in, U at a time, before going into the sums.  A float32 part in plain
 * float32 would leave its rounding in the sums after its rows have left
 * the window, where the samples may be far smaller, so float32 rows take
 * a plain part only where they stay in every window of the run (the core:
 * its rounding is then relative to samples of each window), and pairs
 * elsewhere. */
template <typename Acc>
struct ColumnSums
{
  typedef Acc Sum;
  typedef Acc Part;
};

template <>
struct ColumnSums <uint64 >
{
  typedef unsigned int Sum;
  typedef unsigned int Part;
};

template <>
struct ColumnSums <Fsum >
{
  typedef Fsum Sum;
  typedef float Part;
};

/* Adds rows @r .. @r + @rows - 1 (@rows <= U) of the thread's V columns
 * to @sum, first summed in Part. */
template <typename T, typename Part, typename Sum, int U, int V, bool VECTOR>
__device__ __forceinline__ void
add_rows_in (const BoxBlurArgs & a, const uint8 * col, int r, int rows,
    int home, int n, Sum * sum)
{
  Part part[V], v[V];

#pragma unroll
  for (int c = 0; c < V; c++)
    part[c] = 0;
#pragma unroll
  for (int u = 0; u < U; u++)
    if (u < rows) {
      load_columns < T, Part, V, VECTOR > (a, col, r + u, home, n, 0, v);
#pragma unroll
      for (int c = 0; c < V; c++)
        part[c] += v[c];
    }
#pragma unroll
  for (int c = 0; c < V; c++)
    sum[c] += part[c];
}

/* The column sums of rows @y0 .. @y1 - 1 of the thread's V columns from
 * @x on (those from x_last on repeating the last), U rows at a time: the
 * rows entering and leaving the next U sums are loaded first, so that
 * their loads are in flight together.  A row that is not there (shrink)
 * adds and subtracts 0, which changes no sum.  @put (sum) takes each row's
 * V sums in turn.  VECTOR: the thread's columns are all there, adjacent
 * and aligned. */
template <typename T, typename RowAcc, int U, int V, bool VECTOR,
    typename Put>
__device__ __forceinline__ void
box_columns_at (const BoxBlurArgs & a, int x, int y0, int y1, Put put)
{
  typedef typename ColumnSums < RowAcc >::Sum Acc;
  typedef typename ColumnSums < RowAcc >::Part Part;
  const int ry = a.radius_y;
  /* the first of the rows in every window of the run */
  const int core = y1 - 1 - ry;
  const int n = a.x_last - x;
  const T outside = a.border == BOX_BORDER_SHRINK ? (T) 0 :
      constant_sample < T > (a);
  const uint8 *col = a.src + (long long) x * a.src_step;
  const int lo = max (y0 - ry, 0), hi = min (y0 + ry, a.height - 1);
  Acc sum[V];

  /* the window of row y0: its rows inside the frame, then those above
   * and below it */
#pragma unroll
  for (int c = 0; c < V; c++)
    sum[c] = 0;
  auto add_rows = [&](int r, int rows) {
    /* parts of the core in Part where it is narrower than the sums */
    if (sizeof (Part) < sizeof (Acc) && r >= core)
      add_rows_in < T, Part, Acc, U, V, VECTOR > (a, col, r, rows, y0, n,
          sum);
    else
      add_rows_in < T, Acc, Acc, U, V, VECTOR > (a, col, r, rows, y0, n,
          sum);
  };
  auto add_row = [&](int r) {
    Acc v[V];

    load_columns < T, Acc, V, VECTOR > (a, col, r, y0, n, (Acc) outside, v);
#pragma unroll
    for (int c = 0; c < V; c++)
      sum[c] += v[c];
  };
  for_window_rows < U > (a, y0, lo, hi, add_rows, add_row);

  for (int y = y0; y < y1; y += U) {
    T enter[U][V], leave[U][V];

    if (y - ry >= 0 && y + U + ry < a.height)
      load_slide < T, U, V, VECTOR, true > (a, col, y, y1, n, outside,
          enter, leave);
    else
      load_slide < T, U, V, VECTOR, false > (a, col, y, y1, n, outside,
          enter, leave);
#pragma unroll
    for (int u = 0; u < U; u++) {
      if (y + u < y1) {
        put (sum);
#pragma unroll
        for (int c = 0; c < V; c++) {
          sum[c] += enter[u][c];
          sum[c] -= leave[u][c];
        }
      }
    }
  }
}

/* The four 8-bit samples of a row at @p as one word, the first in byte
 * 0: with VECTOR one aligned load, else one sample at a time, the columns
 * from @n on repeating the last. */
template <bool VECTOR>
__device__ __forceinline__ unsigned int
row_word (const BoxBlurArgs & a, const uint8 * p, int n)
{
  if (VECTOR)
    return *(const unsigned int *) p;

  unsigned int w = 0;
#pragma unroll
  for (int c = 0; c < 4; c++)
    w |= (unsigned int) p[min (c, n - 1) * a.src_step] << (8 * c);
  return w;
}

/* The words of the rows entering (@enter) and leaving (@leave) the sums
 * of rows y .. y + U - 1 near the frame's top or bottom, through the
 * border rule, as load_slide() loads them. */
template <int U, bool VECTOR>
__device__ __forceinline__ void
load_words (const BoxBlurArgs & a, const uint8 * col, int y, int y1, int n,
    unsigned int outside, unsigned int enter[U], unsigned int leave[U])
{
  const int ry = a.radius_y;

#pragma unroll
  for (int u = 0; u < U; u++) {
    const bool in = y + u < y1;
    const int e = in ? window_row (a, y + u + ry + 1) : -1;
    const int l = in ? window_row (a, y + u - ry) : -1;
    const unsigned int we = row_word < VECTOR > (a, col +
        (long long) (e < 0 ? y : e) * a.src_stride, n);
    const unsigned int wl = row_word < VECTOR > (a, col +
        (long long) (l < 0 ? y : l) * a.src_stride, n);

    enter[u] = e < 0 ? (in ? outside : 0) : we;
    leave[u] = l < 0 ? (in ? outside : 0) : wl;
  }
}

/* box_columns_at() for 8-bit samples with 16-bit column sums, four
 * columns a thread (@n of them there, the others repeating the last), rows
 * @y0 .. @y1 - 1: a row's four samples come as one word, and the sums of
 * columns 0 and 2 (even) and of columns 1 and 3 (odd) slide as the 16-bit
 * halves of one word each, so that one 32-bit addition serves two
 * columns.  Every column sum fits its half (at most 65535), and integers
 * add up to the same word whatever carries cross between the halves on the
 * way, so the sums are exact.  @put (lo, hi) takes the four sums of each
 * row in turn, columns 0 and 1 in the halves of lo, 2 and 3 in those of
 * hi. */
template <int U, bool VECTOR, typename Put>
__device__ __forceinline__ void
box_columns_u8_pairs (const BoxBlurArgs & a, int x, int n, int y0, int y1,
    Put put)
{
  const int ry = a.radius_y;
  const unsigned int outside = a.border == BOX_BORDER_SHRINK ? 0u :
      (a.border_int & 0xff) * 0x01010101u;
  const uint8 *col = a.src + (long long) x * a.src_step;
  const int lo = max (y0 - ry, 0), hi = min (y0 + ry, a.height - 1);
  unsigned int even = 0, odd = 0;

  auto add_row = [&](int r) {
    const unsigned int w = row_word < VECTOR > (a, col +
        (long long) (r < 0 ? y0 : r) * a.src_stride, n);
    const unsigned int v = r < 0 ? outside : w;
    even += even_bytes (v);
    odd += odd_bytes (v);
  };
  auto add_rows = [&](int r, int rows) {
#pragma unroll
    for (int u = 0; u < U; u++)
      if (u < rows)
        add_row (r + u);
  };
  for_window_rows < U > (a, y0, lo, hi, add_rows, add_row);

  /* the rows entering and leaving the sums of row y: pointers added to,
   * rather than a row multiplied by the stride for each load, where all U
   * rows are the run's and every row of their windows is inside the
   * frame (src may hold no rows past the run's windows) */
  const long long stride = a.src_stride;
  const uint8 *entering = col + (y0 + ry + 1) * stride;
  const uint8 *leaving = col + (y0 - ry) * stride;

  for (int y = y0; y < y1; y += U) {
    unsigned int enter[U], leave[U];

    if (y - ry >= 0 && y + U + ry < a.height && y + U <= y1) {
#pragma unroll
      for (int u = 0; u < U; u++) {
        enter[u] = row_word < VECTOR > (a, entering + u * stride, n);
        leave[u] = row_word < VECTOR > (a, leaving + u * stride, n);
      }
    } else {
      load_words < U, VECTOR > (a, col, y, y1, n, outside, enter, leave);
    }
    entering += U * stride;
    leaving += U * stride;
#pragma unroll
    for (int u = 0; u < U; u++) {
      if (y + u < y1) {
        /* columns 0, 1 and 2, 3 */
        put (__byte_perm (even, odd, 0x5410),
            __byte_perm (even, odd, 0x7632));
        even += even_bytes (enter[u]) - even_bytes (leave[u]);
        odd += odd_bytes (enter[u]) - odd_bytes (leave[u]);
      }
    }
  }
}

template <typename T, typename Acc, typename Mid, int U, int V>
__device__ __forceinline__ void
box_columns (const BoxBlurArgs & a, Mid * __restrict__ mid)
{
  const int x = a.x_first + (blockIdx.x * blockDim.x + threadIdx.x) * V;
  const int y0 = a.y + blockIdx.y * a.column_run;

  if (x >= a.x_last || y0 >= a.y + a.h)
    return;

  const unsigned long long at = (unsigned long long) a.src +
      (unsigned long long) x * a.src_step;
  const bool vector = x + V <= a.x_last && a.src_step == sizeof (T)
      && ((at | (unsigned int) a.src_stride) & (sizeof (T) * V - 1)) == 0;
  const int y1 = min (y0 + a.column_run, a.y + a.h), n = a.x_last - x;
  typedef typename ColumnSums < Acc >::Sum Sum;
  Mid *out = mid + a.mid_offset + (long long) (y0 - a.y) * a.mid_pitch +
      x - a.x_first;

  if constexpr (sizeof (T) == 1 && sizeof (Mid) == 2 && V == 4) {
    /* all four sums stored, those from x_last on into the padding of
     * mid's rows */
    auto put = [&](unsigned int lo, unsigned int hi) {
      *(uint2 *) out = make_uint2 (lo, hi);
      out += a.mid_pitch;
    };

    if (vector)
      box_columns_u8_pairs < U, true > (a, x, n, y0, y1, put);
    else
      box_columns_u8_pairs < U, false > (a, x, n, y0, y1, put);
  } else if (vector) {
    box_columns_at < T, Acc, U, V, true > (a, x, y0, y1,
        [&](const Sum * sum) {
          Vector < Mid, V > w;
#pragma unroll
          for (int c = 0; c < V; c++)
            w.v[c] = (Mid) sum[c];
          *(Vector < Mid, V > *) out = w;
          out += a.mid_pitch;
        });
  } else {
    /* the columns from x_last on not stored */
    box_columns_at < T, Acc, U, V, false > (a, x, y0, y1,
        [&](const Sum * sum) {
#pragma unroll
          for (int c = 0; c < V; c++)
            if (c < n)
              out[c] = (Mid) sum[c];
          out += a.mid_pitch;
        });
  }
}

/* The warp's shuffles, for sums of any Acc. */
template <typename Acc>
__device__ __forceinline__ Acc
shfl_up (Acc v, int d)
{
  return __shfl_up_sync (0xffffffffu, v, d);
}

template <typename Acc>
__device__ __forceinline__ Acc
shfl_xor (Acc v, int d)
{
  return __shfl_xor_sync (0xffffffffu, v, d);
}

template <typename Acc>
__device__ __forceinline__ Acc
shfl_from (Acc v, int lane)
{
  return __shfl_sync (0xffffffffu, v, lane);
}

__device__ __forceinline__ Fsum
shfl_up (Fsum v, int d)
{
  v.hi = shfl_up (v.hi, d);
  v.lo = shfl_up (v.lo, d);
  return v;
}

__device__ __forceinline__ Fsum
shfl_xor (Fsum v, int d)
{
  v.hi = shfl_xor (v.hi, d);
  v.lo = shfl_xor (v.lo, d);
  return v;
}

__device__ __forceinline__ Fsum
shfl_from (Fsum v, int lane)
{
  v.hi = shfl_from (v.hi, lane);
  v.lo = shfl_from (v.lo, lane);
  return v;
}

__device__ __forceinline__ Sum4
shfl_up (Sum4 v, int d)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    v.c[i] = shfl_up (v.c[i], d);
  return v;
}

__device__ __forceinline__ Sum4
shfl_xor (Sum4 v, int d)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    v.c[i] = shfl_xor (v.c[i], d);
  return v;
}

__device__ __forceinline__ Sum4
shfl_from (Sum4 v, int lane)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    v.c[i] = shfl_from (v.c[i], lane);
  return v;
}

/* Exclusive prefix sum of @v over the warp. */
template <typename Acc>
__device__ __forceinline__ Acc
warp_exclusive_scan (Acc v)
{
  const int lane = threadIdx.x & 31;
  Acc inclusive = v;

#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const Acc up = shfl_up (inclusive, d);
    if (lane >= d)
      inclusive += up;
  }
  return inclusive - v;
}

/* Division by a divisor d >= 2 that many quotients share: n / d is
 * umulhi (n, m) >> l, with 2^l < d <= 2^(l + 1) and m = ceil (2^(32 + l) /
 * d), which is below 2^32; since m d - 2^(32 + l) < d, the quotient is
 * exact for every n below 2^31 (Granlund and Montgomery).  m is found with
 * no 64-bit division: a float32 estimate, within 129 of the floor of the
 * quotient, corrected by its remainder in 32-bit integers. */
struct Divider
{
  unsigned int m;
  int l;
};

__device__ __forceinline__ Divider
divider (unsigned int d)
{
  Divider v;

  v.l = 31 - __clz (d - 1);

  const uint64 p = 1ull << (32 + v.l);
  unsigned int q = __float2uint_rz (__fdiv_rn ((float) p, (float) d));
  int r = (int) (long long) (p - (uint64) q * d);
  int k = r / (int) d;

  r -= k * (int) d;
  if (r < 0) {
    k--;
    r += d;
  }
  v.m = q + k + (r != 0);
  return v;
}

/* finish() for the many windows of one row that have the same count,
 * with what it divides by worked out once (reciprocal()): 8-bit sums
 * (below 2^27, so 2 sum + count below 2^28) divide exactly by a Divider of
 * 2 count; 16-bit sums by a float32 reciprocal and the remainder
 * (finish_estimated()); float32 sums are converted and multiplied by the
 * reciprocal, within about two float32 roundings of the quotient. */
__device__ __forceinline__ Divider
reciprocal (unsigned int count, unsigned int)
{
  return divider (2 * count);
}

__device__ __forceinline__ float
reciprocal (unsigned int count, uint64)
{
  return reciprocal_of_twice (count);
}

__device__ __forceinline__ float
reciprocal (unsigned int count, Fsum)
{
  return 1.0f / (float) count;
}

__device__ __forceinline__ unsigned int
finish_by (unsigned int sum, unsigned int count, Divider by)
{
  return __umulhi (2 * sum + count, by.m) >> by.l;
}

__device__ __forceinline__ uint64
finish_by (uint64 sum, unsigned int count, float inv)
{
  return finish_estimated < uint64, long long >(sum, count, inv);
}

__device__ __forceinline__ float
finish_by (Fsum sum, unsigned int, float inv)
{
  return __fmul_rn ((float) sum, inv);
}

__device__ __forceinline__ Divider
reciprocal (unsigned int count, Sum4)
{
  return divider (2 * count);
}

__device__ __forceinline__ Sum4
finish_by (Sum4 sum, unsigned int count, Divider by)
{
#pragma unroll
  for (int i = 0; i < 4; i++)
    sum.c[i] = finish_by (sum.c[i], count, by);
  return sum;
}

/* finish_by() of a row's windows of samples of type T, whose reciprocal
 * @by is that of Mean<T>::divisor() of @count: for 16-bit samples
 * rounded as Mean<T>::of() rounds them. */
template <typename T>
struct RowMean
{
  template <typename Acc, typename By>
  static __device__ __forceinline__ auto
  by (const BoxBlurArgs & a, Acc sum, unsigned int count, By by)
      -> decltype (finish_by (sum, count, by))
  {
    return finish_by (sum, count, by);
  }
};

template <>
struct RowMean < uint16 >
{
  template <typename Acc, typename By>
  static __device__ __forceinline__ Acc
  by (const BoxBlurArgs & a, Acc sum, unsigned int count, By by)
  {
    return at_depth (finish_by (sum, Mean < uint16 >::divisor (a, count),
            by), a.shift);
  }
};

/* The column sum that column @j stands for in a row's windows: with
 * INSIDE (every window of the run is inside the frame) the column sums'
 * column @j; else the one border_index names, or where it names none
 * @border_column, the sum of a column of the constant border (shrink: 0),
 * the load then made from column @home and its value dropped. */
template <typename Value, typename Mid, bool INSIDE>
__device__ __forceinline__ Value
row_value (const BoxBlurArgs & a, const Mid * row, int j,
    Value border_column, int home)
{
  if (INSIDE)
    return (Value) row[j];

  const int m = border_index (j, a.width, a.border);
  const Value v = (Value) row[m < 0 ? home : m];
  return m < 0 ? border_column : v;
}

/* Output samples x0 .. x1 - 1 of row @y, from the column sums @row (column
 * j at row[j]), @lane of the warp taking K = RowSums::samples neighbouring
 * ones of each step of 32 * K.  The warp sums the window of x0, then
 * slides it: the sum of x is that of x - 1 plus the column entering and
 * minus the one leaving, d(x).  Each lane adds up its d()s, a warp-wide
 * scan turns those into every sample's sum, and the last lane's carries
 * over to the next step.  Integer sums slide exactly (d() may wrap, the
 * sums never do), float ones in pairs (Fsum).  A lane's means are stored
 * at once where they are adjacent and aligned. */
template <typename T, typename Acc, typename Mid, bool INSIDE>
__device__ __forceinline__ void
box_rows_run (const BoxBlurArgs & a, const Mid * __restrict__ row, int x0,
    int x1, int y, int lane)
{
  typedef RowSums < Acc > Sums;
  typedef typename Sums::Value Value;
  const int K = Sums::samples;
  const int rx = a.radius_x, ry = a.radius_y;
  const bool shrink = a.border == BOX_BORDER_SHRINK;
  const Value border_column = shrink ? (Value) 0 :
      (Value) (constant_sample < T > (a) * (2 * ry + 1));
  auto value = [&](int j) {
    return row_value < Value, Mid, INSIDE > (a, row, j, border_column,
        a.x_first);
  };

  Acc carry = 0;
  for (int i = lane; i <= 2 * rx; i += 32)
    carry += value (x0 - rx + i);
#pragma unroll
  for (int d = 16; d > 0; d >>= 1)
    carry += shfl_xor (carry, d);

  const unsigned int rows = window_rows (a, y);
  const unsigned int full = (2 * rx + 1) * rows;
  const auto inv = reciprocal (Mean < T >::divisor (a, full), (Acc) 0);

  for (int xs = x0 + lane * K; xs - lane * K < x1; xs += 32 * K) {
    Acc sum[K], local;

#pragma unroll
    for (int c = 0; c < K; c++) {
      const int x = xs + c;
      const Acc step = x > x0 && x < x1 ?
          Sums::step (value (x + rx), value (x - rx - 1)) : (Acc) 0;
      local = c == 0 ? step : local + step;
      sum[c] = local;
    }
    const Acc before = carry + warp_exclusive_scan (local);
    carry = shfl_from (before + local, 31);

    T out[K];
#pragma unroll
    for (int c = 0; c < K; c++) {
      const int x = xs + c;
      const unsigned int count = INSIDE || !shrink || x >= x1 ? full :
          (unsigned int) (min (x + rx, a.width - 1) - max (x - rx, 0) + 1) *
          rows;
      const Acc s = Sums::at (before, sum[c]);
      out[c] = (T) (count == full ? RowMean < T >::by (a, s, full, inv) :
          Mean < T >::of (a, s, count));
    }

    uint8 *p = a.dst + (long long) y * a.dst_stride +
        (long long) xs * a.dst_step;
    if (xs + K <= x1 && a.dst_step == sizeof (T)
        && ((unsigned long long) p & (sizeof (T) * K - 1)) == 0) {
      Vector < T, K > v;
#pragma unroll
      for (int c = 0; c < K; c++)
        v.v[c] = with_kept (a, out[c], xs + c, y);
      *(Vector < T, K > *) p = v;
    } else {
#pragma unroll
      for (int c = 0; c < K; c++)
        if (xs + c < x1)
          store (a, xs + c, y, out[c]);
    }
  }
}

/* One warp per (run of row_run output samples, row of the region); runs
 * whose windows all stay inside the frame take no border rule. */
template <typename T, typename Acc, typename Mid>
__device__ __forceinline__ void
box_rows (const BoxBlurArgs & a, const Mid * __restrict__ mid)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int dy = blockIdx.y * (blockDim.x >> 5) + warp;
  const int x0 = a.x + blockIdx.x * a.row_run;
  const int x1 = min (x0 + a.row_run, a.x + a.w);

  /* the whole warp leaves together, before any shuffle */
  if (x0 >= a.x + a.w || dy >= a.h)
    return;

  const Mid *row = mid + a.mid_offset + (long long) dy * a.mid_pitch -
      a.x_first;
  if (x0 - a.radius_x >= 0 && x1 + a.radius_x <= a.width)
    box_rows_run < T, Acc, Mid, true > (a, row, x0, x1, a.y + dy, lane);
  else
    box_rows_run < T, Acc, Mid, false > (a, row, x0, x1, a.y + dy, lane);
}

/* Instantiates the two passes for samples T summed in Acc with column sums
 * kept as Mid. */
#define SEPARABLE(name, T, Acc, Mid, U, V) \
  extern "C" __global__ void \
  box_columns_##name (const BoxBlurArgs * __restrict__ list, \
      Mid * __restrict__ mid) \
  { \
    box_columns < T, Acc, Mid, U, V > (entry (list), mid); \
  } \
  extern "C" __global__ void \
  box_rows_##name (const BoxBlurArgs * __restrict__ list, \
      const Mid * __restrict__ mid) \
  { \
    box_rows < T, Acc, Mid > (entry (list), mid); \
  }

SEPARABLE (u8, uint8, unsigned int, unsigned int, COLUMN_UNROLL_U8,
    COLUMN_VECTOR_U8)
/* 8-bit samples with radius_y <= 128: a column sum is at most
 * 257 * 255 = 65535, so 16 bits hold it and the intermediate frame is half
 * the size. */
SEPARABLE (u8_16, uint8, unsigned int, uint16, COLUMN_UNROLL_U8,
    COLUMN_VECTOR_U8)
/* a 16-bit column sum is at most 511 * 65535 < 2^32 */
SEPARABLE (u16, uint16, uint64, unsigned int, COLUMN_UNROLL_U16,
    COLUMN_VECTOR_U16)
SEPARABLE (f32, float, Fsum, float, COLUMN_UNROLL_F32, COLUMN_VECTOR_F32)

/* Packed pixels of four 8-bit samples (Pixel4): the row passes after
 * box_columns_u8 (or box_columns_u8_16) has summed the columns of the
 * rows' bytes, read here a pixel's four at a time (sums of 511 x 511 or
 * 256 x 256 samples of 255 stay within 32 bits). */
extern "C" __global__ void
box_rows_px4 (const BoxBlurArgs * __restrict__ list,
    const Vector < unsigned int, 4 > *__restrict__ mid)
{
  box_rows < Pixel4, Sum4, Vector < unsigned int, 4 > >(entry (list), mid);
}

extern "C" __global__ void
box_rows_px4_16 (const BoxBlurArgs * __restrict__ list,
    const Vector < uint16, 4 > *__restrict__ mid)
{
  box_rows < Pixel4, Sum4, Vector < uint16, 4 > >(entry (list), mid);
}
