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

#include "cudaboxblur-device.h"
#include "cudaboxblur-debug.h"

#include <gmodule.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurdevice",
    "cudaboxblur CUDA device and error handling")

gboolean
gst_cuda_box_blur_check_cuda (cudaError_t err, const gchar * what,
    const gchar * file, gint line, GError ** error)
{
  if (G_LIKELY (err == cudaSuccess))
    return TRUE;

  /* Only a trace here: whoever gets @error reports it, the element under
   * its own category and with itself as the object. */
  gst_debug_log (GST_CAT_DEFAULT, GST_LEVEL_DEBUG, file, "", line, NULL,
      "%s failed: %s (%s)", what, cudaGetErrorName (err),
      cudaGetErrorString (err));
  g_set_error (error, GST_RESOURCE_ERROR,
      err == cudaErrorMemoryAllocation ? GST_RESOURCE_ERROR_NO_SPACE_LEFT :
      GST_RESOURCE_ERROR_FAILED, "%s (%s) in %s at %s:%d",
      cudaGetErrorString (err), cudaGetErrorName (err), what, file, line);
  return FALSE;
}

/**
 * gst_cuda_box_blur_no_device_explain:
 * @has_driver: whether the NVIDIA driver's library (libcuda.so.1) loads
 * @driver: the CUDA version the driver supports (1000 x major + 10 x
 *   minor), 0 for none
 * @runtime: the CUDA version the plugin was built with
 * @visible: (nullable): CUDA_VISIBLE_DEVICES
 *
 * Why a machine shows the plugin no CUDA device, and what to do about it,
 * in words a user can act on: no driver, a driver older than the CUDA the
 * plugin was built with, or no GPU the driver sees.
 *
 * Returns: (transfer full): the text.
 */
gchar *
gst_cuda_box_blur_no_device_explain (gboolean has_driver, gint driver,
    gint runtime, const gchar * visible)
{
  if (!has_driver)
    return g_strdup ("the NVIDIA driver is not installed (libcuda.so.1 not "
        "found); install the NVIDIA driver for the GPU");
  if (driver > 0 && driver < runtime)
    return g_strdup_printf ("the NVIDIA driver supports CUDA %d.%d, older "
        "than the CUDA %d.%d this plugin was built with; install a newer "
        "NVIDIA driver", driver / 1000, driver % 1000 / 10, runtime / 1000,
        runtime % 1000 / 10);
  if (visible)
    return g_strdup_printf ("the NVIDIA driver (CUDA %d.%d) finds no GPU "
        "among those CUDA_VISIBLE_DEVICES=\"%s\" lets through",
        driver / 1000, driver % 1000 / 10, visible);
  return g_strdup_printf ("the NVIDIA driver (CUDA %d.%d) finds no GPU; "
      "nvidia-smi lists the GPUs it sees", driver / 1000, driver % 1000 / 10);
}

/* gst_cuda_box_blur_no_device_explain() of this machine. */
static gchar *
no_device_reason (void)
{
  GModule *libcuda = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY |
      G_MODULE_BIND_LOCAL);
  int driver = 0, runtime = 0;

  if (!libcuda)
    GST_INFO ("no NVIDIA driver: %s", g_module_error ());
  else
    g_module_close (libcuda);
  cudaDriverGetVersion (&driver);
  cudaRuntimeGetVersion (&runtime);
  cudaGetLastError ();
  GST_INFO ("driver for CUDA %d, runtime %d, CUDA_VISIBLE_DEVICES %s", driver,
      runtime, GST_STR_NULL (g_getenv ("CUDA_VISIBLE_DEVICES")));
  return gst_cuda_box_blur_no_device_explain (libcuda != NULL, driver,
      runtime, g_getenv ("CUDA_VISIBLE_DEVICES"));
}

/**
 * gst_cuda_box_blur_context_lost:
 *
 * After a CUDA error: whether the context current on the calling thread is
 * lost, as a sticky error (a kernel that faulted: cudaErrorLaunchFailure,
 * cudaErrorIllegalAddress ...) leaves it, so that every call in it fails
 * from then on.  NVIDIA documents these errors as needing the process
 * restarted (gst_cuda_box_blur_device_mark_lost()).  Waits for the work
 * queued in the context.
 */
gboolean
gst_cuda_box_blur_context_lost (void)
{
  const cudaError_t err = cudaDeviceSynchronize ();

  /* a sticky error stays; any other is cleared */
  cudaGetLastError ();
  if (err == cudaSuccess)
    return FALSE;
  GST_INFO ("the CUDA context is lost: %s", cudaGetErrorName (err));
  return TRUE;
}

