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

#pragma once

/* The element's instance and what its three source files share:
 * gstcudaboxblur.c (the element: properties, start and stop, the CUDA
 * context, events and queries), gstcudaboxblurnegotiate.c (caps and
 * allocation) and gstcudaboxblurtransform.c (a frame, from its settings
 * to its blur and the frames in flight).  See docs/design.md. */

#include <gst/base/gstbasetransform.h>
#include <gst/video/gstvideofilter.h>

#include "gstcudaboxblur.h"
#include "gstcudaboxblurcontext.h"
#include "gstcudaboxblurflight.h"
#include "gstcudaboxblurprops.h"
#include "cudaboxblur-device.h"
#include "cudaboxblur-engine.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-job.h"
#include "cudaboxblur-program.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#endif

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_box_blur_debug);
#define GST_CAT_DEFAULT gst_cuda_box_blur_debug

#define MAX_FRAMES_IN_FLIGHT GST_CUDA_BOX_BLUR_MAX_FRAMES_IN_FLIGHT

struct _GstCudaBoxBlur
{
  GstVideoFilter parent;

  /* properties, under the object lock */
  GstCudaBoxBlurProps props;

  /* GPU state, from start() to stop() */
  GstCudaBoxBlurDevice device;
  GstCudaBoxBlurMemoryMode mode;        /* memory_mode when started */
  const GstCudaBoxBlurProgram *program;
  GstAllocator *allocator;

#ifdef HAVE_GST_CUDA
  /* from start() to stop(): the CUDA context every CUDA call of the
   * element runs in, shared with the neighbours (without
   * gstreamer-cuda-1.0, the device's primary context) */
  GstCudaContext *cuda_context;
#endif
  gboolean foreign_logged;      /* warned of CUDA memory of another context */

  /* a CUDA error of the stream was posted: the frames behind it that
   * fail the same way are only logged (reset at a flush and at stop) */
  gboolean blur_error_posted;

  /* held while passthrough is decided and set, from the application's
   * thread before streaming (a property) or the streaming thread (caps,
   * each frame) */
  GMutex passthrough_lock;

  /* from set_caps() to stop(): the engines, the first made by set_caps(),
   * the others when frames-in-flight needs them, each with a stream of its
   * own */
  GstCudaBoxBlurEngine *engines[MAX_FRAMES_IN_FLIGHT];

  /* from set_caps(); info is also read under the object lock */
  GstCudaBoxBlurInfo info;
  gboolean negotiated;
  /* the sink and the src caps carry memory:CUDAMemory; when only one
   * does, every frame crosses between the memories */
  gboolean cuda_in, cuda_out;

  /* the settings of the frame being processed, from before_transform(),
   * its job from prepare_output_buffer(), to transform(); and whether it
   * is blurred in place */
  GstCudaBoxBlurSettings frame_settings;
  gboolean frame_post_messages;
  GstCudaBoxBlurJob job;
  gboolean in_place;
  guint slot;                   /* the engine it runs on */
  GstCudaBoxBlurFlight *flight; /* NULL: transform() waits for its blur */

  /* frames whose blur may still run, oldest first; on the streaming
   * thread only */
  GstCudaBoxBlurFlights flights;

  /* roi-hold's regions, from prepare_output_buffer() to the next flush,
   * caps or stop */
  GstCudaBoxBlurHold hold;
};

/* GstVideoFilter's class, which the element's virtual methods chain up to
 * (G_DEFINE_TYPE's parent_class, which only gstcudaboxblur.c sees). */
#define GST_CUDA_BOX_BLUR_PARENT_CLASS \
    GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_VIDEO_FILTER))

/* Posts @error as an element error: its message for the user, the
 * printf-style rest as debug detail for the developer. */
#define POST_ERROR(self, error, ...) \
    gst_element_message_full (GST_ELEMENT (self), GST_MESSAGE_ERROR, \
        (error)->domain, (error)->code, g_strdup ((error)->message), \
        g_strdup_printf (__VA_ARGS__), __FILE__, GST_FUNCTION, __LINE__)

