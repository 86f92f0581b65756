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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblurimage.h"
#include "gstcudaboxblurallocator.h"
#ifdef HAVE_GST_CUDA
#include "gstcudaboxblurcuda.h"
#endif

#include <string.h>

/* TRUE when the kernels can use @frame of @buffer where it is: one block
 * of the element's managed memory, aligned to the samples. */
static gboolean
frame_is_managed (GstBuffer * buffer, const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurFrame * frame)
{
  gint p;

  if (gst_buffer_n_memory (buffer) != 1
      || !gst_cuda_box_blur_memory_is_managed (gst_buffer_peek_memory (buffer,
              0)))
    return FALSE;
  for (p = 0; p < info->n_planes; p++)
    if (((guintptr) frame->data[p] | (guintptr) frame->stride[p]) %
        info->sample_size)
      return FALSE;
  return TRUE;
}

/**
 * gst_cuda_box_blur_image_map:
 * @cuda_context: (nullable): the element's #GstCudaContext when the caps
 *   carry CUDA memory, else %NULL
 * @foreign: (out): set when the caps carry CUDA memory but @buffer is not
 *   CUDA memory of @cuda_context, and is read through the host
 *
 * Maps @buffer with @flags into @map and describes its frame for the
 * engine: CUDA memory of @cuda_context as device memory (no host copy),
 * the element's managed memory as managed, anything else as host memory.
 * Unmap it with gst_buffer_unmap().
 */
gboolean
gst_cuda_box_blur_image_map (GstCudaBoxBlurImage * image, GstBuffer * buffer,
    const GstCudaBoxBlurInfo * info, GstObject * cuda_context,
    GstMapFlags flags, GstMapInfo * map, gboolean * foreign, GError ** error)
{
  memset (image, 0, sizeof (*image));
  image->location = GST_CUDA_BOX_BLUR_IN_HOST;
  *foreign = FALSE;

#ifdef HAVE_GST_CUDA
  if (cuda_context) {
    if (gst_cuda_box_blur_map_device (buffer, GST_CUDA_CONTEXT (cuda_context),
            map, flags))
      image->location = GST_CUDA_BOX_BLUR_IN_DEVICE;
    else
      *foreign = TRUE;
  }
#endif

  if (image->location != GST_CUDA_BOX_BLUR_IN_DEVICE
      && !gst_buffer_map (buffer, map, flags)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
        "gst_buffer_map of %" GST_PTR_FORMAT " failed", buffer);
    return FALSE;
  }
  if (!gst_cuda_box_blur_frame_from_buffer (&image->frame, info, buffer, map,
          error)) {
    gst_buffer_unmap (buffer, map);
    return FALSE;
  }

  if (image->location == GST_CUDA_BOX_BLUR_IN_HOST
      && frame_is_managed (buffer, info, &image->frame))
    image->location = GST_CUDA_BOX_BLUR_IN_MANAGED;
  return TRUE;
}

/**
 * gst_cuda_box_blur_image_is_writable_in_place:
 * @cuda_context: (nullable): as for gst_cuda_box_blur_image_map()
 *
 * TRUE when the GPU can write @buffer where it is: nobody else holds it,
 * and its one memory is the element's managed memory or CUDA memory of
 * @cuda_context.
 */
gboolean
gst_cuda_box_blur_image_is_writable_in_place (GstBuffer * buffer,
    GstObject * cuda_context)
{
  if (gst_buffer_n_memory (buffer) != 1 || !gst_buffer_is_writable (buffer)
      || !gst_buffer_is_memory_range_writable (buffer, 0, -1))
    return FALSE;
  if (gst_cuda_box_blur_memory_is_managed (gst_buffer_peek_memory (buffer,
              0)))
    return TRUE;
#ifdef HAVE_GST_CUDA
  if (cuda_context)
    return gst_cuda_box_blur_is_device_buffer (buffer,
        GST_CUDA_CONTEXT (cuda_context));
#endif
  return FALSE;
}
