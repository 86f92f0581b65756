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
 * the same buffer.  The kernels are compiled with NVRTC for the GPU in use
 * when the element starts, and run on a CUDA stream of the element's own;
 * the stream is synchronised before a frame is pushed.
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
  PROP_MODE,
  PROP_SIGMA,
  PROP_BLOCK_SIZE,
  PROP_FILL_COLOR,
  PROP_SHAPE,
  PROP_FEATHER,
  PROP_BORDER_MODE,
  PROP_BORDER_VALUE,
  PROP_ROI_X,
  PROP_ROI_Y,
  PROP_ROI_WIDTH,
  PROP_ROI_HEIGHT,
  PROP_ROI_META,
  PROP_ROI_META_TYPE,
  PROP_NO_REGION,
  PROP_INVERT,
  PROP_POST_MESSAGES,
  PROP_ROI_PADDING,
  PROP_ROI_HOLD,
  PROP_RADIUS_SCALE,
  PROP_SIGMA_SCALE,
  PROP_BLOCK_SCALE,
  PROP_DEVICE_ID,
  PROP_MEMORY_MODE,
  PROP_FRAMES_IN_FLIGHT,
  PROP_ARCH,
};

#define DEFAULT_DEVICE_ID -1
#define DEFAULT_MEMORY_MODE GST_CUDA_BOX_BLUR_MEMORY_MANAGED
#define DEFAULT_FRAMES_IN_FLIGHT 1
#define DEFAULT_POST_MESSAGES FALSE
/* frames-in-flight's largest value: an engine (stream and scratch) each */
#define MAX_FRAMES_IN_FLIGHT 8

#define MAX_RADIUS GST_CUDA_BOX_BLUR_MAX_RADIUS
#define MAX_COORD GST_CUDA_BOX_BLUR_MAX_DIMENSION

struct _GstCudaBoxBlur
{
  GstVideoFilter parent;

