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
#include "cudaboxblur-debug.h"

#include <gst/video/video.h>
#include <math.h>
#include <string.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurinfo",
    "cudaboxblur caps and frame layout")

static GstCudaBoxBlurComponentKind
component_kind (const GstVideoFormatInfo * finfo, guint c)
{
  static const GstCudaBoxBlurComponentKind yuv[] = {
    GST_CUDA_BOX_BLUR_LUMA, GST_CUDA_BOX_BLUR_CHROMA_U,
    GST_CUDA_BOX_BLUR_CHROMA_V, GST_CUDA_BOX_BLUR_ALPHA,
  };
  static const GstCudaBoxBlurComponentKind rgb[] = {
    GST_CUDA_BOX_BLUR_RED, GST_CUDA_BOX_BLUR_GREEN, GST_CUDA_BOX_BLUR_BLUE,
    GST_CUDA_BOX_BLUR_ALPHA,
  };

  return GST_VIDEO_FORMAT_INFO_IS_RGB (finfo) ? rgb[c] : yuv[c];
}

/* Fills the layout fields of @info from a GstVideoInfo of the same frame;
 * for GRAY32F, @vinfo is the GRAY8 frame of the same size and every byte
 * widens to @sample_size. */
static void
info_set_layout (GstCudaBoxBlurInfo * info, const GstVideoInfo * vinfo,
    gint sample_size)
{
  const GstVideoFormatInfo *finfo = vinfo->finfo;
  /* per plane: the bytes its components fill of its largest pixel group
   * (pixel_bytes: YUY2's Y0 U Y1 V) */
  gint written[GST_VIDEO_MAX_PLANES] = { 0, };
  guint c, p;

  info->width = GST_VIDEO_INFO_WIDTH (vinfo);
  info->height = GST_VIDEO_INFO_HEIGHT (vinfo);
  info->n_planes = GST_VIDEO_INFO_N_PLANES (vinfo);
  info->n_components = GST_VIDEO_INFO_N_COMPONENTS (vinfo);
  info->sample_size = sample_size;

  for (c = 0; c < (guint) info->n_components; c++) {
    GstCudaBoxBlurComponent *comp = &info->comp[c];
    /* GRAY32F is GRAY8 with each byte widened; 10- and 12-bit samples
     * are packed in 16 bits */
    const gint widen = sample_size /
        (GST_ROUND_UP_8 (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c)) / 8);

    comp->kind = component_kind (finfo, c);
    comp->plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
    comp->offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c) * widen;
    /* GStreamer 1.22 gives the V word of P010, P012 and P016 the offset 1:
     * an offset that is no whole number of samples counts samples */
    if (comp->offset % sample_size != 0)
      comp->offset *= sample_size;
    comp->shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
    comp->step = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c) * widen;
    comp->width = GST_VIDEO_INFO_COMP_WIDTH (vinfo, c);
    comp->height = GST_VIDEO_INFO_COMP_HEIGHT (vinfo, c);
    comp->w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    comp->h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);

    /* YUY2's chroma of an odd width reaches past its luma */
    info->row_bytes[comp->plane] = MAX (info->row_bytes[comp->plane],
        comp->width * comp->step);
    info->plane_height[comp->plane] = comp->height;
    info->plane_components[comp->plane]++;
    info->pixel_bytes[comp->plane] = MAX (info->pixel_bytes[comp->plane],
        comp->step);
  }

  /* a row's bytes that no component's samples take: the x of RGBx, and
   * the second luma byte of the last pair of YUY2 of an odd width */
  for (c = 0; c < (guint) info->n_components; c++)
    written[info->comp[c].plane] += info->comp[c].width * sample_size;
  info->has_padding = FALSE;
  for (p = 0; p < (guint) info->n_planes; p++)
    if (written[p] < info->row_bytes[p])
      info->has_padding = TRUE;

  info->size = 0;
  for (p = 0; p < (guint) info->n_planes; p++) {
    if (sample_size == 4 && info->video_format == GST_VIDEO_FORMAT_UNKNOWN) {
      info->stride[p] = info->row_bytes[p];
      info->offset[p] = 0;
    } else {
      info->stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (vinfo, p);
      info->offset[p] = GST_VIDEO_INFO_PLANE_OFFSET (vinfo, p);
    }
    info->size = MAX (info->size, info->offset[p] +
        (gsize) info->stride[p] * info->plane_height[p]);
  }
  /* GStreamer's frame may end past the last row a plane uses (I422_10LE
   * of an odd height counts its chroma planes' rows rounded up to even):
   * frames are that size, which gst_video_frame_map() asks of a buffer */
  if (info->video_format != GST_VIDEO_FORMAT_UNKNOWN)
    info->size = MAX (info->size, GST_VIDEO_INFO_SIZE (vinfo));
}

