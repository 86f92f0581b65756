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

/**
 * SECTION:element-cudaboxblur
 * @title: cudaboxblur
 *
 * Blurs video with a box filter on an NVIDIA GPU.  Each output sample is the
 * mean of the (2 * radius-x + 1) x (2 * radius-y + 1) window of input
 * samples around it.  With the default border-mode, shrink, windows are
 * clipped to the frame, so pixels near the border average fewer neighbours;
 * the other border modes read stand-in pixels there.  Integer samples give
 * the exact mean rounded half up.  Float32 windows of up to 9 pixels sum in
 * float32 in the NVIDIA sample's order (bit-identical to it); larger ones
 * slide pairs of float32 sums, within a few 1e-7 of the exact mean, in
 * time independent of the radius.
 *
 * Gray, planar and semi-planar YUV and packed RGB formats are blurred
 * component by component without conversion: subsampled chroma takes the
 * luma radius divided by the subsampling (rounded up) unless
 * chroma-radius-x/-y say otherwise, alpha is kept unless blur-alpha is set,
 * and the planes property picks the components.  passes repeats the blur
 * (three passes approximate a Gaussian), and the roi-* properties or the
 * buffers' #GstVideoRegionOfInterestMeta (roi-meta) restrict it to
 * rectangles, outside which pixels are left untouched.  For redaction,
 * mode gives a Gaussian, a mosaic (pixelate) or a solid fill instead of
 * the box blur, shape the ellipse inscribed in each region and feather a
 * soft edge; the scales size each region's strength to the region, a
 * meta's "cudaboxblur" parameters set its own, and roi-hold keeps regions
 * a detector missed for a few frames.  Every property
 * except device-id and memory-mode may change while playing and applies
 * from the next frame.  The numeric ones (radii, passes, sigma,
 * block-size, fill-color, feather, border-value, the roi rectangle,
 * roi-padding and the scales) are controllable: bound to a
 * #GstControlSource, each frame gets the value at its stream time.
 *
 * Frames in system memory live in CUDA managed memory: the element offers
 * a pool of it upstream and allocates its output from it, so neither side
 * copies.  Input in other memory is copied into a device staging frame
 * first.  With memory-mode=pinned the element offers and allocates
 * page-locked host memory instead and copies frames to and from device
 * memory.  Built with GStreamer's CUDA library, the element also takes and
 * gives video/x-raw(memory:CUDAMemory), preferring it where both neighbours
 * can: it shares their #GstCudaContext, blurs the frames where they are on
 * the GPU, and takes its output from downstream's CUDA buffer pool or its
 * own.  With roi-meta or a static ROI, a frame nobody else holds, in CUDA
 * or managed memory, has its regions blurred where it is and goes on as
 * the same buffer.  The kernels are built into the plugin for every GPU
 * architecture from Turing on (NVRTC compiles them at start only for a GPU
 * newer than all of them, or from CUDABOXBLUR_KERNEL_SOURCE), and run on a
 * CUDA stream of the element's own; the stream is synchronised before a
 * frame is pushed.
 *
 * The properties, their ranges and what each does are in the README's
 * property table (gst-inspect-1.0 cudaboxblur says the same in short), the
 * rules behind them in docs/redaction.md.
 *
 * GRAY32F (one plane of native-endian float32) is not a GstVideoFormat in
 * GStreamer 1.22; the element negotiates `format=GRAY32F` itself.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12,width=1280,height=720 ! cudaboxblur radius=8 ! videoconvert ! autovideosink
 * ]| Blurs NV12 video: luma with a 17x17 window, chroma with a 9x9 one.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=I420,width=1280,height=720 ! cudaboxblur radius=12 passes=3 roi-x=400 roi-y=200 roi-width=480 roi-height=320 ! videoconvert ! autovideosink
 * ]| Blurs one rectangle with an approximate Gaussian.
 * |[
 * gst-launch-1.0 filesrc location=clip.mp4 ! qtdemux ! h264parse ! nvh264dec ! cudaboxblur radius=8 ! cudadownload ! videoconvert ! autovideosink
 * ]| Blurs decoded frames in CUDA memory, with no copy through the host.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=I420,width=1280,height=720 ! cudaboxblur mode=pixelate block-size=24 shape=ellipse feather=6 roi-x=500 roi-y=200 roi-width=240 roi-height=300 ! videoconvert ! autovideosink
 * ]| Pixelates an ellipse whose edge fades in over 6 pixels.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblur.h"
#include "gstcudaboxblurallocator.h"
#include "gstcudaboxblurbufferpool.h"
#include "gstcudaboxblurflight.h"
#include "gstcudaboxblurimage.h"
#include "gstcudaboxblurcontext.h"
#include "gstcudaboxblurprops.h"
#include "cudaboxblur-device.h"
#include "cudaboxblur-engine.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-params.h"
#include "cudaboxblur-program.h"

#ifdef HAVE_GST_CUDA
#include "gstcudaboxblurcuda.h"
#include <gst/cuda/gstcudautils.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_box_blur_debug);
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

  /* held while passthrough is decided and set, from the application's
   * thread (a property) or the streaming thread (caps) */
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

  /* frames whose blur may still run, oldest first (GstCudaBoxBlurFlight),
   * on the
   * streaming thread only */
  GQueue pending;

  /* roi-hold's regions, from prepare_output_buffer() to the next flush,
   * caps or stop */
  GstCudaBoxBlurHold hold;
};

