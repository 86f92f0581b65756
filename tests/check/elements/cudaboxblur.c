/* cudaboxblur: caps, properties and errors, with no GPU needed
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * meson runs this suite with CUDA_VISIBLE_DEVICES="" so that it exercises
 * the no-device path on machines with a GPU too.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "cudaboxblur-device.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-params.h"
#include "testutils.h"

static GstElement *
new_blur (void)
{
  GstElement *e = gst_element_factory_make ("cudaboxblur", NULL);

  fail_unless (e != NULL, "cudaboxblur not found: check GST_PLUGIN_PATH");
  return gst_object_ref_sink (e);
}

static gboolean
sink_accepts (GstElement * e, const gchar * caps_str)
{
  GstPad *pad = gst_element_get_static_pad (e, "sink");
  GstCaps *caps = gst_caps_from_string (caps_str);
  gboolean res;

  fail_unless (caps != NULL, "%s", caps_str);
  res = gst_pad_query_accept_caps (pad, caps);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return res;
}

/* Every format of the issue, at an even and an odd size. */
GST_START_TEST (test_accepts_every_format)
{
  GstElement *e = new_blur ();
  guint f;

  for (f = 0; f < test_n_formats; f++) {
    gchar *even = g_strdup_printf ("video/x-raw,format=%s,width=320,"
        "height=240,framerate=30/1", test_formats[f]);
    gchar *odd = g_strdup_printf ("video/x-raw,format=%s,width=323,"
        "height=241,framerate=0/1", test_formats[f]);

    fail_unless (sink_accepts (e, even), "%s", even);
    fail_unless (sink_accepts (e, odd), "%s", odd);
    g_free (even);
    g_free (odd);
  }
  fail_unless (sink_accepts (e,
          "video/x-raw,format=GRAY8,width=1,height=1,framerate=25/1"));
  fail_unless (sink_accepts (e, "video/x-raw,format=NV12,width=64,height=48,"
          "framerate=25/1,interlace-mode=progressive"));
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_rejects_other_caps)
{
  GstElement *e = new_blur ();
  const gchar *bad[] = {
    "video/x-raw,format=v210,width=320,height=240,framerate=30/1",
    "video/x-raw,format=GRAY16_BE,width=320,height=240,framerate=30/1",
    "video/x-raw,format=P010_10BE,width=320,height=240,framerate=30/1",
    "video/x-raw,format=GRAY8,width=0,height=240,framerate=30/1",
    "video/x-raw,format=GRAY32F,width=320,height=0,framerate=30/1",
    "video/x-raw,format=GRAY8,width=40000,height=2,framerate=30/1",
    "video/x-raw,format=NV12,width=2,height=40000,framerate=30/1",
    "video/x-raw,format=GRAY8,width=320,height=240,framerate=30/1,"
        "interlace-mode=interleaved",
    "video/x-raw,format=I420,width=320,height=240,framerate=30/1,"
        "interlace-mode=mixed",
    /* GStreamer 1.22's CUDA allocator lays out none of these */
    "video/x-raw(memory:CUDAMemory),format=GRAY8,width=320,height=240,"
        "framerate=30/1",
    "video/x-raw(memory:CUDAMemory),format=GRAY32F,width=320,height=240,"
        "framerate=30/1",
    "video/x-raw(memory:CUDAMemory),format=AYUV,width=320,height=240,"
        "framerate=30/1",
#ifndef HAVE_GST_CUDA
    "video/x-raw(memory:CUDAMemory),format=NV12,width=320,height=240,"
        "framerate=30/1",
#endif
    "audio/x-raw,format=F32LE,rate=48000,channels=1",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    fail_if (sink_accepts (e, bad[i]), "accepted %s", bad[i]);
  gst_object_unref (e);
}

GST_END_TEST;

/* The structure of @caps in system memory: the last one. */
static GstStructure *
system_structure (GstCaps * caps)
{
  guint n = gst_caps_get_size (caps);

  fail_unless (n > 0);
  fail_unless (gst_caps_features_is_equal (gst_caps_get_features (caps,
              n - 1), GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY));
  return gst_caps_get_structure (caps, n - 1);
}

/* Same caps in and out: asking the source pad for one format gives that
 * format only, and the element offers exactly its formats. */
GST_START_TEST (test_caps_pass_through_unchanged)
{
  GstElement *e = new_blur ();
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstCaps *filter, *caps;
  GstStructure *s;
  const GValue *formats;
  guint f;

  filter = gst_caps_from_string ("video/x-raw,format=GRAY32F");
  caps = gst_pad_query_caps (src, filter);
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
  s = system_structure (caps);
  fail_unless_equals_string (gst_structure_get_string (s, "format"),
      "GRAY32F");
  gst_caps_unref (caps);
  gst_caps_unref (filter);

  caps = gst_pad_query_caps (src, NULL);
#ifdef HAVE_GST_CUDA
  fail_unless_equals_int (gst_caps_get_size (caps), 2);
#else
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
#endif
  formats = gst_structure_get_value (system_structure (caps), "format");
  fail_unless_equals_int (gst_value_list_get_size (formats), test_n_formats);
  for (f = 0; f < test_n_formats; f++)
    fail_unless_equals_string (g_value_get_string (gst_value_list_get_value
            (formats, f)), test_formats[f]);
  gst_caps_unref (caps);
  gst_object_unref (src);
  gst_object_unref (e);
}

GST_END_TEST;

#ifdef HAVE_GST_CUDA
static gboolean
format_listed (const GValue * formats, const gchar * format)
{
  guint i;

  for (i = 0; i < gst_value_list_get_size (formats); i++)
    if (g_str_equal (g_value_get_string (gst_value_list_get_value (formats,
                    i)), format))
      return TRUE;
  return FALSE;
}

/* Built with gstreamer-cuda-1.0: CUDA memory is offered first, in the
 * formats GStreamer 1.22's CUDA allocator lays out, and a neighbour asking
 * for one memory gets that memory. */
GST_START_TEST (test_cuda_memory_caps)
{
  static const gchar *const not_in_cuda[] = { "GRAY8", "GRAY16_LE",
    "GRAY32F", "AYUV", "xRGB", "xBGR", "YVYU", "I420_12LE", "Y444_10LE",
    "Y444_12LE", "P012_LE"
  };
  GstElement *e = new_blur ();
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstCapsFeatures *features;
  GstCaps *caps, *filter;
  const GValue *formats;
  guint f, n_cuda = 0;

  caps = gst_pad_query_caps (src, NULL);
  features = gst_caps_get_features (caps, 0);
  fail_unless (gst_caps_features_contains (features, "memory:CUDAMemory"),
      "CUDA memory is not offered first: %" GST_PTR_FORMAT, caps);
  formats = gst_structure_get_value (gst_caps_get_structure (caps, 0),
      "format");
  for (f = 0; f < test_n_formats; f++)
    n_cuda += format_listed (formats, test_formats[f]);
  fail_unless_equals_int (n_cuda, gst_value_list_get_size (formats));
  fail_unless_equals_int (n_cuda, 22);
  for (f = 0; f < G_N_ELEMENTS (not_in_cuda); f++)
    fail_if (format_listed (formats, not_in_cuda[f]), "%s", not_in_cuda[f]);
  gst_caps_unref (caps);

  fail_unless (sink_accepts (e, "video/x-raw(memory:CUDAMemory),format=NV12,"
          "width=1920,height=1080,framerate=30/1"));
  fail_unless (sink_accepts (e, "video/x-raw(memory:CUDAMemory),format=RGBA,"
          "width=323,height=241,framerate=0/1"));
  /* what nvh265dec gives for HEVC Main10, and webcams' 4:2:2 */
  fail_unless (sink_accepts (e, "video/x-raw(memory:CUDAMemory),"
          "format=P010_10LE,width=1920,height=1080,framerate=30/1"));
  fail_unless (sink_accepts (e, "video/x-raw(memory:CUDAMemory),format=YUY2,"
          "width=640,height=480,framerate=30/1"));

  /* asked for in one memory, in either direction */
  filter = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),"
      "format=I420");
  caps = gst_pad_query_caps (src, filter);
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          "memory:CUDAMemory"));
  gst_caps_unref (caps);
  caps = gst_pad_query_caps (sink, filter);
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          "memory:CUDAMemory"));
  gst_caps_unref (caps);
  gst_caps_unref (filter);

  filter = gst_caps_from_string ("video/x-raw,format=I420");
  caps = gst_pad_query_caps (src, filter);
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
  system_structure (caps);
  gst_caps_unref (caps);
  gst_caps_unref (filter);

  /* a neighbour that lists system memory first still gets CUDA memory
   * first */
  filter = gst_caps_from_string ("video/x-raw,format=NV12; "
      "video/x-raw(memory:CUDAMemory),format=NV12");
  caps = gst_pad_query_caps (sink, filter);
  fail_unless_equals_int (gst_caps_get_size (caps), 2);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          "memory:CUDAMemory"), "%" GST_PTR_FORMAT, caps);
  system_structure (caps);
  gst_caps_unref (caps);
  gst_caps_unref (filter);

  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (e);
}