/**
 * gst_cuda_box_blur_info_from_caps:
 *
 * Parses fixed `video/x-raw` caps of one of GST_CUDA_BOX_BLUR_FORMATS.
 * GRAY32F is parsed by reading the caps as GRAY8 (which validates width,
 * height, framerate and the other common fields the same way GStreamer
 * does) and then widening the pixels to 4 bytes.
 */
gboolean
gst_cuda_box_blur_info_from_caps (GstCudaBoxBlurInfo * info,
    const GstCaps * caps)
{
  static GstCaps *supported = NULL;
  GstStructure *s;
  const gchar *format;
  GstCaps *parse_caps;
  GstVideoInfo vinfo;
  gboolean ok, gray32f;

  g_return_val_if_fail (info != NULL, FALSE);
  g_return_val_if_fail (caps != NULL, FALSE);

  if (g_once_init_enter (&supported)) {
    GstCaps *c = gst_caps_from_string (GST_CUDA_BOX_BLUR_CAPS);
    GST_MINI_OBJECT_FLAG_SET (c, GST_MINI_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&supported, c);
  }

  if (!gst_caps_is_fixed (caps) || gst_caps_get_size (caps) != 1) {
    GST_WARNING ("caps are not fixed: %" GST_PTR_FORMAT, caps);
    return FALSE;
  }

  /* the layout is the same in every memory; the pad templates say which
   * memory takes which format */
  parse_caps = gst_caps_copy (caps);
  gst_caps_set_features (parse_caps, 0, NULL);
  s = gst_caps_get_structure (parse_caps, 0);
  format = gst_structure_get_string (s, "format");
  if (!gst_structure_has_name (s, "video/x-raw") || format == NULL
      || !gst_caps_can_intersect (parse_caps, supported)) {
    GST_WARNING ("unsupported caps %" GST_PTR_FORMAT, caps);
    gst_caps_unref (parse_caps);
    return FALSE;
  }

  memset (info, 0, sizeof (*info));
  gray32f = strcmp (format, "GRAY32F") == 0;
  if (gray32f)
    gst_caps_set_simple (parse_caps, "format", G_TYPE_STRING, "GRAY8", NULL);
  ok = gst_video_info_from_caps (&vinfo, parse_caps);
  gst_caps_unref (parse_caps);
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

  if (gray32f) {
    info->format = "GRAY32F";
    info->video_format = GST_VIDEO_FORMAT_UNKNOWN;
    info->type = GST_CUDA_BOX_BLUR_F32;
    info_set_layout (info, &vinfo, 4);
  } else {
    const gint depth = GST_VIDEO_INFO_COMP_DEPTH (&vinfo, 0);

    info->format = GST_VIDEO_INFO_NAME (&vinfo);
    info->video_format = GST_VIDEO_INFO_FORMAT (&vinfo);
    info->type = depth > 8 ? GST_CUDA_BOX_BLUR_U16 : GST_CUDA_BOX_BLUR_U8;
    info_set_layout (info, &vinfo, depth > 8 ? 2 : 1);
  }

  info->finfo = vinfo.finfo;
  info->colorimetry = vinfo.colorimetry;

  if (info->width > GST_CUDA_BOX_BLUR_MAX_DIMENSION
      || info->height > GST_CUDA_BOX_BLUR_MAX_DIMENSION) {
    GST_WARNING ("frame size %dx%d beyond %dx%d", info->width, info->height,
        GST_CUDA_BOX_BLUR_MAX_DIMENSION, GST_CUDA_BOX_BLUR_MAX_DIMENSION);
    return FALSE;
  }
  /* buffer pools count a buffer's bytes in a guint (GRAY32F, laid out as
   * GRAY8 widened, escapes GStreamer's own limit) */
  if (info->size > G_MAXUINT) {
    GST_WARNING ("%dx%d %s frames of %" G_GSIZE_FORMAT " bytes: above the "
        "%u a buffer pool takes", info->width, info->height, info->format,
        info->size, G_MAXUINT);
    return FALSE;
  }

  return TRUE;
}