/* GStreamer's CUDA memory first: negotiation prefers it where both
 * neighbours take it. */
#ifdef HAVE_GST_CUDA
#define TEMPLATE_CAPS GST_CUDA_BOX_BLUR_CUDA_CAPS "; " GST_CUDA_BOX_BLUR_CAPS
#else
#define TEMPLATE_CAPS GST_CUDA_BOX_BLUR_CAPS
#endif

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (TEMPLATE_CAPS));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (TEMPLATE_CAPS));

#define gst_cuda_box_blur_parent_class parent_class
G_DEFINE_TYPE (GstCudaBoxBlur, gst_cuda_box_blur, GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudaboxblur, "cudaboxblur", GST_RANK_NONE,
    GST_TYPE_CUDA_BOX_BLUR);

static void gst_cuda_box_blur_finalize (GObject * object);
static void gst_cuda_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_box_blur_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
#ifdef HAVE_GST_CUDA
static void gst_cuda_box_blur_set_context (GstElement * element,
    GstContext * context);
#endif
static gboolean gst_cuda_box_blur_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
static gboolean gst_cuda_box_blur_sink_event (GstBaseTransform * trans,
    GstEvent * event);
static gboolean gst_cuda_box_blur_start (GstBaseTransform * trans);
static gboolean gst_cuda_box_blur_stop (GstBaseTransform * trans);
static gboolean gst_cuda_box_blur_get_unit_size (GstBaseTransform * trans,
    GstCaps * caps, gsize * size);
static gboolean gst_cuda_box_blur_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps,
    gsize * othersize);
static GstCaps *gst_cuda_box_blur_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static GstCaps *gst_cuda_box_blur_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
static gboolean gst_cuda_box_blur_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
static gboolean gst_cuda_box_blur_propose_allocation (GstBaseTransform *
    trans, GstQuery * decide_query, GstQuery * query);
static gboolean gst_cuda_box_blur_decide_allocation (GstBaseTransform * trans,
    GstQuery * query);
static gboolean gst_cuda_box_blur_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf);
static void gst_cuda_box_blur_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);
static GstFlowReturn gst_cuda_box_blur_prepare_output_buffer (GstBaseTransform
    * trans, GstBuffer * input, GstBuffer ** outbuf);
static GstFlowReturn gst_cuda_box_blur_generate_output (GstBaseTransform *
    trans, GstBuffer ** outbuf);
static GstFlowReturn gst_cuda_box_blur_drain (GstCudaBoxBlur * self,
    gboolean push);
static GstFlowReturn gst_cuda_box_blur_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);

static void
gst_cuda_box_blur_class_init (GstCudaBoxBlurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->finalize = gst_cuda_box_blur_finalize;
  gobject_class->set_property = gst_cuda_box_blur_set_property;
  gobject_class->get_property = gst_cuda_box_blur_get_property;

  gst_cuda_box_blur_props_install (gobject_class);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "CUDA box blur",
      "Filter/Effect/Video", "Box blur of gray, YUV and RGB video on NVIDIA "
      "GPUs, whole frames or regions of interest (Gaussian, pixelate, fill, "
      "ellipses, feathered edges), in CUDA, CUDA managed or system memory",
      "The cudaboxblur authors "
      "<https://github.com/cudaboxblur/cudaboxblur/issues>");

#ifdef HAVE_GST_CUDA
  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_set_context);
#endif
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_query);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_sink_event);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_stop);
  /* GstVideoFilter implements these with GstVideoInfo, which cannot parse
   * GRAY32F in GStreamer 1.22: the element does its own. */
  trans_class->get_unit_size =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_get_unit_size);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_transform_size);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_transform_caps);
  trans_class->fixate_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_fixate_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_set_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_decide_allocation);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_transform_meta);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_before_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_transform);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_generate_output);
  /* In passthrough the input goes out untouched, with no GPU work. */
  trans_class->transform_ip = NULL;
  trans_class->transform_ip_on_passthrough = FALSE;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_box_blur_debug, "cudaboxblur", 0,
      "CUDA box blur");
}

