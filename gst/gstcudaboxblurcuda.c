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

/* dladdr () */
#define _GNU_SOURCE

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblurcuda.h"
#include "cudaboxblur-info.h"

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

#include <dlfcn.h>

/**
 * gst_cuda_box_blur_gstcuda_init:
 *
 * Loads the CUDA driver library for gstreamer-cuda-1.0 and registers its
 * allocator.  Every other call of this unit needs it first.
 *
 * Returns: %FALSE when the driver library cannot be loaded.
 */
gboolean
gst_cuda_box_blur_gstcuda_init (void)
{
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded)) {
    gsize ok = gst_cuda_load_library ()? 1 : 2;

    if (ok == 1)
      gst_cuda_memory_init_once ();
    g_once_init_leave (&loaded, ok);
  }
  return loaded == 1;
}

guint
gst_cuda_box_blur_context_device (GstCudaContext * context)
{
  guint device_id = 0;

  g_object_get (context, "cuda-device-id", &device_id, NULL);
  return device_id;
}

/**
 * gst_cuda_box_blur_context_push:
 *
 * Makes @context current on the calling thread, until
 * gst_cuda_context_pop(); the CUDA runtime then works in it.
 *
 * Returns: %FALSE, with @error set, when it cannot.
 */
gboolean
gst_cuda_box_blur_context_push (GstCudaContext * context, GError ** error)
{
  if (gst_cuda_context_push (context))
    return TRUE;
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "Cannot make the CUDA context of device %u current",
      gst_cuda_box_blur_context_device (context));
  return FALSE;
}

/**
 * gst_cuda_box_blur_peer_context:
 *
 * Asks @pad's peer for its #GstCudaContext.
 *
 * Returns: (transfer full) (nullable): the peer's context, if it has one.
 */
GstCudaContext *
gst_cuda_box_blur_peer_context (GstPad * pad)
{
  GstQuery *query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstCudaContext *context = NULL;
  GstContext *answer = NULL;

  if (gst_pad_peer_query (pad, query))
    gst_query_parse_context (query, &answer);
  if (answer)
    gst_structure_get (gst_context_get_structure (answer),
        GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &context, NULL);
  gst_query_unref (query);
  return context;
}

/* The contexts of this process's own, a GWeakRef per device: made by the
 * first element that needs one when no neighbour brings one, and gone
 * with the last of its users. */
static GMutex process_lock;
static GPtrArray *process_contexts;

static GWeakRef *
process_ref (guint device_id)
{
  if (!process_contexts)
    process_contexts = g_ptr_array_new ();
  while (process_contexts->len <= device_id) {
    GWeakRef *ref = g_new0 (GWeakRef, 1);

    g_weak_ref_init (ref, NULL);
    g_ptr_array_add (process_contexts, ref);
  }
  return g_ptr_array_index (process_contexts, device_id);
}

static GstCudaContext *
process_context (guint device_id)
{
  GstCudaContext *context;
  GWeakRef *ref;

  g_mutex_lock (&process_lock);
  ref = process_ref (device_id);
  context = g_weak_ref_get (ref);
  if (!context) {
    context = gst_cuda_context_new (device_id);
    if (context)
      g_weak_ref_set (ref, context);
  }
  g_mutex_unlock (&process_lock);
  return context;
}

/* Whether @element holds a context in *@field, read under its lock. */
static gboolean
has_context (GstElement * element, GstCudaContext ** field)
{
  gboolean held;

  GST_OBJECT_LOCK (element);
  held = *field != NULL;
  GST_OBJECT_UNLOCK (element);
  return held;
}

/**
 * gst_cuda_box_blur_share_context:
 * @device_id: the device wanted, or -1 for any
 * @context: (inout): @element's field for the context, which its object
 *   lock guards (set_context() writes it from any thread); one already
 *   there is kept
 *
 * Finds the CUDA context @element works in, as GStreamer's CUDA elements
 * do (gst_cuda_ensure_element_context()): a neighbour's, asked downstream
 * then upstream, else the one the pipeline or the application hands on
 * (a need-context message).  Where there is none, it takes the context of
 * the device that the other elements of the process use, rather than
 * making one for each pipeline, and offers it to the pipeline (a
 * have-context message) so that the CUDA elements that start later share
 * it.
 *
 * Returns: %FALSE when no context could be made.
 */
