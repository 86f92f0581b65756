/* cudaboxblur: the one pass's kernels run on the CPU
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The kernels' own source (kernels/box_tiles.cuh and what it builds on),
 * compiled as C++ for the host: each CUDA block's 256 threads are threads
 * of their own meeting at __syncthreads () on a barrier, its shared memory
 * one static array (the blocks run one after the other), and the few
 * intrinsics the one pass uses take their documented meaning.  So the
 * kernels' arithmetic and indexing, not the GPU, are held here to an
 * independent reference on every machine, CI included: box_tiles_422 on
 * random frames of packed 4:2:2 (sizes, strides, regions, radii 0 to 15
 * for luma, chroma and rows, every border mode the one pass takes, luma at
 * byte 0 or 1 of a macropixel, tiles of every width the plan may give),
 * and box_tiles_u16 on random 16-bit planes of samples of their own and
 * of pairs (P010's UV), at 16, 12 and 10 bits a sample.
 * The GPU suites (sweep, elements/cudaboxblur-formats) hold the same
 * kernels, run on a GPU, to the reference of reference/.
 */

/* before gstcheck.h, whose fail () the standard library's would take */
#include <algorithm>
#include <barrier>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include <gst/check/gstcheck.h>

#include "boxblur-args.h"

/* ---- what the kernels' source takes from CUDA, on the host ---- */

struct Dim3
{
  unsigned x, y, z;
};
static thread_local Dim3 threadIdx, blockIdx;
/* the one pass's blocks (the other kernels are compiled, not run) */
static const Dim3 blockDim = { TILE_THREADS, 1, 1 };
static std::barrier<> *block_barrier;

struct uint2
{
  unsigned x, y;
};
struct uint4
{
  unsigned x, y, z, w;
};
struct float4
{
  float x, y, z, w;
};

static inline uint2 make_uint2 (unsigned a, unsigned b) { return {a, b}; }
static inline uint4 make_uint4 (unsigned a, unsigned b, unsigned c,
    unsigned d) { return {a, b, c, d}; }
static inline float4 make_float4 (float a, float b, float c, float d)
{
  return {a, b, c, d};
}

#define __device__
#define __forceinline__ inline
#define __global__
#define __shared__
#define __launch_bounds__(...)
#define __restrict__