static void
gst_cuda_box_blur_init (GstCudaBoxBlur * self)
{
  gst_cuda_box_blur_props_init (&self->props);
  g_queue_init (&self->pending);
  g_mutex_init (&self->passthrough_lock);
  gst_cuda_box_blur_job_init (&self->job);
  gst_cuda_box_blur_hold_init (&self->hold);
}

static void
gst_cuda_box_blur_finalize (GObject * object)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (object);

  gst_cuda_box_blur_job_clear (&self->job);
  gst_cuda_box_blur_hold_clear (&self->hold);
  g_mutex_clear (&self->passthrough_lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* Passthrough when the settings change no pixel of the negotiated format,
 * or before caps, of any format; never while frames cross between system
 * and CUDA memory. */
static void
gst_cuda_box_blur_update_passthrough (GstCudaBoxBlur * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  gboolean passthrough;

  g_mutex_lock (&self->passthrough_lock);
  GST_OBJECT_LOCK (self);
  passthrough = gst_cuda_box_blur_settings_blurs_nothing (&self->props.settings,
      self->negotiated ? &self->info : NULL)
      && self->cuda_in == self->cuda_out;
  GST_OBJECT_UNLOCK (self);

  if (passthrough != gst_base_transform_is_passthrough (trans)) {
    GST_DEBUG_OBJECT (self, "passthrough %s", passthrough ? "on" : "off");
    gst_base_transform_set_passthrough (trans, passthrough);
    /* Leaving passthrough needs our output pool: renegotiate allocation. */
    gst_base_transform_reconfigure_src (trans);
  }
  g_mutex_unlock (&self->passthrough_lock);
}

static void
gst_cuda_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (object);
  GstCudaBoxBlurPropEffect effect;
  gboolean latency;

  GST_OBJECT_LOCK (self);
  effect = gst_cuda_box_blur_props_set (&self->props, prop_id, value);
  /* the frames held back are latency (gst_cuda_box_blur_add_latency) */
  latency = (effect & GST_CUDA_BOX_BLUR_PROP_LATENCY)
      && GST_STATE (self) >= GST_STATE_PAUSED;
  GST_OBJECT_UNLOCK (self);

  /* the pipeline queries the latency again and redistributes it */
  if (latency)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
  if (effect & GST_CUDA_BOX_BLUR_PROP_BLURS)
    gst_cuda_box_blur_update_passthrough (self);
}

static void
gst_cuda_box_blur_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (object);

  GST_OBJECT_LOCK (self);
  gst_cuda_box_blur_props_get (&self->props, prop_id, value);
  GST_OBJECT_UNLOCK (self);
}

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
static gboolean
gst_cuda_box_blur_enter (GstCudaBoxBlur * self, GError ** error)
{
  return gst_cuda_box_blur_context_enter (CUDA_CONTEXT (self),
      self->device.device_id, error);
}

static void
gst_cuda_box_blur_leave (GstCudaBoxBlur * self)
{
  gst_cuda_box_blur_context_leave (CUDA_CONTEXT (self));
}

/* Opens device @device_id, in the element's CUDA context: describes it,
 * gets its kernels and makes the allocator of frames, posting the error a
 * user sees when any of it fails. */
static gboolean
gst_cuda_box_blur_open (GstCudaBoxBlur * self, gint device_id)
{
  const GstCudaBoxBlurProgram *program = NULL;
  GstObject *context = CUDA_CONTEXT (self);
  GError *error = NULL;
  gboolean ok;

#ifdef HAVE_GST_CUDA
  ok = gst_cuda_box_blur_device_query (device_id, &self->device, &error);
#else
  /* the primary context, made without making it current here: enter()
   * pushes it */
  ok = gst_cuda_box_blur_device_init (device_id, &self->device, &error);
#endif
  if (!ok) {
    POST_ERROR (self, error, "device-id=%d", device_id);
    g_error_free (error);
    return FALSE;
  }

  if (gst_cuda_box_blur_enter (self, &error)) {
    program = gst_cuda_box_blur_program_get (self->device.major,
        self->device.minor, &error);
    gst_cuda_box_blur_leave (self);
  }
  if (!program) {
    POST_ERROR (self, error, "device %d: %s, sm_%d%d", device_id,
        self->device.name, self->device.major, self->device.minor);
    g_error_free (error);
    return FALSE;
  }

  GST_OBJECT_LOCK (self);
  self->program = program;
  self->props.arch = program->description;
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "running on device %d (%s, sm_%d%d), kernels %s",
      device_id, self->device.name, self->device.major, self->device.minor,
      program->description);

  gst_clear_object (&self->allocator);
  self->allocator = self->mode == GST_CUDA_BOX_BLUR_MEMORY_PINNED ?
      gst_cuda_box_blur_allocator_new_pinned (device_id, context) :
      gst_cuda_box_blur_allocator_new_managed (device_id, context);
  return TRUE;
}

