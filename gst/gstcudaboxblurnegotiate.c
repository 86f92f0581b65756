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

/* What the element agrees with its neighbours: the caps on either side
 * (the same frames, in system or CUDA memory), the device of the CUDA
 * memory coming in, the engine those frames need, and the buffer pools
 * offered upstream and taken for the output. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblurpriv.h"
#include "gstcudaboxblurbufferpool.h"

#ifdef HAVE_GST_CUDA
#include "gstcudaboxblurcuda.h"
#endif

#ifdef HAVE_GST_CUDA
/* The CUDA memory coming in (@cuda[0]: the sink caps carry it) must be on
 * the element's device: with device-id -1 the element moves to the context
 * of an upstream neighbour on another device (one that started after the
 * element, say); otherwise it is an error.  The memory going out
 * (@cuda[1]) is the element's own, of its context, and is left to a
 * downstream CUDA element on another device (GStreamer's follow the
 * context of the memory they get where their cuda-device-id allows, as
 * cudadownload's default -1 does): it moves only an element of device-id
 * -1 with no CUDA memory coming in. */
static gboolean
gst_cuda_box_blur_check_peers (GstCudaBoxBlur * self, const gboolean cuda[2])
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstPad *pads[] = { trans->sinkpad, trans->srcpad };
  gboolean moved = FALSE, ok = TRUE;
  guint i;
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->props.device_id;
  GST_OBJECT_UNLOCK (self);

  for (i = 0; i < G_N_ELEMENTS (pads) && ok; i++) {
    GstCudaContext *peer = cuda[i] ? gst_cuda_box_blur_peer_context (pads[i])
        : NULL;
    guint ours = gst_cuda_box_blur_context_device (self->cuda_context);
    guint theirs;

    if (!peer)
      continue;
    theirs = gst_cuda_box_blur_context_device (peer);
    if (theirs != ours && device_id < 0 && !moved && (i == 0 || !cuda[0])) {
      GstCudaContext *old;

      GST_INFO_OBJECT (self, "moving to device %u, the neighbours' device",
          theirs);
      /* everything of the old device goes: the engines now, in its
       * context; the allocator in gst_cuda_box_blur_open(); the pools when
       * the allocation is decided again after these caps */
      gst_cuda_box_blur_drop_engine (self);
      GST_OBJECT_LOCK (self);
      old = self->cuda_context;
      self->cuda_context = gst_object_ref (peer);
      GST_OBJECT_UNLOCK (self);
      gst_object_unref (old);
      moved = TRUE;
      ok = gst_cuda_box_blur_open (self, theirs);
    } else if (theirs != ours && i == 0) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("cudaboxblur runs on "
              "CUDA device %u, but the CUDA memory coming into it is on "
              "device %u", ours, theirs),
          ("device-id=%d: set it to %u, or to -1 to follow the neighbours",
              device_id, theirs));
      ok = FALSE;
    } else if (theirs != ours) {
      GST_INFO_OBJECT (self, "downstream works on device %u; the CUDA "
          "memory going out is on device %u", theirs, ours);
    }
    gst_object_unref (peer);
  }
  return ok;
}
#endif

/* Makes the engine for @info frames, and checks that the frames fit in the
 * GPU's memory; with CUDA memory on a pad (@cuda: sink, src) checks the
 * neighbours' device first. */
static gboolean
gst_cuda_box_blur_prepare_engine (GstCudaBoxBlur * self,
    const GstCudaBoxBlurInfo * info, const gboolean cuda[2])
{
  GError *error = NULL;
  gboolean ok;

#ifdef HAVE_GST_CUDA
  if ((cuda[0] || cuda[1]) && !gst_cuda_box_blur_check_peers (self, cuda))
    return FALSE;
#endif

  /* work memory only grows: what frames of another size took goes */
  if (self->engines[0] && self->negotiated && self->info.size != info->size)
    gst_cuda_box_blur_drop_engine (self);
  if (!gst_cuda_box_blur_enter (self, &error)) {
    POST_ERROR (self, error, "device %d", self->device.device_id);
    g_error_free (error);
    return FALSE;
  }
  if (!self->engines[0])
    self->engines[0] = gst_cuda_box_blur_engine_new (&self->device,
        self->program, self, &error);
  ok = self->engines[0] && gst_cuda_box_blur_engine_check_fits
      (self->engines[0], info, &error);
  gst_cuda_box_blur_leave (self);

  if (!ok) {
    if (!gst_cuda_box_blur_post_if_lost (self, error))
      POST_ERROR (self, error, "device %d: %s", self->device.device_id,
          self->device.name);
    g_error_free (error);
  }
  return ok;
}

gboolean
gst_cuda_box_blur_get_unit_size (GstBaseTransform * trans, GstCaps * caps,
    gsize * size)
{
  GstCudaBoxBlurInfo info;

  if (!gst_cuda_box_blur_info_from_caps (&info, caps))
    return FALSE;

  *size = info.size;
  return TRUE;
}

/* Output frames are the size of a frame of the output caps, whatever the
 * input buffer holds. */
