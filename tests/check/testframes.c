/* cudaboxblur test helpers: frames in each kind of memory
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "testframes.h"

#include <cuda_runtime_api.h>
#include <string.h>

const gchar *const test_location_names[] = { "host", "managed", "device" };

guint8 *
test_place (GstCudaBoxBlurLocation location, gsize size, const guint8 * bytes)
{
  guint8 *mem = NULL;

  switch (location) {
    case GST_CUDA_BOX_BLUR_IN_HOST:
      mem = g_malloc (size);
      break;
    case GST_CUDA_BOX_BLUR_IN_MANAGED:
      /* as the element's allocator makes it */
      fail_unless_equals_int (cudaMallocManaged ((void **) &mem, size,
              cudaMemAttachGlobal), cudaSuccess);
      fail_unless_equals_int (gst_cuda_box_blur_keep_on_host (mem, size, 0),
          cudaSuccess);
      break;
    case GST_CUDA_BOX_BLUR_IN_DEVICE:
      fail_unless_equals_int (cudaMalloc ((void **) &mem, size), cudaSuccess);
      break;
  }
  if (location == GST_CUDA_BOX_BLUR_IN_HOST) {
    if (bytes)
      memcpy (mem, bytes, size);
    else
      memset (mem, 0x5a, size);
  } else {
    fail_unless_equals_int (bytes ? cudaMemcpy (mem, bytes, size,
            cudaMemcpyDefault) : cudaMemset (mem, 0x5a, size), cudaSuccess);
    /* both may still run on the legacy stream, which the engine's
     * non-blocking stream does not wait for */
    fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);
  }
  return mem;
}

guint8 *
test_place_frame (GstCudaBoxBlurImage * image,
    const GstCudaBoxBlurInfo * info, GstCudaBoxBlurLocation location,
    GstBuffer * in)
{
  GstMapInfo map;
  guint8 *mem;

  if (in) {
    fail_unless (gst_buffer_map (in, &map, GST_MAP_READ));
    fail_unless_equals_int (map.size, info->size);
  }
  mem = test_place (location, info->size, in ? map.data : NULL);
  if (in)
    gst_buffer_unmap (in, &map);
  gst_cuda_box_blur_frame_from_data (&image->frame, info, mem);
  image->location = location;
  return mem;
}

guint8 *
test_place_buffer (GstCudaBoxBlurImage * image,
    const GstCudaBoxBlurInfo * info, GstCudaBoxBlurLocation location,
    GstBuffer * in)
{
  GstMapInfo map;
  GError *error = NULL;
  guint8 *mem;

  fail_unless (gst_buffer_map (in, &map, GST_MAP_READ));
  fail_unless (gst_cuda_box_blur_frame_from_buffer (&image->frame, info, in,
          &map, &error), "%s", error ? error->message : "");
  mem = test_place (location, map.size, map.data);
  gst_cuda_box_blur_frame_rebase (&image->frame, info, mem);
  image->location = location;
  gst_buffer_unmap (in, &map);
  return mem;
}

void
test_release (GstCudaBoxBlurLocation location, guint8 * mem)
{
  if (location == GST_CUDA_BOX_BLUR_IN_HOST)
    g_free (mem);
  else
    cudaFree (mem);
}

void
test_assert_frame (GstBuffer * in, const guint8 * mem, const gchar * format,
    gint width, gint height, const GstCudaBoxBlurSettings * settings)
{
  GstCudaBoxBlurInfo info = test_info (format, width, height);
  GstBuffer *out = gst_buffer_new_allocate (NULL, info.size, NULL);
  GstMapInfo map;

  fail_unless (gst_buffer_map (out, &map, GST_MAP_WRITE));
  fail_unless_equals_int (cudaMemcpy (map.data, mem, info.size,
          cudaMemcpyDefault), cudaSuccess);
  gst_buffer_unmap (out, &map);
  test_assert_output (in, out, format, width, height, settings);
  gst_buffer_unref (out);
}

void
test_assert_in_place (GstBuffer * in, const guint8 * mem,
    const gchar * format, gint width, gint height,
    const GstCudaBoxBlurSettings * settings)
{
  GstBuffer *out = gst_buffer_copy_deep (in);
  GstMapInfo map;

  fail_unless (gst_buffer_map (out, &map, GST_MAP_WRITE));
  fail_unless_equals_int (cudaMemcpy (map.data, mem, map.size,
          cudaMemcpyDefault), cudaSuccess);
  gst_buffer_unmap (out, &map);
  test_assert_output (in, out, format, width, height, settings);
  gst_buffer_unref (out);
}