GST_END_TEST;

/* The element stands where frames cross between the memories: behind a
 * neighbour that gives only system memory, or only CUDA memory, it offers
 * the same frames in both. */
GST_START_TEST (test_crosses_memories)
{
  static const gchar *const given[] = { "video/x-raw,format=NV12,"
        "width=64,height=48",
    "video/x-raw(memory:CUDAMemory),format=NV12,width=64,height=48"
  };
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (given); i++) {
    GstElement *bin = gst_object_ref_sink (gst_bin_new (NULL));
    GstElement *up = gst_element_factory_make ("capsfilter", NULL);
    GstElement *e = new_blur ();
    GstCaps *caps = gst_caps_from_string (given[i]);
    GstPad *src = gst_element_get_static_pad (e, "src");
    gboolean memories[2] = { FALSE, FALSE };

    g_object_set (up, "caps", caps, NULL);
    gst_bin_add_many (GST_BIN (bin), up, e, NULL);
    fail_unless (gst_element_link (up, e));
    gst_caps_unref (caps);

    caps = gst_pad_query_caps (src, NULL);
    fail_unless_equals_int (gst_caps_get_size (caps), 2);
    for (j = 0; j < 2; j++) {
      const GstStructure *s = gst_caps_get_structure (caps, j);

      memories[gst_caps_features_contains (gst_caps_get_features (caps, j),
              "memory:CUDAMemory")] = TRUE;
      fail_unless_equals_string (gst_structure_get_string (s, "format"),
          "NV12");
      fail_unless (gst_structure_has_field (s, "width"));
    }
    fail_unless (memories[0] && memories[1], "%s: %" GST_PTR_FORMAT,
        given[i], caps);
    gst_caps_unref (caps);
    gst_object_unref (src);
    gst_object_unref (bin);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* Offered both memories in either order, the other side takes the memory
 * the frames came in: the element crosses only when it must. */
GST_START_TEST (test_keeps_the_memory_it_can)
{
  static const gchar *const offers[] = {
    "video/x-raw,format=NV12,width=64,height=48; "
        "video/x-raw(memory:CUDAMemory),format=NV12,width=64,height=48",
    "video/x-raw(memory:CUDAMemory),format=NV12,width=64,height=48; "
        "video/x-raw,format=NV12,width=64,height=48",
  };
  GstElement *e = new_blur ();
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (e);
  guint cuda, o;

  for (cuda = 0; cuda < 2; cuda++) {
    for (o = 0; o < G_N_ELEMENTS (offers); o++) {
      GstCaps *caps = gst_caps_from_string (cuda ?
          "video/x-raw(memory:CUDAMemory),format=NV12,width=64,height=48" :
          "video/x-raw,format=NV12,width=64,height=48");
      GstCaps *fixed = klass->fixate_caps (GST_BASE_TRANSFORM (e),
          GST_PAD_SINK, caps, gst_caps_from_string (offers[o]));

      fail_unless (gst_caps_is_equal (fixed, caps), "%" GST_PTR_FORMAT
          " into %s gave %" GST_PTR_FORMAT, caps, offers[o], fixed);
      gst_caps_unref (fixed);
      gst_caps_unref (caps);
    }
  }
  gst_object_unref (e);
}

GST_END_TEST;
#endif

/* Caps that leave interlace-mode out come out without it, and caps that
 * state progressive keep it, whatever the other side's caps state: the
 * frames leave as they came. */
GST_START_TEST (test_interlace_mode_as_given)
{
  static const gchar *const given[] = {
    "video/x-raw,format=GRAY8,width=8,height=6,framerate=30/1",
    "video/x-raw,format=GRAY8,width=8,height=6,framerate=30/1,"
        "interlace-mode=progressive",
  };
  GstElement *e = new_blur ();
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (e);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (given); i++) {
    GstCaps *caps = gst_caps_from_string (given[i]);
    GstCaps *both = klass->transform_caps (GST_BASE_TRANSFORM (e),
        GST_PAD_SINK, caps, NULL);
    GstCaps *templ = gst_pad_get_pad_template_caps (GST_BASE_TRANSFORM
        (e)->srcpad);
    /* what the source pad offers: the other side through its template */
    GstCaps *other = gst_caps_intersect_full (both, templ,
        GST_CAPS_INTERSECT_FIRST);
    GstCaps *fixed;
    gchar *text;

    fixed = klass->fixate_caps (GST_BASE_TRANSFORM (e), GST_PAD_SINK, caps,
        other);
    text = gst_caps_to_string (fixed);
    fail_unless (gst_caps_is_equal (fixed, caps), "%s gave %s", given[i],
        text);
    g_free (text);
    gst_caps_unref (fixed);
    gst_caps_unref (templ);
    gst_caps_unref (both);
    gst_caps_unref (caps);
  }
  gst_object_unref (e);
}

