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
 * Blurs GRAY8 or GRAY32F video with a box filter on an NVIDIA GPU.  Each
 * output pixel is the mean of the input pixels of the
 * (2 * radius + 1) x (2 * radius + 1) window around it that lie inside the
 * frame, so pixels near the border average fewer neighbours.  GRAY8 results
 * are the exact integer mean rounded half up.  GRAY32F windows of up to 9
 * pixels sum in float32 in the NVIDIA sample's order (bit-identical to it);
 * larger ones sum in double, in time independent of the radius.
 *
 * Frames live in CUDA managed memory: the element offers a pool of it
 * upstream and allocates its output from it, so neither side copies.  Input
 * in other memory is copied into a managed staging buffer first.  With
 * memory-mode=pinned the element offers and allocates page-locked host
 * memory instead and copies frames to and from device memory.  The kernels
 * are compiled with NVRTC for the GPU in use when the element starts, and
 * run on a CUDA stream of the element's own; the stream is synchronised
 * before a frame is pushed.
 *
 * GRAY32F (one plane of native-endian float32) is not a GstVideoFormat in
 * GStreamer 1.22; the element negotiates `format=GRAY32F` itself.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY8,width=1280,height=720 ! cudaboxblur radius=4 ! videoconvert ! autovideosink
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblur.h"
#include "gstcudamanagedallocator.h"
#include "gstcudamanagedbufferpool.h"
#include "cudaboxblur-device.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-program.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_box_blur_debug);
#define GST_CAT_DEFAULT gst_cuda_box_blur_debug

enum
{
  PROP_0,
  PROP_RADIUS,
  PROP_RADIUS_X,
  PROP_RADIUS_Y,
  PROP_DEVICE_ID,
  PROP_MEMORY_MODE,
  PROP_ARCH,
};

#define DEFAULT_RADIUS 1
#define MAX_RADIUS 255
#define DEFAULT_DEVICE_ID 0
#define DEFAULT_MEMORY_MODE GST_CUDA_BOX_BLUR_MEMORY_MANAGED


struct _GstCudaBoxBlur
{
  GstVideoFilter parent;

  /* properties, under the object lock */
  guint radius_x;
  guint radius_y;
  gint device_id;
  GstCudaBoxBlurMemoryMode memory_mode;

  /* GPU state, from start() to stop() */
  GstCudaBoxBlurDevice device;
  GstCudaBoxBlurMemoryMode mode;        /* memory_mode when started */
  const GstCudaBoxBlurProgram *program;
  cudaStream_t stream;
  GstAllocator *allocator;

  /* device memory for the column sums of the separable passes */
  gpointer mid;
  gsize mid_size;

  /* staging buffers for frames the kernels cannot use in place: managed
   * memory in managed mode, device memory in pinned mode */
  guint8 *stage[2];
  gsize stage_size[2];
  gboolean staging_logged[2];

  /* from set_caps() */
  GstCudaBoxBlurInfo info;
};

enum
{
  STAGE_IN,
  STAGE_OUT,
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CUDA_BOX_BLUR_CAPS));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CUDA_BOX_BLUR_CAPS));

GType
gst_cuda_box_blur_memory_mode_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_BOX_BLUR_MEMORY_MANAGED,
        "CUDA managed memory, used in place by the GPU", "managed"},
    {GST_CUDA_BOX_BLUR_MEMORY_PINNED,
        "Pinned host memory, copied to and from device memory", "pinned"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaBoxBlurMemoryMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_cuda_box_blur_parent_class parent_class
G_DEFINE_TYPE (GstCudaBoxBlur, gst_cuda_box_blur, GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudaboxblur, "cudaboxblur", GST_RANK_NONE,
    GST_TYPE_CUDA_BOX_BLUR);

static void gst_cuda_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_box_blur_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_cuda_box_blur_start (GstBaseTransform * trans);
static gboolean gst_cuda_box_blur_stop (GstBaseTransform * trans);
static gboolean gst_cuda_box_blur_get_unit_size (GstBaseTransform * trans,
    GstCaps * caps, gsize * size);
static gboolean gst_cuda_box_blur_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps,
    gsize * othersize);
