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
 * sum in double, in time independent of the radius.
 *
 * Gray, planar and semi-planar YUV and packed RGB formats are blurred
 * component by component without conversion: subsampled chroma takes the
 * luma radius divided by the subsampling (rounded up) unless
 * chroma-radius-x/-y say otherwise, alpha is kept unless blur-alpha is set,
 * and the planes property picks the components.  passes repeats the blur
 * (three passes approximate a Gaussian), and the roi-* properties or the
 * buffers' #GstVideoRegionOfInterestMeta (roi-meta) restrict it to
 * rectangles, outside which pixels are left untouched.  Every property
 * except device-id and memory-mode may change while playing and applies
 * from the next frame.
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
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12,width=1280,height=720 ! cudaboxblur radius=8 ! videoconvert ! autovideosink
 * ]| Blurs NV12 video: luma with a 17x17 window, chroma with a 9x9 one.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=I420,width=1280,height=720 ! cudaboxblur radius=12 passes=3 roi-x=400 roi-y=200 roi-width=480 roi-height=320 ! videoconvert ! autovideosink
 * ]| Blurs one rectangle with an approximate Gaussian.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblur.h"
#include "gstcudamanagedallocator.h"
#include "gstcudamanagedbufferpool.h"
#include "cudaboxblur-device.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-params.h"
#include "cudaboxblur-program.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_box_blur_debug);
#define GST_CAT_DEFAULT gst_cuda_box_blur_debug

enum
{
  PROP_0,
  PROP_RADIUS,
  PROP_RADIUS_X,
  PROP_RADIUS_Y,
  PROP_CHROMA_RADIUS_X,
  PROP_CHROMA_RADIUS_Y,
  PROP_PLANES,
  PROP_BLUR_ALPHA,
  PROP_PASSES,
  PROP_BORDER_MODE,
  PROP_BORDER_VALUE,
  PROP_ROI_X,
  PROP_ROI_Y,
  PROP_ROI_WIDTH,
  PROP_ROI_HEIGHT,
  PROP_ROI_META,
  PROP_ROI_META_TYPE,
  PROP_ROI_PADDING,
  PROP_DEVICE_ID,
  PROP_MEMORY_MODE,
  PROP_ARCH,
};

#define DEFAULT_RADIUS 1
#define DEFAULT_CHROMA_RADIUS -1
#define DEFAULT_PLANES GST_CUDA_BOX_BLUR_PLANES_ALL
#define DEFAULT_BLUR_ALPHA FALSE
#define DEFAULT_PASSES 1
#define DEFAULT_BORDER_MODE GST_CUDA_BOX_BLUR_BORDER_SHRINK
#define DEFAULT_BORDER_VALUE 0.0
#define DEFAULT_ROI 0
#define DEFAULT_ROI_META FALSE
#define DEFAULT_ROI_META_TYPE NULL
#define DEFAULT_ROI_PADDING 0
#define DEFAULT_DEVICE_ID 0
#define DEFAULT_MEMORY_MODE GST_CUDA_BOX_BLUR_MEMORY_MANAGED

#define MAX_RADIUS GST_CUDA_BOX_BLUR_MAX_RADIUS
#define MAX_COORD GST_CUDA_BOX_BLUR_MAX_DIMENSION

struct _GstCudaBoxBlur
{
  GstVideoFilter parent;

  /* properties, under the object lock */
  GstCudaBoxBlurSettings settings;
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

  /* device memory for the passes between the first and the last */
  guint8 *scratch;
  gsize scratch_size;

  /* staging buffers for frames the kernels cannot use in place: managed
   * memory in managed mode, device memory in pinned mode */
  guint8 *stage[2];
  gsize stage_size[2];
  gboolean staging_logged[2];

  /* from set_caps(); info is also read under the object lock */
  GstCudaBoxBlurInfo info;
  gboolean negotiated;