GST_END_TEST;

static GParamSpec *
find_property (GstElement * e, const gchar * name)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      name);

  fail_unless (pspec != NULL, "no property %s", name);
  return pspec;
}

/* A number property: its range, default, and that it may change while
 * playing and be driven by a controller. */
static void
assert_number_property (GstElement * e, const gchar * name, gdouble min,
    gdouble max, gdouble def)
{
  GParamSpec *pspec = find_property (e, name);
  GValue v = G_VALUE_INIT;
  gdouble lo, hi, d;

  g_value_init (&v, pspec->value_type);
  g_param_value_set_default (pspec, &v);
  if (G_IS_PARAM_SPEC_UINT (pspec)) {
    lo = G_PARAM_SPEC_UINT (pspec)->minimum;
    hi = G_PARAM_SPEC_UINT (pspec)->maximum;
    d = g_value_get_uint (&v);
  } else if (G_IS_PARAM_SPEC_INT (pspec)) {
    lo = G_PARAM_SPEC_INT (pspec)->minimum;
    hi = G_PARAM_SPEC_INT (pspec)->maximum;
    d = g_value_get_int (&v);
  } else {
    lo = G_PARAM_SPEC_DOUBLE (pspec)->minimum;
    hi = G_PARAM_SPEC_DOUBLE (pspec)->maximum;
    d = g_value_get_double (&v);
  }
  fail_unless (lo == min && hi == max && d == def,
      "%s: %g..%g default %g", name, lo, hi, d);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING, "%s", name);
  fail_unless (pspec->flags & GST_PARAM_CONTROLLABLE, "%s", name);
  g_value_unset (&v);
}