static gboolean gst_cuda_box_blur_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
static gboolean gst_cuda_box_blur_propose_allocation (GstBaseTransform *
    trans, GstQuery * decide_query, GstQuery * query);
static gboolean gst_cuda_box_blur_decide_allocation (GstBaseTransform * trans,
    GstQuery * query);
static GstFlowReturn gst_cuda_box_blur_prepare_output_buffer (GstBaseTransform
    * trans, GstBuffer * input, GstBuffer ** outbuf);
static GstFlowReturn gst_cuda_box_blur_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);

static void
gst_cuda_box_blur_class_init (GstCudaBoxBlurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_box_blur_set_property;
  gobject_class->get_property = gst_cuda_box_blur_get_property;

  /**
   * GstCudaBoxBlur:radius:
   *
   * Half the size of the blur window: the window is
   * (2 * radius + 1) x (2 * radius + 1) pixels.  1 gives a 3x3 box; 0
   * leaves frames untouched and switches the element to passthrough.
   * Setting it sets #GstCudaBoxBlur:radius-x and #GstCudaBoxBlur:radius-y;
   * reading it gives #GstCudaBoxBlur:radius-x.  May be changed while
   * playing; the next frame uses the new value.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_uint ("radius", "Radius",
          "Blur window radius in pixels, both directions: the window is "
          "(2*radius+1) squared (0 = passthrough)", 0, MAX_RADIUS,
          DEFAULT_RADIUS, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:radius-x:
   *
   * Horizontal radius: the window is 2 * radius-x + 1 pixels wide.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS_X,
      g_param_spec_uint ("radius-x", "Horizontal radius",
          "Blur window half-width in pixels: the window is 2*radius-x+1 "
          "wide", 0, MAX_RADIUS, DEFAULT_RADIUS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:radius-y:
   *
   * Vertical radius: the window is 2 * radius-y + 1 pixels high.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS_Y,
      g_param_spec_uint ("radius-y", "Vertical radius",
          "Blur window half-height in pixels: the window is 2*radius-y+1 "
          "high", 0, MAX_RADIUS, DEFAULT_RADIUS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:device-id:
   *
   * Ordinal of the CUDA device to run on, as numbered by the CUDA runtime
   * (see `CUDA_VISIBLE_DEVICES`).
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "CUDA device ordinal to run on", 0, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaBoxBlur:memory-mode:
   *
   * Where frames live.  `managed` (the default) offers upstream and
   * allocates downstream CUDA managed memory that the GPU uses in place,
   * prefetched between host and device.  `pinned` offers and allocates
   * page-locked host memory and copies each frame to device memory and the
   * result back with DMA; on discrete GPUs that is the faster of the two
   * for frames the CPU writes and reads (see the README's measurements).
   */
  g_object_class_install_property (gobject_class, PROP_MEMORY_MODE,
      g_param_spec_enum ("memory-mode", "Memory mode",
          "Where frames live: CUDA managed memory used in place, or pinned "
          "host memory copied to and from the GPU",
          GST_TYPE_CUDA_BOX_BLUR_MEMORY_MODE, DEFAULT_MEMORY_MODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaBoxBlur:arch:
   *
   * The GPU architecture the kernels were compiled for ("sm_90", or
   * "compute_XY" when NVRTC is older than the GPU and the driver finishes
   * the compilation), or %NULL before the element first started.
   */
  g_object_class_install_property (gobject_class, PROP_ARCH,
      g_param_spec_string ("arch", "Architecture",
          "GPU architecture the kernels were compiled for (NULL until the "
          "element has started)", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "CUDA box blur",
      "Filter/Effect/Video", "Box blur of GRAY8 and GRAY32F video on NVIDIA "
      "GPUs, in CUDA managed memory",
      "The cudaboxblur authors <cudaboxblur@example.org>");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_stop);
  /* GstVideoFilter implements these with GstVideoInfo, which cannot parse
   * GRAY32F in GStreamer 1.22: the element does its own. */
  trans_class->get_unit_size =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_get_unit_size);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_transform_size);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_set_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_decide_allocation);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_transform);
  /* In passthrough the input goes out untouched, with no GPU work. */
  trans_class->transform_ip = NULL;
  trans_class->transform_ip_on_passthrough = FALSE;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_box_blur_debug, "cudaboxblur", 0,
      "CUDA box blur");
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BOX_BLUR_MEMORY_MODE, 0);
}

