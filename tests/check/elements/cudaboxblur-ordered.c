/* cudaboxblur: stream-ordered CUDA memory (GStreamer 1.24 and later)
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * From 1.24 on, a producer may write a frame of GStreamer's CUDA memory on
 * a CUDA stream of its own and hand it on before the write has run, the
 * memory marked GST_CUDA_MEMORY_TRANSFER_NEED_SYNC (nvh264dec does, given
 * a pool with a stream).  A reader on another stream must wait for it, or
 * it reads the frame as it was before: for a redaction element, a decoder's
 * late copy could put a face back after the blur.  Here the producer's
 * stream holds its copy of each frame back behind a host function that
 * sleeps, so an element that does not wait blurs the stale frame, and
 * fails the comparison with the reference.  Built with gstreamer-cuda-1.0
 * 1.24 or newer; exits with 77 (skipped) and says why without a GPU.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcuda.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

#include "testutils.h"

/* how long the producer's stream waits before its copy of a frame: far
 * longer than the element takes to blur it */
#define HOLD_MS 200

static void CUDART_CB
hold_stream (void *data)
{
  g_usleep (HOLD_MS * 1000);
}

/* A frame being written: @host's NV12 planes copied from page-locked
 * memory into a buffer of CUDA memory of @context on @stream, behind
 * HOLD_MS of waiting, over a frame of zeros; marked as needing a
 * synchronisation, as a decoder marks it.  @staging holds the copy's
 * source, to be freed once @stream has run. */
static GstBuffer *
frame_written_late (GstCudaContext * context, GstCudaStream * stream,
    GstBuffer * host, gint width, gint height, gpointer * staging)
{
  cudaStream_t s = (cudaStream_t) gst_cuda_stream_get_handle (stream);
  GstVideoInfo info;
  GstVideoFrame src;
  GstMemory *mem;
  GstCudaMemory *cmem;
  GstBuffer *buf;
  GstMapInfo map;
  guint p;

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12,
          width, height));
  fail_unless (gst_video_frame_map (&src, &info, host, GST_MAP_READ));
  mem = gst_cuda_allocator_alloc (NULL, context, stream, &info);
  fail_unless (mem != NULL);
  cmem = GST_CUDA_MEMORY_CAST (mem);
  fail_unless (cudaMallocHost (staging, GST_VIDEO_FRAME_SIZE (&src)) ==
      cudaSuccess);
  memcpy (*staging, GST_VIDEO_FRAME_PLANE_DATA (&src, 0),
      GST_VIDEO_FRAME_SIZE (&src));

  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE | GST_MAP_CUDA));
  fail_unless (gst_cuda_context_push (context));
  fail_unless (cudaMemsetAsync (map.data, 0, cmem->info.size, s) ==
      cudaSuccess);
  fail_unless (cudaStreamSynchronize (s) == cudaSuccess);
  fail_unless (cudaLaunchHostFunc (s, hold_stream, NULL) == cudaSuccess);
  for (p = 0; p < 2; p++)
    fail_unless (cudaMemcpy2DAsync ((guint8 *) map.data +
            cmem->info.offset[p], cmem->info.stride[p],
            (guint8 *) * staging + GST_VIDEO_FRAME_PLANE_OFFSET (&src, p),
            GST_VIDEO_FRAME_PLANE_STRIDE (&src, p),
            GST_ROUND_UP_2 (GST_VIDEO_FRAME_WIDTH (&src)),
            GST_VIDEO_FRAME_COMP_HEIGHT (&src, p), cudaMemcpyHostToDevice,
            s) == cudaSuccess);
  fail_unless (gst_cuda_context_pop (NULL));
  gst_memory_unmap (mem, &map);
  GST_MINI_OBJECT_FLAG_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC);

  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_NV12, width, height, 2, cmem->info.offset,
      cmem->info.stride);
  gst_video_frame_unmap (&src);
  return buf;
}

/* Frames written late on a stream of their producer's, blurred whole
 * into the element's CUDA memory and, with regions, in place: each the
 * reference's blur of the frame written, not of the zeros under it. */
GST_START_TEST (test_waits_for_the_writers_stream)
{
  const gint w = 640, height = 360;
  GstCudaContext *context;
  GstCudaStream *stream;
  GstElement *blur;
  GstContext *shared;
  GstHarness *h;
  GstCaps *caps;
  guint i;

  /* the driver's calls, and the allocator, before the first context */
  fail_unless (gst_cuda_load_library ());
  gst_cuda_memory_init_once ();
  context = gst_cuda_context_new (0);
  fail_unless (context != NULL);
  stream = gst_cuda_stream_new (context);
  fail_unless (stream != NULL);
  /* the producer's context, as a neighbour would share it */
  blur = gst_element_factory_make ("cudaboxblur", NULL);
  shared = gst_context_new_cuda_context (context);
  gst_element_set_context (blur, shared);
  gst_context_unref (shared);
  h = gst_harness_new_with_element (blur, "sink", "src");
  gst_object_unref (blur);
  caps = test_caps_new ("NV12", w, height);
  gst_caps_set_features (caps, 0,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  gst_harness_set_sink_caps (h, caps);

  for (i = 0; i < 4; i++) {
    const gboolean regions = i >= 2;
    GstBuffer *host = test_buffer_new (NULL, "NV12", w, height, 0, i);
    GstCudaBoxBlurSettings settings;
    gpointer staging = NULL;
    GstBuffer *in, *out;
    GstMemory *in_mem, *out_mem;

    gst_cuda_box_blur_settings_init (&settings);
    settings.radius_x = settings.radius_y = 8;
    settings.roi_meta = regions;
    test_apply_settings (h->element, &settings);
    in = frame_written_late (context, stream, host, w, height, &staging);
    in_mem = gst_buffer_peek_memory (in, 0);
    if (regions) {
      gst_buffer_add_video_region_of_interest_meta (in, "face", 40, 30, 90,
          110);
      gst_buffer_add_video_region_of_interest_meta (host, "face", 40, 30, 90,
          110);
    }
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL);
    out_mem = gst_buffer_peek_memory (out, 0);
    /* blurred on the GPU where it was: CUDA memory of the producer's
     * context, in place with regions */
    fail_unless (gst_is_cuda_memory (out_mem));
    fail_unless (GST_CUDA_MEMORY_CAST (out_mem)->context == context);
    fail_unless ((out_mem == in_mem) == regions);
    test_assert_output (host, out, "NV12", w, height, &settings);

    gst_buffer_unref (out);
    gst_buffer_unref (host);
    fail_unless (gst_cuda_context_push (context));
    fail_unless (cudaStreamSynchronize ((cudaStream_t)
            gst_cuda_stream_get_handle (stream)) == cudaSuccess);
    fail_unless (cudaFreeHost (staging) == cudaSuccess);
    fail_unless (gst_cuda_context_pop (NULL));
  }

  gst_harness_teardown (h);
  gst_cuda_stream_unref (stream);
  gst_object_unref (context);
}

GST_END_TEST;

static Suite *
cudaboxblur_ordered_suite (void)
{
  Suite *s = suite_create ("cudaboxblur-ordered");
  TCase *tc = tcase_create ("stream-ordered");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_waits_for_the_writers_stream);
  return s;
}

TEST_GPU_CHECK_MAIN ("cudaboxblur-ordered", cudaboxblur_ordered_suite, NULL);