  /* the settings and regions of the frame being processed, from
   * prepare_output_buffer() to transform() */
  GstCudaBoxBlurSettings frame_settings;
  GArray *regions;
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

GType
gst_cuda_box_blur_border_mode_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_BOX_BLUR_BORDER_SHRINK, "Mean of the pixels inside the frame "
          "only", "shrink"},
    {GST_CUDA_BOX_BLUR_BORDER_CLAMP, "Repeat the edge pixels", "clamp"},
    {GST_CUDA_BOX_BLUR_BORDER_MIRROR, "Reflect at the edge, without "
          "repeating it", "mirror"},
    {GST_CUDA_BOX_BLUR_BORDER_WRAP, "Continue from the opposite edge",
        "wrap"},
    {GST_CUDA_BOX_BLUR_BORDER_CONSTANT, "Pixels of border-value",
        "constant"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaBoxBlurBorderMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_box_blur_planes_get_type (void)
{
  static gsize type = 0;
  static const GFlagsValue values[] = {
    {GST_CUDA_BOX_BLUR_PLANE_Y, "Luma (Y), and the gray formats", "y"},
    {GST_CUDA_BOX_BLUR_PLANE_U, "Chroma U (Cb)", "u"},
    {GST_CUDA_BOX_BLUR_PLANE_V, "Chroma V (Cr)", "v"},
    {GST_CUDA_BOX_BLUR_PLANE_R, "Red", "r"},
    {GST_CUDA_BOX_BLUR_PLANE_G, "Green", "g"},
    {GST_CUDA_BOX_BLUR_PLANE_B, "Blue", "b"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_flags_register_static ("GstCudaBoxBlurPlanes", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_cuda_box_blur_parent_class parent_class
G_DEFINE_TYPE (GstCudaBoxBlur, gst_cuda_box_blur, GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudaboxblur, "cudaboxblur", GST_RANK_NONE,
    GST_TYPE_CUDA_BOX_BLUR);

static void gst_cuda_box_blur_finalize (GObject * object);
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
static gboolean gst_cuda_box_blur_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf);
static GstFlowReturn gst_cuda_box_blur_prepare_output_buffer (GstBaseTransform
    * trans, GstBuffer * input, GstBuffer ** outbuf);
static GstFlowReturn gst_cuda_box_blur_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);

#define BLUR_PARAM_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_PLAYING)

static void
gst_cuda_box_blur_class_init (GstCudaBoxBlurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->finalize = gst_cuda_box_blur_finalize;
  gobject_class->set_property = gst_cuda_box_blur_set_property;
  gobject_class->get_property = gst_cuda_box_blur_get_property;

  /**
   * GstCudaBoxBlur:radius:
   *
   * Half the size of the blur window: the window is
   * (2 * radius + 1) x (2 * radius + 1) pixels.  1 gives a 3x3 box; 0
   * leaves frames untouched and switches the element to passthrough.
   * Setting it sets #GstCudaBoxBlur:radius-x and #GstCudaBoxBlur:radius-y;
   * reading it gives #GstCudaBoxBlur:radius-x.  Like every blur property,
   * it may be changed while playing, and the next frame uses the new value.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_uint ("radius", "Radius",
          "Blur window radius in pixels, both directions: the window is "
          "(2*radius+1) squared (0 = passthrough)", 0, MAX_RADIUS,
          DEFAULT_RADIUS, BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:radius-x:
   *
   * Horizontal radius: the window is 2 * radius-x + 1 pixels wide.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS_X,
      g_param_spec_uint ("radius-x", "Horizontal radius",
          "Blur window half-width in pixels: the window is 2*radius-x+1 "
          "wide", 0, MAX_RADIUS, DEFAULT_RADIUS,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:radius-y:
   *
   * Vertical radius: the window is 2 * radius-y + 1 pixels high.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS_Y,
      g_param_spec_uint ("radius-y", "Vertical radius",
          "Blur window half-height in pixels: the window is 2*radius-y+1 "
          "high", 0, MAX_RADIUS, DEFAULT_RADIUS,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:chroma-radius-x:
   *
   * Horizontal radius of the U and V samples, in chroma samples.  -1 (the
   * default) follows radius-x divided by the horizontal chroma subsampling
   * and rounded up: radius 5 gives chroma radius 3 in I420 and NV12, 5 in
   * Y444 and AYUV.  Other components always use radius-x.
   */
  g_object_class_install_property (gobject_class, PROP_CHROMA_RADIUS_X,
      g_param_spec_int ("chroma-radius-x", "Chroma horizontal radius",
          "Horizontal radius of the chroma planes in chroma samples (-1 = "
          "radius-x scaled by the subsampling, rounded up)", -1, MAX_RADIUS,
          DEFAULT_CHROMA_RADIUS, BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:chroma-radius-y:
   *
   * Vertical radius of the U and V samples; -1 follows radius-y divided by
   * the vertical chroma subsampling, rounded up.
   */
  g_object_class_install_property (gobject_class, PROP_CHROMA_RADIUS_Y,
      g_param_spec_int ("chroma-radius-y", "Chroma vertical radius",
          "Vertical radius of the chroma planes in chroma samples (-1 = "
          "radius-y scaled by the subsampling, rounded up)", -1, MAX_RADIUS,
          DEFAULT_CHROMA_RADIUS, BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:planes:
   *
   * The components to blur: any of y (luma, and the gray formats), u, v,
   * r, g and b; the others are copied unchanged.  Components the format
   * does not have are ignored, so `planes=y` blurs the luma of YUV video
   * and leaves RGB video untouched.  Alpha is governed by
   * #GstCudaBoxBlur:blur-alpha.
   */
  g_object_class_install_property (gobject_class, PROP_PLANES,
      g_param_spec_flags ("planes", "Planes",
          "Components to blur (alpha: see blur-alpha)",
          GST_TYPE_CUDA_BOX_BLUR_PLANES, DEFAULT_PLANES, BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:blur-alpha:
   *
   * Blur the alpha channel of ARGB-style formats and AYUV as well, with
   * radius-x and radius-y.  By default alpha is copied unchanged.
   */
  g_object_class_install_property (gobject_class, PROP_BLUR_ALPHA,
      g_param_spec_boolean ("blur-alpha", "Blur alpha",
          "Blur the alpha channel too", DEFAULT_BLUR_ALPHA, BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:passes:
   *
   * How many times the box blur is applied, each pass to the previous
   * one's output.  n passes of a box of radius r approximate a Gaussian of
   * standard deviation sqrt (n * r * (r + 1) / 3) pixels away from the
   * borders: three passes of radius 4 are close to sigma 4.5.
   */
  g_object_class_install_property (gobject_class, PROP_PASSES,
      g_param_spec_uint ("passes", "Passes",
          "Times the box blur is applied (3 approximates a Gaussian of "
          "sigma sqrt(passes*r*(r+1)/3))", 1, GST_CUDA_BOX_BLUR_MAX_PASSES,
          DEFAULT_PASSES, BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:border-mode:
   *
   * What windows that leave the frame read there.  shrink (the default,
   * the NVIDIA sample's rule) reads nothing and averages the pixels inside
   * only; clamp repeats the edge pixels; mirror reflects the frame at its
   * edge without repeating it (dcb|abcd); wrap continues from the opposite
   * edge; constant reads pixels of #GstCudaBoxBlur:border-value.  The edges
   * of regions inside the frame read the real neighbouring pixels.
   */
  g_object_class_install_property (gobject_class, PROP_BORDER_MODE,
      g_param_spec_enum ("border-mode", "Border mode",
          "What the blur window reads outside the frame",
          GST_TYPE_CUDA_BOX_BLUR_BORDER_MODE, DEFAULT_BORDER_MODE,
          BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:border-value:
   *
   * The value of every component outside the frame with
   * border-mode=constant, in the component's own units: 0..255 for 8-bit
   * formats, 0..65535 for GRAY16_LE (rounded and clamped to that range),
   * any value for GRAY32F.
   */
  g_object_class_install_property (gobject_class, PROP_BORDER_VALUE,
      g_param_spec_double ("border-value", "Border value",
          "Sample value outside the frame for border-mode=constant",
          -G_MAXFLOAT, G_MAXFLOAT, DEFAULT_BORDER_VALUE,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:roi-x:
   *
   * Left edge of the one rectangle to blur, in pixels; see
   * #GstCudaBoxBlur:roi-width.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_X,
      g_param_spec_uint ("roi-x", "ROI x", "Left edge of the region to blur",
          0, MAX_COORD, DEFAULT_ROI,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:roi-y:
   *
   * Top edge of the one rectangle to blur, in pixels.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_Y,
      g_param_spec_uint ("roi-y", "ROI y", "Top edge of the region to blur",
          0, MAX_COORD, DEFAULT_ROI,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:roi-width:
   *
   * Width of the rectangle to blur; 0 (the default) reaches the right edge
   * of the frame.  Pixels outside the rectangle are left untouched; those
   * inside get exactly the value a whole-frame blur gives them.  With
   * subsampled chroma the rectangle is divided by the subsampling and
   * rounded outwards.  Ignored when #GstCudaBoxBlur:roi-meta is set.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_WIDTH,
      g_param_spec_uint ("roi-width", "ROI width",
          "Width of the region to blur (0 = to the right edge)", 0, MAX_COORD,
          DEFAULT_ROI, BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:roi-height:
   *
   * Height of the rectangle to blur; 0 (the default) reaches the bottom of
   * the frame.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_HEIGHT,
      g_param_spec_uint ("roi-height", "ROI height",
          "Height of the region to blur (0 = to the bottom edge)", 0,
          MAX_COORD, DEFAULT_ROI, BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:roi-meta:
   *
   * Blur only the rectangles of each buffer's
   * #GstVideoRegionOfInterestMeta (filtered by
   * #GstCudaBoxBlur:roi-meta-type, grown by #GstCudaBoxBlur:roi-padding),
   * as a face or plate detector upstream attaches them.  A buffer with no
   * such rectangle is pushed on untouched, with no GPU work.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_META,
      g_param_spec_boolean ("roi-meta", "ROI meta",
          "Blur only the regions of interest attached to each buffer",
          DEFAULT_ROI_META, BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:roi-meta-type:
   *
   * With roi-meta, only rectangles of this type ("face", "license-plate",
   * ...) are blurred; %NULL or "" takes every type.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_META_TYPE,
      g_param_spec_string ("roi-meta-type", "ROI meta type",
          "Region of interest type to blur with roi-meta (empty = all)",
          DEFAULT_ROI_META_TYPE, BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:roi-padding:
   *
   * With roi-meta, pixels added on every side of each rectangle, so that a
   * tight detection box is covered with a margin.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_PADDING,
      g_param_spec_uint ("roi-padding", "ROI padding",
          "Pixels added on every side of each region of interest", 0,
          MAX_COORD, DEFAULT_ROI_PADDING,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

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
      "Filter/Effect/Video", "Box blur of gray, YUV and RGB video on NVIDIA "
      "GPUs, whole frames or regions of interest, in CUDA managed memory",
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
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_transform_meta);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_box_blur_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_box_blur_transform);
  /* In passthrough the input goes out untouched, with no GPU work. */
  trans_class->transform_ip = NULL;
  trans_class->transform_ip_on_passthrough = FALSE;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_box_blur_debug, "cudaboxblur", 0,
      "CUDA box blur");
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BOX_BLUR_MEMORY_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BOX_BLUR_BORDER_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BOX_BLUR_PLANES, 0);
}

static void
gst_cuda_box_blur_init (GstCudaBoxBlur * self)
{
  gst_cuda_box_blur_settings_init (&self->settings);
  self->device_id = DEFAULT_DEVICE_ID;
  self->memory_mode = DEFAULT_MEMORY_MODE;
  self->regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
}

static void
gst_cuda_box_blur_finalize (GObject * object)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (object);

  g_array_unref (self->regions);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* Passthrough when the settings change no pixel of the negotiated format;
 * before caps, when every radius is 0. */
static void
gst_cuda_box_blur_update_passthrough (GstCudaBoxBlur * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  const GstCudaBoxBlurSettings *s = &self->settings;
  gboolean passthrough;

  GST_OBJECT_LOCK (self);
  if (self->negotiated)
    passthrough = gst_cuda_box_blur_settings_blurs_nothing (s, &self->info);
  else
    passthrough = s->radius_x == 0 && s->radius_y == 0
        && s->chroma_radius_x <= 0 && s->chroma_radius_y <= 0;
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
  GstCudaBoxBlurSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_RADIUS:
      s->radius_x = s->radius_y = g_value_get_uint (value);
      break;
    case PROP_RADIUS_X:
      s->radius_x = g_value_get_uint (value);
      break;
    case PROP_RADIUS_Y:
      s->radius_y = g_value_get_uint (value);
      break;
    case PROP_CHROMA_RADIUS_X:
      s->chroma_radius_x = g_value_get_int (value);
      break;
    case PROP_CHROMA_RADIUS_Y:
      s->chroma_radius_y = g_value_get_int (value);
      break;
    case PROP_PLANES:
      s->planes = g_value_get_flags (value);
      break;
    case PROP_BLUR_ALPHA:
      s->blur_alpha = g_value_get_boolean (value);
      break;
    case PROP_PASSES:
      s->passes = g_value_get_uint (value);
      break;
    case PROP_BORDER_MODE:
      s->border = g_value_get_enum (value);
      break;
    case PROP_BORDER_VALUE:
      s->border_value = g_value_get_double (value);
      break;
    case PROP_ROI_X:
      s->roi.x = g_value_get_uint (value);
      break;
    case PROP_ROI_Y:
      s->roi.y = g_value_get_uint (value);
      break;
    case PROP_ROI_WIDTH:
      s->roi.w = g_value_get_uint (value);
      break;
    case PROP_ROI_HEIGHT:
      s->roi.h = g_value_get_uint (value);
      break;
    case PROP_ROI_META:
      s->roi_meta = g_value_get_boolean (value);
      break;
    case PROP_ROI_META_TYPE:{
      const gchar *type = g_value_get_string (value);
      s->roi_meta_type = type && type[0] ? g_quark_from_string (type) : 0;
      break;
    }
    case PROP_ROI_PADDING:
      s->roi_padding = g_value_get_uint (value);
      break;
    case PROP_DEVICE_ID:
      self->device_id = g_value_get_int (value);
      break;
    case PROP_MEMORY_MODE:
      self->memory_mode = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  if (prop_id != PROP_DEVICE_ID && prop_id != PROP_MEMORY_MODE)
    gst_cuda_box_blur_update_passthrough (self);
}

static void
gst_cuda_box_blur_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (object);
  const GstCudaBoxBlurSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_RADIUS:
    case PROP_RADIUS_X:
      g_value_set_uint (value, s->radius_x);
      break;
    case PROP_RADIUS_Y:
      g_value_set_uint (value, s->radius_y);
      break;
    case PROP_CHROMA_RADIUS_X:
      g_value_set_int (value, s->chroma_radius_x);
      break;
    case PROP_CHROMA_RADIUS_Y:
      g_value_set_int (value, s->chroma_radius_y);
      break;
    case PROP_PLANES:
      g_value_set_flags (value, s->planes);
      break;
    case PROP_BLUR_ALPHA:
      g_value_set_boolean (value, s->blur_alpha);
      break;
    case PROP_PASSES:
      g_value_set_uint (value, s->passes);
      break;
    case PROP_BORDER_MODE:
      g_value_set_enum (value, s->border);
      break;
    case PROP_BORDER_VALUE:
      g_value_set_double (value, s->border_value);
      break;
    case PROP_ROI_X:
      g_value_set_uint (value, s->roi.x);
      break;
    case PROP_ROI_Y:
      g_value_set_uint (value, s->roi.y);
      break;
    case PROP_ROI_WIDTH:
      g_value_set_uint (value, s->roi.w);
      break;
    case PROP_ROI_HEIGHT:
      g_value_set_uint (value, s->roi.h);
      break;
    case PROP_ROI_META:
      g_value_set_boolean (value, s->roi_meta);
      break;
    case PROP_ROI_META_TYPE:
      g_value_set_string (value, g_quark_to_string (s->roi_meta_type));
      break;
    case PROP_ROI_PADDING:
      g_value_set_uint (value, s->roi_padding);
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
  if (self->scratch)
    cudaFree (self->scratch);
  self->scratch = NULL;
  self->scratch_size = 0;
  gst_clear_object (&self->allocator);

  GST_OBJECT_LOCK (self);
  self->negotiated = FALSE;
  GST_OBJECT_UNLOCK (self);

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

/* Device memory a stream of @info frames may take at once: two frames in
 * each pool, the staging copies, the scratch frame of several passes and
 * the column sums. */
static gsize
frame_memory_needed (const GstCudaBoxBlurInfo * info)
{
  return 7 * info->size + gst_cuda_box_blur_program_mid_size (info->width,
      info->height);
}

/* Refuses frames that cannot fit in the memory the GPU has free, now,
 * rather than failing at the first allocation. */
static gboolean
gst_cuda_box_blur_check_fits (GstCudaBoxBlur * self,
    const GstCudaBoxBlurInfo * info)
{
  const gsize needed = frame_memory_needed (info);
  gsize free_bytes = 0, total = 0;
  GError *error = NULL;

  if (!GST_CUDA_BOX_BLUR_CHECK (cudaSetDevice (self->device.device_id),
          &error) || !GST_CUDA_BOX_BLUR_CHECK (cudaMemGetInfo (&free_bytes,
              &total), &error)) {
    POST_ERROR (self, error, "device %d", self->device.device_id);
    g_error_free (error);
    return FALSE;
  }
  if (needed > free_bytes) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("%dx%d %s frames need about %" G_GSIZE_FORMAT " MiB of GPU memory, "
            "but only %" G_GSIZE_FORMAT " MiB are free", info->width,
            info->height, info->format, needed >> 20, free_bytes >> 20),
        ("device %d (%s): %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
            " bytes free", self->device.device_id, self->device.name,
            free_bytes, total));
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_cuda_box_blur_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);
  GstCudaBoxBlurInfo info;

  filter->negotiated = FALSE;
  if (!gst_cuda_box_blur_info_from_caps (&info, incaps)
      || !gst_caps_is_equal (incaps, outcaps)) {
    GST_ERROR_OBJECT (self, "cannot blur %" GST_PTR_FORMAT " into %"
        GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  if (self->stream && !gst_cuda_box_blur_check_fits (self, &info))
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
  GST_OBJECT_UNLOCK (self);
  gst_cuda_box_blur_update_passthrough (self);

  GST_DEBUG_OBJECT (self, "%s %dx%d, %d planes, %d components", info.format,
      info.width, info.height, info.n_planes, info.n_components);
  return TRUE;
}

/* A pool of the element's memory for @caps, configured with its size
 * re-read from the pool (it may round up). */
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

/* A blur changes neither the geometry nor the format of a frame, so every
 * meta of the input (regions of interest included) holds for the output. */
static gboolean
gst_cuda_box_blur_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  return TRUE;
}

/* Takes this frame's copy of the settings and its regions.  A frame with
 * nothing to blur (roi-meta and no matching region, or a region outside
 * the frame) goes out as it came in.  GstBaseTransform returns an error
 * without a message when its output pool cannot allocate: say what ran
 * out. */
static GstFlowReturn
gst_cuda_box_blur_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstFlowReturn ret;

  if (!gst_base_transform_is_passthrough (trans)) {
    GST_OBJECT_LOCK (self);
    self->frame_settings = self->settings;
    GST_OBJECT_UNLOCK (self);

    if (gst_cuda_box_blur_settings_regions (&self->frame_settings,
            &self->info, input, self->regions) == 0) {
      GST_LOG_OBJECT (self, "no region to blur in %" GST_PTR_FORMAT, input);
      *outbuf = input;
      return GST_FLOW_OK;
    }
  }

  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (trans,
      input, outbuf);
  if (ret == GST_FLOW_ERROR)
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot allocate an output frame in %s memory",
            self->mode == GST_CUDA_BOX_BLUR_MEMORY_PINNED ? "pinned host" :
            "CUDA managed"), ("%s %dx%d, %" G_GSIZE_FORMAT " bytes",
            self->info.format, self->info.width, self->info.height,
            self->info.size));
  return ret;
}

/* TRUE when the kernels can use @frame of @buffer where it is. */
static gboolean
frame_is_managed (GstBuffer * buffer, const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurFrame * frame)
{
  gint p;

  if (gst_buffer_n_memory (buffer) != 1
      || !gst_is_cuda_managed_memory (gst_buffer_peek_memory (buffer, 0)))
    return FALSE;
  for (p = 0; p < info->n_planes; p++)
    if (((guintptr) frame->data[p] | (guintptr) frame->stride[p]) %
        info->sample_size)
      return FALSE;
  return TRUE;
}

/* Grows device (or with @managed, managed) memory @mem of @size bytes to
 * hold at least @needed. */
static gboolean
ensure_memory (guint8 ** mem, gsize * size, gsize needed, gboolean managed,
    gint device_id, GError ** error)
{
  if (*size >= needed)
    return TRUE;
  if (*mem)
    cudaFree (*mem);
  *mem = NULL;
  *size = 0;
  if (managed) {
    if (!GST_CUDA_BOX_BLUR_CHECK (cudaMallocManaged ((void **) mem, needed,
                cudaMemAttachGlobal), error))
      return FALSE;
    (void) gst_cuda_box_blur_prefer_device (*mem, needed, device_id);
    (void) cudaGetLastError ();
  } else if (!GST_CUDA_BOX_BLUR_CHECK (cudaMalloc ((void **) mem, needed),
          error)) {
    return FALSE;
  }
  *size = needed;
  return TRUE;
}

/* Points @staged at a staging copy of @frame's bytes, same layout, growing
 * the staging buffer when needed. */
static gboolean
gst_cuda_box_blur_stage (GstCudaBoxBlur * self, guint which,
    const GstCudaBoxBlurFrame * frame, GstCudaBoxBlurFrame * staged,
    GError ** error)
{
  gsize size;

  gst_cuda_box_blur_frame_span (frame, &self->info, &size);
  if (!ensure_memory (&self->stage[which], &self->stage_size[which], size,
          self->mode == GST_CUDA_BOX_BLUR_MEMORY_MANAGED,
          self->device.device_id, error))
    return FALSE;

  if (!self->staging_logged[which]) {
    GST_DEBUG_OBJECT (self, "%s is not in CUDA managed memory: copying it "
        "through a %s staging buffer", which == STAGE_IN ? "input" :
        "output", self->mode == GST_CUDA_BOX_BLUR_MEMORY_PINNED ? "device" :
        "managed");
    self->staging_logged[which] = TRUE;
  }

  *staged = *frame;
  gst_cuda_box_blur_frame_rebase (staged, &self->info, self->stage[which]);
  return TRUE;
}

/* Queues a copy of every plane's pixels of @src into @dst. */
static gboolean
copy_frame_async (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst,
    cudaStream_t stream, GError ** error)
{
  gint p;

  for (p = 0; p < info->n_planes; p++)
    if (!GST_CUDA_BOX_BLUR_CHECK (cudaMemcpy2DAsync (dst->data[p],
                dst->stride[p], src->data[p], src->stride[p],
                info->row_bytes[p], info->plane_height[p], cudaMemcpyDefault,
                stream), error))
      return FALSE;
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

/* TRUE when the blur writes every byte of every pixel of the output, so it
 * needs no copy of the input first. */
static gboolean
blur_covers_frame (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurSettings * settings, const GArray * regions)
{
  const GstVideoRectangle *r = &g_array_index (regions, GstVideoRectangle, 0);
  GstCudaBoxBlurWindow window;
  gint c;

  if (info->has_padding || regions->len != 1 || r->x != 0 || r->y != 0
      || r->w != info->width || r->h != info->height)
    return FALSE;
  for (c = 0; c < info->n_components; c++)
    if (!gst_cuda_box_blur_settings_window (settings, info, c, &window))
      return FALSE;
  return TRUE;
}

/* Runs every pass over @src into @dst: each pass blurs every selected
 * component inside every region, reading the previous pass's output.  The
 * passes alternate between @dst and a scratch frame so that the last one
 * lands in @dst.  Unless the blur covers the whole frame, @dst (and the
 * scratch frame) start as copies of @src. */
static gboolean
gst_cuda_box_blur_run_passes (GstCudaBoxBlur * self,
    const GstCudaBoxBlurFrame * src, const GstCudaBoxBlurFrame * dst,
    GError ** error)
{
  const GstCudaBoxBlurInfo *info = &self->info;
  const GstCudaBoxBlurSettings *settings = &self->frame_settings;
  const gboolean covers = blur_covers_frame (info, settings, self->regions);
  GstCudaBoxBlurFrame scratch = *dst;
  const GstCudaBoxBlurFrame *read = src;
  gint pass, c;
  guint i;

  if (!covers && !copy_frame_async (info, src, dst, self->stream, error))
    return FALSE;

  if (settings->passes > 1) {
    gsize size;

    gst_cuda_box_blur_frame_span (dst, info, &size);
    if (!ensure_memory (&self->scratch, &self->scratch_size, size, FALSE,
            self->device.device_id, error))
      return FALSE;
    gst_cuda_box_blur_frame_rebase (&scratch, info, self->scratch);
    if (!covers && !copy_frame_async (info, src, &scratch, self->stream,
            error))
      return FALSE;
  }

  for (pass = 0; pass < settings->passes; pass++) {
    const GstCudaBoxBlurFrame *write =
        (settings->passes - 1 - pass) % 2 == 0 ? dst : &scratch;

    for (c = 0; c < info->n_components; c++) {
      GstCudaBoxBlurWindow window;
      GstCudaBoxBlurPlane in, out;
      GstCudaBoxBlurVariant variant;

      if (!gst_cuda_box_blur_settings_window (settings, info, c, &window))
        continue;
      gst_cuda_box_blur_frame_get_plane (read, info, c, &in);
      gst_cuda_box_blur_frame_get_plane (write, info, c, &out);

      variant = gst_cuda_box_blur_program_choose (window.radius_x,
          window.radius_y);
      if (variant == GST_CUDA_BOX_BLUR_SEPARABLE
          && !ensure_memory ((guint8 **) & self->mid, &self->mid_size,
              gst_cuda_box_blur_program_mid_size (out.width, out.height),
              FALSE, self->device.device_id, error))
        return FALSE;

      for (i = 0; i < self->regions->len; i++) {
        GstVideoRectangle r;

        gst_cuda_box_blur_region_for_component (info, c,
            &g_array_index (self->regions, GstVideoRectangle, i), &r);
        if (!gst_cuda_box_blur_program_launch (self->program, info->type,
                variant, &in, &out, &window, &r, self->mid, self->stream,
                error))
          return FALSE;
      }
    }
    read = write;
  }
  return TRUE;
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
    const GstCudaBoxBlurFrame * in, GstBuffer * outbuf,
    const GstCudaBoxBlurFrame * out, GError ** error)
{
  const GstCudaBoxBlurInfo *info = &self->info;
  const gint dev = self->device.device_id;
  const gboolean hints = self->device.concurrent_managed_access;
  const gboolean in_managed = frame_is_managed (inbuf, info, in);
  const gboolean out_managed = frame_is_managed (outbuf, info, out);
  GstCudaBoxBlurFrame src = *in, dst = *out;
  cudaStream_t stream = self->stream;
  gpointer in_alloc = NULL, out_alloc;
  gsize in_size, out_size, in_alloc_size = 0, out_alloc_size;
  guint8 *in_begin = gst_cuda_box_blur_frame_span (in, info, &in_size);
  guint8 *out_begin = gst_cuda_box_blur_frame_span (out, info, &out_size);

  /* The streaming thread is not the one that ran start(). */
  if (!GST_CUDA_BOX_BLUR_CHECK (cudaSetDevice (dev), error))
    return FALSE;

  if (in_managed) {
    if (hints && !GST_CUDA_BOX_BLUR_CHECK (gst_cuda_box_blur_prefetch
            (in_begin, in_size, dev, stream), error))
      return FALSE;
    if (hints && !buffer_allocation_is_ours (inbuf, &in_alloc,
            &in_alloc_size))
      in_alloc = NULL;
  } else if (!gst_cuda_box_blur_stage (self, STAGE_IN, in, &src, error)
      || !GST_CUDA_BOX_BLUR_CHECK (cudaMemcpyAsync (self->stage[STAGE_IN],
              in_begin, in_size, cudaMemcpyDefault, stream), error)) {
    return FALSE;
  }

  if (out_managed) {
    cudaError_t err = cudaSuccess;

    if (hints && buffer_allocation_is_ours (outbuf, &out_alloc,
            &out_alloc_size))
      err = gst_cuda_box_blur_discard_prefetch (out_alloc, out_alloc_size,
          dev, stream);
    else if (hints)
      err = gst_cuda_box_blur_prefetch (out_begin, out_size, dev, stream);
    if (!GST_CUDA_BOX_BLUR_CHECK (err, error))
      return FALSE;
  } else if (!gst_cuda_box_blur_stage (self, STAGE_OUT, out, &dst, error)) {
    return FALSE;
  }

  if (!gst_cuda_box_blur_run_passes (self, &src, &dst, error))
    return FALSE;

  if (out_managed) {
    if (hints && !GST_CUDA_BOX_BLUR_CHECK (gst_cuda_box_blur_prefetch
            (out_begin, out_size, GST_CUDA_BOX_BLUR_HOST, stream), error))
      return FALSE;
  } else if (!copy_frame_async (info, &dst, out, stream, error)) {
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
  GstCudaBoxBlurFrame in, out;
  GError *error = NULL;
  GstFlowReturn ret = GST_FLOW_ERROR;

  /* prepare_output_buffer() found nothing to blur */
  if (inbuf == outbuf)
    return GST_FLOW_OK;

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

  if (!gst_cuda_box_blur_frame_from_buffer (&in, &self->info, inbuf, &in_map,
          &error)
      || !gst_cuda_box_blur_frame_from_buffer (&out, &self->info, outbuf,
          &out_map, &error)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Invalid video frame"), ("%s",
            error->message));
    goto done;
  }

  GST_LOG_OBJECT (self, "blurring %s %dx%d, radius %d,%d, %u regions",
      self->info.format, self->info.width, self->info.height,
      self->frame_settings.radius_x, self->frame_settings.radius_y,
      self->regions->len);
  if (!gst_cuda_box_blur_process (self, inbuf, &in, outbuf, &out, &error)) {
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