static void
gst_cuda_box_blur_init (GstCudaBoxBlur * self)
{
  self->radius_x = self->radius_y = DEFAULT_RADIUS;
  self->device_id = DEFAULT_DEVICE_ID;
  self->memory_mode = DEFAULT_MEMORY_MODE;
}

static void
gst_cuda_box_blur_update_passthrough (GstCudaBoxBlur * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  gboolean passthrough;

  GST_OBJECT_LOCK (self);
  passthrough = self->radius_x == 0 && self->radius_y == 0;
  GST_OBJECT_UNLOCK (self);

  if (passthrough != gst_base_transform_is_passthrough (trans)) {
    GST_DEBUG_OBJECT (self, "passthrough %s", passthrough ? "on" : "off");
    gst_base_transform_set_passthrough (trans, passthrough);
    /* Leaving passthrough needs our output pool: renegotiate allocation. */
    gst_base_transform_reconfigure_src (trans);
  }
}

static void
gst_cuda_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (object);

  switch (prop_id) {
    case PROP_RADIUS:
    case PROP_RADIUS_X:
    case PROP_RADIUS_Y:{
      guint radius = g_value_get_uint (value);

      /* "radius" sets both */
      GST_OBJECT_LOCK (self);
      if (prop_id != PROP_RADIUS_Y)
        self->radius_x = radius;
      if (prop_id != PROP_RADIUS_X)
        self->radius_y = radius;
      GST_OBJECT_UNLOCK (self);
      gst_cuda_box_blur_update_passthrough (self);
      break;
    }
    case PROP_DEVICE_ID:
      GST_OBJECT_LOCK (self);
      self->device_id = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_MEMORY_MODE:
      GST_OBJECT_LOCK (self);
      self->memory_mode = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_box_blur_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_RADIUS:
    case PROP_RADIUS_X:
      g_value_set_uint (value, self->radius_x);
      break;
    case PROP_RADIUS_Y:
      g_value_set_uint (value, self->radius_y);
      break;
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    case PROP_MEMORY_MODE:
      g_value_set_enum (value, self->memory_mode);
      break;
    case PROP_ARCH:
      g_value_set_string (value, self->program ? self->program->arch : NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Posts @error as an element error: its message for the user, the
 * printf-style rest as debug detail for the developer. */
#define POST_ERROR(self, error, ...) \
    gst_element_message_full (GST_ELEMENT (self), GST_MESSAGE_ERROR, \
        (error)->domain, (error)->code, g_strdup ((error)->message), \
        g_strdup_printf (__VA_ARGS__), __FILE__, GST_FUNCTION, __LINE__)

static gboolean
gst_cuda_box_blur_start (GstBaseTransform * trans)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  const GstCudaBoxBlurProgram *program;
  GError *error = NULL;
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  self->mode = self->memory_mode;
  GST_OBJECT_UNLOCK (self);

  /* GstBaseTransform posts nothing when start() fails: every failure below
   * posts its own error message. */
  if (!gst_cuda_box_blur_device_open (device_id, &self->device, &error)) {
    POST_ERROR (self, error, "device-id=%d", device_id);
    g_error_free (error);
    return FALSE;
  }

  program = gst_cuda_box_blur_program_get (self->device.major,
      self->device.minor, &error);
  if (!program) {
    POST_ERROR (self, error, "device %d: %s, sm_%d%d", device_id,
        self->device.name, self->device.major, self->device.minor);
    g_error_free (error);
    return FALSE;
  }

  if (!GST_CUDA_BOX_BLUR_CHECK (cudaStreamCreateWithFlags (&self->stream,
              cudaStreamNonBlocking), &error)) {
    POST_ERROR (self, error, "device %d: %s", device_id, self->device.name);
    g_error_free (error);
    return FALSE;
  }

  GST_OBJECT_LOCK (self);
  self->program = program;
  GST_OBJECT_UNLOCK (self);
  self->allocator = self->mode == GST_CUDA_BOX_BLUR_MEMORY_PINNED ?
      gst_cuda_pinned_allocator_new (device_id) :
      gst_cuda_managed_allocator_new (device_id);

  GST_INFO_OBJECT (self, "running on device %d (%s, sm_%d%d), kernels for %s",
      device_id, self->device.name, self->device.major, self->device.minor,
      program->arch);
  return TRUE;
}

static gboolean
gst_cuda_box_blur_stop (GstBaseTransform * trans)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  guint i;

  cudaSetDevice (self->device.device_id);
  if (self->stream) {
    cudaStreamSynchronize (self->stream);
    cudaStreamDestroy (self->stream);
    self->stream = NULL;
  }
  for (i = 0; i < G_N_ELEMENTS (self->stage); i++) {
    if (self->stage[i])
      cudaFree (self->stage[i]);
    self->stage[i] = NULL;
    self->stage_size[i] = 0;
    self->staging_logged[i] = FALSE;
  }
  if (self->mid)
    cudaFree (self->mid);
  self->mid = NULL;
  self->mid_size = 0;
  gst_clear_object (&self->allocator);

  return TRUE;
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

static gboolean
gst_cuda_box_blur_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);

  if (!gst_cuda_box_blur_info_from_caps (&self->info, incaps)
      || !gst_caps_is_equal (incaps, outcaps)) {
    GST_ERROR_OBJECT (self, "cannot blur %" GST_PTR_FORMAT " into %"
        GST_PTR_FORMAT, incaps, outcaps);
    filter->negotiated = FALSE;
    return FALSE;
  }

  /* Keep GstVideoFilter's view of the stream where it has one. */
  if (self->info.format == GST_CUDA_BOX_BLUR_FORMAT_GRAY8) {
    gst_video_info_from_caps (&filter->in_info, incaps);
    filter->out_info = filter->in_info;
  } else {
    gst_video_info_init (&filter->in_info);
    gst_video_info_init (&filter->out_info);
  }
  filter->negotiated = TRUE;

  GST_DEBUG_OBJECT (self, "%s %dx%d, stride %d",
      gst_cuda_box_blur_format_to_string (self->info.format),
      self->info.width, self->info.height, self->info.stride);
  return TRUE;
}