#ifdef HAVE_GST_CUDA
/* Takes the CUDA context of the neighbours, or one the application set,
 * or else the process's own for the device, and offers it to them: a
 * process then holds one CUDA context per device, whoever made it. */
static gboolean
gst_cuda_box_blur_ensure_context (GstCudaBoxBlur * self, gint device_id)
{
  GstCudaBoxBlurDevice probe;
  GError *error = NULL;

  /* a missing driver, device or device-id, said in words */
  if (!gst_cuda_box_blur_device_query (MAX (device_id, 0), &probe, &error)) {
    POST_ERROR (self, error, "device-id=%d", device_id);
    g_error_free (error);
    return FALSE;
  }
  if (!gst_cuda_box_blur_gstcuda_init ()) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("No CUDA device "
            "available: cannot load the CUDA driver library"), (NULL));
    return FALSE;
  }
  if (!gst_cuda_box_blur_share_context (GST_ELEMENT (self), device_id,
          &self->cuda_context)) {
    GST_ELEMENT_ERROR (self, RESOURCE, BUSY, ("Cannot create a CUDA context "
            "on CUDA device %d (%s): it is busy, unavailable or out of "
            "memory", MAX (device_id, 0), probe.name), (NULL));
    return FALSE;
  }
  return TRUE;
}
#endif

static gboolean
gst_cuda_box_blur_start (GstBaseTransform * trans)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->props.device_id;
  self->mode = self->props.memory_mode;
  GST_OBJECT_UNLOCK (self);

  /* GstBaseTransform posts nothing when start() fails: every failure
   * posts its own error message. */
#ifdef HAVE_GST_CUDA
  if (!gst_cuda_box_blur_ensure_context (self, device_id))
    return FALSE;
  device_id = gst_cuda_box_blur_context_device (self->cuda_context);
#endif
  return gst_cuda_box_blur_open (self, MAX (device_id, 0));
}

/* Frees the engines in the context they live in, once their work is
 * done. */
static void
gst_cuda_box_blur_drop_engine (GstCudaBoxBlur * self)
{
  if (self->engines[0]) {
    gboolean entered = gst_cuda_box_blur_enter (self, NULL);
    guint i;

    for (i = 0; i < MAX_FRAMES_IN_FLIGHT; i++) {
      gst_cuda_box_blur_engine_free (self->engines[i]);
      self->engines[i] = NULL;
    }
    if (entered)
      gst_cuda_box_blur_leave (self);
  }
}

/* A flush forgets the regions roi-hold keeps and drops the frames in
 * flight; any other serialized event (EOS, caps, a segment, a gap ...)
 * pushes them first, so that it stays behind them. */
static gboolean
gst_cuda_box_blur_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    gst_cuda_box_blur_drain (self, FALSE);
    gst_cuda_box_blur_hold_reset (&self->hold);
  } else if (GST_EVENT_IS_SERIALIZED (event)) {
    gst_cuda_box_blur_drain (self, TRUE);
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static gboolean
gst_cuda_box_blur_stop (GstBaseTransform * trans)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
#ifdef HAVE_GST_CUDA
  GstCudaContext *context;
#endif

  gst_cuda_box_blur_drain (self, FALSE);
  gst_cuda_box_blur_drop_engine (self);
  gst_cuda_box_blur_hold_reset (&self->hold);
  gst_clear_object (&self->allocator);
  if (self->program)
    gst_cuda_box_blur_program_settle (self->program);
#ifdef HAVE_GST_CUDA
  GST_OBJECT_LOCK (self);
  context = g_steal_pointer (&self->cuda_context);
  GST_OBJECT_UNLOCK (self);
  gst_clear_object (&context);
  self->foreign_logged = FALSE;
#endif

  GST_OBJECT_LOCK (self);
  self->negotiated = FALSE;
  self->cuda_in = self->cuda_out = FALSE;
  GST_OBJECT_UNLOCK (self);

  return TRUE;
}

