/* cudaboxblur: the kernels, built with the plugin for each architecture,
 * and compiled at run time by NVRTC only where none of those runs.
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each output sample is the mean of the (2 * radius_x + 1) x
 * (2 * radius_y + 1) window around it.  Where the window leaves the frame,
 * BoxBlurArgs.border says what it reads: with BOX_BORDER_SHRINK (the NVIDIA
 * sample's rule) nothing, and the mean is over the samples inside the
 * frame, so border pixels average fewer neighbours; the other modes read
 * stand-in samples and always divide by the full window.
 *
 * A kernel works on one component of one plane (see boxblur-args.h): rows
 * are addressed through a byte stride and pixels through a byte step, so
 * padded rows, interleaved chroma and packed RGB need no copy; the *_px4
 * kernels take whole pixels of four 8-bit samples instead (Pixel4, in
 * common.cuh).  Only the region args.x, args.y, args.w, args.h is written;
 * windows read the whole frame.  Samples are 8-bit, 16-bit (native endian)
 * or float32.
 *
 * The kernels are in files of their families, included here in the order
 * they build on each other; a kernel is in the file its name starts with.
 * embed.py puts them together into one source for NVRTC, which receives
 * boxblur-args.h as an in-memory header; so does the plugin with a file
 * named by CUDABOXBLUR_KERNEL_SOURCE, from that file's folder.  Nothing
 * else may be included.
 */

#include "boxblur-args.h"

#include "common.cuh"
#include "box_blur.cuh"
#include "box_columns_rows.cuh"
#include "box_tiles.cuh"
#include "box_strips.cuh"
#include "pixelate.cuh"
#include "compose.cuh"