  /* properties, under the object lock */
  GstCudaBoxBlurSettings settings;
  gint device_id;
  GstCudaBoxBlurMemoryMode memory_mode;
  guint frames_in_flight;
  gboolean post_messages;

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

/* Registers enum @name once, into @type, with the nicks of its values
 * taken from @nicks, one for each value before the terminating one: the
 * names properties and region parameters share (cudaboxblur-params.h). */
static GType
register_enum_with_nicks (gsize * type, const gchar * name,
    GEnumValue * values, const gchar * const *nicks)
{
  if (g_once_init_enter (type)) {
    GType t;
    gint i;

    for (i = 0; values[i].value_name; i++)
      values[i].value_nick = nicks[i];
    t = g_enum_register_static (name, values);
    g_once_init_leave (type, t);
  }
  return *type;
}

GType
gst_cuda_box_blur_mode_get_type (void)
{
  static gsize type = 0;
  static const gchar *const nicks[] = GST_CUDA_BOX_BLUR_MODE_NICKS;
  static GEnumValue values[] = {
    {GST_CUDA_BOX_BLUR_MODE_BOX, "Box blur of the radii, passes times", NULL},
    {GST_CUDA_BOX_BLUR_MODE_GAUSSIAN, "Gaussian blur of sigma, made of box "
          "blurs", NULL},
    {GST_CUDA_BOX_BLUR_MODE_PIXELATE, "Blocks of block-size pixels, each "
          "the mean of its pixels", NULL},
    {GST_CUDA_BOX_BLUR_MODE_FILL, "One colour, fill-color", NULL},
    {0, NULL, NULL},
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (nicks) == GST_CUDA_BOX_BLUR_N_MODES);
  G_STATIC_ASSERT (G_N_ELEMENTS (values) == GST_CUDA_BOX_BLUR_N_MODES + 1);
  return register_enum_with_nicks (&type, "GstCudaBoxBlurMode", values, nicks);
}

GType
gst_cuda_box_blur_no_region_get_type (void)
{
  static gsize type = 0;
  static const gchar *const nicks[] = GST_CUDA_BOX_BLUR_NO_REGION_NICKS;
  static GEnumValue values[] = {
    {GST_CUDA_BOX_BLUR_NO_REGION_PASS, "The frame goes out as it came in",
        NULL},
    {GST_CUDA_BOX_BLUR_NO_REGION_REDACT, "The whole frame is redacted",
        NULL},
    {0, NULL, NULL},
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (nicks) + 1 == G_N_ELEMENTS (values));
  return register_enum_with_nicks (&type, "GstCudaBoxBlurNoRegion", values,
      nicks);
}

GType
gst_cuda_box_blur_shape_get_type (void)
{
  static gsize type = 0;
  static const gchar *const nicks[] = GST_CUDA_BOX_BLUR_SHAPE_NICKS;
  static GEnumValue values[] = {
    {GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, "The whole region", NULL},
    {GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE, "The ellipse inscribed in the region",
        NULL},
    {0, NULL, NULL},
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (nicks) == GST_CUDA_BOX_BLUR_N_SHAPES);
  G_STATIC_ASSERT (G_N_ELEMENTS (values) == GST_CUDA_BOX_BLUR_N_SHAPES + 1);
  return register_enum_with_nicks (&type, "GstCudaBoxBlurShape", values,
      nicks);
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

#define BLUR_PARAM_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_PLAYING)

/* The properties of how a frame is blurred. */
static void
install_blur_properties (GObjectClass * gobject_class)
{
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
          GST_CUDA_BOX_BLUR_DEFAULT_RADIUS,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:radius-x:
   *
   * Horizontal radius: the window is 2 * radius-x + 1 pixels wide.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS_X,
      g_param_spec_uint ("radius-x", "Horizontal radius",
          "Blur window half-width in pixels: the window is 2*radius-x+1 "
          "wide", 0, MAX_RADIUS, GST_CUDA_BOX_BLUR_DEFAULT_RADIUS,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:radius-y:
   *
   * Vertical radius: the window is 2 * radius-y + 1 pixels high.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS_Y,
      g_param_spec_uint ("radius-y", "Vertical radius",
          "Blur window half-height in pixels: the window is 2*radius-y+1 "
          "high", 0, MAX_RADIUS, GST_CUDA_BOX_BLUR_DEFAULT_RADIUS,
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
          GST_CUDA_BOX_BLUR_DEFAULT_CHROMA_RADIUS,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

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
          GST_CUDA_BOX_BLUR_DEFAULT_CHROMA_RADIUS,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

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
          GST_TYPE_CUDA_BOX_BLUR_PLANES, GST_CUDA_BOX_BLUR_DEFAULT_PLANES,
          BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:blur-alpha:
   *
   * Blur the alpha channel of ARGB-style formats and AYUV as well, with
   * radius-x and radius-y.  By default alpha is copied unchanged.
   */
  g_object_class_install_property (gobject_class, PROP_BLUR_ALPHA,
      g_param_spec_boolean ("blur-alpha", "Blur alpha",
          "Blur the alpha channel too", GST_CUDA_BOX_BLUR_DEFAULT_BLUR_ALPHA,
          BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:passes:
   *
   * How many times the box blur is applied, each pass to the previous
   * one's output.  n passes of a box of radius r approximate a Gaussian of
   * standard deviation sqrt (n * r * (r + 1) / 3) pixels away from the
   * borders: three passes of radius 4 are close to sigma 4.5.  In mode
   * gaussian, the number of boxes (at least 3).
   */
  g_object_class_install_property (gobject_class, PROP_PASSES,
      g_param_spec_uint ("passes", "Passes",
          "Times the box blur is applied (3 approximates a Gaussian of "
          "sigma sqrt(passes*r*(r+1)/3)); in mode gaussian, the number of "
          "boxes, at least 3", 1, GST_CUDA_BOX_BLUR_MAX_PASSES,
          GST_CUDA_BOX_BLUR_DEFAULT_PASSES,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:mode:
   *
   * box blurs with the radius properties, passes times; gaussian blurs
   * with a Gaussian of standard deviation #GstCudaBoxBlur:sigma, made of
   * #GstCudaBoxBlur:passes (at least 3) box blurs of radii r and r + 1
   * whose variances add up to the nearest they can to sigma squared (the
   * radius and chroma-radius properties are not used then; chroma takes
   * sigma divided by its subsampling); pixelate cuts each region into
   * blocks of #GstCudaBoxBlur:block-size pixels from its top left corner,
   * each the mean of its pixels inside the region, once whatever passes;
   * fill paints each region #GstCudaBoxBlur:fill-color.
   */
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode", "What the regions get: a box blur "
          "of the radii, a Gaussian blur of sigma, blocks of block-size, or "
          "fill-color",
          GST_TYPE_CUDA_BOX_BLUR_MODE, GST_CUDA_BOX_BLUR_DEFAULT_MODE,
          BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:sigma:
   *
   * Standard deviation, in pixels, of the Gaussian of mode gaussian.
   * Up to about 0.58 every box has radius 0 and nothing changes.
   */
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma", "Standard deviation in pixels "
          "of mode gaussian", 0, GST_CUDA_BOX_BLUR_MAX_SIGMA,
          GST_CUDA_BOX_BLUR_DEFAULT_SIGMA,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

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
          GST_TYPE_CUDA_BOX_BLUR_BORDER_MODE, GST_CUDA_BOX_BLUR_DEFAULT_BORDER,
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
          -G_MAXFLOAT, G_MAXFLOAT, GST_CUDA_BOX_BLUR_DEFAULT_BORDER_VALUE,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));
}

/* The properties of where a frame is redacted, and how each region is. */
static void
install_region_properties (GObjectClass * gobject_class)
{
  /**
   * GstCudaBoxBlur:roi-x:
   *
   * Left edge of the one rectangle to blur, in pixels; see
   * #GstCudaBoxBlur:roi-width.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_X,
      g_param_spec_uint ("roi-x", "ROI x", "Left edge of the region to blur",
          0, MAX_COORD, GST_CUDA_BOX_BLUR_DEFAULT_ROI,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:roi-y:
   *
   * Top edge of the one rectangle to blur, in pixels.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_Y,
      g_param_spec_uint ("roi-y", "ROI y", "Top edge of the region to blur",
          0, MAX_COORD, GST_CUDA_BOX_BLUR_DEFAULT_ROI,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:roi-width:
   *
   * Width of the rectangle to blur; 0 (the default) reaches the right edge
   * of the frame.  Pixels outside the rectangle are left untouched; with
   * one box pass, those inside get exactly the value a whole-frame blur
   * gives them (each further pass reads the input around it).  With
   * subsampled chroma the rectangle is divided by the subsampling and
   * rounded outwards.  Ignored when #GstCudaBoxBlur:roi-meta is set.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_WIDTH,
      g_param_spec_uint ("roi-width", "ROI width",
          "Width of the region to blur (0 = to the right edge)", 0, MAX_COORD,
          GST_CUDA_BOX_BLUR_DEFAULT_ROI,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:roi-height:
   *
   * Height of the rectangle to blur; 0 (the default) reaches the bottom of
   * the frame.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_HEIGHT,
      g_param_spec_uint ("roi-height", "ROI height",
          "Height of the region to blur (0 = to the bottom edge)", 0,
          MAX_COORD, GST_CUDA_BOX_BLUR_DEFAULT_ROI,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

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
          GST_CUDA_BOX_BLUR_DEFAULT_ROI_META, BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:roi-meta-type:
   *
   * With roi-meta, only rectangles of these types are blurred: a
   * comma-separated list ("face", "face,license-plate"), of up to 16
   * types; %NULL or "" takes every type.  A longer list is refused with a
   * warning, and the previous one stays.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_META_TYPE,
      g_param_spec_string ("roi-meta-type", "ROI meta type",
          "Region of interest types to blur with roi-meta, comma-separated "
          "(empty = all)", GST_CUDA_BOX_BLUR_DEFAULT_ROI_META_TYPE,
          BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:no-region:
   *
   * With roi-meta, what a frame gets when no region of a matching meta,
   * nor a held one, lies in it: `pass` (the default) lets it go out as it
   * came in; `redact` redacts the whole frame with the element's settings
   * (mode, radius or sigma, block-size, fill-color, with the scales applied
   * to the frame's size), as a hard-edged rectangle.  A frame whose regions
   * all ask to be left alone (per-region parameters) has regions, and
   * passes.
   */
  g_object_class_install_property (gobject_class, PROP_NO_REGION,
      g_param_spec_enum ("no-region", "No region",
          "With roi-meta, what a frame without any region gets",
          GST_TYPE_CUDA_BOX_BLUR_NO_REGION,
          GST_CUDA_BOX_BLUR_DEFAULT_NO_REGION, BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:invert:
   *
   * Redacts everything but the regions: the whole frame is redacted with
   * the element's settings (as #GstCudaBoxBlur:no-region's `redact` does)
   * and each region is laid back clear, through its shape, fading into the
   * redaction over #GstCudaBoxBlur:feather pixels outside the shape.  A
   * region's own parameters give it its `shape` and `feather`; its mode,
   * radius, sigma, block size and fill colour do not apply.  Kept regions
   * that overlap are clear where any of them is.  A frame without a region
   * is redacted whole.
   */
  g_object_class_install_property (gobject_class, PROP_INVERT,
      g_param_spec_boolean ("invert", "Invert",
          "Redact everything but the regions, which stay clear",
          GST_CUDA_BOX_BLUR_DEFAULT_INVERT, BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:post-messages:
   *
   * Posts an element message named `cudaboxblur` for each frame the element
   * redacts, for audit logs: `timestamp`, `stream-time`, `running-time`
   * and `duration` (GstClockTime, as `facedetect` posts them) and
   * `regions`, a list of `region` structures with the rectangle actually
   * redacted (`x`, `y`, `width`, `height`: after padding, hold and
   * clipping), its `type` and `id` (those of its meta; "" and 0 for the
   * others), its `mode`, and its `reason`: `meta`, `held` (roi-hold kept
   * it), `roi` (the roi properties) or `no-region` (the whole frame, by
   * #GstCudaBoxBlur:no-region).
   */
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post an element message for each frame redacted, with its "
          "regions", DEFAULT_POST_MESSAGES, BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:roi-padding:
   *
   * With roi-meta, pixels added on every side of each rectangle, so that a
   * tight detection box is covered with a margin.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_PADDING,
      g_param_spec_uint ("roi-padding", "ROI padding",
          "Pixels added on every side of each region of interest", 0,
          MAX_COORD, GST_CUDA_BOX_BLUR_DEFAULT_ROI_PADDING,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:block-size:
   *
   * Side in pixels of the blocks of mode pixelate; chroma blocks cover the
   * same pixels (the size divided by the subsampling, rounded up).  1
   * changes nothing.
   */
  g_object_class_install_property (gobject_class, PROP_BLOCK_SIZE,
      g_param_spec_uint ("block-size", "Block size", "Side in pixels of the "
          "blocks of mode pixelate", 1, GST_CUDA_BOX_BLUR_MAX_BLOCK_SIZE,
          GST_CUDA_BOX_BLUR_DEFAULT_BLOCK_SIZE,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:fill-color:
   *
   * The colour of mode fill, as 0xAARRGGBB.  YUV formats take it through
   * the caps' colour matrix and range; caps without colorimetry take
   * GStreamer's defaults (BT.601 for YUV up to 576 lines, BT.709 above,
   * full range for gray).  GRAY32F takes GRAY8's value, in 0..255.  Alpha is written only with #GstCudaBoxBlur:blur-alpha.
   */
  g_object_class_install_property (gobject_class, PROP_FILL_COLOR,
      g_param_spec_uint ("fill-color", "Fill color", "Colour of mode fill, "
          "as 0xAARRGGBB", 0, G_MAXUINT32,
          GST_CUDA_BOX_BLUR_DEFAULT_FILL_COLOR,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:shape:
   *
   * What of each region is redacted: the whole rectangle, or the ellipse
   * inscribed in it (a pixel whose centre is inside or on the ellipse).
   * Chroma samples take the ellipse inscribed in the region's chroma
   * rectangle.
   */
  g_object_class_install_property (gobject_class, PROP_SHAPE,
      g_param_spec_enum ("shape", "Shape", "What of each region is "
          "redacted: the rectangle, or the ellipse inscribed in it",
          GST_TYPE_CUDA_BOX_BLUR_SHAPE, GST_CUDA_BOX_BLUR_DEFAULT_SHAPE,
          BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:feather:
   *
   * Width in pixels over which the redaction fades into the picture at the
   * shape's edge, linearly: a pixel inside the shape shrunk by k pixels on
   * every side, but not by k + 1, takes (k + 1) / (feather + 1) of the
   * redacted value, and all of it from k = feather on.  0 is a hard edge.
   * The fade lies inside the shape, so nothing outside it changes; chroma
   * takes the width divided by its subsampling, rounded up.
   */
  g_object_class_install_property (gobject_class, PROP_FEATHER,
      g_param_spec_uint ("feather", "Feather", "Width in pixels over which "
          "the redaction fades in at the shape's edge (0: a hard edge)", 0,
          GST_CUDA_BOX_BLUR_MAX_FEATHER, GST_CUDA_BOX_BLUR_DEFAULT_FEATHER,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:roi-hold:
   *
   * With roi-meta, how many frames a region stays blurred after its meta
   * is gone, so that a detector that misses a face for a frame or two does
   * not unveil it.  A region of a new frame continues a held one with the
   * same id (the metas' ids above 0), or without ids of the same type and
   * overlapping it by an intersection over union of 0.3 or more.  Held
   * regions keep their last rectangle.  Frames the element passes through
   * untouched do not count, and flushes, new caps and stopping forget
   * every held region.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_HOLD,
      g_param_spec_uint ("roi-hold", "ROI hold", "With roi-meta, frames a "
          "region stays blurred after its meta is gone", 0,
          GST_CUDA_BOX_BLUR_MAX_ROI_HOLD, GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD,
          BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:radius-scale:
   *
   * Above 0, each region's radius (both directions) is this times the
   * smaller of its width and height, rounded, up to 255: a face far away
   * and one close by are blurred alike.  A region from a meta is measured
   * as the meta gives it, before roi-padding; the static roi as clipped to
   * the frame.  A radius in the meta's own parameters comes first.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS_SCALE,
      g_param_spec_double ("radius-scale", "Radius scale", "Above 0: each "
          "region's radius is this times the smaller of its width and "
          "height", 0, GST_CUDA_BOX_BLUR_MAX_SCALE,
          GST_CUDA_BOX_BLUR_DEFAULT_SCALE,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:sigma-scale:
   *
   * Above 0, each region's sigma (mode gaussian) is this times the smaller
   * of its width and height, up to 128, measured as for
   * #GstCudaBoxBlur:radius-scale.
   */
  g_object_class_install_property (gobject_class, PROP_SIGMA_SCALE,
      g_param_spec_double ("sigma-scale", "Sigma scale", "Above 0: each "
          "region's sigma is this times the smaller of its width and "
          "height", 0, GST_CUDA_BOX_BLUR_MAX_SCALE,
          GST_CUDA_BOX_BLUR_DEFAULT_SCALE,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaBoxBlur:block-scale:
   *
   * Above 0, each region's block size (mode pixelate) is this times the
   * smaller of its width and height, rounded, from 1 to 256, measured as
   * for #GstCudaBoxBlur:radius-scale.
   */
  g_object_class_install_property (gobject_class, PROP_BLOCK_SCALE,
      g_param_spec_double ("block-scale", "Block scale", "Above 0: each "
          "region's block size is this times the smaller of its width and "
          "height", 0, GST_CUDA_BOX_BLUR_MAX_SCALE,
          GST_CUDA_BOX_BLUR_DEFAULT_SCALE,
          BLUR_PARAM_FLAGS | GST_PARAM_CONTROLLABLE));
}

/* The properties of the device, the memory and the stream. */
static void
install_device_properties (GObjectClass * gobject_class)
{
  /**
   * GstCudaBoxBlur:device-id:
   *
   * Ordinal of the CUDA device to run on, as numbered by the CUDA runtime
   * (see `CUDA_VISIBLE_DEVICES`).  -1 (the default) takes the device of the
   * CUDA context GStreamer's CUDA elements around it share (`nvh264dec`,
   * `cudaupload`, ...), and otherwise device 0.  CUDA memory coming in
   * from another device is an error; the CUDA memory going out may go to
   * a CUDA element on another device.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "CUDA device ordinal to run on (-1 = the neighbours' CUDA device, "
          "else 0)", -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaBoxBlur:memory-mode:
   *
   * Where frames live.  `managed` (the default) offers upstream and
   * allocates downstream CUDA managed memory that stays in host memory,
   * mapped for the GPU: the kernels read and write it in place across the
   * bus and no page migrates.  `pinned` offers and allocates page-locked
   * host memory and copies each frame to device memory and the result back
   * with DMA, which the copy engines overlap with the kernels when
   * frames-in-flight is above 1 (docs/performance.md, "Element
   * throughput").
   */
  g_object_class_install_property (gobject_class, PROP_MEMORY_MODE,
      g_param_spec_enum ("memory-mode", "Memory mode",
          "Where frames live: CUDA managed memory used in place, or pinned "
          "host memory copied to and from the GPU",
          GST_TYPE_CUDA_BOX_BLUR_MEMORY_MODE, DEFAULT_MEMORY_MODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaBoxBlur:frames-in-flight:
   *
   * How many frames the element works on at once.  At 1 (the default)
   * each frame is blurred, waited for and pushed before the next comes
   * in.  Above 1, each frame's copies and kernels are queued on a CUDA
   * stream of their own and the element goes back upstream for the next
   * frame; the oldest frame goes out when its blur is done and this many
   * are in flight, so the upload of one frame, the kernels of another and
   * the download of a third overlap.  Frames leave in order, each with its
   * own timestamps and metas, and the element adds frames-in-flight - 1
   * frame durations of latency (which the latency query reports, and a
   * latency message announces when it changes while playing).  EOS,
   * new caps and other serialized events push the frames in flight first;
   * a flush or a stop drops them.
   */
  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frames blurred at once, each on a CUDA stream of its own (1: "
          "each frame is done before the next comes in)", 1,
          MAX_FRAMES_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT,
          BLUR_PARAM_FLAGS));

  /**
   * GstCudaBoxBlur:arch:
   *
   * The kernels in use: the GPU architecture they were compiled for, then
   * in parentheses where they came from, or %NULL before the element first
   * started.  "sm_90 (built in)" is machine code built with the plugin;
   * "compute_120 (built-in PTX, compiled by the driver)" the plugin's PTX,
   * for a GPU newer than its machine code; "sm_90 (NVRTC)" and "sm_90
   * (NVRTC, from the kernel cache)" kernels compiled at run time, for a GPU
   * the plugin has no kernels for or with CUDABOXBLUR_KERNEL_SOURCE set.
   */
  g_object_class_install_property (gobject_class, PROP_ARCH,
      g_param_spec_string ("arch", "Architecture",
          "GPU architecture of the kernels in use, and where they came from "
          "(NULL until the element has started)", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
gst_cuda_box_blur_class_init (GstCudaBoxBlurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->finalize = gst_cuda_box_blur_finalize;
  gobject_class->set_property = gst_cuda_box_blur_set_property;
  gobject_class->get_property = gst_cuda_box_blur_get_property;

  install_blur_properties (gobject_class);
  install_region_properties (gobject_class);
  install_device_properties (gobject_class);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "CUDA box blur",
      "Filter/Effect/Video", "Box blur of gray, YUV and RGB video on NVIDIA "
      "GPUs, whole frames or regions of interest (Gaussian, pixelate, fill, "
      "ellipses, feathered edges), in CUDA, CUDA managed or system memory",
      "The cudaboxblur authors <cudaboxblur@example.org>");

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
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BOX_BLUR_MEMORY_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BOX_BLUR_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BOX_BLUR_BORDER_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BOX_BLUR_SHAPE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BOX_BLUR_NO_REGION, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BOX_BLUR_PLANES, 0);
}

static void
gst_cuda_box_blur_init (GstCudaBoxBlur * self)
{
  gst_cuda_box_blur_settings_init (&self->settings);
  self->device_id = DEFAULT_DEVICE_ID;
  self->memory_mode = DEFAULT_MEMORY_MODE;
  self->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
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
  passthrough = gst_cuda_box_blur_settings_blurs_nothing (&self->settings,
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
  GstCudaBoxBlurSettings *s = &self->settings;
  gboolean latency_changed = FALSE;

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
    case PROP_MODE:
      s->mode = g_value_get_enum (value);
      break;
    case PROP_SIGMA:
      s->sigma = g_value_get_double (value);
      break;
    case PROP_BLOCK_SIZE:
      s->block_size = g_value_get_uint (value);
      break;
    case PROP_FILL_COLOR:
      s->fill_color = g_value_get_uint (value);
      break;
    case PROP_SHAPE:
      s->shape = g_value_get_enum (value);
      break;
    case PROP_FEATHER:
      s->feather = g_value_get_uint (value);
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
    case PROP_ROI_META_TYPE:
      if (!gst_cuda_box_blur_settings_set_roi_meta_types (s,
              g_value_get_string (value)))
        GST_WARNING_OBJECT (self, "roi-meta-type \"%s\" names more than %d "
            "types: keeping the previous list", g_value_get_string (value),
            GST_CUDA_BOX_BLUR_MAX_ROI_META_TYPES);
      break;
    case PROP_NO_REGION:
      s->no_region = g_value_get_enum (value);
      break;
    case PROP_INVERT:
      s->invert = g_value_get_boolean (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    case PROP_ROI_PADDING:
      s->roi_padding = g_value_get_uint (value);
      break;
    case PROP_ROI_HOLD:
      s->roi_hold = g_value_get_uint (value);
      break;
    case PROP_RADIUS_SCALE:
      s->radius_scale = g_value_get_double (value);
      break;
    case PROP_SIGMA_SCALE:
      s->sigma_scale = g_value_get_double (value);
      break;
    case PROP_BLOCK_SCALE:
      s->block_scale = g_value_get_double (value);
      break;
    case PROP_DEVICE_ID:
      self->device_id = g_value_get_int (value);
      break;
    case PROP_MEMORY_MODE:
      self->memory_mode = g_value_get_enum (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:{
      guint depth = g_value_get_uint (value);

      /* the frames held back are latency (gst_cuda_box_blur_add_latency) */
      latency_changed = depth != self->frames_in_flight
          && GST_STATE (self) >= GST_STATE_PAUSED;
      self->frames_in_flight = depth;
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  /* the pipeline queries the latency again and redistributes it */
  if (latency_changed)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
  if (prop_id != PROP_DEVICE_ID && prop_id != PROP_MEMORY_MODE
      && prop_id != PROP_FRAMES_IN_FLIGHT)
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
    case PROP_MODE:
      g_value_set_enum (value, s->mode);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, s->sigma);
      break;
    case PROP_BLOCK_SIZE:
      g_value_set_uint (value, s->block_size);
      break;
    case PROP_FILL_COLOR:
      g_value_set_uint (value, s->fill_color);
      break;
    case PROP_SHAPE:
      g_value_set_enum (value, s->shape);
      break;
    case PROP_FEATHER:
      g_value_set_uint (value, s->feather);
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
      g_value_take_string (value,
          gst_cuda_box_blur_settings_get_roi_meta_types (s));
      break;
    case PROP_NO_REGION:
      g_value_set_enum (value, s->no_region);
      break;
    case PROP_INVERT:
      g_value_set_boolean (value, s->invert);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    case PROP_ROI_PADDING:
      g_value_set_uint (value, s->roi_padding);
      break;
    case PROP_ROI_HOLD:
      g_value_set_uint (value, s->roi_hold);
      break;
    case PROP_RADIUS_SCALE:
      g_value_set_double (value, s->radius_scale);
      break;
    case PROP_SIGMA_SCALE:
      g_value_set_double (value, s->sigma_scale);
      break;
    case PROP_BLOCK_SCALE:
      g_value_set_double (value, s->block_scale);
      break;
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    case PROP_MEMORY_MODE:
      g_value_set_enum (value, self->memory_mode);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, self->frames_in_flight);
      break;
    case PROP_ARCH:
      g_value_set_string (value, self->program ? self->program->description
          : NULL);
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
  device_id = self->device_id;
  self->mode = self->memory_mode;
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
  gst_cuda_handle_set_context (element, context, self->device_id,
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
  depth = self->frames_in_flight;
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
  device_id = self->device_id;
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
  held = self->frames_in_flight - 1;
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
  self->frame_settings = self->settings;
  self->frame_post_messages = self->post_messages;
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

/* @t of @buffer in @segment's stream or running time; NONE outside a time
 * segment. */
static GstClockTime
segment_time (const GstSegment * segment, gboolean running, GstClockTime t)
{
  if (segment->format != GST_FORMAT_TIME || !GST_CLOCK_TIME_IS_VALID (t))
    return GST_CLOCK_TIME_NONE;
  return running ? gst_segment_to_running_time (segment, GST_FORMAT_TIME, t)
      : gst_segment_to_stream_time (segment, GST_FORMAT_TIME, t);
}

/* With post-messages, posts what this frame of @buffer got: the regions
 * of its job as they were redacted, for audit logs. */
static void
gst_cuda_box_blur_post_audit (GstCudaBoxBlur * self, GstBuffer * buffer)
{
  static const gchar *const mode_nicks[] = GST_CUDA_BOX_BLUR_MODE_NICKS;
  static const gchar *const reason_nicks[] = GST_CUDA_BOX_BLUR_REASON_NICKS;
  const GstSegment *segment = &GST_BASE_TRANSFORM (self)->segment;
  const GstCudaBoxBlurJob *job = &self->job;
  const GstClockTime pts = GST_BUFFER_PTS (buffer);
  GValue regions = G_VALUE_INIT;
  GstStructure *s;
  guint i;

  if (!self->frame_post_messages)
    return;
  g_value_init (&regions, GST_TYPE_LIST);
  for (i = 0; i < job->regions->len; i++) {
    const GstVideoRectangle *r = &g_array_index (job->regions,
        GstVideoRectangle, i);
    const GstCudaBoxBlurSettings *rs = &g_array_index (job->region_settings,
        GstCudaBoxBlurSettings, i);
    const GstCudaBoxBlurRegionOrigin *o = &g_array_index (job->origins,
        GstCudaBoxBlurRegionOrigin, i);
    GValue region = G_VALUE_INIT;

    g_value_init (&region, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&region, gst_structure_new ("region",
            "x", G_TYPE_UINT, (guint) r->x, "y", G_TYPE_UINT, (guint) r->y,
            "width", G_TYPE_UINT, (guint) r->w,
            "height", G_TYPE_UINT, (guint) r->h,
            "type", G_TYPE_STRING, o->type ? g_quark_to_string (o->type) : "",
            "id", G_TYPE_INT, o->id,
            "mode", G_TYPE_STRING, job->invert ? "keep" : mode_nicks[rs->mode],
            "reason", G_TYPE_STRING, reason_nicks[o->reason], NULL));
    gst_value_list_append_and_take_value (&regions, &region);
  }
  s = gst_structure_new ("cudaboxblur",
      "timestamp", G_TYPE_UINT64, pts,
      "stream-time", G_TYPE_UINT64, segment_time (segment, FALSE, pts),
      "running-time", G_TYPE_UINT64, segment_time (segment, TRUE, pts),
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buffer),
      "invert", G_TYPE_BOOLEAN, job->invert, NULL);
  gst_structure_take_value (s, "regions", &regions);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
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
  depth = self->frames_in_flight;
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