#ifdef HAVE_GST_CUDA
static void
gst_cuda_box_blur_set_context (GstElement * element, GstContext * context)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (element);

  /* from any thread: a context the element already has stays */
  GST_OBJECT_LOCK (self);
  gst_cuda_handle_set_context (element, context, self->props.device_id,
      &self->cuda_context);
  GST_OBJECT_UNLOCK (self);

  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

#endif

/* The latency query adds what frames in flight hold back:
 * frames-in-flight - 1 frames of the negotiated rate. */
static void
gst_cuda_box_blur_add_latency (GstCudaBoxBlur * self, GstQuery * query)
{
  GstCaps *caps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD
      (self));
  GstClockTime min, max, extra;
  gint fps_n = 0, fps_d = 1;
  gboolean live;
  guint depth;

  GST_OBJECT_LOCK (self);
  depth = self->props.frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  if (caps)
    gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
        "framerate", &fps_n, &fps_d);
  gst_clear_caps (&caps);
  if (depth <= 1 || fps_n <= 0)
    return;

  extra = gst_util_uint64_scale (depth - 1, fps_d * GST_SECOND, fps_n);
  gst_query_parse_latency (query, &live, &min, &max);
  gst_query_set_latency (query, live, min + extra,
      GST_CLOCK_TIME_IS_VALID (max) ? max + extra : max);
}

/* Answers context queries with the shared CUDA context. */
static gboolean
gst_cuda_box_blur_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);

#ifdef HAVE_GST_CUDA
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GstCudaContext *context;
    gboolean answered;

    /* from any thread, while the streaming thread may move the element to
     * another context (gst_cuda_box_blur_check_peers()) */
    GST_OBJECT_LOCK (self);
    context = self->cuda_context ? gst_object_ref (self->cuda_context) :
        NULL;
    GST_OBJECT_UNLOCK (self);
    answered = gst_cuda_handle_context_query (GST_ELEMENT (self), query,
        context);
    gst_clear_object (&context);
    if (answered)
      return TRUE;
  }
#endif
  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
          query))
    return FALSE;
#ifdef HAVE_GST_CUDA
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS)
    gst_cuda_box_blur_cuda_caps_first (query);
#endif
  if (direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY)
    gst_cuda_box_blur_add_latency (self, query);
  return TRUE;
}

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
    POST_ERROR (self, error, "device %d: %s", self->device.device_id,
        self->device.name);
    g_error_free (error);
  }
  return ok;
}

static gboolean
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
static gboolean
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
static GstCaps *
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

/* The other side in the memory of @caps where the neighbour takes it,
 * whatever order it listed the memories in: the element crosses between
 * the memories only when the neighbour takes only the other. */
static GstCaps *
gst_cuda_box_blur_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  const gboolean cuda = gst_cuda_box_blur_caps_are_cuda (caps, 0);
  guint i;

  for (i = 0; i < gst_caps_get_size (othercaps); i++) {
    if (gst_cuda_box_blur_caps_are_cuda (othercaps, i) == cuda) {
      GstCaps *same = gst_caps_copy_nth (othercaps, i);

      gst_caps_unref (othercaps);
      return gst_caps_fixate (same);
    }
  }
  return gst_caps_fixate (othercaps);
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

static gboolean
gst_cuda_box_blur_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);
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
  self->info = info;
  self->negotiated = TRUE;
  self->cuda_in = cuda[0];
  self->cuda_out = cuda[1];
  GST_OBJECT_UNLOCK (self);
  gst_cuda_box_blur_hold_reset (&self->hold);
  gst_cuda_box_blur_update_passthrough (self);

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
static gboolean
gst_cuda_box_blur_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstBaseTransformClass *base_class =
      g_type_class_peek_parent (parent_class);
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
static gboolean
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
static gboolean
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

/* The CUDA context whose memory the element uses where it is, on a side
 * whose caps carry CUDA memory (@cuda): the shared one; else none. */
#define MEMORY_CONTEXT(self, cuda) ((cuda) ? CUDA_CONTEXT (self) : NULL)

/* TRUE when the regions of @buffer can be blurred where they are: the
 * frame stays in its memory, the GPU can write the buffer in place, and
 * the regions allow it. */
static gboolean
gst_cuda_box_blur_takes_in_place (GstCudaBoxBlur * self, GstBuffer * buffer)
{
  return self->cuda_in == self->cuda_out
      && gst_cuda_box_blur_image_is_writable_in_place (buffer,
      MEMORY_CONTEXT (self, self->cuda_in))
      && gst_cuda_box_blur_job_in_place_helps (&self->job);
}

/* Brings the controlled properties to the buffer's stream time, then
 * takes this frame's copy of the settings.  Runs before the passthrough
 * decision and the output allocation, so a controller that moves a radius
 * off 0 blurs this very frame. */