/* A managed pool for @caps, configured with its size re-read from the pool
 * (it may round up). */
static GstBufferPool *
gst_cuda_box_blur_new_pool (GstCudaBoxBlur * self, GstCaps * caps,
    guint min, guint max, gboolean video_meta, guint * size)
{
  GstCudaBoxBlurInfo info;
  GstBufferPool *pool;
  GstStructure *config;

  if (!gst_cuda_box_blur_info_from_caps (&info, caps))
    return NULL;

  pool = gst_cuda_managed_buffer_pool_new (self->allocator);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
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

/* Offer upstream a pool of managed memory, so that producers write frames
 * where the kernels can read them without a copy. */
static gboolean
gst_cuda_box_blur_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstBaseTransformClass *base_class =
      g_type_class_peek_parent (parent_class);
  GstBufferPool *pool;
  GstCaps *caps;
  guint size;

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
  pool = gst_cuda_box_blur_new_pool (self, caps, 0, 0, TRUE, &size);
  if (!pool)
    return FALSE;
  gst_query_add_allocation_pool (query, pool, size, 0, 0);
  gst_object_unref (pool);
  gst_query_add_allocation_param (query, self->allocator, NULL);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  return TRUE;
}

/* Output always comes from our managed pool; downstream's only say is the
 * number of buffers and whether it understands GstVideoMeta. */