static inline void __syncthreads () { block_barrier->arrive_and_wait (); }
static inline unsigned __umulhi (unsigned a, unsigned b)
{
  return (unsigned) (((unsigned long long) a * b) >> 32);
}
static inline unsigned __byte_perm (unsigned x, unsigned y, unsigned s)
{
  const unsigned long long v = ((unsigned long long) y << 32) | x;
  unsigned r = 0;

  for (int i = 0; i < 4; i++)
    r |= ((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
static inline int __clz (int x) { return x ? __builtin_clz (x) : 32; }
static inline float __fadd_rn (float a, float b) { return a + b; }
static inline float __fsub_rn (float a, float b) { return a - b; }
static inline float __fmul_rn (float a, float b) { return a * b; }
static inline float __fdiv_rn (float a, float b) { return a / b; }
static inline float __fmaf_rn (float a, float b, float c)
{
  return __builtin_fmaf (a, b, c);
}
static inline unsigned __float2uint_rz (float f) { return (unsigned) f; }
/* warp shuffles: not in the one pass's paths, only compiled */
template <class T> T __shfl_sync (unsigned, T v, int, int = 32) { return v; }
template <class T> T __shfl_up_sync (unsigned, T v, int, int = 32)
{
  return v;
}
template <class T> T __shfl_xor_sync (unsigned, T v, int, int = 32)
{
  return v;
}
static inline int min (int a, int b) { return a < b ? a : b; }
static inline int max (int a, int b) { return a > b ? a : b; }
static inline unsigned min (unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned max (unsigned a, unsigned b) { return a > b ? a : b; }
static inline long long min (long long a, long long b) { return a < b ? a : b; }
static inline long long max (long long a, long long b) { return a > b ? a : b; }

#include "common.cuh"
#include "box_columns_rows.cuh"
/* a block's shared memory: one array for all its threads */
#define alignas(n) alignas (n) static
#include "box_tiles.cuh"
#undef alignas

/* Runs @kernel's grid of @gx x @gy blocks of TILE_THREADS over @a. */
static void
run_tiles (void (*kernel) (const BoxBlurArgs *), const BoxBlurArgs * a,
    unsigned gx, unsigned gy)
{
  for (unsigned bx = 0; bx < gx; bx++)
    for (unsigned by = 0; by < gy; by++) {
      std::barrier<> barrier (TILE_THREADS);
      std::vector<std::thread> threads;

      block_barrier = &barrier;
      for (unsigned t = 0; t < TILE_THREADS; t++)
        threads.emplace_back ([=] {
              blockIdx = {bx, by, 0};
              threadIdx = {t, 0, 0};
              kernel (a);
            });
      for (auto &t : threads)
        t.join ();
    }
}

/* A random frame of @h rows @stride bytes apart in @src, @dst of the
 * same size filled with 0xab, and @a over them (every other argument 0)
 * with a random region of @w x @h pixels of @P samples, the whole frame
 * one time in three: x, w and width in samples, as queue_tiles () in
 * plan/cudaboxblur-plan.c counts them. */
static void
random_frame (std::mt19937 & rng, int P, int w, int h, int stride,
    std::vector<unsigned char> &src, std::vector<unsigned char> &dst,
    BoxBlurArgs * a)
{
  const bool whole = rng () % 3 == 0;

  src.resize (stride * h);
  for (auto &v : src)
    v = rng ();
  dst.assign (stride * h, 0xab);
  memset (a, 0, sizeof (*a));
  a->src = src.data ();
  a->dst = dst.data ();
  a->src_stride = a->dst_stride = stride;
  a->width = P * w;
  a->height = h;
  a->x = whole ? 0 : rng () % w;
  a->w = whole ? w : 1 + rng () % (w - a->x);
  a->y = whole ? 0 : rng () % h;
  a->h = whole ? h : 1 + rng () % (h - a->y);
  a->x *= P;
  a->w *= P;
  a->pixel_samples = P;
}

/* Runs @kernel over @a, whose reach is set, in tiles of a random width
 * that holds it, a multiple of @unit of at most @columns with the reach
 * either side (tile_steps ()). */
static void
run_random_tiles (void (*kernel) (const BoxBlurArgs *), BoxBlurArgs * a,
    std::mt19937 & rng, int unit, int columns)
{
  const int steps = std::max ((columns - 2 * a->reach) / unit, 1);

  a->x_first = std::max (a->x - a->reach, 0);
  a->x_last = std::min (a->x + a->w + a->reach, a->width);
  a->row_run = unit * (1 + rng () % steps);
  run_tiles (kernel, a, (a->w + a->row_run - 1) / a->row_run,
      (a->h + TILE_ROWS - 1) / TILE_ROWS);
}

/* ---- the reference ---- */

/* The sum of the samples of the window of column @i of row @y, @r
 * columns and @ry rows either side, of a plane @n columns wide and @h
 * rows high whose sample in column mi of row my @read gives, and their
 * count: outside, @border (border_index () of common.cuh) or @constant,
 * or with BOX_BORDER_SHRINK nothing. */
template <typename Read>
static void
window_sum (int n, int h, int i, int y, int r, int ry, int border,
    int constant, Read read, unsigned long long *sum,
    unsigned long long *count)
{
  *sum = *count = 0;
  for (int yy = y - ry; yy <= y + ry; yy++)
    for (int ii = i - r; ii <= i + r; ii++) {
      const bool inside = yy >= 0 && yy < h && ii >= 0 && ii < n;
      int my, mi;

      if (border == BOX_BORDER_SHRINK && !inside)
        continue;
      my = border_index (yy, h, border);
      mi = border_index (ii, n, border);
      *sum += my < 0 || mi < 0 ? (unsigned int) constant : read (mi, my);
      ++*count;
    }
}

/* The rounded mean of the window of byte @j of row @y of a frame of
 * packed 4:2:2, @w pixels wide: luma bytes (@luma_byte and two on) every
 * other byte, @rl either side, chroma ones every fourth, @rc either side;
 * @ry rows either side; outside, @border (border_index () of common.cuh)
 * or @constant, or with BOX_BORDER_SHRINK nothing. */
static int
mean_422 (const unsigned char *src, int stride, int w, int h, int j, int y,
    int luma_byte, int rl, int rc, int ry, int border, int constant)
{
  const bool luma = (j & 1) == luma_byte;
  const int step = luma ? 2 : 4, r = luma ? rl : rc, n = luma ? w : w / 2;
  const int i = j / step, sample = j % step;
  unsigned long long sum, count;

  window_sum (n, h, i, y, r, ry, border, constant, [&](int mi, int my) {
        return (unsigned int) src[(long) my * stride + mi * step + sample];
      }, &sum, &count);
  return (int) ((2 * sum + count) / (2 * count));
}

/* box_tiles_422 on random frames, regions, windows and tile widths, as
 * the plan lays out its arguments (queue_tiles () in
 * plan/cudaboxblur-plan.c), against mean_422 (); every byte outside the
 * region left as it was. */
GST_START_TEST (test_tiles_422)
{
  const int borders[] = { BOX_BORDER_SHRINK, BOX_BORDER_CLAMP,
    BOX_BORDER_MIRROR, BOX_BORDER_CONSTANT
  };
  std::mt19937 rng (422);
  int c;

  for (c = 0; c < 200; c++) {
    const int w = 2 * (1 + rng () % 150), h = 1 + rng () % 80;
    const int stride = 2 * w + rng () % 5;
    const int rl = rng () % 16, rc = rng () % 16, ry = rng () % 16;
    const int border = borders[rng () % 4], luma_byte = rng () % 2;
    std::vector<unsigned char> src, dst;
    BoxBlurArgs a;
    int x, y, wrong = 0;

    /* macropixels of four bytes */
    random_frame (rng, 4, w / 2, h, stride, src, dst, &a);
    a.src_step = a.dst_step = 1;
    a.radius_x = rl;
    a.radius_y = ry;
    a.border = border;
    a.border_int = rng () % 256;
    a.luma_byte = luma_byte;
    a.chroma_radius_x = rc;
    a.reach = std::max (2 * rl, 4 * rc);
    run_random_tiles (box_tiles_422, &a, rng, TILE_STEP, TILE_COLUMNS - 3);

    for (y = 0; y < h; y++)
      for (x = 0; x < stride; x++) {
        const bool in = y >= a.y && y < a.y + a.h && x >= a.x
            && x < a.x + a.w;
        const int want = in ? mean_422 (src.data (), stride, w, h, x, y,
            luma_byte, rl, rc, ry, border, a.border_int) : 0xab;

        if (dst[y * stride + x] != want && wrong++ == 0)
          GST_ERROR ("case %d, %dx%d, luma at byte %d, radii %d/%d/%d, "
              "border %d, bytes %d,%d %dx%d, tiles of %d: byte %d of row %d "
              "is %d, not %d", c, w, h, luma_byte, rl, rc, ry, border, a.x,
              a.y, a.w, a.h, a.row_run, x, y, dst[y * stride + x], want);
      }
    fail_unless (wrong == 0, "case %d: %d bytes wrong (GST_DEBUG=check:1 "
        "says which)", c, wrong);
  }
}

GST_END_TEST;

/* The mean of the window of sample @s of pixel @i of row @y of a plane
 * of 16-bit words, pixels of @P samples, @w pixels wide, @rx and @ry
 * either side, rounded at the samples' depth (16 - @shift bits, the
 * largest value kept where rounding passes it) and stored in the high
 * bits; outside, @border or @constant, or with BOX_BORDER_SHRINK
 * nothing. */
static int
mean_u16 (const unsigned char *src, int stride, int P, int w, int h, int i,
    int s, int y, int rx, int ry, int border, int constant, int shift)
{
  unsigned long long sum, count, q;

  window_sum (w, h, i, y, rx, ry, border, constant, [&](int mi, int my) {
        uint16_t v;

        memcpy (&v, src + (long) my * stride + 2 * (mi * P + s), 2);
        return (unsigned int) v;
      }, &sum, &count);
  count <<= shift;
  q = (2 * sum + count) / (2 * count);
  return (int) (std::min (q, (unsigned long long) (0xffff >> shift)) <<
      shift);
}

/* box_tiles_u16 on random planes of 16-bit samples of their own and of
 * pairs, as queue_tiles () lays out its arguments (x, w and width in
 * samples), against mean_u16 (); every byte outside the region left as
 * it was. */
GST_START_TEST (test_tiles_u16)
{
  const int borders[] = { BOX_BORDER_SHRINK, BOX_BORDER_CLAMP,
    BOX_BORDER_MIRROR, BOX_BORDER_CONSTANT
  };
  const int shifts[] = { 0, 4, 6 };
  std::mt19937 rng (16);
  int c;

  for (c = 0; c < 200; c++) {
    const int P = 1 + rng () % 2, w = 1 + rng () % 200, h = 1 + rng () % 80;
    const int stride = 2 * (P * w + rng () % 5);
    const int rx = rng () % 16, ry = rng () % 16;
    const int border = borders[rng () % 4], shift = shifts[rng () % 3];
    std::vector<unsigned char> src, dst;
    BoxBlurArgs a;
    int x, y, wrong = 0;

    random_frame (rng, P, w, h, stride, src, dst, &a);
    a.src_step = a.dst_step = 2;
    a.radius_x = rx;
    a.radius_y = ry;
    a.border = border;
    a.border_int = rng () % 65536;
    a.shift = shift;
    a.reach = P * rx;
    run_random_tiles (box_tiles_u16, &a, rng, TILE_UNIT_WIDE,
        TILE_COLUMNS_WIDE - 1);

    for (y = 0; y < h; y++)
      for (x = 0; x < stride / 2; x++) {
        const bool in = y >= a.y && y < a.y + a.h && x >= a.x
            && x < a.x + a.w;
        const int want = in ? mean_u16 (src.data (), stride, P, w, h, x / P,
            x % P, y, rx, ry, border, a.border_int, shift) : 0xabab;
        uint16_t got;

        memcpy (&got, dst.data () + y * stride + 2 * x, 2);
        if (got != want && wrong++ == 0)
          GST_ERROR ("case %d, %dx%d pixels of %d, radii %d/%d, border %d, "
              "shift %d, samples %d,%d %dx%d, tiles of %d: sample %d of row "
              "%d is %d, not %d", c, w, h, P, rx, ry, border, shift, a.x,
              a.y, a.w, a.h, a.row_run, x, y, got, want);
      }
    fail_unless (wrong == 0, "case %d: %d samples wrong (GST_DEBUG=check:1 "
        "says which)", c, wrong);
  }
}

GST_END_TEST;

static Suite *
kernels_cpu_suite (void)
{
  Suite *s = suite_create ("kernels-cpu");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_tiles_422);
  tcase_add_test (tc, test_tiles_u16);
  return s;
}

GST_CHECK_MAIN (kernels_cpu);