static void
gst_cuda_box_blur_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstClockTime stream_time = GST_CLOCK_TIME_NONE;

  if (trans->segment.format == GST_FORMAT_TIME)
    stream_time = gst_segment_to_stream_time (&trans->segment,
        GST_FORMAT_TIME, GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time)) {
    GST_LOG_OBJECT (self, "syncing to %" GST_TIME_FORMAT,
        GST_TIME_ARGS (stream_time));
    gst_object_sync_values (GST_OBJECT (self), stream_time);
  }

  GST_OBJECT_LOCK (self);
  self->frame_settings = self->props.settings;
  self->frame_post_messages = self->props.post_messages;
  GST_OBJECT_UNLOCK (self);
}

/* Takes this frame's regions.  A frame with nothing to blur (roi-meta and
 * no matching region, or a region outside the frame) goes out as it came
 * in, unless it crosses into the other memory: then transform() copies
 * it.  One whose regions can be blurred in place goes out as it came in
 * too, blurred by transform().
 * GstBaseTransform returns an error without a message when its output pool
 * cannot allocate: say what ran out. */
static GstFlowReturn
gst_cuda_box_blur_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstFlowReturn ret;

  self->in_place = FALSE;
  if (!gst_base_transform_is_passthrough (trans)) {
    gst_cuda_box_blur_job_resolve (&self->job, &self->frame_settings,
        &self->info, input, &self->hold);
    if (!gst_cuda_box_blur_job_redacts (&self->job)
        && self->cuda_in == self->cuda_out) {
      GST_LOG_OBJECT (self, "no region to blur in %" GST_PTR_FORMAT, input);
      *outbuf = input;
      return GST_FLOW_OK;
    }
    if (gst_debug_category_get_threshold (GST_CAT_DEFAULT) >= GST_LEVEL_LOG) {
      gchar *job = gst_cuda_box_blur_job_to_string (&self->job);

      GST_LOG_OBJECT (self, "%" GST_PTR_FORMAT ": %s", input, job);
      g_free (job);
    }
    if (gst_cuda_box_blur_takes_in_place (self, input)) {
      self->in_place = TRUE;
      *outbuf = input;
      return GST_FLOW_OK;
    }
  }

  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (trans,
      input, outbuf);
  if (ret == GST_FLOW_ERROR)
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot allocate an output frame in %s memory",
            self->cuda_out ? "CUDA" :
            self->mode == GST_CUDA_BOX_BLUR_MEMORY_PINNED ? "pinned host" :
            "CUDA managed"), ("%s %dx%d, %" G_GSIZE_FORMAT " bytes",
            self->info.format, self->info.width, self->info.height,
            self->info.size));
  return ret;
}

/* Maps @buffer, of a side whose caps carry CUDA memory when @cuda, with
 * @flags and describes its frame for the engine
 * (gst_cuda_box_blur_image_map()); warns once about frames in CUDA memory
 * of another context, which go through the host. */
static gboolean
gst_cuda_box_blur_map (GstCudaBoxBlur * self, GstBuffer * buffer,
    gboolean cuda, GstMapFlags flags, GstMapInfo * map,
    GstCudaBoxBlurImage * image, GError ** error)
{
  gboolean foreign;

  if (!gst_cuda_box_blur_image_map (image, buffer, &self->info,
          MEMORY_CONTEXT (self, cuda), flags, map, &foreign, error))
    return FALSE;
  if (foreign && !self->foreign_logged) {
    GST_WARNING_OBJECT (self, "%" GST_PTR_FORMAT " is not CUDA memory of "
        "the shared CUDA context: copying it through the host", buffer);
    self->foreign_logged = TRUE;
  }
  return TRUE;
}

/* Posts the element error of a blur that failed, and frees @error.  When
 * the error left the element's CUDA context lost (a kernel that faulted),
 * forgets the context, so that the next start works in a new one, and
 * says whose it was. */
static void
gst_cuda_box_blur_post_blur_error (GstCudaBoxBlur * self, GError * error)
{
  gboolean lost = !gst_cuda_box_blur_enter (self, NULL);

  if (!lost) {
    lost = gst_cuda_box_blur_context_lost ();
    gst_cuda_box_blur_leave (self);
  }
  if (!lost) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA error while blurring a frame"), ("%s", error->message));
  } else if (gst_cuda_box_blur_context_abandon (CUDA_CONTEXT (self),
          self->device.device_id)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA error while blurring a frame: the CUDA context of device %d "
            "is lost; the next start makes a new one",
            self->device.device_id), ("%s", error->message));
  } else {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA error while blurring a frame: the CUDA context of device %d, "
            "which a neighbouring CUDA element or the application shares, "
            "is lost; it must make a new one", self->device.device_id),
        ("%s", error->message));
  }
  g_error_free (error);
}

