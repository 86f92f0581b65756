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

/* The element's properties as data: one row a property (its name, blurb,
 * type, range, default, flags and the field it sets), installed, set and
 * read by the same few lines for all.  The README's property table says
 * the same in more words; docs/redaction.md has the rules behind them. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblurprops.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_box_blur_props_debug);
#define GST_CAT_DEFAULT gst_cuda_box_blur_props_debug

GType
gst_cuda_box_blur_memory_mode_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_BOX_BLUR_MEMORY_MANAGED,
        "CUDA managed memory, used in place by the GPU", "managed"},
    {GST_CUDA_BOX_BLUR_MEMORY_PINNED,
        "Pinned host memory, copied to and from device memory", "pinned"},
    {GST_CUDA_BOX_BLUR_MEMORY_AUTO,
        "The faster on the device: managed where the GPU works in the "
        "host's memory (integrated, or through the host's page tables) and "
        "the CPU may touch managed memory while kernels run, pinned "
        "elsewhere (Jetson among them)", "auto"},
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

/* The modes, from their rows (cudaboxblur-params.c). */
GType
gst_cuda_box_blur_mode_get_type (void)
{
  static gsize type = 0;
  static GEnumValue values[GST_CUDA_BOX_BLUR_N_MODES + 1];

  if (g_once_init_enter (&type)) {
    GType t;
    gint m;

    for (m = 0; m < GST_CUDA_BOX_BLUR_N_MODES; m++) {
      const GstCudaBoxBlurModeRow *row = gst_cuda_box_blur_mode_row (m);

      values[m].value = m;
      values[m].value_name = row->description;
      values[m].value_nick = row->nick;
    }
    t = g_enum_register_static ("GstCudaBoxBlurMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_box_blur_hold_motion_get_type (void)
{
  static gsize type = 0;
  static const gchar *const nicks[] = GST_CUDA_BOX_BLUR_HOLD_MOTION_NICKS;
  static GEnumValue values[] = {
    {GST_CUDA_BOX_BLUR_HOLD_MOTION_NONE, "Where its meta last was", NULL},
    {GST_CUDA_BOX_BLUR_HOLD_MOTION_LINEAR, "Moving on as its last "
          "detections moved, growing by roi-hold-grow", NULL},
    {0, NULL, NULL},
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (nicks) + 1 == G_N_ELEMENTS (values));
  return register_enum_with_nicks (&type, "GstCudaBoxBlurHoldMotion", values,
      nicks);
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

/* what the rows store in 32 bits */
G_STATIC_ASSERT (sizeof (GstCudaBoxBlurMode) == sizeof (gint32));
G_STATIC_ASSERT (sizeof (GstCudaBoxBlurShape) == sizeof (gint32));
G_STATIC_ASSERT (sizeof (GstCudaBoxBlurBorder) == sizeof (gint32));
G_STATIC_ASSERT (sizeof (GstCudaBoxBlurNoRegion) == sizeof (gint32));
G_STATIC_ASSERT (sizeof (GstCudaBoxBlurHoldMotion) == sizeof (gint32));
G_STATIC_ASSERT (sizeof (GstCudaBoxBlurMemoryMode) == sizeof (gint32));

#define DEFAULT_DEVICE_ID -1
#define DEFAULT_MEMORY_MODE GST_CUDA_BOX_BLUR_MEMORY_AUTO
#define DEFAULT_FRAMES_IN_FLIGHT 1
#define DEFAULT_POST_MESSAGES FALSE

/* One property: what it is, and the field of GstCudaBoxBlurProps it sets
 * and reads.  Integers, booleans, enums and flags are stored in 32 bits,
 * doubles as doubles, a string as a pointer, a guint64 as itself; a row
 * with set or get does its own storing. */
typedef struct
{
  const gchar *name;
  const gchar *nick;
  const gchar *blurb;
  GType kind;                   /* G_TYPE_UINT, INT, DOUBLE, BOOLEAN, ENUM,
                                 * FLAGS, STRING or (read-only) UINT64 */
  GType (*type) (void);         /* of an enum or flags */
  gdouble min, max, def;        /* def: of numbers, booleans, enums, flags */
  GParamFlags flags;
  gssize field;                 /* offset in GstCudaBoxBlurProps */
  gssize also;                  /* a second field set alike, or -1 */
  GstCudaBoxBlurPropEffect effect;
  void (*set) (GstCudaBoxBlurProps * props, const GValue * value);
  void (*get) (const GstCudaBoxBlurProps * props, GValue * value);
} PropRow;

/* What a change may do: blur properties apply from the next frame, in any
 * state; the numbers are controllable too. */
#define BLUR (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_PLAYING)
#define NUMBER (BLUR | GST_PARAM_CONTROLLABLE)
#define READY_ONLY (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_READY)

#define AT(member) G_STRUCT_OFFSET (GstCudaBoxBlurProps, member)
#define SET(member) G_STRUCT_OFFSET (GstCudaBoxBlurProps, settings.member)
#define NONE (-1)
#define BLURS GST_CUDA_BOX_BLUR_PROP_BLURS

/* a row of each kind: name, nick, blurb, then the rest */
#define UINT_ROW(min, max, def, flags, field) G_TYPE_UINT, NULL, min, max, \
  def, flags, field, NONE, BLURS
#define INT_ROW(min, max, def, flags, field) G_TYPE_INT, NULL, min, max, \
  def, flags, field, NONE, BLURS
#define DOUBLE_ROW(min, max, def, field) G_TYPE_DOUBLE, NULL, min, max, def, \
  NUMBER, field, NONE, BLURS
#define BOOLEAN_ROW(def, field) G_TYPE_BOOLEAN, NULL, 0, 1, def, BLUR, \
  field, NONE, BLURS
#define ENUM_ROW(type, def, flags, field) G_TYPE_ENUM, type, 0, 0, def, \
  flags, field, NONE, BLURS

static void set_roi_meta_types (GstCudaBoxBlurProps * props,
    const GValue * value);
static void get_roi_meta_types (const GstCudaBoxBlurProps * props,
    GValue * value);

static const PropRow rows[] = {
  {"radius", "Radius", "0..255: the window is (2r+1)x(2r+1) pixels; 1 is "
        "the NVIDIA sample's 3x3, 0 changes nothing.  Sets radius-x and "
        "radius-y; reads as radius-x", G_TYPE_UINT, NULL, 0,
        GST_CUDA_BOX_BLUR_MAX_RADIUS, GST_CUDA_BOX_BLUR_DEFAULT_RADIUS,
      NUMBER, SET (radius_x), SET (radius_y), BLURS},
  {"radius-x", "Horizontal radius", "The window is 2*radius-x+1 pixels "
        "wide", UINT_ROW (0, GST_CUDA_BOX_BLUR_MAX_RADIUS,
          GST_CUDA_BOX_BLUR_DEFAULT_RADIUS, NUMBER, SET (radius_x))},
  {"radius-y", "Vertical radius", "The window is 2*radius-y+1 pixels high",
      UINT_ROW (0, GST_CUDA_BOX_BLUR_MAX_RADIUS,
          GST_CUDA_BOX_BLUR_DEFAULT_RADIUS, NUMBER, SET (radius_y))},
  {"chroma-radius-x", "Chroma horizontal radius", "Horizontal radius of U "
        "and V in chroma samples; -1: radius-x divided by the subsampling, "
        "rounded up (radius 5 gives 3 in I420)", INT_ROW (-1,
          GST_CUDA_BOX_BLUR_MAX_RADIUS,
          GST_CUDA_BOX_BLUR_DEFAULT_CHROMA_RADIUS, NUMBER,
          SET (chroma_radius_x))},
  {"chroma-radius-y", "Chroma vertical radius", "Vertical radius of U and V "
        "in chroma samples; -1: radius-y divided by the subsampling, "
        "rounded up", INT_ROW (-1, GST_CUDA_BOX_BLUR_MAX_RADIUS,
          GST_CUDA_BOX_BLUR_DEFAULT_CHROMA_RADIUS, NUMBER,
          SET (chroma_radius_y))},
  {"planes", "Planes", "Components to redact; the others are copied, and "
        "those the format lacks are ignored (alpha: see blur-alpha)",
        G_TYPE_FLAGS, gst_cuda_box_blur_planes_get_type, 0, 0,
      GST_CUDA_BOX_BLUR_DEFAULT_PLANES, BLUR, SET (planes), NONE, BLURS},
  {"blur-alpha", "Blur alpha", "Redact the alpha of AYUV and the RGBA-style "
        "formats too", BOOLEAN_ROW (GST_CUDA_BOX_BLUR_DEFAULT_BLUR_ALPHA,
          SET (blur_alpha))},
  {"passes", "Passes", "1..8: times the box blur is applied, each to the "
        "last one's output (3 approximate a Gaussian of sigma "
        "sqrt(passes*r*(r+1)/3)); in mode gaussian the number of boxes, at "
        "least 3", UINT_ROW (1, GST_CUDA_BOX_BLUR_MAX_PASSES,
          GST_CUDA_BOX_BLUR_DEFAULT_PASSES, NUMBER, SET (passes))},
  {"mode", "Mode", "What the frame, or each region, gets: a box blur of the "
        "radii, a Gaussian blur of sigma, blocks of block-size, or "
        "fill-color", ENUM_ROW (gst_cuda_box_blur_mode_get_type,
          GST_CUDA_BOX_BLUR_DEFAULT_MODE, BLUR, SET (mode))},
  {"sigma", "Sigma", "0..128: standard deviation in pixels of mode gaussian "
        "(chroma: divided by its subsampling); up to about 0.58 nothing "
        "changes", DOUBLE_ROW (0, GST_CUDA_BOX_BLUR_MAX_SIGMA,
          GST_CUDA_BOX_BLUR_DEFAULT_SIGMA, SET (sigma))},
  {"block-size", "Block size", "1..256: side in pixels of the blocks of "
        "mode pixelate, from each region's top left corner",
      UINT_ROW (1, GST_CUDA_BOX_BLUR_MAX_BLOCK_SIZE,
          GST_CUDA_BOX_BLUR_DEFAULT_BLOCK_SIZE, NUMBER, SET (block_size))},
  {"fill-color", "Fill color", "0xAARRGGBB of mode fill; YUV and gray "
        "through the caps' colour matrix and range; alpha written only with "
        "blur-alpha", UINT_ROW (0, G_MAXUINT32,
          GST_CUDA_BOX_BLUR_DEFAULT_FILL_COLOR, NUMBER, SET (fill_color))},
  {"shape", "Shape", "What of each region is redacted: the rectangle, or "
        "the ellipse inscribed in it",
      ENUM_ROW (gst_cuda_box_blur_shape_get_type,
          GST_CUDA_BOX_BLUR_DEFAULT_SHAPE, BLUR, SET (shape))},
  {"feather", "Feather", "0..1024: pixels over which the redaction fades "
        "in, inside the shape's edge; 0 is a hard edge",
      UINT_ROW (0, GST_CUDA_BOX_BLUR_MAX_FEATHER,
          GST_CUDA_BOX_BLUR_DEFAULT_FEATHER, NUMBER, SET (feather))},
  {"border-mode", "Border mode", "What windows read outside the frame: "
        "nothing (shrink: the mean of the pixels inside), the edge pixel, "
        "the frame mirrored, the opposite side, or border-value",
      ENUM_ROW (gst_cuda_box_blur_border_mode_get_type,
          GST_CUDA_BOX_BLUR_DEFAULT_BORDER, BLUR, SET (border))},
  {"border-value", "Border value", "The samples outside the frame with "
        "border-mode=constant, in sample units: rounded and clamped to the "
        "format's range (0..255 at 8 bits; 1023, 4095 or 65535 at 10, 12 "
        "and 16 bits), any value for GRAY32F", DOUBLE_ROW (-G_MAXFLOAT,
          G_MAXFLOAT, GST_CUDA_BOX_BLUR_DEFAULT_BORDER_VALUE,
          SET (border_value))},
  {"roi-x", "ROI x", "0..32768: left edge of the one rectangle to redact "
        "(not with roi-meta)", UINT_ROW (0, GST_CUDA_BOX_BLUR_MAX_DIMENSION,
          GST_CUDA_BOX_BLUR_DEFAULT_ROI, NUMBER, SET (roi.x))},
  {"roi-y", "ROI y", "0..32768: top edge of the one rectangle to redact "
        "(not with roi-meta)", UINT_ROW (0, GST_CUDA_BOX_BLUR_MAX_DIMENSION,
          GST_CUDA_BOX_BLUR_DEFAULT_ROI, NUMBER, SET (roi.y))},
  {"roi-width", "ROI width", "0..32768: width of the rectangle to redact; "
        "0 reaches the frame's right edge", UINT_ROW (0,
          GST_CUDA_BOX_BLUR_MAX_DIMENSION, GST_CUDA_BOX_BLUR_DEFAULT_ROI,
          NUMBER, SET (roi.w))},
  {"roi-height", "ROI height", "0..32768: height of the rectangle to "
        "redact; 0 reaches the frame's bottom edge", UINT_ROW (0,
          GST_CUDA_BOX_BLUR_MAX_DIMENSION, GST_CUDA_BOX_BLUR_DEFAULT_ROI,
          NUMBER, SET (roi.h))},
  {"roi-meta", "ROI meta", "Redact the rectangles of each buffer's "
        "GstVideoRegionOfInterestMeta instead; a frame with none goes by "
        "no-region", BOOLEAN_ROW (GST_CUDA_BOX_BLUR_DEFAULT_ROI_META,
          SET (roi_meta))},
  {"roi-meta-type", "ROI meta type", "With roi-meta, only metas of these "
        "types, comma-separated (face,license-plate; up to 16), and none of "
        "those after a '!' (!plate: all but plates); empty: all",
        G_TYPE_STRING, NULL, 0, 0, 0, BLUR, NONE, NONE, BLURS,
      set_roi_meta_types, get_roi_meta_types},
  {"no-region", "No region", "With roi-meta, what a frame in which no "
        "region lies gets: it goes out untouched (pass), or is redacted "
        "whole with the element's settings (redact)",
      ENUM_ROW (gst_cuda_box_blur_no_region_get_type,
          GST_CUDA_BOX_BLUR_DEFAULT_NO_REGION, BLUR, SET (no_region))},
  {"invert", "Invert", "Redact everything but the regions, which stay "
        "clear inside their shape and fade into the redaction over feather "
        "pixels outside it", BOOLEAN_ROW (GST_CUDA_BOX_BLUR_DEFAULT_INVERT,
          SET (invert))},
  {"post-messages", "Post messages", "Post an element message cudaboxblur "
        "for each redacted frame: its times and each region redacted, with "
        "its type, id, mode and reason", G_TYPE_BOOLEAN, NULL, 0, 1,
        DEFAULT_POST_MESSAGES, BLUR, AT (post_messages), NONE, 0},
  {"roi-padding", "ROI padding", "0..32768: with roi-meta, pixels added on "
        "every side of each rectangle", UINT_ROW (0,
          GST_CUDA_BOX_BLUR_MAX_DIMENSION,
          GST_CUDA_BOX_BLUR_DEFAULT_ROI_PADDING, NUMBER, SET (roi_padding))},
  {"roi-hold", "ROI hold", "0..1000: with roi-meta, frames a region stays "
        "redacted after its meta is gone", UINT_ROW (0,
          GST_CUDA_BOX_BLUR_MAX_ROI_HOLD, GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD,
          BLUR, SET (roi_hold))},
  {"roi-hold-motion", "ROI hold motion", "With roi-hold, where a held "
        "region lies: where its meta last was (none), or moving on as its "
        "last two detections moved and growing by roi-hold-grow (linear)",
      ENUM_ROW (gst_cuda_box_blur_hold_motion_get_type,
          GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD_MOTION, BLUR,
          SET (roi_hold_motion))},
  {"roi-hold-grow", "ROI hold grow", "0..1: with roi-hold-motion=linear, "
        "the fraction of its size a held region grows by each frame it is "
        "held", DOUBLE_ROW (0, GST_CUDA_BOX_BLUR_MAX_ROI_HOLD_GROW,
          GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD_GROW, SET (roi_hold_grow))},
  {"roi-hold-reach", "ROI hold reach", "0..1: with "
        "roi-hold-motion=linear, the fraction of its size a held region "
        "whose motion is not known yet (its meta was seen once) grows by on "
        "every side each frame it is held, so that it covers an object "
        "moving up to that far a frame; roi-hold-grow where that is more",
      DOUBLE_ROW (0, GST_CUDA_BOX_BLUR_MAX_ROI_HOLD_GROW,
          GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD_REACH, SET (roi_hold_reach))},
  {"roi-min-confidence", "ROI minimum confidence", "0..1: with roi-meta, "
        "metas whose detector (a DL Streamer detection structure) is less "
        "confident are not redacted; metas without one, or with one "
        "below 0, are",
      DOUBLE_ROW (0, 1, GST_CUDA_BOX_BLUR_DEFAULT_ROI_MIN_CONFIDENCE,
          SET (roi_min_confidence))},
  {"radius-scale", "Radius scale", "0..1: above 0, each region's radius is "
        "this times the smaller of its width and height (1 to 255)",
      DOUBLE_ROW (0, GST_CUDA_BOX_BLUR_MAX_SCALE,
          GST_CUDA_BOX_BLUR_DEFAULT_SCALE, SET (radius_scale))},
  {"sigma-scale", "Sigma scale", "0..1: above 0, each region's sigma in "
        "mode gaussian is this times the smaller of its width and height (0.6 "
        "to 128)", DOUBLE_ROW (0, GST_CUDA_BOX_BLUR_MAX_SCALE,
          GST_CUDA_BOX_BLUR_DEFAULT_SCALE, SET (sigma_scale))},
  {"block-scale", "Block scale", "0..1: above 0, each region's block size "
        "in mode pixelate is this times the smaller of its width and height "
        "(2 to 256)", DOUBLE_ROW (0, GST_CUDA_BOX_BLUR_MAX_SCALE,
          GST_CUDA_BOX_BLUR_DEFAULT_SCALE, SET (block_scale))},
  {"device-id", "Device ID", "CUDA device ordinal (as numbered under "
        "CUDA_VISIBLE_DEVICES); -1: the device of the neighbours' CUDA "
        "context, else 0", G_TYPE_INT, NULL, -1, G_MAXINT, DEFAULT_DEVICE_ID,
      READY_ONLY, AT (device_id), NONE, 0},
  {"memory-mode", "Memory mode", "System-memory frames in CUDA managed "
        "memory used in place, or in pinned host memory copied to and from "
        "the GPU, or the faster of the two on the device (auto)",
        G_TYPE_ENUM, gst_cuda_box_blur_memory_mode_get_type, 0, 0,
        DEFAULT_MEMORY_MODE, READY_ONLY, AT (memory_mode), NONE, 0},
  {"memory-in-use", "Memory in use", "The memory mode taken at the last "
        "start (or move to the CUDA neighbours' device): memory-mode's, or "
        "what auto chose for the device; auto before the first",
        G_TYPE_ENUM, gst_cuda_box_blur_memory_mode_get_type, 0, 0,
        GST_CUDA_BOX_BLUR_MEMORY_AUTO, G_PARAM_READABLE |
        G_PARAM_STATIC_STRINGS, AT (memory_in_use), NONE, 0},
  {"frames-in-flight", "Frames in flight", "1..8: frames worked on at once, "
        "each on a CUDA stream of its own; adds frames-in-flight - 1 frame "
        "periods of latency", G_TYPE_UINT, NULL, 1,
        GST_CUDA_BOX_BLUR_MAX_FRAMES_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT,
        BLUR, AT (frames_in_flight), NONE, GST_CUDA_BOX_BLUR_PROP_LATENCY},
  {"arch", "Architecture", "The kernels in use once started, e.g. "
        "sm_90 (built in); NULL before", G_TYPE_STRING, NULL, 0, 0, 0,
        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS, AT (arch), NONE, 0},
  {"work-memory", "Work memory", "Bytes of GPU and page-locked host memory "
        "the element holds besides its frames (staging copies, scratch of "
        "the passes, region copies), as of the last frame: it grows to "
        "what the largest frame needed and stays until stop or caps of "
        "another frame size",
        G_TYPE_UINT64, NULL, 0, 0, 0,
        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS, AT (work_memory), NONE, 0},
};

static void
set_roi_meta_types (GstCudaBoxBlurProps * props, const GValue * value)
{
  if (!gst_cuda_box_blur_settings_set_roi_meta_types (&props->settings,
          g_value_get_string (value)))
    GST_WARNING ("roi-meta-type \"%s\" names more than %d types: keeping "
        "the previous list", g_value_get_string (value),
        GST_CUDA_BOX_BLUR_MAX_ROI_META_TYPES);
}

static void
get_roi_meta_types (const GstCudaBoxBlurProps * props, GValue * value)
{
  g_value_take_string (value,
      gst_cuda_box_blur_settings_get_roi_meta_types (&props->settings));
}

void
gst_cuda_box_blur_props_init (GstCudaBoxBlurProps * props)
{
  gst_cuda_box_blur_settings_init (&props->settings);
  props->device_id = DEFAULT_DEVICE_ID;
  props->memory_mode = DEFAULT_MEMORY_MODE;
  props->memory_in_use = GST_CUDA_BOX_BLUR_MEMORY_AUTO;
  props->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  props->post_messages = DEFAULT_POST_MESSAGES;
  props->arch = NULL;
  props->work_memory = 0;
}

static GParamSpec *
param_spec (const PropRow * r)
{
  switch (r->kind) {
    case G_TYPE_UINT:
      return g_param_spec_uint (r->name, r->nick, r->blurb, r->min, r->max,
          r->def, r->flags);
    case G_TYPE_INT:
      return g_param_spec_int (r->name, r->nick, r->blurb, r->min, r->max,
          r->def, r->flags);
    case G_TYPE_DOUBLE:
      return g_param_spec_double (r->name, r->nick, r->blurb, r->min, r->max,
          r->def, r->flags);
    case G_TYPE_BOOLEAN:
      return g_param_spec_boolean (r->name, r->nick, r->blurb, r->def != 0,
          r->flags);
    case G_TYPE_ENUM:
      return g_param_spec_enum (r->name, r->nick, r->blurb, r->type (),
          r->def, r->flags);
    case G_TYPE_FLAGS:
      return g_param_spec_flags (r->name, r->nick, r->blurb, r->type (),
          r->def, r->flags);
    case G_TYPE_UINT64:
      return g_param_spec_uint64 (r->name, r->nick, r->blurb, 0, G_MAXUINT64,
          0, r->flags);
    default:
      return g_param_spec_string (r->name, r->nick, r->blurb, NULL,
          r->flags);
  }
}

/**
 * gst_cuda_box_blur_props_install:
 *
 * Installs every property of the table on @klass, ids from 1 in its
 * order, and marks the enum and flags types as plugin API.
 */
void
gst_cuda_box_blur_props_install (GObjectClass * klass)
{
  guint i;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_box_blur_props_debug, "cudaboxblurprops",
      0, "cudaboxblur properties");
  for (i = 0; i < G_N_ELEMENTS (rows); i++) {
    g_object_class_install_property (klass, i + 1, param_spec (&rows[i]));
    if (rows[i].type)
      gst_type_mark_as_plugin_api (rows[i].type (), 0);
  }
}

static const PropRow *
row_of (guint prop_id)
{
  g_return_val_if_fail (prop_id >= 1 && prop_id <= G_N_ELEMENTS (rows),
      NULL);
  return &rows[prop_id - 1];
}

#define FIELD(props, offset, type) \
  ((type *) ((guint8 *) (props) + (offset)))

/**
 * gst_cuda_box_blur_props_set:
 *
 * Stores @value of property @prop_id in @props, which the caller holds
 * under its object lock.
 *
 * Returns: what else the change calls for (GST_CUDA_BOX_BLUR_PROP_LATENCY
 * only where the value changed).
 */
GstCudaBoxBlurPropEffect
gst_cuda_box_blur_props_set (GstCudaBoxBlurProps * props, guint prop_id,
    const GValue * value)
{
  const PropRow *r = row_of (prop_id);
  gboolean changed = TRUE;

  if (!r)
    return 0;
  if (r->set) {
    r->set (props, value);
  } else if (r->kind == G_TYPE_DOUBLE) {
    gdouble *d = FIELD (props, r->field, gdouble);

    changed = *d != g_value_get_double (value);
    *d = g_value_get_double (value);
  } else {
    gint32 *i = FIELD (props, r->field, gint32);
    gint32 v = 0;

    switch (r->kind) {
      case G_TYPE_UINT:
        v = g_value_get_uint (value);
        break;
      case G_TYPE_INT:
        v = g_value_get_int (value);
        break;
      case G_TYPE_BOOLEAN:
        v = g_value_get_boolean (value);
        break;
      case G_TYPE_ENUM:
        v = g_value_get_enum (value);
        break;
      case G_TYPE_FLAGS:
        v = g_value_get_flags (value);
        break;
    }
    changed = *i != v;
    *i = v;
    if (r->also != NONE)
      *FIELD (props, r->also, gint32) = v;
  }
  return changed ? r->effect : r->effect & ~GST_CUDA_BOX_BLUR_PROP_LATENCY;
}

/**
 * gst_cuda_box_blur_props_get:
 *
 * Sets @value to property @prop_id of @props, which the caller holds under
 * its object lock.
 */
void
gst_cuda_box_blur_props_get (const GstCudaBoxBlurProps * props,
    guint prop_id, GValue * value)
{
  const PropRow *r = row_of (prop_id);
  const gint32 *i;

  if (!r)
    return;
  if (r->get) {
    r->get (props, value);
    return;
  }
  i = FIELD (props, r->field, const gint32);
  switch (r->kind) {
    case G_TYPE_UINT:
      g_value_set_uint (value, *i);
      break;
    case G_TYPE_INT:
      g_value_set_int (value, *i);
      break;
    case G_TYPE_BOOLEAN:
      g_value_set_boolean (value, *i);
      break;
    case G_TYPE_ENUM:
      g_value_set_enum (value, *i);
      break;
    case G_TYPE_FLAGS:
      g_value_set_flags (value, *i);
      break;
    case G_TYPE_DOUBLE:
      g_value_set_double (value, *FIELD (props, r->field, const gdouble));
      break;
    case G_TYPE_STRING:
      g_value_set_string (value, *FIELD (props, r->field, const gchar * const));
      break;
    case G_TYPE_UINT64:
      g_value_set_uint64 (value, *FIELD (props, r->field, const guint64));
      break;
  }
}
