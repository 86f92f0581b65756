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

/* One component of one plane (the Y plane, the U bytes of an NV12 UV
 * plane, the G bytes of RGBA ...) and the rectangle of it to write. */
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
  int border;                   /* BOX_BORDER_* */
  unsigned int border_int;      /* constant border of integer samples */
  float border_float;           /* constant border of float samples */
} BoxBlurArgs;

#endif