/* Runs the engine on this frame in the engine's context; posts the
 * error. */
static gboolean
gst_cuda_box_blur_run (GstCudaBoxBlur * self, const GstCudaBoxBlurImage * in,
    const GstCudaBoxBlurImage * out)
{
  GError *error = NULL;
  gboolean ok;

  GST_LOG_OBJECT (self, "blurring %u regions%s", self->job.regions->len,
      out ? "" : " in place");
  ok = gst_cuda_box_blur_enter (self, &error);
  if (ok) {
    GstCudaBoxBlurEngine *engine = self->engines[self->slot];

    ok = out ? gst_cuda_box_blur_engine_queue_blur (engine, &self->job, in,
        out, &error)
        : gst_cuda_box_blur_engine_queue_blur_in_place (engine, &self->job,
        in, &error);
    gst_cuda_box_blur_leave (self);
  }
  if (!ok)
    gst_cuda_box_blur_post_blur_error (self, error);
  return ok;
}

/* Waits for the blurs queued on engine @slot; posts the error. */
static gboolean
gst_cuda_box_blur_wait_slot (GstCudaBoxBlur * self, guint slot)
{
  GError *error = NULL;
  gboolean ok;

  /* an engine dropped since (new caps) finished its work first */
  if (!self->engines[slot])
    return TRUE;
  ok = gst_cuda_box_blur_enter (self, &error);
  if (ok) {
    ok = gst_cuda_box_blur_engine_wait (self->engines[slot], &error);
    gst_cuda_box_blur_leave (self);
  }
  if (!ok)
    gst_cuda_box_blur_post_blur_error (self, error);
  return ok;
}

/* After the blur of @out (from @in, NULL in place) was queued, or failed
 * to be (@ok): with frames in flight, hands the mapped buffers to the
 * frame's flight, to be unmapped once its blur is done; otherwise waits
 * for the blur and unmaps them. */
static GstFlowReturn
gst_cuda_box_blur_settle (GstCudaBoxBlur * self, gboolean ok, GstBuffer * in,
    GstMapInfo * in_map, GstBuffer * out, GstMapInfo * out_map)
{
  if (ok && self->flight) {
    gst_cuda_box_blur_flight_hold (self->flight, self->slot, in, in_map,
        out_map);
    return GST_FLOW_OK;
  }
  /* a failed queue may have left work running on the buffers */
  ok = gst_cuda_box_blur_wait_slot (self, self->slot) && ok;
  gst_buffer_unmap (out, out_map);
  if (in)
    gst_buffer_unmap (in, in_map);
  return ok ? GST_FLOW_OK : GST_FLOW_ERROR;
}

/* With post-messages, posts what this frame of @buffer got: the regions
 * of its job as they were redacted, for audit logs. */
static void
gst_cuda_box_blur_post_audit (GstCudaBoxBlur * self, GstBuffer * buffer)
{
  if (!self->frame_post_messages)
    return;
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self),
          gst_cuda_box_blur_job_audit (&self->job,
              &GST_BASE_TRANSFORM (self)->segment, buffer)));
}

static GstFlowReturn
gst_cuda_box_blur_transform_in_place (GstCudaBoxBlur * self, GstBuffer * buf)
{
  GstCudaBoxBlurImage image;
  GstMapInfo map;
  GError *error = NULL;

  if (!gst_cuda_box_blur_map (self, buf, self->cuda_in, GST_MAP_READWRITE,
          &map, &image, &error)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot use the frame"),
        ("%s", error->message));
    g_error_free (error);
    return GST_FLOW_ERROR;
  }
  return gst_cuda_box_blur_settle (self, gst_cuda_box_blur_run (self, &image,
          NULL), NULL, NULL, buf, &map);
}

static GstFlowReturn
gst_cuda_box_blur_transform_into (GstCudaBoxBlur * self, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstMapInfo in_map, out_map;
  GstCudaBoxBlurImage in, out;
  GError *error = NULL;

  if (!gst_cuda_box_blur_map (self, inbuf, self->cuda_in, GST_MAP_READ,
          &in_map, &in, &error)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot read the input frame"),
        ("%s", error->message));
    g_error_free (error);
    return GST_FLOW_ERROR;
  }
  if (!gst_cuda_box_blur_map (self, outbuf, self->cuda_out, GST_MAP_WRITE,
          &out_map, &out, &error)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot write the output "
            "frame"), ("%s", error->message));
    g_error_free (error);
    gst_buffer_unmap (inbuf, &in_map);
    return GST_FLOW_ERROR;
  }
  return gst_cuda_box_blur_settle (self, gst_cuda_box_blur_run (self, &in,
          &out), inbuf, &in_map, outbuf, &out_map);
}