/* The devices a sticky error left unusable in this process, by id. */
static GMutex lost_lock;
static GArray *lost_devices;    /* gboolean */

/**
 * gst_cuda_box_blur_device_mark_lost:
 *
 * Marks @device_id unusable for the rest of the process, after a sticky
 * error in a context of it (gst_cuda_box_blur_context_lost()): NVIDIA
 * documents these errors as leaving the process in a state that only its
 * restart clears, and a new context in the same process did not work on
 * an H200.  gst_cuda_box_blur_device_query() refuses the device from then
 * on, with an error that says to restart the process.
 */
void
gst_cuda_box_blur_device_mark_lost (gint device_id)
{
  g_return_if_fail (device_id >= 0);

  g_mutex_lock (&lost_lock);
  if (!lost_devices)
    lost_devices = g_array_new (FALSE, TRUE, sizeof (gboolean));
  if ((guint) device_id >= lost_devices->len)
    g_array_set_size (lost_devices, device_id + 1);
  g_array_index (lost_devices, gboolean, device_id) = TRUE;
  g_mutex_unlock (&lost_lock);
  GST_WARNING ("CUDA device %d is lost for the rest of the process",
      device_id);
}

static gboolean
device_is_lost (gint device_id)
{
  gboolean lost;

  g_mutex_lock (&lost_lock);
  lost = lost_devices && device_id >= 0
      && (guint) device_id < lost_devices->len
      && g_array_index (lost_devices, gboolean, device_id);
  g_mutex_unlock (&lost_lock);
  return lost;
}

/**
 * gst_cuda_box_blur_device_query:
 *
 * Checks that @device_id names a usable CUDA device that supports managed
 * memory, and that no sticky error made it unusable in this process
 * (gst_cuda_box_blur_device_mark_lost()), and describes it, without making
 * a CUDA context.  The errors say what is missing in words a user can act
 * on.
 */
gboolean
gst_cuda_box_blur_device_query (gint device_id, GstCudaBoxBlurDevice * device,
    GError ** error)
{
  struct cudaDeviceProp props;
  cudaError_t err;
  gint count = 0, mode;

  if (device_is_lost (device_id)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "CUDA device %d was lost to a kernel fault earlier in this process: "
        "restart the process to use it again", device_id);
    return FALSE;
  }
  err = cudaGetDeviceCount (&count);
  GST_INFO ("cudaGetDeviceCount: %s, %d devices", cudaGetErrorName (err),
      count);
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver
      || (err == cudaSuccess && count == 0)) {
    gchar *reason = no_device_reason ();

    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "No CUDA device available: %s", reason);
    g_free (reason);
    return FALSE;
  }
  if (!GST_CUDA_BOX_BLUR_CHECK (err, error))
    return FALSE;

  if (device_id < 0 || device_id >= count) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "No CUDA device with device-id %d: this machine has %d CUDA "
        "device%s (ids 0 to %d)", device_id, count, count == 1 ? "" : "s",
        count - 1);
    return FALSE;
  }

  if (!GST_CUDA_BOX_BLUR_CHECK (cudaGetDeviceProperties (&props, device_id),
          error))
    return FALSE;

  if (!props.managedMemory) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "CUDA device %d (%s) does not support managed memory", device_id,
        props.name);
    return FALSE;
  }

  if (cudaDeviceGetAttribute (&mode, cudaDevAttrComputeMode, device_id)
      == cudaSuccess && mode == cudaComputeModeProhibited) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_BUSY,
        "CUDA device %d (%s) is in prohibited compute mode", device_id,
        props.name);
    return FALSE;
  }

  device->device_id = device_id;
  g_strlcpy (device->name, props.name, sizeof (device->name));
  device->major = props.major;
  device->minor = props.minor;
  device->integrated = props.integrated != 0;
  device->host_page_tables = props.pageableMemoryAccessUsesHostPageTables != 0;
  device->concurrent_managed = props.concurrentManagedAccess != 0;
  device->target.multiprocessors = props.multiProcessorCount;
  device->target.shared_per_multiprocessor = props.sharedMemPerMultiprocessor;
  device->target.reserved_shared_per_block = props.reservedSharedMemPerBlock;
  GST_INFO ("device %d: %s, sm_%d%d, concurrentManagedAccess=%d, "
      "integrated=%d, pageableMemoryAccessUsesHostPageTables=%d", device_id,
      device->name, device->major, device->minor,
      props.concurrentManagedAccess, device->integrated,
      device->host_page_tables);
  return TRUE;
}