static gboolean
gst_cuda_box_blur_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstBufferPool *pool;
  GstCaps *caps;
  guint size, min = 0, max = 0;
  gboolean video_meta;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL)
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, &max);

  video_meta = gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
      NULL);
  pool = gst_cuda_box_blur_new_pool (self, caps, min, max, video_meta, &size);
  if (!pool)
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);

  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_set_nth_allocation_param (query, 0, self->allocator, NULL);
  else
    gst_query_add_allocation_param (query, self->allocator, NULL);

  return TRUE;
}

/* GstBaseTransform returns an error without a message when its output
 * pool cannot allocate: say what ran out. */
static GstFlowReturn
gst_cuda_box_blur_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstFlowReturn ret =
      GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (trans,
      input, outbuf);

  if (ret == GST_FLOW_ERROR)
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot allocate an output frame in %s memory",
            self->mode == GST_CUDA_BOX_BLUR_MEMORY_PINNED ? "pinned host" :
            "CUDA managed"), ("%s %dx%d, %" G_GSIZE_FORMAT " bytes",
            gst_cuda_box_blur_format_to_string (self->info.format),
            self->info.width, self->info.height, self->info.size));
  return ret;
}

/* Bytes from the first pixel of @plane to the end of its last row. */
static gsize
plane_span (const GstCudaBoxBlurPlane * plane)
{
  return (gsize) plane->stride * (plane->height - 1) +
      (gsize) plane->width * plane->bpp;
}

/* TRUE when the kernels can use @plane of @buffer where it is. */
static gboolean
plane_is_managed (GstBuffer * buffer, const GstCudaBoxBlurPlane * plane)
{
  return gst_buffer_n_memory (buffer) == 1
      && gst_is_cuda_managed_memory (gst_buffer_peek_memory (buffer, 0))
      && ((guintptr) plane->data | (guintptr) plane->stride) % plane->bpp == 0;
}

/* Points @staged at a tightly packed staging copy of @plane's
 * layout, growing the staging buffer when needed. */
static gboolean
gst_cuda_box_blur_stage (GstCudaBoxBlur * self, guint which,
    const GstCudaBoxBlurPlane * plane, GstCudaBoxBlurPlane * staged,
    GError ** error)
{
  gsize size;

  *staged = *plane;
  staged->stride = plane->width * plane->bpp;
  size = (gsize) staged->stride * plane->height;

  if (self->stage_size[which] < size) {
    if (self->stage[which])
      cudaFree (self->stage[which]);
    self->stage[which] = NULL;
    self->stage_size[which] = 0;
    if (self->mode == GST_CUDA_BOX_BLUR_MEMORY_PINNED) {
      if (!GST_CUDA_BOX_BLUR_CHECK (cudaMalloc ((void **)
                  &self->stage[which], size), error))
        return FALSE;
    } else {
      if (!GST_CUDA_BOX_BLUR_CHECK (cudaMallocManaged ((void **)
                  &self->stage[which], size, cudaMemAttachGlobal), error))
        return FALSE;
      (void) gst_cuda_box_blur_prefer_device (self->stage[which], size,
          self->device.device_id);
      (void) cudaGetLastError ();
    }
    self->stage_size[which] = size;
  }

  if (!self->staging_logged[which]) {
    GST_DEBUG_OBJECT (self, "%s is not in CUDA managed memory: copying it "
        "through a %s staging buffer", which == STAGE_IN ? "input" :
        "output", self->mode == GST_CUDA_BOX_BLUR_MEMORY_PINNED ? "device" :
        "managed");
    self->staging_logged[which] = TRUE;
  }

  staged->data = self->stage[which];
  return TRUE;
}

