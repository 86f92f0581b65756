/* cudaboxblur: what one kernel launch works on.
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Shared by the host code (C) and the kernels (C++ compiled by NVRTC, which
 * gets this file as an in-memory header), so the two always agree on the
 * layout of the structure passed to every kernel.  Plain C types only.
 */

#ifndef CUDA_BOX_BLUR_ARGS_H
#define CUDA_BOX_BLUR_ARGS_H

/* What a window reads where it leaves the frame. */
#define BOX_BORDER_SHRINK 0     /* nothing: the mean of the pixels inside */
#define BOX_BORDER_CLAMP 1      /* the nearest edge pixel */
#define BOX_BORDER_MIRROR 2     /* reflected, edge not repeated (dcb|abcd) */
#define BOX_BORDER_WRAP 3       /* the other side of the frame */
#define BOX_BORDER_CONSTANT 4   /* border_int / border_float */

/* The shape of a region's redaction (BoxBlurArgs.shape): the region's
 * rectangle, or the ellipse inscribed in it. */
#define BOX_SHAPE_RECTANGLE 0
#define BOX_SHAPE_ELLIPSE 1

/* What every kernel may read of src: for each sample it writes, the
 * samples of its window (radius_x, radius_y around it, through the border
 * rule), and the row BOX_READ_BELOW below the last row's window (the
 * column sums slide one row on past their last window, and discard it),
 * also through the border rule: past the frame's bottom edge a mirror
 * reflects it to BOX_READ_BELOW rows above the windows, a wrap takes it
 * round to the top.  Nothing else: the host may hand a kernel a src that
 * holds no more (the halo copies of regions, halo_of () in
 * plan/cudaboxblur-frameplan.c, which the sweep-plans suite holds to this
 * rule). */
#define BOX_READ_BELOW 1

/* Threads of a block of the kernels with one thread per sample (and per
 * byte of the copies): BLOCK_W x BLOCK_H.  Each thread of box_blur3_*
 * makes BOX3_ROWS samples, one above the other; those of box_blur3_u8
 * also BOX3_U8_COLUMNS side by side. */
#define BLOCK_W 32
#define BLOCK_H 8
#define BOX3_ROWS 4
#define BOX3_U8_COLUMNS 4
/* Blocks of box_blur3_u8 a multiprocessor holds at once: its registers
 * are kept to those of this many (128 a thread).  Unbounded, its edge
 * path, unrolled four columns wide, takes 132 to 135 registers a thread
 * on sm_80 to sm_90, which leaves room for one block of 8 warps a
 * multiprocessor; bounded, it takes 122 on them, with no spill. */
#define BOX3_U8_BLOCKS_PER_SM 2

/* Threads of a pixelate_* block, and the columns of the tile it takes:
 * as many whole blocks of @block_w as they cover, or one wider block. */
#define PIXELATE_THREADS 128
#define PIXELATE_TILE(block_w) ((block_w) <= PIXELATE_THREADS ? \
    (block_w) * (PIXELATE_THREADS / (block_w)) : (block_w))

/* The columns each thread of box_columns_* sums side by side, and the
 * rows whose samples it loads at a time, for 8-bit, 16-bit and float32
 * samples. */
#define COLUMN_VECTOR_U8 4
#define COLUMN_VECTOR_U16 2
#define COLUMN_VECTOR_F32 4
#define COLUMN_UNROLL_U8 4
#define COLUMN_UNROLL_U16 4
#define COLUMN_UNROLL_F32 4

/* The one-pass kernels for 8-bit samples (box_tiles_*): threads of a
 * block, the rows of its tile, the most columns whose sums the tile keeps
 * in shared memory (its row_run columns and the windows' reach on either
 * side, from a multiple of 4) and the 16-bit sums from one of those rows
 * to the next (an odd number of 32-bit words, so that the lanes' reads of
 * a column, one a row, fall in 32 banks; for pixels of four, whose lanes
 * read a pixel's sums as one 64-bit word, twice an odd number, so that
 * those of each half-warp do), the means a lane stores at once, and what
 * row_run is a multiple of (a segment for each warp). */
#define TILE_THREADS 256
#define TILE_ROWS 32
/* The most groups of rows that a narrow 8-bit tile's column sums are
 * split in (tile_group () in box_tiles.cuh). */
