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
 * The element and its allocator run CUDA calls on threads they do not own:
 * memory is allocated on whichever thread acquires a buffer from their
 * pools (an upstream element's), and freed on whichever drops the last
 * reference (a sink's).  Such a thread may have a CUDA context of its own
 * current, another element's or another library's, maybe on another
 * device.  So the element's context is pushed above it, never set in its
 * place: cudaSetDevice() would make the device's primary context current
 * instead, and the thread would stay there.  Leaving pops it, and the
 * thread has what it had before, its context or none.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblurcontext.h"
#ifdef HAVE_GST_CUDA
#include "gstcudaboxblurcuda.h"
#endif

#include <cuda.h>
#include <cuda_runtime_api.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_box_blur_context_debug);
#define GST_CAT_DEFAULT gst_cuda_box_blur_context_debug

/* The driver calls that push a device's primary context, from the driver
 * library the CUDA runtime loaded: the plugin does not link libcuda, so
 * that it loads on machines without one. */
static struct
{
  CUresult (CUDAAPI * device_get) (CUdevice * device, int ordinal);
  CUresult (CUDAAPI * primary_retain) (CUcontext * context, CUdevice device);
  CUresult (CUDAAPI * push) (CUcontext context);
  CUresult (CUDAAPI * pop) (CUcontext * context);
  CUresult (CUDAAPI * error_name) (CUresult result, const char **name);
} driver;

static void
init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_box_blur_context_debug,
        "cudaboxblurcontext", 0, "cudaboxblur CUDA context on any thread");
    g_once_init_leave (&done, 1);
  }
}

static gpointer
entry_point (const gchar * symbol)
{
  enum cudaDriverEntryPointQueryResult status =
      cudaDriverEntryPointSymbolNotFound;
  void *fn = NULL;
  cudaError_t err;

  /* the calls as cuda.h declares them since CUDA 12.0, the oldest toolkit
   * the build takes; CUDA 12.5 made that version an argument */
#if CUDART_VERSION >= 12050
  err = cudaGetDriverEntryPointByVersion (symbol, &fn, 12000,
      cudaEnableDefault, &status);
#else
  err = cudaGetDriverEntryPoint (symbol, &fn, cudaEnableDefault, &status);
#endif
  if (err != cudaSuccess || status != cudaDriverEntryPointSuccess || !fn) {
    GST_WARNING ("no CUDA driver entry point %s: %s, status %d", symbol,
        cudaGetErrorName (err), (gint) status);
    return NULL;
  }
  return fn;
}

static gboolean
load_driver (GError ** error)
{
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded)) {
    driver.device_get = entry_point ("cuDeviceGet");
    driver.primary_retain = entry_point ("cuDevicePrimaryCtxRetain");
    driver.push = entry_point ("cuCtxPushCurrent");
    driver.pop = entry_point ("cuCtxPopCurrent");
    driver.error_name = entry_point ("cuGetErrorName");
    g_once_init_leave (&loaded, driver.device_get && driver.primary_retain
        && driver.push && driver.pop
        && driver.error_name ? 1 : 2);
  }
  if (loaded == 1)
    return TRUE;
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "Cannot find the CUDA driver's context calls");
  return FALSE;
}

static gboolean
check_driver (CUresult result, const gchar * what, GError ** error)
{
  const char *name = NULL;

  if (G_LIKELY (result == CUDA_SUCCESS))
    return TRUE;
  if (driver.error_name (result, &name) != CUDA_SUCCESS || !name)
    name = "unknown error";
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "CUDA driver error %s (%d) in %s", name, (gint) result, what);
  return FALSE;
}

/* The context of each device that enter() pushes when it is given no
 * GstCudaContext: the device's primary context, retained once and kept
 * for the life of the process, as the CUDA runtime keeps it (whatever was
 * made in it may outlive the element and allocator that made it). */
static GMutex device_lock;
static GArray *device_contexts;        /* CUcontext by device ordinal */

static gboolean
device_context (gint device_id, CUcontext * context, GError ** error)
{
  gboolean ok = TRUE;
  CUdevice device;

  if (device_id < 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "No CUDA device %d", device_id);
    return FALSE;
  }

  g_mutex_lock (&device_lock);
  if (!device_contexts)
    device_contexts = g_array_new (FALSE, TRUE, sizeof (CUcontext));
  if ((guint) device_id >= device_contexts->len)
    g_array_set_size (device_contexts, device_id + 1);
  *context = g_array_index (device_contexts, CUcontext, device_id);
  if (!*context) {
    ok = check_driver (driver.device_get (&device, device_id), "cuDeviceGet",
        error) && check_driver (driver.primary_retain (context, device),
        "cuDevicePrimaryCtxRetain", error);
    if (ok) {
      g_array_index (device_contexts, CUcontext, device_id) = *context;
      GST_INFO ("device %d: the primary context %p", device_id, *context);
    }
  }
  g_mutex_unlock (&device_lock);
  return ok;
}

/**
 * gst_cuda_box_blur_context_enter:
 * @context: (nullable): the #GstCudaContext to work in, in a build with
 *   gstreamer-cuda-1.0; %NULL for the primary context of @device_id
 * @device_id: the device whose primary context to work in when @context
 *   is %NULL
 *
 * Pushes the context onto the calling thread's stack of CUDA contexts,
 * above whatever the thread has current, until
 * gst_cuda_box_blur_context_leave(); the CUDA runtime works in it
 * meanwhile.  Safe on any thread.
 *
 * Returns: %FALSE, with @error set, when it cannot.
 */
gboolean
gst_cuda_box_blur_context_enter (GstObject * context, gint device_id,
    GError ** error)
{
  CUcontext primary = NULL;

  init_debug ();
#ifdef HAVE_GST_CUDA
  if (context)
    return gst_cuda_box_blur_context_push (GST_CUDA_CONTEXT (context), error);
#endif
  return load_driver (error) && device_context (device_id, &primary, error)
      && check_driver (driver.push (primary), "cuCtxPushCurrent", error);
}

/**
 * gst_cuda_box_blur_context_leave:
 * @context: (nullable): as given to gst_cuda_box_blur_context_enter()
 *
 * Pops the context gst_cuda_box_blur_context_enter() pushed: the thread has
 * current what it had before.
 */
void
gst_cuda_box_blur_context_leave (GstObject * context)
{
  CUcontext popped = NULL;
  CUresult result;

#ifdef HAVE_GST_CUDA
  if (context) {
    if (!gst_cuda_context_pop (&popped))
      GST_WARNING_OBJECT (context, "cannot take the CUDA context off the "
          "thread");
    return;
  }
#endif
  result = driver.pop (&popped);
  if (result != CUDA_SUCCESS)
    GST_WARNING ("cannot take the device's CUDA context off the thread: "
        "cuCtxPopCurrent returned %d", (gint) result);
}