/**
 * gst_cuda_box_blur_info_sample_max:
 *
 * The largest sample of component @component at the format's depth: 255
 * for 8 bits, 1023, 4095 or 65535 for the 10-, 12- and 16-bit formats
 * (whose samples lie in the low bits of 16-bit words, or in the high bits
 * for P010 and P012: GstCudaBoxBlurComponent's shift); %G_MAXFLOAT for
 * GRAY32F.
 */
gdouble
gst_cuda_box_blur_info_sample_max (const GstCudaBoxBlurInfo * info,
    gint component)
{
  if (info->type == GST_CUDA_BOX_BLUR_F32)
    return G_MAXFLOAT;
  return (1 << GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, component)) - 1;
}

/**
 * gst_cuda_box_blur_info_color_sample:
 * @argb: 0xAARRGGBB, R'G'B' as they are (no transfer function applied)
 *
 * The value of component @component for the colour @argb in @info frames:
 * R, G, B and A scaled to the component's range; Y, U and V through the
 * caps' colour matrix (gst_video_info_from_caps() fills in GStreamer's
 * default where the caps give none; BT.709 where even that names none),
 * then offset and scaled by the caps' range.  Integer samples
 * are rounded; GRAY32F takes GRAY8's value unrounded.
 */
gdouble
gst_cuda_box_blur_info_color_sample (const GstCudaBoxBlurInfo * info,
    gint component, guint32 argb)
{
  const gdouble a = (argb >> 24 & 0xff) / 255.0;
  const gdouble r = (argb >> 16 & 0xff) / 255.0;
  const gdouble g = (argb >> 8 & 0xff) / 255.0;
  const gdouble b = (argb & 0xff) / 255.0;
  gint offset[GST_VIDEO_MAX_COMPONENTS], scale[GST_VIDEO_MAX_COMPONENTS];
  gdouble kr, kb, y, v = 0, sample;

  if (!gst_video_color_matrix_get_Kr_Kb (info->colorimetry.matrix, &kr, &kb))
    gst_video_color_matrix_get_Kr_Kb (GST_VIDEO_COLOR_MATRIX_BT709, &kr, &kb);
  y = kr * r + (1 - kr - kb) * g + kb * b;

  switch (info->comp[component].kind) {
    case GST_CUDA_BOX_BLUR_LUMA:
      v = y;
      break;
    case GST_CUDA_BOX_BLUR_CHROMA_U:
      v = (b - y) / (2 * (1 - kb));
      break;
    case GST_CUDA_BOX_BLUR_CHROMA_V:
      v = (r - y) / (2 * (1 - kr));
      break;
    case GST_CUDA_BOX_BLUR_RED:
      v = r;
      break;
    case GST_CUDA_BOX_BLUR_GREEN:
      v = g;
      break;
    case GST_CUDA_BOX_BLUR_BLUE:
      v = b;
      break;
    case GST_CUDA_BOX_BLUR_ALPHA:
      v = a;
      break;
  }

  gst_video_color_range_offsets (info->colorimetry.range, info->finfo, offset,
      scale);
  sample = offset[component] + scale[component] * v;
  if (info->type == GST_CUDA_BOX_BLUR_F32)
    return sample;
  return CLAMP (round (sample), 0,
      gst_cuda_box_blur_info_sample_max (info, component));
}

/* TRUE when structure @index of @caps describes frames in GStreamer's
 * CUDA memory. */
gboolean
gst_cuda_box_blur_caps_are_cuda (const GstCaps * caps, guint index)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, index);

  return features && gst_caps_features_contains (features,
      GST_CUDA_BOX_BLUR_CUDA_MEMORY_FEATURE);
}

/**
 * gst_cuda_box_blur_frame_from_buffer:
 * @map: @buffer mapped as a whole
 *
 * Describes the frame in @buffer, honouring a #GstVideoMeta (padded strides,
 * plane offsets) when there is one, and checks that every row of every
 * plane lies inside the mapped memory and that samples are aligned.
 */