/* Makes sure self->mid can hold the column sums of a @plane frame. */
static gboolean
gst_cuda_box_blur_ensure_mid (GstCudaBoxBlur * self,
    const GstCudaBoxBlurPlane * plane, GError ** error)
{
  const gsize size = gst_cuda_box_blur_program_mid_size (plane->width,
      plane->height);

  if (self->mid_size >= size)
    return TRUE;
  if (self->mid)
    cudaFree (self->mid);
  self->mid = NULL;
  self->mid_size = 0;
  if (!GST_CUDA_BOX_BLUR_CHECK (cudaMalloc (&self->mid, size), error))
    return FALSE;
  self->mid_size = size;
  return TRUE;
}

/* The whole managed allocation of @buffer, when nobody else can read it
 * any more: its contents may then be discarded instead of migrated. */
static gboolean
buffer_allocation_is_ours (GstBuffer * buffer, gpointer * data, gsize * size)
{
  return gst_buffer_n_memory (buffer) == 1
      && gst_buffer_is_writable (buffer)
      && gst_buffer_is_memory_range_writable (buffer, 0, -1)
      && gst_cuda_managed_memory_get_allocation (gst_buffer_peek_memory
      (buffer, 0), data, size);
}

/* Blurs @in into @out on the element's stream and waits for the result.
 *
 * Managed frames never take page faults one page at a time: the input is
 * prefetched to the GPU and the output back to the host, where downstream
 * reads it.  Where a buffer's old contents are dead (the output before the
 * kernel writes it, the input once only we held it) they are discarded
 * rather than copied, so a pool buffer goes back to its producer already on
 * the host.  Other memory (pinned host memory in pinned mode) is copied
 * through staging buffers. */
