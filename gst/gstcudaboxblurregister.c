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
 * Host memory of others, page-locked for the GPU while it lives.
 *
 * A frame in system memory that is not the element's (a decoder's pool, a
 * camera's buffers, an application's) is copied to the GPU before the
 * blur.  From pageable memory that copy goes through the driver's own
 * staging buffers, at a fraction of the bus's rate; from page-locked
 * memory it is one DMA transfer.  So the second time an element sees the
 * same GstMemory (pools hand their memories out again and again; a
 * memory seen once is often never seen again, and page-locking it costs
 * more than one copy), it page-locks it with cudaHostRegister, for every
 * CUDA context of the process; the memory stays so until it is freed,
 * when the destroy notify of its qdata unregisters it first.  A sight
 * counts towards the second only by an element that saw the memory
 * before: the two branches of a tee each see a frame once.  The whole
 * block is registered (maxsize bytes from offset 0), so that a view the
 * memory is resized to later lies inside the range registered (a copy
 * from a range that starts inside a registered one and runs past it
 * fails); the books are kept on the memory that owns the block, the
 * parent of shared sub-memories, so that siblings share one registration
 * and the block is unregistered only when the last of them goes.  Where
 * registering fails (memory the driver cannot pin), the memory is copied
 * as before, and never tried again.
 *
 * Only plain system memory is page-locked: its pages stay mapped at one
 * place while it lives.  Other host memory (file descriptors, dmabuf,
 * memfd) may be unmapped between two maps and mapped again elsewhere, or
 * the same place may later hold other pages, which a registration made
 * earlier would not follow.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblurregister.h"
#include "gstcudaboxblurcontext.h"
#include "cudaboxblur-debug.h"

#include <cuda_runtime_api.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurregister",
    "cudaboxblur page-locking of others' host memory")

#define REGISTRATION_QUARK \
  g_quark_from_static_string ("cudaboxblur-registration")

/* Elements in several threads (after a tee) may see one memory at once. */
static GMutex registering;

/* The elements whose sights are counted, the first few that see it. */
#define MAX_SEERS 4

/* What the elements know of a memory of others they have seen. */
typedef struct
{
  gconstpointer seers[MAX_SEERS];       /* not owned: compared only */
  guint n_seers;
  gpointer data;                /* the memory's block, page-locked once */
  gsize size;
  gboolean registered;
  gboolean failed;              /* registering failed: never again */
  GstObject *context;           /* (nullable) where it was registered */
  gint device_id;
} Registration;

static void
registration_free (gpointer p)
{
  Registration *r = p;

  if (r->registered && gst_cuda_box_blur_context_enter (r->context,
          r->device_id, NULL)) {
    const cudaError_t err = cudaHostUnregister (r->data);

    if (err != cudaSuccess)
      GST_WARNING ("cudaHostUnregister of %p: %s", r->data,
          cudaGetErrorName (err));
    cudaGetLastError ();
    gst_cuda_box_blur_context_leave (r->context);
  }
  gst_clear_object (&r->context);
  g_free (r);
}

/**
 * gst_cuda_box_blur_register_host:
 * @seer: the element that sees @buffer
 * @map: @buffer mapped for the host
 * @context: (nullable): the element's #GstCudaContext, or %NULL for the
 *   primary context of @device_id
 *
 * Page-locks @buffer's one memory, system memory of others mapped at
 * @map, the second time @seer sees its block at the same place (see
 * above).  Call with no CUDA context of the element current.
 *
 * Returns: whether the memory is page-locked.
 */
gboolean
gst_cuda_box_blur_register_host (gconstpointer seer, GstBuffer * buffer,
    const GstMapInfo * map, GstObject * context, gint device_id)
{
  GstMemory *mem = map->memory, *owner;
  Registration *r;
  cudaError_t err;
  gboolean locked = FALSE;
  guint8 *block;
  guint i;

  /* the buffer's one memory, mapped where it is (not a merged copy) */
  if (gst_buffer_n_memory (buffer) != 1
      || mem != gst_buffer_peek_memory (buffer, 0)
      || !gst_memory_is_type (mem, GST_ALLOCATOR_SYSMEM))
    return FALSE;
  block = map->data - mem->offset;
  owner = mem->parent ? mem->parent : mem;

  g_mutex_lock (&registering);
  r = gst_mini_object_get_qdata (GST_MINI_OBJECT (owner), REGISTRATION_QUARK);
  if (!r) {
    r = g_new0 (Registration, 1);
    r->seers[r->n_seers++] = seer;
    r->data = block;
    r->size = mem->maxsize;
    gst_mini_object_set_qdata (GST_MINI_OBJECT (owner), REGISTRATION_QUARK,
        r, registration_free);
    goto done;
  }
  /* the block registered, or to be, and no other */
  if (r->data != block || r->size != mem->maxsize || r->failed)
    goto done;
  if (r->registered) {
    locked = TRUE;
    goto done;
  }
  for (i = 0; i < r->n_seers && r->seers[i] != seer; i++);
  if (i == r->n_seers) {
    /* a first sight by this element */
    if (r->n_seers < MAX_SEERS)
      r->seers[r->n_seers++] = seer;
    goto done;
  }

  if (!gst_cuda_box_blur_context_enter (context, device_id, NULL))
    goto done;
  err = cudaHostRegister (r->data, r->size, cudaHostRegisterPortable);
  cudaGetLastError ();
  gst_cuda_box_blur_context_leave (context);
  if (err != cudaSuccess) {
    GST_INFO ("cannot page-lock %" G_GSIZE_FORMAT " bytes at %p: %s; "
        "copying them as they are", r->size, r->data, cudaGetErrorName (err));
    r->failed = TRUE;
    goto done;
  }
  GST_DEBUG ("page-locked %" G_GSIZE_FORMAT " bytes at %p", r->size, r->data);
  r->registered = TRUE;
  r->context = context ? gst_object_ref (context) : NULL;
  r->device_id = device_id;
  locked = TRUE;

done:
  g_mutex_unlock (&registering);
  return locked;
}