gboolean
gst_cuda_box_blur_frame_from_buffer (GstCudaBoxBlurFrame * frame,
    const GstCudaBoxBlurInfo * info, GstBuffer * buffer, GstMapInfo * map,
    GError ** error)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  gint p;

  if (meta && (meta->width != (guint) info->width
          || meta->height != (guint) info->height
          || meta->n_planes != (guint) info->n_planes)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "video meta says %ux%u with %u planes but caps say %dx%d %s",
        meta->width, meta->height, meta->n_planes, info->width,
        info->height, info->format);
    return FALSE;
  }

  for (p = 0; p < info->n_planes; p++) {
    const gsize offset = meta ? meta->offset[p] : info->offset[p];
    const gint stride = meta ? meta->stride[p] : info->stride[p];
    gsize span;

    if (stride < info->row_bytes[p]) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "stride %d of plane %d is smaller than its row of %d bytes (%d "
          "%s pixels)", stride, p, info->row_bytes[p], info->width,
          info->format);
      return FALSE;
    }
    if (stride % info->sample_size || offset % info->sample_size) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "plane %d at offset %" G_GSIZE_FORMAT " with stride %d is not "
          "aligned to the %d-byte samples of %s", p, offset, stride,
          info->sample_size, info->format);
      return FALSE;
    }
    /* the offset may be anything: compared without adding to it */
    span = (gsize) stride * (info->plane_height[p] - 1) + info->row_bytes[p];
    if (offset > map->size || map->size - offset < span) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "buffer of %" G_GSIZE_FORMAT " bytes is too small for a %dx%d %s "
          "frame: plane %d at offset %" G_GSIZE_FORMAT " with stride %d "
          "takes %" G_GSIZE_FORMAT " bytes", map->size, info->width,
          info->height, info->format, p, offset, stride, span);
      return FALSE;
    }
    frame->data[p] = map->data + offset;
    frame->stride[p] = stride;
  }
  return TRUE;
}

/* A frame in the caps' default layout at @data. */
void
gst_cuda_box_blur_frame_from_data (GstCudaBoxBlurFrame * frame,
    const GstCudaBoxBlurInfo * info, guint8 * data)
{
  gint p;

  for (p = 0; p < info->n_planes; p++) {
    frame->data[p] = data + info->offset[p];
    frame->stride[p] = info->stride[p];
  }
}

/* Component @component of @frame, as the kernels address it. */
void
gst_cuda_box_blur_frame_get_plane (const GstCudaBoxBlurFrame * frame,
    const GstCudaBoxBlurInfo * info, gint component,
    GstCudaBoxBlurPlane * plane)
{
  const GstCudaBoxBlurComponent *comp = &info->comp[component];

  plane->data = frame->data[comp->plane] + comp->offset;
  plane->width = comp->width;
  plane->height = comp->height;
  plane->stride = frame->stride[comp->plane];
  plane->step = comp->step;
  plane->shift = comp->shift;
}

/* The bytes from the first byte of the first plane to the last pixel of the
 * last one: what a copy of the whole frame must move. */
guint8 *
gst_cuda_box_blur_frame_span (const GstCudaBoxBlurFrame * frame,
    const GstCudaBoxBlurInfo * info, gsize * size)
{
  guint8 *begin = frame->data[0], *end = frame->data[0];
  gint p;

  for (p = 0; p < info->n_planes; p++) {
    guint8 *plane_end = frame->data[p] +
        (gsize) frame->stride[p] * (info->plane_height[p] - 1) +
        info->row_bytes[p];
    begin = MIN (begin, frame->data[p]);
    end = MAX (end, plane_end);
  }
  *size = end - begin;
  return begin;
}

/* Moves @frame so that its span starts at @base, planes keeping their
 * places relative to each other: the frame as copied to @base. */
void
gst_cuda_box_blur_frame_rebase (GstCudaBoxBlurFrame * frame,
    const GstCudaBoxBlurInfo * info, guint8 * base)
{
  gsize size;
  guint8 *begin = gst_cuda_box_blur_frame_span (frame, info, &size);
  gint p;

  for (p = 0; p < info->n_planes; p++)
    frame->data[p] = base + (frame->data[p] - begin);
}
