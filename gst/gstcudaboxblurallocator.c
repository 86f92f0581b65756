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
 * The element's GstAllocator, of one of two kinds of memory the GPU reaches
 * from the host's address space:
 *
 * - managed (memory-mode=managed, memory type GST_CUDA_MANAGED_MEMORY_TYPE):
 *   cudaMallocManaged(), one address valid on the host and on the GPU, so
 *   mapping a GstMemory of it is free and the same pointer is handed to
 *   the kernels.  Each allocation is advised to stay in host memory and be
 *   mapped for the allocator's device (gst_cuda_box_blur_keep_on_host()):
 *   the kernels read and write it across the bus, nothing migrates.
 * - pinned (memory-mode=pinned, GST_CUDA_PINNED_MEMORY_TYPE):
 *   cudaMallocHost(), page-locked host memory for the explicit-copy mode:
 *   the GPU works on device copies, and pinned memory makes the copies run
 *   at full DMA speed.
 *
 * Both allocate, map for the GPU and free in the element's CUDA context:
 * GStreamer's GstCudaContext, which the allocator keeps alive as long as
 * any of its memory, or without gstreamer-cuda-1.0 the device's primary
 * context.
 *
 * Tests make allocations fail with the object data named
 * GST_CUDA_BOX_BLUR_ALLOCATOR_FAIL_AFTER, which is no property, so users
 * never see it.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblurallocator.h"
#include "gstcudaboxblurcontext.h"
#include "cudaboxblur-device.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_box_blur_allocator_debug);
#define GST_CAT_DEFAULT gst_cuda_box_blur_allocator_debug

typedef struct
{
  GstMemory mem;
  gpointer base;                /* what cudaMallocManaged/Host returned */
  guint8 *data;                 /* aligned start of the memory */
} GstCudaBoxBlurMemory;

struct _GstCudaBoxBlurAllocator
{
  GstAllocator parent;
  gint device_id;
  GstObject *context;           /* the GstCudaContext, or NULL: the
                                 * device's primary context */
  gboolean pinned;              /* cudaMallocHost instead of managed */
  gssize live_bytes;            /* atomic: bytes allocated and not freed */
};

enum
{
  PROP_0,
  PROP_ALLOCATED_BYTES,
};

#define gst_cuda_box_blur_allocator_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstCudaBoxBlurAllocator, gst_cuda_box_blur_allocator,
    GST_TYPE_ALLOCATOR,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_box_blur_allocator_debug,
        "cudaboxbluralloc", 0, "cudaboxblur managed and pinned memory"));

/* The test hook: TRUE when this allocation is to fail.  The object data
 * holds one more than the number of allocations to let through. */
static gboolean
forced_failure (GstCudaBoxBlurAllocator * self)
{
  GObject *object = G_OBJECT (self);
  gint left;

  GST_OBJECT_LOCK (self);
  left = GPOINTER_TO_INT (g_object_get_data (object,
          GST_CUDA_BOX_BLUR_ALLOCATOR_FAIL_AFTER));
  if (left > 0)
    g_object_set_data (object, GST_CUDA_BOX_BLUR_ALLOCATOR_FAIL_AFTER,
        GINT_TO_POINTER (left - 1));
  GST_OBJECT_UNLOCK (self);
  return left == 1;
}

/* Makes the allocator's CUDA context current on the calling thread, any
 * thread, until leave() gives the thread back what it had current. */
static gboolean
enter (GstCudaBoxBlurAllocator * self, GError ** error)
{
  return gst_cuda_box_blur_context_enter (self->context, self->device_id,
      error);
}

static void
leave (GstCudaBoxBlurAllocator * self)
{
  gst_cuda_box_blur_context_leave (self->context);
}