/* The context every CUDA call of the element runs in, for
 * gst_cuda_box_blur_context_enter(): the shared GstCudaContext, or NULL
 * for the device's primary context. */
#ifdef HAVE_GST_CUDA
#define CUDA_CONTEXT(self) GST_OBJECT ((self)->cuda_context)
#else
#define CUDA_CONTEXT(self) NULL
#endif

/* Makes the element's CUDA context current on the calling thread, until
 * gst_cuda_box_blur_leave() gives the thread back what it had current:
 * the application's thread in start(), or a neighbour's thread that
 * works in a context of its own. */
static inline gboolean
gst_cuda_box_blur_enter (GstCudaBoxBlur * self, GError ** error)
{
  return gst_cuda_box_blur_context_enter (CUDA_CONTEXT (self),
      self->device.device_id, error);
}

static inline void
gst_cuda_box_blur_leave (GstCudaBoxBlur * self)
{
  gst_cuda_box_blur_context_leave (CUDA_CONTEXT (self));
}

/* gstcudaboxblur.c */
gboolean      gst_cuda_box_blur_open                  (GstCudaBoxBlur * self,
                                                       gint device_id);

void          gst_cuda_box_blur_drop_engine           (GstCudaBoxBlur * self);

/* gstcudaboxblurnegotiate.c */
gboolean      gst_cuda_box_blur_get_unit_size         (GstBaseTransform * trans,
                                                       GstCaps * caps,
                                                       gsize * size);

gboolean      gst_cuda_box_blur_transform_size        (GstBaseTransform * trans,
                                                       GstPadDirection direction,
                                                       GstCaps * caps,
                                                       gsize size,
                                                       GstCaps * othercaps,
                                                       gsize * othersize);

GstCaps *     gst_cuda_box_blur_transform_caps        (GstBaseTransform * trans,
                                                       GstPadDirection direction,
                                                       GstCaps * caps,
                                                       GstCaps * filter);

GstCaps *     gst_cuda_box_blur_fixate_caps           (GstBaseTransform * trans,
                                                       GstPadDirection direction,
                                                       GstCaps * caps,
                                                       GstCaps * othercaps);

gboolean      gst_cuda_box_blur_set_caps              (GstBaseTransform * trans,
                                                       GstCaps * incaps,
                                                       GstCaps * outcaps);

gboolean      gst_cuda_box_blur_propose_allocation    (GstBaseTransform * trans,
                                                       GstQuery * decide_query,
                                                       GstQuery * query);

gboolean      gst_cuda_box_blur_decide_allocation     (GstBaseTransform * trans,
                                                       GstQuery * query);

gboolean      gst_cuda_box_blur_transform_meta        (GstBaseTransform * trans,
                                                       GstBuffer * outbuf,
                                                       GstMeta * meta,
                                                       GstBuffer * inbuf);

/* gstcudaboxblurtransform.c */
void          gst_cuda_box_blur_update_passthrough    (GstCudaBoxBlur * self,
                                                       const GstCudaBoxBlurSettings * settings);

gboolean      gst_cuda_box_blur_post_if_lost          (GstCudaBoxBlur * self,
                                                       const GError * error);

void          gst_cuda_box_blur_before_transform      (GstBaseTransform * trans,
                                                       GstBuffer * buffer);

GstFlowReturn gst_cuda_box_blur_prepare_output_buffer (GstBaseTransform * trans,
                                                       GstBuffer * input,
                                                       GstBuffer ** outbuf);

GstFlowReturn gst_cuda_box_blur_transform             (GstBaseTransform * trans,
                                                       GstBuffer * inbuf,
                                                       GstBuffer * outbuf);

GstFlowReturn gst_cuda_box_blur_generate_output       (GstBaseTransform * trans,
                                                       GstBuffer ** outbuf);

void          gst_cuda_box_blur_count_work_memory     (GstCudaBoxBlur * self);

void          gst_cuda_box_blur_init_flights          (GstCudaBoxBlur * self);

GstFlowReturn gst_cuda_box_blur_drain                 (GstCudaBoxBlur * self,
                                                       gboolean push);

G_END_DECLS
