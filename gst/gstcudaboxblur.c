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
 * Gray, planar, semi-planar and packed YUV and packed RGB formats are blurred
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
 * Frames in system memory live in the memory memory-mode names, by default
 * the faster on the device (memory-in-use says which): CUDA managed memory
 * where the GPU works in the host's memory and the CPU may touch it while
 * kernels run, which the kernels use in place, or page-locked host memory
 * copied to and from device memory (discrete GPUs, Jetson).
 * The element offers a pool of it upstream and allocates its output from
 * it.  Input in other memory is copied into a device staging frame
 * first.  Built with GStreamer's CUDA library, the element also takes and
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

#include "gstcudaboxblurpriv.h"
#include "gstcudaboxblurallocator.h"
#include "gstcudaboxblurcontext.h"

#ifdef HAVE_GST_CUDA
#include "gstcudaboxblurcuda.h"
#include <gst/cuda/gstcudautils.h>
#endif

GST_DEBUG_CATEGORY (gst_cuda_box_blur_debug);

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
  gst_cuda_box_blur_init_flights (self);
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

static void
gst_cuda_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (object);
  GstCudaBoxBlurPropEffect effect;
  GstCudaBoxBlurSettings settings;
  gboolean latency, streaming;

  GST_OBJECT_LOCK (self);
  effect = gst_cuda_box_blur_props_set (&self->props, prop_id, value);
  /* (caps come before any frame, also while going to PAUSED) */
  streaming = self->negotiated || GST_STATE (self) >= GST_STATE_PAUSED;
  /* the frames held back are latency (gst_cuda_box_blur_add_latency) */
  latency = (effect & GST_CUDA_BOX_BLUR_PROP_LATENCY) && streaming;
  settings = self->props.settings;
  GST_OBJECT_UNLOCK (self);

  /* the pipeline queries the latency again and redistributes it */
  if (latency)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
  /* while streaming, the next frame decides passthrough from its own
   * settings (gst_cuda_box_blur_before_transform) */
  if ((effect & GST_CUDA_BOX_BLUR_PROP_BLURS) && !streaming)
    gst_cuda_box_blur_update_passthrough (self, &settings);
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

/* Opens device @device_id, in the element's CUDA context: describes it,
 * gets its kernels and makes the allocator of frames, posting the error a
 * user sees when any of it fails. */
gboolean
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

  /* memory-mode as set, resolved anew for this device (a move to the
   * neighbours' device comes back here) */
  GST_OBJECT_LOCK (self);
  self->mode = self->props.memory_mode;
  GST_OBJECT_UNLOCK (self);
  if (self->mode == GST_CUDA_BOX_BLUR_MEMORY_AUTO)
    self->mode = gst_cuda_box_blur_device_prefers_managed (&self->device) ?
        GST_CUDA_BOX_BLUR_MEMORY_MANAGED : GST_CUDA_BOX_BLUR_MEMORY_PINNED;
  else if (self->mode == GST_CUDA_BOX_BLUR_MEMORY_MANAGED
      && !self->device.concurrent_managed)
    GST_WARNING_OBJECT (self, "memory-mode=managed on device %d (%s), "
        "where the CPU may not touch managed memory while kernels run: "
        "another thread writing or reading a frame of the element's pool "
        "then faults; memory-mode=pinned (or auto) is safe", device_id,
        self->device.name);
  GST_OBJECT_LOCK (self);
  self->program = program;
  self->props.arch = program->description;
  self->props.memory_in_use = self->mode;
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "running on device %d (%s, sm_%d%d), kernels %s, "
      "%s memory", device_id, self->device.name, self->device.major,
      self->device.minor, program->description,
      self->mode == GST_CUDA_BOX_BLUR_MEMORY_PINNED ? "pinned" : "managed");

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
 * done; where that context cannot be entered any more, leaves them (their
 * memory goes with the context) rather than free them in another. */
void
gst_cuda_box_blur_drop_engine (GstCudaBoxBlur * self)
{
  if (self->engines[0]) {
    const gboolean entered = gst_cuda_box_blur_enter (self, NULL);
    guint i;

    if (!entered)
      GST_WARNING_OBJECT (self, "cannot enter the CUDA context of device "
          "%d: its engines are left to it", self->device.device_id);
    for (i = 0; i < MAX_FRAMES_IN_FLIGHT; i++) {
      if (entered)
        gst_cuda_box_blur_engine_free (self->engines[i]);
      self->engines[i] = NULL;
    }
    if (entered)
      gst_cuda_box_blur_leave (self);
  }
  gst_cuda_box_blur_count_work_memory (self);
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
    /* the frames dropped failed with the error posted; the next one is
     * posted again */
    self->blur_error_posted = FALSE;
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
  self->blur_error_posted = FALSE;

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
  /* upstream waits for its buffers back (a decoder about to reallocate):
   * the frames in flight go out first */
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN
      && gst_cuda_box_blur_drain (self, TRUE) != GST_FLOW_OK)
    GST_WARNING_OBJECT (self, "frames in flight dropped at a drain query");
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