static GstMemory *
gst_cuda_box_blur_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCudaBoxBlurAllocator *self = GST_CUDA_BOX_BLUR_ALLOCATOR (allocator);
  GstCudaBoxBlurMemory *mem;
  gsize align = params->align, maxsize, shift;
  gpointer base = NULL;
  GError *error = NULL;

  /* cudaMallocManaged() aligns to at least 256 bytes; over-allocate only for
   * larger alignments. */
  maxsize = params->prefix + size + params->padding;
  if (align > 255)
    maxsize += align;

  if (forced_failure (self)) {
    GST_ERROR_OBJECT (self, "allocation of %" G_GSIZE_FORMAT " bytes failed "
        "on purpose (test hook)", maxsize);
    return NULL;
  }

  if (!enter (self, &error))
    goto failed;
  if (!GST_CUDA_BOX_BLUR_CHECK (self->pinned ? cudaMallocHost (&base,
              maxsize) : cudaMallocManaged (&base, maxsize,
              cudaMemAttachGlobal), &error)) {
    leave (self);
    goto failed;
  }
  if (!self->pinned
      && gst_cuda_box_blur_keep_on_host (base, maxsize, self->device_id)
      != cudaSuccess) {
    GST_DEBUG_OBJECT (self, "cudaMemAdvise failed, continuing without it");
    (void) cudaGetLastError ();
  }
  leave (self);

  shift = ((guintptr) base & align) ? (align + 1) - ((guintptr) base & align)
      : 0;
  if (align > 255)
    maxsize -= shift;

  g_atomic_pointer_add (&self->live_bytes, (gssize) maxsize);

  mem = g_new0 (GstCudaBoxBlurMemory, 1);
  mem->base = base;
  mem->data = (guint8 *) base + shift;
  gst_memory_init (GST_MEMORY_CAST (mem), params->flags, allocator, NULL,
      maxsize, align, params->prefix, size);

  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (mem->data, 0, params->prefix);
  if (params->padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset (mem->data + params->prefix + size, 0, params->padding);

  GST_LOG_OBJECT (self, "allocated %" G_GSIZE_FORMAT " bytes at %p", maxsize,
      mem->data);
  return GST_MEMORY_CAST (mem);

failed:
  GST_ERROR_OBJECT (self, "cannot allocate %" G_GSIZE_FORMAT " bytes of %s "
      "memory: %s", maxsize, self->pinned ? "pinned" : "managed",
      error->message);
  g_clear_error (&error);
  return NULL;
}

static void
gst_cuda_box_blur_allocator_free (GstAllocator * allocator, GstMemory * memory)
{
  GstCudaBoxBlurAllocator *self = GST_CUDA_BOX_BLUR_ALLOCATOR (allocator);
  GstCudaBoxBlurMemory *mem = (GstCudaBoxBlurMemory *) memory;
  GError *error = NULL;

  /* from any thread: the last buffer may go in a sink's */
  if (!memory->parent) {
    gboolean ok = enter (self, &error);

    if (ok) {
      ok = GST_CUDA_BOX_BLUR_CHECK (self->pinned ? cudaFreeHost (mem->base) :
          cudaFree (mem->base), &error);
      leave (self);
    }
    if (!ok) {
      GST_WARNING_OBJECT (self, "freeing %p: %s", mem->base, error->message);
      g_error_free (error);
    }
    g_atomic_pointer_add (&self->live_bytes, -(gssize) memory->maxsize);
  }
  g_free (mem);
}

/* Nothing to do: the address is valid on the host.  The element
 * synchronises its stream before any buffer it wrote leaves it. */
static gpointer
gst_cuda_box_blur_memory_map (GstMemory * memory, gsize maxsize,
    GstMapFlags flags)
{
  return ((GstCudaBoxBlurMemory *) memory)->data;
}

static void
gst_cuda_box_blur_memory_unmap (GstMemory * memory)
{
}