GST_START_TEST (test_properties)
{
  GstElement *e = new_blur ();
  GstBaseTransform *trans = GST_BASE_TRANSFORM (e);
  GParamSpecInt *device;
  guint r, planes;
  gint d;
  gchar *arch, *type;
  static const gchar *playing[] = { "planes", "blur-alpha", "mode",
    "border-mode", "roi-meta", "roi-meta-type", "roi-hold", "shape",
    "no-region", "post-messages", "invert", "roi-hold-motion"
  };
  guint i;

  assert_number_property (e, "radius", 0, 255, 1);
  assert_number_property (e, "radius-x", 0, 255, 1);
  assert_number_property (e, "radius-y", 0, 255, 1);
  assert_number_property (e, "chroma-radius-x", -1, 255, -1);
  assert_number_property (e, "chroma-radius-y", -1, 255, -1);
  assert_number_property (e, "passes", 1, 8, 1);
  assert_number_property (e, "sigma", 0, 128, 2);
  assert_number_property (e, "border-value", -G_MAXFLOAT, G_MAXFLOAT, 0);
  assert_number_property (e, "roi-x", 0, 32768, 0);
  assert_number_property (e, "roi-y", 0, 32768, 0);
  assert_number_property (e, "roi-width", 0, 32768, 0);
  assert_number_property (e, "roi-height", 0, 32768, 0);
  assert_number_property (e, "roi-padding", 0, 32768, 0);
  assert_number_property (e, "radius-scale", 0, 1, 0);
  assert_number_property (e, "sigma-scale", 0, 1, 0);
  assert_number_property (e, "block-size", 1, 256, 16);
  assert_number_property (e, "block-scale", 0, 1, 0);
  assert_number_property (e, "fill-color", 0, G_MAXUINT32, 0xff000000);
  assert_number_property (e, "feather", 0, 1024, 0);
  assert_number_property (e, "roi-hold-grow", 0, 1, 0.05);
  assert_number_property (e, "roi-hold-reach", 0, 1, 0.2);
  assert_number_property (e, "roi-min-confidence", 0, 1, 0);
  for (i = 0; i < G_N_ELEMENTS (playing); i++)
    fail_unless (find_property (e, playing[i])->flags &
        GST_PARAM_MUTABLE_PLAYING, "%s", playing[i]);

  {
    GParamSpecUInt *flight = G_PARAM_SPEC_UINT (find_property (e,
            "frames-in-flight"));

    fail_unless (flight->minimum == 1 && flight->maximum == 8
        && flight->default_value == 1);
    fail_unless (flight->parent_instance.flags & GST_PARAM_MUTABLE_PLAYING);
  }

  device = G_PARAM_SPEC_INT (find_property (e, "device-id"));
  fail_unless_equals_int (device->default_value, -1);
  fail_unless_equals_int (device->minimum, -1);
  fail_unless (device->parent_instance.flags & GST_PARAM_MUTABLE_READY);

  {
    GParamSpecEnum *mode = G_PARAM_SPEC_ENUM (find_property (e,
            "memory-mode"));
    GParamSpecEnum *border = G_PARAM_SPEC_ENUM (find_property (e,
            "border-mode"));
    GParamSpecFlags *fl = G_PARAM_SPEC_FLAGS (find_property (e, "planes"));
    static const gchar *nicks[] = { "shrink", "clamp", "mirror", "wrap",
      "constant"
    };
    GEnumValue *v;

    fail_unless_equals_int (mode->default_value, 2);
    v = g_enum_get_value_by_nick (mode->enum_class, "managed");
    fail_unless (v != NULL && v->value == 0);
    v = g_enum_get_value_by_nick (mode->enum_class, "pinned");
    fail_unless (v != NULL && v->value == 1);
    v = g_enum_get_value_by_nick (mode->enum_class, "auto");
    fail_unless (v != NULL && v->value == 2);
    fail_unless (mode->parent_instance.flags & GST_PARAM_MUTABLE_READY);
    /* what start took: read-only, auto before */
    mode = G_PARAM_SPEC_ENUM (find_property (e, "memory-in-use"));
    fail_unless (G_PARAM_SPEC_VALUE_TYPE (mode) ==
        G_PARAM_SPEC_VALUE_TYPE (find_property (e, "memory-mode")));
    fail_unless ((mode->parent_instance.flags & G_PARAM_READWRITE) ==
        G_PARAM_READABLE);
    fail_unless_equals_int (mode->default_value, 2);

    fail_unless_equals_int (border->default_value,
        GST_CUDA_BOX_BLUR_BORDER_SHRINK);
    for (i = 0; i < G_N_ELEMENTS (nicks); i++) {
      v = g_enum_get_value_by_nick (border->enum_class, nicks[i]);
      fail_unless (v != NULL && v->value == (gint) i, "%s", nicks[i]);
    }
    fail_unless_equals_int (fl->default_value, GST_CUDA_BOX_BLUR_PLANES_ALL);

    mode = G_PARAM_SPEC_ENUM (find_property (e, "mode"));
    fail_unless_equals_int (mode->default_value, GST_CUDA_BOX_BLUR_MODE_BOX);
    v = g_enum_get_value_by_nick (mode->enum_class, "box");
    fail_unless (v != NULL && v->value == GST_CUDA_BOX_BLUR_MODE_BOX);
    v = g_enum_get_value_by_nick (mode->enum_class, "gaussian");
    fail_unless (v != NULL && v->value == GST_CUDA_BOX_BLUR_MODE_GAUSSIAN);
    v = g_enum_get_value_by_nick (mode->enum_class, "pixelate");
    fail_unless (v != NULL && v->value == GST_CUDA_BOX_BLUR_MODE_PIXELATE);
    v = g_enum_get_value_by_nick (mode->enum_class, "fill");
    fail_unless (v != NULL && v->value == GST_CUDA_BOX_BLUR_MODE_FILL);

    mode = G_PARAM_SPEC_ENUM (find_property (e, "shape"));
    fail_unless_equals_int (mode->default_value,
        GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE);
    v = g_enum_get_value_by_nick (mode->enum_class, "rectangle");
    fail_unless (v != NULL && v->value == GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE);
    v = g_enum_get_value_by_nick (mode->enum_class, "ellipse");
    fail_unless (v != NULL && v->value == GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE);
  }

  g_object_get (e, "radius", &r, "device-id", &d, "arch", &arch,
      "roi-meta-type", &type, NULL);
  fail_unless_equals_int (r, 1);
  fail_unless_equals_int (d, -1);
  fail_unless (arch == NULL);
  fail_unless (type == NULL);
  {
    GParamSpec *work = find_property (e, "work-memory");
    guint64 bytes = 1;

    /* read-only, and 0 before the first frame */
    fail_unless (work->value_type == G_TYPE_UINT64);
    fail_unless ((work->flags & G_PARAM_READWRITE) == G_PARAM_READABLE);
    g_object_get (e, "work-memory", &bytes, NULL);
    fail_unless_equals_uint64 (bytes, 0);
  }
  {
    gboolean post, invert;

    g_object_get (e, "no-region", &d, "post-messages", &post, "invert",
        &invert, NULL);
    fail_unless_equals_int (d, GST_CUDA_BOX_BLUR_NO_REGION_PASS);
    fail_if (post);
    fail_if (invert);
  }

  g_object_set (e, "radius", 7, "device-id", 3, NULL);
  g_object_get (e, "radius", &r, "device-id", &d, NULL);
  fail_unless_equals_int (r, 7);
  fail_unless_equals_int (d, 3);

  /* radius sets both directions; each can be set alone */
  g_object_set (e, "radius-x", 4, "radius-y", 9, NULL);
  g_object_get (e, "radius", &r, NULL);
  fail_unless_equals_int (r, 4);
  g_object_get (e, "radius-y", &r, NULL);
  fail_unless_equals_int (r, 9);
  g_object_set (e, "radius", 5, NULL);
  g_object_get (e, "radius-y", &r, NULL);
  fail_unless_equals_int (r, 5);

  /* flags and strings as gst-launch-1.0 writes them */
  gst_util_set_object_arg (G_OBJECT (e), "planes", "y+u");
  g_object_get (e, "planes", &planes, NULL);
  fail_unless_equals_int (planes, GST_CUDA_BOX_BLUR_PLANE_Y |
      GST_CUDA_BOX_BLUR_PLANE_U);
  gst_util_set_object_arg (G_OBJECT (e), "border-mode", "mirror");
  g_object_get (e, "border-mode", &d, NULL);
  fail_unless_equals_int (d, GST_CUDA_BOX_BLUR_BORDER_MIRROR);
  g_object_set (e, "roi-meta-type", "face", NULL);
  g_object_get (e, "roi-meta-type", &type, NULL);
  fail_unless_equals_string (type, "face");
  g_free (type);
  g_object_set (e, "roi-meta-type", "", NULL);
  g_object_get (e, "roi-meta-type", &type, NULL);
  fail_unless (type == NULL);
  g_object_set (e, "roi-meta-type", "face, license-plate", NULL);
  g_object_get (e, "roi-meta-type", &type, NULL);
  fail_unless_equals_string (type, "face,license-plate");
  g_free (type);
  /* more than 16 types: refused, the list stays */
  g_object_set (e, "roi-meta-type", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q",
      NULL);
  g_object_get (e, "roi-meta-type", &type, NULL);
  fail_unless_equals_string (type, "face,license-plate");
  g_free (type);
  gst_util_set_object_arg (G_OBJECT (e), "no-region", "redact");
  g_object_get (e, "no-region", &d, NULL);
  fail_unless_equals_int (d, GST_CUDA_BOX_BLUR_NO_REGION_REDACT);
  g_object_get (e, "roi-hold-motion", &d, NULL);
  fail_unless_equals_int (d, GST_CUDA_BOX_BLUR_HOLD_MOTION_LINEAR);
  gst_util_set_object_arg (G_OBJECT (e), "roi-hold-motion", "none");
  g_object_get (e, "roi-hold-motion", &d, NULL);
  fail_unless_equals_int (d, GST_CUDA_BOX_BLUR_HOLD_MOTION_NONE);
  g_object_set (e, "roi-meta-type", "!plate, face", NULL);
  g_object_get (e, "roi-meta-type", &type, NULL);
  fail_unless_equals_string (type, "!plate,face");
  g_free (type);

  /* passthrough only when no radius is left */
  g_object_set (e, "radius-x", 0, "radius-y", 3, NULL);
  fail_if (gst_base_transform_is_passthrough (trans));
  g_object_set (e, "radius", 0, NULL);
  fail_unless (gst_base_transform_is_passthrough (trans));
  g_object_set (e, "chroma-radius-x", 2, NULL);
  fail_if (gst_base_transform_is_passthrough (trans));
  g_object_set (e, "chroma-radius-x", -1, NULL);
  fail_unless (gst_base_transform_is_passthrough (trans));
  g_object_set (e, "radius", 2, NULL);
  fail_if (gst_base_transform_is_passthrough (trans));

  /* in mode gaussian sigma decides, not the radii */
  gst_util_set_object_arg (G_OBJECT (e), "mode", "gaussian");
  g_object_set (e, "radius", 0, "sigma", 0.5, NULL);
  fail_unless (gst_base_transform_is_passthrough (trans));
  g_object_set (e, "sigma", 1.0, NULL);
  fail_if (gst_base_transform_is_passthrough (trans));

  gst_object_unref (e);
}