gboolean
gst_cuda_box_blur_share_context (GstElement * element, gint device_id,
    GstCudaContext ** context)
{
  GstPad *pads[] = { NULL, NULL };
  GstCudaContext *own;
  GstContext *shared;
  GList *l;
  guint i;

  if (has_context (element, context))
    return TRUE;

  GST_OBJECT_LOCK (element);
  for (l = element->srcpads; l && !pads[0]; l = l->next)
    pads[0] = gst_object_ref (l->data);
  for (l = element->sinkpads; l && !pads[1]; l = l->next)
    pads[1] = gst_object_ref (l->data);
  GST_OBJECT_UNLOCK (element);
  for (i = 0; i < G_N_ELEMENTS (pads); i++) {
    GstCudaContext *peer = pads[i] && !has_context (element, context) ?
        gst_cuda_box_blur_peer_context (pads[i]) : NULL;

    if (peer && (device_id < 0
            || gst_cuda_box_blur_context_device (peer) == (guint) device_id)) {
      GST_OBJECT_LOCK (element);
      if (!*context)
        *context = g_steal_pointer (&peer);
      GST_OBJECT_UNLOCK (element);
    }
    gst_clear_object (&peer);
    gst_clear_object (&pads[i]);
  }
  if (has_context (element, context))
    return TRUE;

  /* the pipeline answers by setting its context on the element, which
   * gst_cuda_handle_set_context() takes if its device fits */
  gst_element_post_message (element, gst_message_new_need_context
      (GST_OBJECT (element), GST_CUDA_CONTEXT_TYPE));
  if (has_context (element, context))
    return TRUE;

  own = process_context (MAX (device_id, 0));
  if (!own)
    return FALSE;
  GST_OBJECT_LOCK (element);
  gst_object_replace ((GstObject **) context, GST_OBJECT (own));
  GST_OBJECT_UNLOCK (element);
  shared = gst_context_new_cuda_context (own);
  gst_element_set_context (element, shared);
  gst_element_post_message (element, gst_message_new_have_context
      (GST_OBJECT (element), shared));
  gst_object_unref (own);
  return TRUE;
}

/**
 * gst_cuda_box_blur_cuda_pool:
 * @reuse: (nullable): a pool to take instead of a new one, when it is a
 *   #GstCudaBufferPool of @context
 *
 * An unconfigured #GstCudaBufferPool of @context.
 */
GstBufferPool *
gst_cuda_box_blur_cuda_pool (GstCudaContext * context, GstBufferPool * reuse)
{
  if (reuse && GST_IS_CUDA_BUFFER_POOL (reuse)
      && GST_CUDA_BUFFER_POOL (reuse)->context == context)
    return gst_object_ref (reuse);
  return gst_cuda_buffer_pool_new (context);
}

/* TRUE when @buffer is one block of CUDA memory of @context. */
gboolean
gst_cuda_box_blur_is_device_buffer (GstBuffer * buffer,
    GstCudaContext * context)
{
  GstMemory *mem = gst_buffer_peek_memory (buffer, 0);

  return gst_buffer_n_memory (buffer) == 1 && gst_is_cuda_memory (mem)
      && GST_CUDA_MEMORY_CAST (mem)->context == context;
}

/* From GStreamer 1.24 on, CUDA memory may be written on a stream of its
 * writer's (a decoder given the element's pool puts its own stream in the
 * pool's config) and marked as needing a synchronisation, which a reader
 * on another stream must ask for, with gst_cuda_memory_sync(), before it
 * maps the memory for CUDA; in 1.22 memory has no stream and the writer
 * has synchronised.  Built against 1.24 or later, called directly; built
 * against 1.22, looked up in the library that holds the CUDA calls the
 * plugin links, so that the plugin synchronises under 1.24 too, and warns
 * where it runs under 1.24 and cannot. */
typedef void (*MemorySync) (GstCudaMemory * mem);