#define TILE_GROUPS 4
#define TILE_COLUMNS 736
#define TILE_PITCH (TILE_COLUMNS + 2)
#define TILE_PITCH_PX4 (TILE_COLUMNS + 4)
#define TILE_SEGMENT 16
#define TILE_STEP (TILE_THREADS / 32 * TILE_SEGMENT)
/* What the width of a tile of pixels of @samples bytes is a multiple of:
 * a segment for each warp, of whole pixels. */
#define TILE_UNIT(samples) ((samples) == 3 ? 3 * TILE_STEP : TILE_STEP)
/* The 16-bit column sums a tile keeps in shared memory, rows @pitch
 * apart: its rows, and TILE_PAD on either side, for the columns a lane's
 * last segment may read past them: for pixels of P <= 3 samples up to
 * TILE_SEGMENT - 1 + P after the tile's last, or, folded back by a mirror
 * at the frame's right edge, 2 P + 14 before its first (at most 18; for
 * pixels of four, read whole, 20; for the chroma of packed 4:2:2, every
 * fourth byte, up to 16 after and 19 before). */
#define TILE_PAD 24
#define TILE_SUMS(pitch) (TILE_ROWS * (pitch) + 2 * TILE_PAD)
/* The windows box_tiles_u8 takes: at most TILE_WINDOW samples, which
 * its lanes divide by with one multiplication (tile_divider () in
 * box_tiles.cuh, exact for every sum of such a window), and at most
 * TILE_RADIUS_Y rows either side, whose column sums, kept twice over,
 * fit 16 bits (2 x 127 x 255). */
#define TILE_WINDOW 2048
#define TILE_RADIUS_Y 63
/* ... and for pixels of four, whose lanes take the differences of two
 * pairs of those sums at once, each below 2^15 (2 x 63 x 255): at most
 * TILE_RADIUS_Y_PX4 rows either side. */
#define TILE_RADIUS_Y_PX4 31
/* The one pass for float32 and 16-bit samples (box_tiles_f32,
 * box_tiles_u16) keeps 32-bit column sums (float32, or integer ones of
 * at most 2 TILE_RADIUS_Y + 1 samples) in as much shared memory: at most
 * TILE_COLUMNS_WIDE a row (from an even one), rows TILE_PITCH_WIDE words
 * apart (odd, as above), and TILE_PAD_WIDE on either side (a lane's last
 * segment reads up to TILE_SEGMENT_WIDE - 1 + P sums past the tile's
 * last, or, folded back by a mirror at the frame's right edge, 2 P + 6
 * before its first, for pixels of P samples, 1 or 2); its lanes store
 * TILE_SEGMENT_WIDE means at once (32 or 16 bytes), and row_run is a
 * multiple of TILE_UNIT_WIDE (a segment for each warp).  Its windows of
 * 16-bit samples hold at most TILE_WINDOW samples, as the 8-bit ones. */
#define TILE_COLUMNS_WIDE (TILE_COLUMNS / 2)
#define TILE_PITCH_WIDE (TILE_COLUMNS_WIDE + 1)
#define TILE_PAD_WIDE (TILE_PAD / 2)
#define TILE_SUMS_WIDE (TILE_ROWS * TILE_PITCH_WIDE + 2 * TILE_PAD_WIDE)
#define TILE_SEGMENT_WIDE 8
#define TILE_UNIT_WIDE (TILE_THREADS / 32 * TILE_SEGMENT_WIDE)
/* Its threads sum their columns loading TILE_UNROLL_WIDE rows at a time
 * where the windows take at most TILE_SHORT_RADIUS_WIDE rows either side,
 * the two passes' COLUMN_UNROLL_* where they take more (float32 samples,
 * H200, 4K: 8 rows at a time 8% / 5% faster than 4 at radius 2 / 3,
 * within 2% at 7, 14% slower at 15). */
#define TILE_UNROLL_WIDE 8
#define TILE_SHORT_RADIUS_WIDE 7
/* Blocks of box_tiles_u8 a multiprocessor holds at once: the registers
 * are kept to those of this many (64 a thread), as its shared memory
 * allows (four tiles of 46 KiB on 228 KiB). */
#define TILE_BLOCKS_PER_SM 4

