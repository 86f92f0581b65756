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

/*
 * A buffer pool of video frames of any of the element's formats in the
 * memory of a GstCudaBoxBlurAllocator (managed or pinned), one GstMemory
 * per buffer.  It is a plain GstBufferPool rather than a
 * GstVideoBufferPool because the latter cannot describe GRAY32F.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblurbufferpool.h"
#include "gstcudaboxblurallocator.h"
#include "cudaboxblur-info.h"

#include <gst/video/video.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_box_blur_buffer_pool_debug);
#define GST_CAT_DEFAULT gst_cuda_box_blur_buffer_pool_debug

struct _GstCudaBoxBlurBufferPool
{
  GstBufferPool parent;

  GstAllocator *allocator;
  GstAllocationParams params;
  GstCudaBoxBlurInfo info;
  gboolean add_video_meta;
  guint size;
};

#define gst_cuda_box_blur_buffer_pool_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstCudaBoxBlurBufferPool,
    gst_cuda_box_blur_buffer_pool, GST_TYPE_BUFFER_POOL,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_box_blur_buffer_pool_debug,
        "cudaboxblurpool", 0, "cudaboxblur managed and pinned frame pool"));

static const gchar **
gst_cuda_box_blur_buffer_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  return options;
}

static gboolean
gst_cuda_box_blur_buffer_pool_set_config (GstBufferPool * pool,
    GstStructure * config)
{
  GstCudaBoxBlurBufferPool *self = GST_CUDA_BOX_BLUR_BUFFER_POOL (pool);
  GstCaps *caps = NULL;
  guint size, min, max;
  GstAllocator *allocator = NULL;
  GstAllocationParams params;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || !caps) {
    GST_WARNING_OBJECT (self, "no caps in config");
    return FALSE;
  }

  if (!gst_cuda_box_blur_info_from_caps (&self->info, caps)) {
    GST_WARNING_OBJECT (self, "unsupported caps %" GST_PTR_FORMAT, caps);
    return FALSE;
  }

  /* Keep the requested alignment and padding, but always allocate from our
   * own allocator: only its memory can be used by the kernels in place. */
  gst_allocation_params_init (&params);
  if (gst_buffer_pool_config_get_allocator (config, &allocator, &params)
      && allocator && !GST_IS_CUDA_BOX_BLUR_ALLOCATOR (allocator))
    GST_DEBUG_OBJECT (self, "replacing allocator %" GST_PTR_FORMAT, allocator);
  self->params = params;
  gst_buffer_pool_config_set_allocator (config, self->allocator, &params);

  self->add_video_meta = gst_buffer_pool_config_has_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);

  size = MAX (size, self->info.size);
  self->size = size;
  gst_buffer_pool_config_set_params (config, caps, size, min, max);

  GST_DEBUG_OBJECT (self, "%s %dx%d, %u bytes, %u..%u buffers",
      self->info.format, self->info.width, self->info.height, size, min, max);

  return GST_BUFFER_POOL_CLASS (parent_class)->set_config (pool, config);
}

static GstFlowReturn
gst_cuda_box_blur_buffer_pool_alloc_buffer (GstBufferPool * pool,
    GstBuffer ** buffer, GstBufferPoolAcquireParams * acquire_params)
{
  GstCudaBoxBlurBufferPool *self = GST_CUDA_BOX_BLUR_BUFFER_POOL (pool);
  GstMemory *mem;
  GstBuffer *buf;

  mem = gst_allocator_alloc (self->allocator, self->size, &self->params);
  if (!mem) {
    GST_ERROR_OBJECT (self, "cannot allocate a buffer of %u bytes from %"
        GST_PTR_FORMAT, self->size, self->allocator);
    return GST_FLOW_ERROR;
  }

  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);

  if (self->add_video_meta) {
    /* GRAY32F has no GstVideoFormat; the meta still tells the layout. */
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        self->info.video_format, self->info.width, self->info.height,
        self->info.n_planes, self->info.offset, self->info.stride);
  }

  *buffer = buf;
  return GST_FLOW_OK;
}

static void
gst_cuda_box_blur_buffer_pool_finalize (GObject * object)
{
  GstCudaBoxBlurBufferPool *self = GST_CUDA_BOX_BLUR_BUFFER_POOL (object);

  gst_clear_object (&self->allocator);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_box_blur_buffer_pool_class_init (GstCudaBoxBlurBufferPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->finalize = gst_cuda_box_blur_buffer_pool_finalize;

  pool_class->get_options =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_buffer_pool_get_options);
  pool_class->set_config =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_buffer_pool_set_config);
  pool_class->alloc_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_buffer_pool_alloc_buffer);
}

static void
gst_cuda_box_blur_buffer_pool_init (GstCudaBoxBlurBufferPool * self)
{
}

/**
 * gst_cuda_box_blur_buffer_pool_new:
 * @allocator: a #GstCudaBoxBlurAllocator
 *
 * Returns: (transfer full): a pool whose buffers are memory of @allocator,
 * managed or pinned.
 */
GstBufferPool *
gst_cuda_box_blur_buffer_pool_new (GstAllocator * allocator)
{
  GstCudaBoxBlurBufferPool *self;

  g_return_val_if_fail (GST_IS_CUDA_BOX_BLUR_ALLOCATOR (allocator), NULL);

  self = g_object_new (GST_TYPE_CUDA_BOX_BLUR_BUFFER_POOL, NULL);
  self->allocator = gst_object_ref (allocator);
  return GST_BUFFER_POOL_CAST (gst_object_ref_sink (self));
}