static GstFlowReturn
gst_cuda_box_blur_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstFlowReturn ret;

  /* prepare_output_buffer() found nothing to blur */
  if (!self->in_place && inbuf == outbuf)
    return GST_FLOW_OK;
  ret = self->in_place ? gst_cuda_box_blur_transform_in_place (self, inbuf)
      : gst_cuda_box_blur_transform_into (self, inbuf, outbuf);
  if (ret == GST_FLOW_OK && gst_cuda_box_blur_job_redacts (&self->job))
    gst_cuda_box_blur_post_audit (self, inbuf);
  return ret;
}

/* Frees @flight once its blur is done, and returns its output (NULL when
 * the blur failed: the error is posted). */
static GstBuffer *
gst_cuda_box_blur_land (GstCudaBoxBlur * self, GstCudaBoxBlurFlight * flight)
{
  const gboolean ok = flight->slot < 0
      || gst_cuda_box_blur_wait_slot (self, flight->slot);
  GstBuffer *out = gst_cuda_box_blur_flight_free (flight);

  if (!ok) {
    gst_buffer_unref (out);
    return NULL;
  }
  return out;
}

/* Lands every frame in flight, oldest first, and with @push sends each
 * downstream (after a failed push, the rest are dropped). */
static GstFlowReturn
gst_cuda_box_blur_drain (GstCudaBoxBlur * self, gboolean push)
{
  GstFlowReturn ret = GST_FLOW_OK;
  GstCudaBoxBlurFlight *flight;

  while ((flight = g_queue_pop_head (&self->pending))) {
    GstBuffer *out = gst_cuda_box_blur_land (self, flight);

    if (!out)
      ret = GST_FLOW_ERROR;
    else if (push && ret == GST_FLOW_OK)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
    else
      gst_buffer_unref (out);
  }
  return ret;
}

/* The engine no frame in flight runs on, made when first needed. */
static gboolean
gst_cuda_box_blur_free_slot (GstCudaBoxBlur * self, guint * slot)
{
  /* at most frames-in-flight - 1 frames wait, so one engine is free */
  const guint i = gst_cuda_box_blur_flight_free_slot (&self->pending,
      MAX_FRAMES_IN_FLIGHT);
  GError *error = NULL;

  *slot = i;
  if (self->engines[i])
    return TRUE;
  if (gst_cuda_box_blur_enter (self, &error)) {
    self->engines[i] = gst_cuda_box_blur_engine_new (&self->device,
        self->program, self, &error);
    gst_cuda_box_blur_leave (self);
  }
  if (!self->engines[i]) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Cannot keep %u frames in flight", i + 1), ("%s", error->message));
    g_error_free (error);
    return FALSE;
  }
  return TRUE;
}

/* With frames-in-flight at N above 1, each frame's blur is queued on an
 * engine of its own and the frame waits in self->pending; the oldest goes
 * downstream, once its blur is done, when N frames are in flight.  Frames
 * with nothing to blur queue up too, so frames leave in the order they
 * came, each with its own timestamps and metas. */
static GstFlowReturn
gst_cuda_box_blur_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstFlowReturn ret = GST_FLOW_OK;
  guint depth;

  GST_OBJECT_LOCK (self);
  depth = self->props.frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  *outbuf = NULL;

  if (trans->queued_buf) {
    GstBuffer *out = NULL;

    self->slot = 0;
    self->flight = NULL;
    if (depth > 1 || self->pending.length > 0) {
      if (!gst_cuda_box_blur_free_slot (self, &self->slot))
        return GST_FLOW_ERROR;
      self->flight = gst_cuda_box_blur_flight_new ();
    }
    ret = GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (trans,
        &out);
    if (!self->flight) {
      *outbuf = out;
      return ret;
    }
    if (ret != GST_FLOW_OK || !out) {
      /* nothing was mapped or queued for a frame that failed or was
       * dropped */
      g_clear_pointer (&self->flight, g_free);
      gst_clear_buffer (&out);
      return ret;
    }
    self->flight->out = out;
    g_queue_push_tail (&self->pending, self->flight);
    self->flight = NULL;
  }

  if (self->pending.length >= MAX (depth, 1)) {
    *outbuf = gst_cuda_box_blur_land (self,
        g_queue_pop_head (&self->pending));
    if (!*outbuf)
      ret = GST_FLOW_ERROR;
  }
  return ret;
}