/* The strip walker (box_strips_u8): warps of a block, each down a strip
 * of its own, side by side; the lanes of a warp that write (1 to
 * STRIP_LANES_OUT; 0 and 31 hold the columns beside them); the bytes a lane
 * takes for windows of @rx columns either side (a 32-bit word, or two for
 * windows that reach further than a word); and the windows it takes: at most
 * STRIP_MAX_RADIUS_X columns and STRIP_MAX_RADIUS_Y rows either side
 * (16-bit column sums of 2 STRIP_MAX_RADIUS_Y + 2 rows), and at most
 * TILE_WINDOW samples. */
#define STRIP_WARPS 4
#define STRIP_LANES_OUT 30
#define STRIP_BYTES(rx) ((rx) <= 4 ? 4 : 8)
#define STRIP_MAX_RADIUS_X 8
#define STRIP_MAX_RADIUS_Y 127
/* The 32-bit words of rows a lane of the strip walker has in flight at
 * once: the rows entering and leaving the windows of the next
 * STRIP_AHEAD / (words a lane) rows, loaded together before their means
 * are taken. */
#define STRIP_AHEAD 8

/* One component of one plane (the Y plane, the U bytes of an NV12 UV
 * plane, the G bytes of RGBA ...), or for the *_px4 kernels a plane of
 * whole pixels of four 8-bit samples, and the rectangle of it to write.
 * Every kernel takes a list of them and works on entry blockIdx.z, so
 * one launch serves every region of a frame; blocks beyond an entry's
 * rectangle do nothing. */
typedef struct
{
  const unsigned char *src;     /* the component of pixel (0, 0) */
  unsigned char *dst;
  int src_stride;               /* bytes from one row to the next */
  int dst_stride;
  int src_step;                 /* bytes from one pixel to the next */
  int dst_step;
  int width;                    /* of the component plane */
  int height;
  int radius_x;
  int radius_y;
  int x;                        /* the region written, inside the plane */
  int y;
  int w;
  int h;
  int block_w;                  /* pixelate: the blocks' size */
  int block_h;
  int border;                   /* BOX_BORDER_* */
  unsigned int border_int;      /* constant border of integer samples */
  float border_float;           /* constant border of float samples */
  /* compose: how the redacted samples are laid onto dst */
  int shape;                    /* BOX_SHAPE_* */
  int feather;                  /* samples over which the edge fades in */
  int fill;                     /* non-zero: the fill value, not src */
  unsigned int fill_int;        /* fill value of integer samples */
  float fill_float;             /* fill value of float samples */
  /* separable passes: the columns [x_first, x_last) the windows reach,
   * whose sums for each row of the rectangle lie in the column sums
   * memory from element mid_offset on, mid_pitch elements from one row
   * to the next; the column pass's threads walk column_run rows down, the
   * row pass's warps row_run samples along (box_tiles_u8: the columns of
   * a tile), the strip walker's warps column_run rows down */
  long long mid_offset;
  int x_first;
  int x_last;
  int mid_pitch;
  int column_run;
  int row_run;
  /* packed pixels (the *_px4 kernels): the bits of a pixel's 32-bit word
   * copied from src rather than blurred */
  unsigned int pixel_keep;
  /* box_tiles_*: the samples of a pixel, side by side and each blurred
   * with the same window (1; 2 for a plane of pairs such as NV12's or
   * P010's UV, 3 for RGB, 4 for RGBA ..., whose bytes in pixel_keep are
   * copied; box_tiles_f32: 1); x, w, width, x_first, x_last and row_run
   * then count samples (bytes of 8-bit ones), the radius pixels */
  int pixel_samples;
  /* box_tiles_*: the columns either side of a column written that its
   * windows reach (samples: radius_x pixels of pixel_samples, or for
   * packed 4:2:2 the farther of the luma's and the chroma's) */
  int reach;
  /* box_tiles_422: packed 4:2:2 (YUY2, UYVY, YVYU), macropixels of four
   * bytes (pixel_samples 4): two luma samples, at byte luma_byte (0 or 1)
   * and two on, whose windows take radius_x luma samples either side, and
   * two chroma ones, whose windows take chroma_radius_x chroma samples;
   * every sample's window takes radius_y rows */
  int luma_byte;
  int chroma_radius_x;
  /* 16-bit samples whose low shift bits are no part of them (P010's 6,
   * P012's 4): means and blends are rounded at the samples' depth and
   * stored back in the high bits, the low ones zero */
  int shift;
} BoxBlurArgs;

#endif