GST_END_TEST;

/* Runs @desc to PAUSED, which must fail with an error from cudaboxblur that
 * contains @text. */
static void
assert_start_fails (const gchar * desc, const gchar * text)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus;
  GstMessage *msg;
  GError *error = NULL;
  gchar *debug = NULL;

  fail_unless (pipeline != NULL);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);

  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message posted");
  fail_unless_equals_string (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), "blur");
  gst_message_parse_error (msg, &error, &debug);
  fail_unless (error->domain == GST_RESOURCE_ERROR);
  fail_unless (strstr (error->message, text) != NULL, "'%s' lacks '%s'",
      error->message, text);
  GST_INFO ("error: %s (%s)", error->message, debug);

  g_error_free (error);
  g_free (debug);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_START_TEST (test_no_device_is_an_element_error)
{
  /* the suite runs with every GPU hidden, or on a machine with none */
  assert_start_fails ("appsrc caps=video/x-raw,format=GRAY32F,width=64,"
      "height=48,framerate=30/1 ! cudaboxblur name=blur ! appsink",
      "No CUDA device available: the NVIDIA driver");
  assert_start_fails ("videotestsrc ! video/x-raw,format=GRAY8 ! "
      "cudaboxblur name=blur device-id=5 ! fakesink", "No CUDA device");
}