static GstMemory *
gst_cuda_box_blur_memory_share (GstMemory * memory, gssize offset, gssize size)
{
  GstCudaBoxBlurMemory *mem = (GstCudaBoxBlurMemory *) memory;
  GstCudaBoxBlurMemory *sub;
  GstMemory *parent;

  if (size == -1)
    size = memory->size - offset;

  parent = memory->parent ? memory->parent : memory;

  sub = g_new0 (GstCudaBoxBlurMemory, 1);
  sub->base = mem->base;
  sub->data = mem->data;
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      memory->allocator, parent, memory->maxsize, memory->align,
      memory->offset + offset, size);
  return GST_MEMORY_CAST (sub);
}

static void
gst_cuda_box_blur_allocator_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaBoxBlurAllocator *self = GST_CUDA_BOX_BLUR_ALLOCATOR (object);

  switch (prop_id) {
    case PROP_ALLOCATED_BYTES:
      g_value_set_uint64 (value, g_atomic_pointer_get (&self->live_bytes));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_box_blur_allocator_finalize (GObject * object)
{
  gst_clear_object (&GST_CUDA_BOX_BLUR_ALLOCATOR (object)->context);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_box_blur_allocator_class_init (GstCudaBoxBlurAllocatorClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  gobject_class->get_property = gst_cuda_box_blur_allocator_get_property;
  gobject_class->finalize = gst_cuda_box_blur_allocator_finalize;

  /* For leak checks: what this allocator holds right now. */
  g_object_class_install_property (gobject_class, PROP_ALLOCATED_BYTES,
      g_param_spec_uint64 ("allocated-bytes", "Allocated bytes",
          "Bytes of memory allocated and not yet freed", 0,
          G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  allocator_class->alloc =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_allocator_alloc);
  allocator_class->free = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_allocator_free);
}

static void
gst_cuda_box_blur_allocator_init (GstCudaBoxBlurAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = GST_CUDA_MANAGED_MEMORY_TYPE;
  allocator->mem_map = gst_cuda_box_blur_memory_map;
  allocator->mem_unmap = gst_cuda_box_blur_memory_unmap;
  allocator->mem_share = gst_cuda_box_blur_memory_share;
}

static GstAllocator *
allocator_new (gint device_id, GstObject * context, gboolean pinned)
{
  GstCudaBoxBlurAllocator *self =
      g_object_new (GST_TYPE_CUDA_BOX_BLUR_ALLOCATOR, NULL);

  self->device_id = device_id;
#ifdef HAVE_GST_CUDA
  self->context = gst_object_ref (context);
#else
  g_assert (context == NULL);
#endif
  self->pinned = pinned;
  if (pinned)
    GST_ALLOCATOR_CAST (self)->mem_type = GST_CUDA_PINNED_MEMORY_TYPE;
  return GST_ALLOCATOR_CAST (gst_object_ref_sink (self));
}

/**
 * gst_cuda_box_blur_allocator_new_managed:
 * @device_id: the CUDA device the memory should live on
 * @context: (nullable): the #GstCudaContext of that device to allocate
 *   in, built with gstreamer-cuda-1.0; otherwise %NULL, and the device's
 *   primary context allocates
 *
 * Returns: (transfer full): a new allocator of CUDA managed memory.
 */
GstAllocator *
gst_cuda_box_blur_allocator_new_managed (gint device_id, GstObject * context)
{
  return allocator_new (device_id, context, FALSE);
}

/**
 * gst_cuda_box_blur_allocator_new_pinned:
 * @device_id: the CUDA device whose context allocates
 * @context: as for gst_cuda_box_blur_allocator_new_managed()
 *
 * Returns: (transfer full): a new allocator of page-locked host memory
 * (memory type %GST_CUDA_PINNED_MEMORY_TYPE).
 */
GstAllocator *
gst_cuda_box_blur_allocator_new_pinned (gint device_id, GstObject * context)
{
  return allocator_new (device_id, context, TRUE);
}

gboolean
gst_cuda_box_blur_memory_is_managed (GstMemory * mem)
{
  return mem != NULL && gst_memory_is_type (mem, GST_CUDA_MANAGED_MEMORY_TYPE);
}