gboolean
gst_cuda_box_blur_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps,
    gsize * othersize)
{
  return gst_cuda_box_blur_get_unit_size (trans, othercaps, othersize);
}

/* The same frames on the other side, in the same memory first; with
 * GStreamer's CUDA memory, also in the other memory, so that the element
 * can stand where frames cross between system and CUDA memory, with their
 * region metas (GStreamer 1.22's cudaupload and cudadownload drop them). */
GstCaps *
gst_cuda_box_blur_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret, *both;

#ifdef HAVE_GST_CUDA
  both = gst_cuda_box_blur_cuda_both_memories (caps);
#else
  both = gst_caps_ref (caps);
#endif
  if (!filter)
    return both;
  ret = gst_caps_intersect_full (filter, both, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (both);
  return ret;
}

/* @fixed stating an interlace-mode only where @caps does: the templates
 * name progressive, the one mode the element takes, and caps that leave
 * it out mean the same frames. */
static GstCaps *
interlace_as_given (GstCaps * caps, GstCaps * fixed)
{
  if (!gst_caps_is_empty (fixed) && !gst_structure_has_field
      (gst_caps_get_structure (caps, 0), "interlace-mode")) {
    fixed = gst_caps_make_writable (fixed);
    gst_structure_remove_field (gst_caps_get_structure (fixed, 0),
        "interlace-mode");
  }
  return fixed;
}

/* The other side in the memory of @caps where the neighbour takes it,
 * whatever order it listed the memories in: the element crosses between
 * the memories only when the neighbour takes only the other. */
GstCaps *
gst_cuda_box_blur_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  const gboolean cuda = gst_cuda_box_blur_caps_are_cuda (caps, 0);
  guint i;

  for (i = 0; i < gst_caps_get_size (othercaps); i++) {
    if (gst_cuda_box_blur_caps_are_cuda (othercaps, i) == cuda) {
      GstCaps *same = gst_caps_copy_nth (othercaps, i);

      gst_caps_unref (othercaps);
      return interlace_as_given (caps, gst_caps_fixate (same));
    }
  }
  return interlace_as_given (caps, gst_caps_fixate (othercaps));
}

/* Whether @incaps and @outcaps describe the same frames: equal, but for
 * an interlace-mode that one states and the other leaves out (the pad
 * templates name progressive video, the one mode the element takes). */
static gboolean
same_frames (GstCaps * incaps, GstCaps * outcaps)
{
  GstStructure *in = gst_structure_copy (gst_caps_get_structure (incaps, 0));
  GstStructure *out = gst_structure_copy (gst_caps_get_structure (outcaps,
          0));
  gboolean same;

  gst_structure_remove_field (in, "interlace-mode");
  gst_structure_remove_field (out, "interlace-mode");
  same = gst_structure_is_equal (in, out);
  gst_structure_free (in);
  gst_structure_free (out);
  return same;
}