GST_END_TEST;

/* What the error says of a machine without a usable GPU: what is missing,
 * and what to install. */
GST_START_TEST (test_no_device_reasons)
{
  const struct
  {
    gboolean has_driver;
    gint driver;
    const gchar *visible;
    const gchar *says;
  } cases[] = {
    {FALSE, 0, NULL, "the NVIDIA driver is not installed (libcuda.so.1 not "
          "found); install the NVIDIA driver"},
    {TRUE, 12020, NULL, "the NVIDIA driver supports CUDA 12.2, older than "
          "the CUDA 13.0 this plugin was built with; install a newer NVIDIA "
          "driver"},
    {TRUE, 13000, NULL, "the NVIDIA driver (CUDA 13.0) finds no GPU; "
          "nvidia-smi lists"},
    {TRUE, 13010, "", "the NVIDIA driver (CUDA 13.1) finds no GPU among "
          "those CUDA_VISIBLE_DEVICES=\"\" lets through"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *text = gst_cuda_box_blur_no_device_explain (cases[i].has_driver,
        cases[i].driver, 13000, cases[i].visible);

    fail_unless (g_str_has_prefix (text, cases[i].says), "%s", text);
    g_free (text);
  }
}

GST_END_TEST;

/* memory-mode=auto takes managed memory where the GPU works in the host's
 * memory (integrated, or reading the host's page tables coherently, like
 * Grace Hopper's) and the CPU may touch managed memory while kernels run
 * (not on Jetson), and pinned memory on other GPUs. */
GST_START_TEST (test_memory_auto_choice)
{
  static const struct
  {
    gboolean integrated, host_page_tables, concurrent, managed;
  } devices[] = {
    {FALSE, FALSE, TRUE, FALSE},        /* a discrete GPU on PCIe */
    {TRUE, FALSE, FALSE, FALSE},        /* Jetson: no concurrent access */
    {TRUE, FALSE, TRUE, TRUE},  /* an integrated GPU with it */
    {FALSE, TRUE, TRUE, TRUE},  /* Grace Hopper */
    {FALSE, TRUE, FALSE, FALSE},
    {TRUE, TRUE, TRUE, TRUE},
    {FALSE, FALSE, FALSE, FALSE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (devices); i++) {
    GstCudaBoxBlurDevice d = { 0, };

    d.integrated = devices[i].integrated;
    d.host_page_tables = devices[i].host_page_tables;
    d.concurrent_managed = devices[i].concurrent;
    fail_unless_equals_int (gst_cuda_box_blur_device_prefers_managed (&d),
        devices[i].managed);
  }
}

GST_END_TEST;

/* A device that a kernel fault lost is refused for the rest of the
 * process, before anything asks the driver, with the advice to restart
 * the process; other devices are not.  (The element's own refusal, after
 * a real fault, is elements/cudaboxblur-robust's.) */
GST_START_TEST (test_lost_device_refused)
{
  GstCudaBoxBlurDevice device;
  GError *error = NULL;

  gst_cuda_box_blur_device_mark_lost (7);
  fail_if (gst_cuda_box_blur_device_query (7, &device, &error));
  fail_unless (g_error_matches (error, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_FAILED), "%s", error->message);
  fail_unless_equals_string (error->message, "CUDA device 7 was lost to a "
      "kernel fault earlier in this process: restart the process to use it "
      "again");
  g_clear_error (&error);

  /* the suite runs with every GPU hidden, or on a machine with none */
  fail_if (gst_cuda_box_blur_device_query (6, &device, &error));
  fail_unless (strstr (error->message, "lost") == NULL, "%s",
      error->message);
  g_error_free (error);
}

GST_END_TEST;

static Suite *
cudaboxblur_suite (void)
{
  Suite *s = suite_create ("cudaboxblur");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_accepts_every_format);
  tcase_add_test (tc, test_rejects_other_caps);
  tcase_add_test (tc, test_caps_pass_through_unchanged);
#ifdef HAVE_GST_CUDA
  tcase_add_test (tc, test_cuda_memory_caps);
  tcase_add_test (tc, test_crosses_memories);
  tcase_add_test (tc, test_keeps_the_memory_it_can);
#endif
  tcase_add_test (tc, test_interlace_mode_as_given);
  tcase_add_test (tc, test_memory_auto_choice);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_no_device_is_an_element_error);
  tcase_add_test (tc, test_no_device_reasons);
  tcase_add_test (tc, test_lost_device_refused);
  return s;
}

GST_CHECK_MAIN (cudaboxblur);