/**
 * gst_cuda_box_blur_device_prefers_managed:
 *
 * Whether frames in system memory are fastest in CUDA managed memory on
 * @device, rather than in pinned host memory copied to and from device
 * memory: where the GPU works in the host's memory anyway, integrated
 * with it or reading it coherently through the host's page tables.  On
 * other GPUs the kernels cross the bus for every read.  Only where the
 * CPU may touch managed memory while kernels run: without
 * concurrentManagedAccess (Jetson), a source writing the next frame into
 * the pool while the element's kernels run is a segmentation fault.
 */
gboolean
gst_cuda_box_blur_device_prefers_managed (const GstCudaBoxBlurDevice * device)
{
  return device->concurrent_managed && (device->integrated
      || device->host_page_tables);
}

/**
 * gst_cuda_box_blur_device_init:
 *
 * Queries @device_id (gst_cuda_box_blur_device_query()), then creates its
 * primary context if need be, without making it current on the calling
 * thread: whatever the thread has current stays so.
 */
gboolean
gst_cuda_box_blur_device_init (gint device_id, GstCudaBoxBlurDevice * device,
    GError ** error)
{
  cudaError_t err;

  if (!gst_cuda_box_blur_device_query (device_id, device, error))
    return FALSE;

  /* fails when an exclusive-process device is taken by another process */
  err = cudaInitDevice (device_id, 0, 0);
  if (err == cudaErrorDevicesUnavailable) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_BUSY,
        "CUDA device %d (%s) is busy or unavailable: %s", device_id,
        device->name, cudaGetErrorString (err));
    return FALSE;
  }
  return GST_CUDA_BOX_BLUR_CHECK (err, error);
}

/**
 * gst_cuda_box_blur_device_open:
 *
 * gst_cuda_box_blur_device_init(), then makes the primary context current
 * on the calling thread, for callers that own the thread.
 */
gboolean
gst_cuda_box_blur_device_open (gint device_id, GstCudaBoxBlurDevice * device,
    GError ** error)
{
  return gst_cuda_box_blur_device_init (device_id, device, error)
      && GST_CUDA_BOX_BLUR_CHECK (cudaSetDevice (device_id), error);
}

/**
 * gst_cuda_box_blur_keep_on_host:
 *
 * Advises managed memory to stay in host memory and to be mapped for
 * @device_id: the CPU writes it where it lives, the kernels read and write
 * it across the bus, and no page ever migrates.  On a PCIe machine this
 * runs at the speed of the explicit copies of pinned memory, where
 * migrating every frame to the GPU and back (prefetches, page faults) is
 * several times slower.  Only a hint: a failure costs speed, not
 * correctness.
 */
cudaError_t
gst_cuda_box_blur_keep_on_host (const void *ptr, gsize size, gint device_id)
{
  /* CUDA 13 replaced the device ordinals of the hints with
   * cudaMemLocation */
#if CUDART_VERSION >= 13000
  struct cudaMemLocation host = { 0, }, device = { 0, };
  cudaError_t err;

  host.type = cudaMemLocationTypeHost;
  device.type = cudaMemLocationTypeDevice;
  device.id = device_id;
  err = cudaMemAdvise (ptr, size, cudaMemAdviseSetPreferredLocation, host);
  if (err == cudaSuccess)
    err = cudaMemAdvise (ptr, size, cudaMemAdviseSetAccessedBy, device);
#else
  cudaError_t err = cudaMemAdvise (ptr, size,
      cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId);

  if (err == cudaSuccess)
    err = cudaMemAdvise (ptr, size, cudaMemAdviseSetAccessedBy, device_id);
#endif
  return err;
}

/**
 * gst_cuda_box_blur_work_memory_release:
 *
 * Frees @m's memory, if any, in the current CUDA context.
 */
void
gst_cuda_box_blur_work_memory_release (GstCudaBoxBlurWorkMemory * m)
{
  if (m->mem && m->host)
    cudaFreeHost (m->mem);
  else if (m->mem)
    cudaFree (m->mem);
  m->mem = NULL;
  m->size = 0;
}

/**
 * gst_cuda_box_blur_work_memory_ensure:
 *
 * Grows @m to hold at least @needed bytes, in the current CUDA context;
 * what it held is not kept.
 *
 * Returns: %FALSE, with @error set, when the memory cannot be had.
 */
gboolean
gst_cuda_box_blur_work_memory_ensure (GstCudaBoxBlurWorkMemory * m,
    gsize needed, GError ** error)
{
  if (m->size >= needed)
    return TRUE;
  gst_cuda_box_blur_work_memory_release (m);
  if (!GST_CUDA_BOX_BLUR_CHECK (m->host ? cudaMallocHost (&m->mem, needed) :
          cudaMalloc (&m->mem, needed), error)) {
    m->mem = NULL;
    return FALSE;
  }
  m->size = needed;
  return TRUE;
}
