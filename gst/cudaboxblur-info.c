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

#include "cudaboxblur-info.h"

#include <gst/video/video.h>

static GstDebugCategory *
ensure_debug_category (void)
{
  static gsize cat = 0;

  if (g_once_init_enter (&cat)) {
    gsize c = (gsize) _gst_debug_category_new ("cudaboxblurinfo", 0,
        "cudaboxblur caps and frame layout");
    g_once_init_leave (&cat, c);
  }
  return (GstDebugCategory *) cat;
}

#define GST_CAT_DEFAULT ensure_debug_category ()

const gchar *
gst_cuda_box_blur_format_to_string (GstCudaBoxBlurFormat format)
{
  switch (format) {
    case GST_CUDA_BOX_BLUR_FORMAT_GRAY8:
      return "GRAY8";
    case GST_CUDA_BOX_BLUR_FORMAT_GRAY32F:
      return "GRAY32F";
  }
  g_return_val_if_reached (NULL);
}

/**
 * gst_cuda_box_blur_info_from_caps:
 *
 * Parses fixed `video/x-raw` caps of format GRAY8 or GRAY32F.  GRAY32F is
 * parsed by reading the caps as GRAY8 (which validates width, height,
 * framerate and the other common fields the same way GStreamer does) and
 * then widening the pixels to 4 bytes.
 */
gboolean
gst_cuda_box_blur_info_from_caps (GstCudaBoxBlurInfo * info,
    const GstCaps * caps)
{
  GstStructure *s;
  const gchar *format;
  GstCaps *gray8_caps;
  GstVideoInfo vinfo;
  gboolean ok;

  g_return_val_if_fail (info != NULL, FALSE);
  g_return_val_if_fail (caps != NULL, FALSE);

  if (!gst_caps_is_fixed (caps) || gst_caps_get_size (caps) != 1) {
    GST_WARNING ("caps are not fixed: %" GST_PTR_FORMAT, caps);
    return FALSE;
  }

  s = gst_caps_get_structure (caps, 0);
  if (!gst_structure_has_name (s, "video/x-raw")) {
    GST_WARNING ("not raw video: %" GST_PTR_FORMAT, caps);
    return FALSE;
  }

  format = gst_structure_get_string (s, "format");
  if (g_strcmp0 (format, "GRAY8") == 0) {
    info->format = GST_CUDA_BOX_BLUR_FORMAT_GRAY8;
    info->bpp = 1;
  } else if (g_strcmp0 (format, "GRAY32F") == 0) {
    info->format = GST_CUDA_BOX_BLUR_FORMAT_GRAY32F;
    info->bpp = 4;
  } else {
    GST_WARNING ("unsupported format %s", GST_STR_NULL (format));
    return FALSE;
  }

  gray8_caps = gst_caps_copy (caps);
  gst_caps_set_simple (gray8_caps, "format", G_TYPE_STRING, "GRAY8", NULL);
  ok = gst_video_info_from_caps (&vinfo, gray8_caps);
  gst_caps_unref (gray8_caps);
  if (!ok) {
    GST_WARNING ("invalid video caps %" GST_PTR_FORMAT, caps);
    return FALSE;
  }

  if (GST_VIDEO_INFO_INTERLACE_MODE (&vinfo) !=
      GST_VIDEO_INTERLACE_MODE_PROGRESSIVE) {
    GST_WARNING ("only progressive video is supported: %" GST_PTR_FORMAT,
        caps);
    return FALSE;
  }

  info->width = GST_VIDEO_INFO_WIDTH (&vinfo);
  info->height = GST_VIDEO_INFO_HEIGHT (&vinfo);
  if (info->width < 1 || info->height < 1
      || info->width > GST_CUDA_BOX_BLUR_MAX_DIMENSION
      || info->height > GST_CUDA_BOX_BLUR_MAX_DIMENSION) {
    GST_WARNING ("frame size %dx%d outside 1x1 .. %dx%d", info->width,
        info->height, GST_CUDA_BOX_BLUR_MAX_DIMENSION,
        GST_CUDA_BOX_BLUR_MAX_DIMENSION);
    return FALSE;
  }

  if (info->format == GST_CUDA_BOX_BLUR_FORMAT_GRAY8)
    info->stride = GST_VIDEO_INFO_PLANE_STRIDE (&vinfo, 0);
  else
    info->stride = info->width * info->bpp;
  info->size = (gsize) info->stride * info->height;

  return TRUE;
}

/**
 * gst_cuda_box_blur_plane_from_buffer:
 * @map: @buffer mapped as a whole
 *
 * Describes the frame in @buffer, honouring a #GstVideoMeta (padded strides,
 * plane offset) when there is one, and checks that every row lies inside the
 * mapped memory.
 */
gboolean
gst_cuda_box_blur_plane_from_buffer (GstCudaBoxBlurPlane * plane,
    const GstCudaBoxBlurInfo * info, GstBuffer * buffer, GstMapInfo * map,
    GError ** error)
{
  GstVideoMeta *meta;
  gsize offset = 0, needed;
  gint stride = info->stride;

  meta = gst_buffer_get_video_meta (buffer);
  if (meta) {
    if (meta->width != (guint) info->width
        || meta->height != (guint) info->height) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "video meta says %ux%u but caps say %dx%d", meta->width,
          meta->height, info->width, info->height);
      return FALSE;
    }
    offset = meta->offset[0];
    stride = meta->stride[0];
  }

  if (stride < info->width * info->bpp) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "stride %d is smaller than a row of %d %s pixels", stride,
        info->width, gst_cuda_box_blur_format_to_string (info->format));
    return FALSE;
  }

  needed = offset + (gsize) stride * (info->height - 1)
      + (gsize) info->width * info->bpp;
  if (map->size < needed) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "buffer of %" G_GSIZE_FORMAT " bytes is too small for a %dx%d %s "
        "frame with stride %d (needs %" G_GSIZE_FORMAT ")", map->size,
        info->width, info->height,
        gst_cuda_box_blur_format_to_string (info->format), stride, needed);
    return FALSE;
  }

  plane->data = map->data + offset;
  plane->width = info->width;
  plane->height = info->height;
  plane->stride = stride;
  plane->bpp = info->bpp;
  return TRUE;
}