static MemorySync
memory_sync (void)
{
#if GST_CHECK_VERSION (1, 24, 0)
  return gst_cuda_memory_sync;
#else
  static gsize looked_up = 0;
  static MemorySync sync = NULL;

  if (g_once_init_enter (&looked_up)) {
    Dl_info where;
    void *lib = NULL;
    guint major, minor, micro, nano;

    /* the plugin links the library: it is loaded, and stays */
    if (dladdr ((void *) gst_cuda_context_new, &where) && where.dli_fname)
      lib = dlopen (where.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (lib)
      sync = (MemorySync) dlsym (lib, "gst_cuda_memory_sync");
    gst_version (&major, &minor, &micro, &nano);
    if (!sync && (major > 1 || minor >= 24))
      GST_WARNING ("GStreamer %u.%u without gst_cuda_memory_sync: CUDA "
          "memory a decoder writes on a stream of its own is not waited for",
          major, minor);
    GST_DEBUG ("gst_cuda_memory_sync %s", sync ? "found" : "absent");
    g_once_init_leave (&looked_up, 1);
  }
  return sync;
#endif
}

/**
 * gst_cuda_box_blur_map_device:
 *
 * Maps @buffer for the GPU (GST_MAP_CUDA: @map->data is the device address)
 * when it is one block of CUDA memory of @context.
 *
 * Returns: %FALSE, mapping nothing, for any other memory, which the caller
 * maps for the host instead.
 */
gboolean
gst_cuda_box_blur_map_device (GstBuffer * buffer, GstCudaContext * context,
    GstMapInfo * map, GstMapFlags flags)
{
  MemorySync sync;

  if (!gst_cuda_box_blur_is_device_buffer (buffer, context))
    return FALSE;
  sync = memory_sync ();
  if (sync)
    sync (GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory (buffer, 0)));
  return gst_buffer_map (buffer, map, flags | GST_MAP_CUDA);
}

/* @caps with its structures in CUDA memory first, in their order, then
 * the others. */
static GstCaps *
cuda_memory_first (GstCaps * caps)
{
  GstCaps *ret = gst_caps_new_empty (), *rest = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *features = gst_caps_get_features (caps, i);

    gst_caps_append_structure_full (gst_cuda_box_blur_caps_are_cuda (caps,
            i) ? ret : rest,
        gst_structure_copy (gst_caps_get_structure (caps, i)),
        features ? gst_caps_features_copy (features) : NULL);
  }
  gst_caps_append (ret, rest);
  return ret;
}

/**
 * gst_cuda_box_blur_cuda_caps_first:
 *
 * Reorders the result of caps @query so that its CUDA memory structures
 * come first: a neighbour that takes both memories picks CUDA memory,
 * whatever order it asked in.  Upstream, a decoder that can give either
 * then hands the element CUDA memory, and when downstream takes only
 * system memory the element itself copies the result back (as
 * cudadownload would).
 */
void
gst_cuda_box_blur_cuda_caps_first (GstQuery * query)
{
  GstCaps *caps = NULL;

  gst_query_parse_caps_result (query, &caps);
  if (caps && !gst_caps_is_any (caps)) {
    caps = cuda_memory_first (caps);
    gst_query_set_caps_result (query, caps);
    gst_caps_unref (caps);
  }
}

/**
 * gst_cuda_box_blur_cuda_both_memories:
 *
 * @caps, then each of its structures in system or CUDA memory in the other
 * memory, where @caps do not have it already.
 *
 * Returns: (transfer full): the caps.
 */
GstCaps *
gst_cuda_box_blur_cuda_both_memories (GstCaps * caps)
{
  GstCaps *ret;
  guint i;

  if (gst_caps_is_any (caps))
    return gst_caps_ref (caps);
  ret = gst_caps_copy (caps);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *features = gst_caps_get_features (caps, i);
    const gchar *memory;
    GstCaps *other;

    if (gst_cuda_box_blur_caps_are_cuda (caps, i))
      memory = GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY;
    else if (!features || gst_caps_features_is_equal (features,
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
      memory = GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY;
    else
      continue;
    other = gst_caps_new_empty ();
    gst_caps_append_structure_full (other,
        gst_structure_copy (gst_caps_get_structure (caps, i)),
        gst_caps_features_new (memory, NULL));
    if (gst_caps_is_subset (other, ret))
      gst_caps_unref (other);
    else
      gst_caps_append (ret, other);
  }
  return ret;
}