static gboolean
gst_cuda_box_blur_process (GstCudaBoxBlur * self, GstBuffer * inbuf,
    const GstCudaBoxBlurPlane * in, GstBuffer * outbuf,
    const GstCudaBoxBlurPlane * out, gint radius_x, gint radius_y,
    GError ** error)
{
  const gint dev = self->device.device_id;
  const gboolean hints = self->device.concurrent_managed_access;
  const gboolean in_managed = plane_is_managed (inbuf, in);
  const gboolean out_managed = plane_is_managed (outbuf, out);
  GstCudaBoxBlurPlane src = *in, dst = *out;
  const gsize row_bytes = (gsize) in->width * in->bpp;
  cudaStream_t stream = self->stream;
  GstCudaBoxBlurVariant variant;
  gpointer in_alloc = NULL, out_alloc;
  gsize in_alloc_size = 0, out_alloc_size;

  /* The streaming thread is not the one that ran start(). */
  if (!GST_CUDA_BOX_BLUR_CHECK (cudaSetDevice (dev), error))
    return FALSE;

  if (in_managed) {
    if (hints && !GST_CUDA_BOX_BLUR_CHECK (gst_cuda_box_blur_prefetch
            (src.data, plane_span (&src), dev, stream), error))
      return FALSE;
    if (hints && !buffer_allocation_is_ours (inbuf, &in_alloc,
            &in_alloc_size))
      in_alloc = NULL;
  } else if (!gst_cuda_box_blur_stage (self, STAGE_IN, in, &src, error)
      || !GST_CUDA_BOX_BLUR_CHECK (cudaMemcpy2DAsync (src.data, src.stride,
              in->data, in->stride, row_bytes, in->height, cudaMemcpyDefault,
              stream), error)) {
    return FALSE;
  }

  if (out_managed) {
    cudaError_t err = cudaSuccess;

    if (hints && buffer_allocation_is_ours (outbuf, &out_alloc,
            &out_alloc_size))
      err = gst_cuda_box_blur_discard_prefetch (out_alloc, out_alloc_size,
          dev, stream);
    else if (hints)
      err = gst_cuda_box_blur_prefetch (dst.data, plane_span (&dst), dev,
          stream);
    if (!GST_CUDA_BOX_BLUR_CHECK (err, error))
      return FALSE;
  } else if (!gst_cuda_box_blur_stage (self, STAGE_OUT, out, &dst, error)) {
    return FALSE;
  }

  variant = gst_cuda_box_blur_program_choose (radius_x, radius_y);
  if (variant == GST_CUDA_BOX_BLUR_SEPARABLE
      && !gst_cuda_box_blur_ensure_mid (self, &dst, error))
    return FALSE;

  if (!gst_cuda_box_blur_program_launch (self->program, self->info.format,
          variant, &src, &dst, radius_x, radius_y, self->mid, stream, error))
    return FALSE;

  if (out_managed) {
    if (hints && !GST_CUDA_BOX_BLUR_CHECK (gst_cuda_box_blur_prefetch
            (dst.data, plane_span (&dst), GST_CUDA_BOX_BLUR_HOST, stream),
            error))
      return FALSE;
  } else if (!GST_CUDA_BOX_BLUR_CHECK (cudaMemcpy2DAsync (out->data,
              out->stride, dst.data, dst.stride, row_bytes, out->height,
              cudaMemcpyDefault, stream), error)) {
    return FALSE;
  }

  if (in_alloc && !GST_CUDA_BOX_BLUR_CHECK (gst_cuda_box_blur_discard_prefetch
          (in_alloc, in_alloc_size, GST_CUDA_BOX_BLUR_HOST, stream), error))
    return FALSE;

  return GST_CUDA_BOX_BLUR_CHECK (cudaStreamSynchronize (stream), error);
}

static GstFlowReturn
gst_cuda_box_blur_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstMapInfo in_map, out_map;
  GstCudaBoxBlurPlane in, out;
  GError *error = NULL;
  GstFlowReturn ret = GST_FLOW_ERROR;
  gint radius_x, radius_y;

  GST_OBJECT_LOCK (self);
  radius_x = self->radius_x;
  radius_y = self->radius_y;
  GST_OBJECT_UNLOCK (self);

  if (!gst_buffer_map (inbuf, &in_map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Cannot read the input frame"),
        ("gst_buffer_map of %" GST_PTR_FORMAT " failed", inbuf));
    return GST_FLOW_ERROR;
  }
  if (!gst_buffer_map (outbuf, &out_map, GST_MAP_WRITE)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Cannot write the output "
            "frame"), ("gst_buffer_map of %" GST_PTR_FORMAT " failed",
            outbuf));
    gst_buffer_unmap (inbuf, &in_map);
    return GST_FLOW_ERROR;
  }

  if (!gst_cuda_box_blur_plane_from_buffer (&in, &self->info, inbuf, &in_map,
          &error)
      || !gst_cuda_box_blur_plane_from_buffer (&out, &self->info, outbuf,
          &out_map, &error)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Invalid video frame"), ("%s",
            error->message));
    goto done;
  }

  GST_LOG_OBJECT (self, "blurring %dx%d with radius %d,%d", in.width,
      in.height, radius_x, radius_y);
  if (!gst_cuda_box_blur_process (self, inbuf, &in, outbuf, &out, radius_x,
          radius_y, &error)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA error while blurring a frame"), ("%s", error->message));
    goto done;
  }
  ret = GST_FLOW_OK;

done:
  g_clear_error (&error);
  gst_buffer_unmap (outbuf, &out_map);
  gst_buffer_unmap (inbuf, &in_map);
  return ret;
}