gboolean
gst_cuda_box_blur_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);
  GstCudaBoxBlurSettings settings;
  GstCudaBoxBlurInfo info;
  gboolean cuda[2];

  /* Frames in flight go out under the caps they were made for: new caps
   * come without an event (which drains them) when downstream asks to
   * renegotiate, and may move the output to the other memory. */
  if (gst_cuda_box_blur_drain (self, TRUE) != GST_FLOW_OK)
    GST_WARNING_OBJECT (self, "frames in flight dropped before new caps");

  /* the same frames on both sides, in one memory or the other */
  filter->negotiated = FALSE;
  if (!gst_cuda_box_blur_info_from_caps (&info, incaps)
      || !same_frames (incaps, outcaps)) {
    GST_ERROR_OBJECT (self, "cannot blur %" GST_PTR_FORMAT " into %"
        GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  cuda[0] = gst_cuda_box_blur_caps_are_cuda (incaps, 0);
  cuda[1] = gst_cuda_box_blur_caps_are_cuda (outcaps, 0);
  if (self->program && !gst_cuda_box_blur_prepare_engine (self, &info, cuda))
    return FALSE;

  /* Keep GstVideoFilter's view of the stream where it has one. */
  if (info.video_format != GST_VIDEO_FORMAT_UNKNOWN) {
    gst_video_info_from_caps (&filter->in_info, incaps);
    filter->out_info = filter->in_info;
  } else {
    gst_video_info_init (&filter->in_info);
    gst_video_info_init (&filter->out_info);
  }
  filter->negotiated = TRUE;

  GST_OBJECT_LOCK (self);
  /* held regions are in pixels: kept while the frame keeps its size (a
   * change of memory downstream, a tee's new branch) */
  if (!self->negotiated || self->info.width != info.width
      || self->info.height != info.height)
    gst_cuda_box_blur_hold_reset (&self->hold);
  /* passthrough: the first caps from the properties; new caps while
   * streaming (a reconfigure basetransform makes as it takes a frame,
   * after before_transform) from that frame's settings */
  settings = self->negotiated ? self->frame_settings : self->props.settings;
  self->info = info;
  self->negotiated = TRUE;
  self->cuda_in = cuda[0];
  self->cuda_out = cuda[1];
  GST_OBJECT_UNLOCK (self);
  gst_cuda_box_blur_update_passthrough (self, &settings);

  GST_DEBUG_OBJECT (self, "%s %dx%d from %s into %s memory, %d planes, %d "
      "components", info.format, info.width, info.height,
      cuda[0] ? "CUDA" : "system", cuda[1] ? "CUDA" : "system",
      info.n_planes, info.n_components);
  return TRUE;
}

/* A pool for @caps, configured with its size re-read from the pool (it
 * may round up): for CUDA memory a GstCudaBufferPool of the shared context
 * (@reuse when it is one), otherwise a pool of the element's managed or
 * pinned memory. */
static GstBufferPool *
gst_cuda_box_blur_new_pool (GstCudaBoxBlur * self, GstCaps * caps,
    GstBufferPool * reuse, guint min, guint max, gboolean video_meta,
    guint * size)
{
  const gboolean cuda = gst_cuda_box_blur_caps_are_cuda (caps, 0);
  GstCudaBoxBlurInfo info;
  GstBufferPool *pool;
  GstStructure *config;

  if (!gst_cuda_box_blur_info_from_caps (&info, caps))
    return NULL;

  if (!cuda) {
    pool = gst_cuda_box_blur_buffer_pool_new (self->allocator);
  } else {
#ifdef HAVE_GST_CUDA
    if (!self->cuda_context)
      return NULL;
    pool = gst_cuda_box_blur_cuda_pool (self->cuda_context, reuse);
#else
    return NULL;
#endif
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  if (!cuda)
    gst_buffer_pool_config_set_allocator (config, self->allocator, NULL);
  if (video_meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_ERROR_OBJECT (self, "buffer pool refused %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return NULL;
  }

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return pool;
}

/* Offer upstream a pool of managed memory (or of CUDA memory for CUDA
 * caps), so that producers write frames where the kernels can read them
 * without a copy. */
gboolean
gst_cuda_box_blur_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstBaseTransformClass *base_class =
      g_type_class_peek (GST_TYPE_BASE_TRANSFORM);
  GstBufferPool *pool;
  GstCaps *caps;
  guint size, held;

  /* Skip GstVideoFilter's version: it offers a GstVideoBufferPool. */
  if (!base_class->propose_allocation (trans, decide_query, query))
    return FALSE;

  /* In passthrough the query was answered downstream. */
  if (decide_query == NULL || self->allocator == NULL)
    return TRUE;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL)
    return FALSE;

  /* Offered even when upstream did not ask for a pool: a pool recycles its
   * managed buffers, while cudaMallocManaged for every frame is slow. */
  pool = gst_cuda_box_blur_new_pool (self, caps, NULL, 0, 0, TRUE, &size);
  if (!pool)
    return FALSE;
  /* frames in flight hold input buffers back: upstream's own pool needs
   * that many more */
  GST_OBJECT_LOCK (self);
  held = self->props.frames_in_flight - 1;
  GST_OBJECT_UNLOCK (self);
  gst_query_add_allocation_pool (query, pool, size, held, 0);
  gst_object_unref (pool);
  if (!gst_cuda_box_blur_caps_are_cuda (caps, 0))
    gst_query_add_allocation_param (query, self->allocator, NULL);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  return TRUE;
}

/* System-memory output always comes from our managed (or pinned) pool;
 * downstream's only say is the number of buffers and whether it
 * understands GstVideoMeta.  CUDA-memory output comes from downstream's
 * CUDA pool when it shares our context, else from our own. */
gboolean
gst_cuda_box_blur_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstBufferPool *pool, *theirs = NULL;
  GstCaps *caps;
  guint size, min = 0, max = 0;
  gboolean video_meta;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL)
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &theirs, NULL, &min,
        &max);
  /* frames in flight hold output buffers back */
  if (max > 0)
    max += MAX_FRAMES_IN_FLIGHT - 1;

  video_meta = gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
      NULL);
  pool = gst_cuda_box_blur_new_pool (self, caps, theirs, min, max,
      video_meta, &size);
  gst_clear_object (&theirs);
  if (!pool)
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);

  if (gst_cuda_box_blur_caps_are_cuda (caps, 0))
    return TRUE;
  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_set_nth_allocation_param (query, 0, self->allocator, NULL);
  else
    gst_query_add_allocation_param (query, self->allocator, NULL);

  return TRUE;
}

/* Copies the metas that still hold for the blurred frame, as GStreamer's
 * video filters do: those with no tags, and those tagged only as video
 * metas of what a blur keeps (size, orientation, colorspace), which
 * includes the regions of interest.  Metas tied to the memory or to the
 * pixels' content (any other tag) stay behind. */
gboolean
gst_cuda_box_blur_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  static const gchar *const kept[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_SIZE_STR, GST_META_TAG_VIDEO_ORIENTATION_STR,
    GST_META_TAG_VIDEO_COLORSPACE_STR, NULL
  };
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);

  if (meta->info->api == GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)
    return TRUE;
  for (; tags && *tags; tags++)
    if (!g_strv_contains (kept, *tags))
      return FALSE;
  return TRUE;
}
