/* cudaboxblur test helpers: random settings and region metas
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the fuzz tests draw: the element's (elements/cudaboxblur-robust,
 * on a GPU, against the reference) and the plans' (sweep-plans, on the
 * CPU, against the memory the plans measured) draw the same settings and
 * metas.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

#include "testfuzz.h"

/* The fuzz @name's generator, seeded from CUDABOXBLUR_FUZZ_SEED or the
 * clock; prints the seed, to replay the run with. */
GRand *
test_fuzz_rand_new (const gchar * name, guint32 * seed)
{
  const gchar *env = g_getenv ("CUDABOXBLUR_FUZZ_SEED");

  *seed = env ? (guint32) g_ascii_strtoull (env, NULL, 10) :
      (guint32) g_get_real_time ();
  g_print ("%s fuzz: CUDABOXBLUR_FUZZ_SEED=%u\n", name, *seed);
  return g_rand_new_with_seed (*seed);
}

/* A field of a region's parameters: of its type and in range, out of
 * range, or of another type. */
static void
set_fuzz_param (GstStructure * params, GRand * rand, const gchar * name)
{
  static const gchar *const modes[] = { "box", "gaussian", "pixelate",
    "fill", "sharpen"
  };
  static const gchar *const shapes[] = { "rectangle", "ellipse", "star" };
  static const gdouble sigmas[] = { 0, 0.4, 3.5, 17, 1e9, -1 };

  switch (g_rand_int_range (rand, 0, 4)) {
    case 0:                    /* of another type */
      gst_structure_set (params, name, G_TYPE_BOOLEAN, TRUE, NULL);
      return;
    case 1:                    /* a number where a name goes, or out of
                                 * range */
      gst_structure_set (params, name, G_TYPE_INT,
          g_rand_int_range (rand, -10, 2000), NULL);
      return;
    default:
      break;
  }
  if (g_str_equal (name, "mode"))
    gst_structure_set (params, name, G_TYPE_STRING,
        modes[g_rand_int_range (rand, 0, G_N_ELEMENTS (modes))], NULL);
  else if (g_str_equal (name, "shape"))
    gst_structure_set (params, name, G_TYPE_STRING,
        shapes[g_rand_int_range (rand, 0, G_N_ELEMENTS (shapes))], NULL);
  else if (g_str_equal (name, "sigma"))
    gst_structure_set (params, name, G_TYPE_DOUBLE, g_rand_boolean (rand) ?
        sigmas[g_rand_int_range (rand, 0, G_N_ELEMENTS (sigmas))] :
        g_rand_boolean (rand) ? NAN : INFINITY, NULL);
  else if (g_str_equal (name, "fill-color"))
    gst_structure_set (params, name, G_TYPE_UINT, g_rand_int (rand), NULL);
  else
    gst_structure_set (params, name, G_TYPE_UINT,
        g_rand_boolean (rand) ? (guint) g_rand_int_range (rand, 0, 40) :
        G_MAXUINT,
        NULL);
}

#ifdef HAVE_GST_ANALYTICS
/* The region @x, @y, @w x @h of @type as an object detection of @buf's
 * analytics meta: read as gint, where the hostile ones turn negative; of a
 * confidence sure, unsure, unknown, NaN or past 1; from 1.26 rotated at
 * times; related now and then to a tracking mtd. */
static void
fuzz_detection_add (GstBuffer * buf, GRand * rand, const gchar * type,
    guint x, guint y, guint w, guint h)
{
  static const gfloat confidences[] = { 0.9f, 0.2f, -1, NAN, 2 };
  GstAnalyticsRelationMeta *meta = gst_buffer_add_analytics_relation_meta
      (buf);
  const GQuark q = g_quark_from_string (type);
  const gfloat c = confidences[g_rand_int_range (rand, 0,
          G_N_ELEMENTS (confidences))];
  GstAnalyticsTrackingMtd trk;
  GstAnalyticsODMtd od;

#if GST_CHECK_VERSION (1, 26, 0)
  if (g_rand_int_range (rand, 0, 4) == 0)
    fail_unless (gst_analytics_relation_meta_add_oriented_od_mtd (meta, q,
            (gint) x, (gint) y, (gint) w, (gint) h,
            (gfloat) g_rand_double_range (rand, -4, 4), c, &od));
  else
#endif
    fail_unless (gst_analytics_relation_meta_add_od_mtd (meta, q, (gint) x,
            (gint) y, (gint) w, (gint) h, c, &od));
  if (g_rand_boolean (rand)
      && gst_analytics_relation_meta_add_tracking_mtd (meta,
          g_rand_int_range (rand, 0, 4), 0, &trk))
    gst_analytics_relation_meta_set_relation (meta,
        GST_ANALYTICS_REL_TYPE_RELATE_TO, od.id, trk.id);
}
#endif

/* A region meta on @buf, hostile at times: past G_MAXUINT (x + width
 * overflows 32 bits), huge, empty or past the frame; with parameters
 * sometimes, some of them ill-typed or out of range.  Built with the
 * analytics metas, a quarter of them are object detections instead, and
 * a quarter both. */
void
test_fuzz_meta_add (GstBuffer * buf, GRand * rand, gint w, gint height)
{
  static const gchar *const types[] = { "face", "license-plate", "person" };
  static const gchar *const fields[] = { "mode", "radius", "sigma",
    "block-size", "shape", "feather", "fill-color", "colour"
  };
  GstVideoRegionOfInterestMeta *meta;
  const gchar *type;
  guint x = g_rand_int_range (rand, 0, w + 16);
  guint y = g_rand_int_range (rand, 0, height + 16);
  guint rw = g_rand_int_range (rand, 1, w + 1);
  guint rh = g_rand_int_range (rand, 1, height + 1);
  GstStructure *params;
  guint i;

  switch (g_rand_int_range (rand, 0, 8)) {
    case 0:                    /* x + width past G_MAXUINT */
      x = G_MAXUINT - g_rand_int_range (rand, 0, 64);
      rw = g_rand_int_range (rand, 65, 100000);
      break;
    case 1:                    /* y + height past G_MAXUINT */
      y = G_MAXUINT - g_rand_int_range (rand, 0, 64);
      rh = G_MAXUINT;
      break;
    case 2:                    /* from inside the frame, huge */
      rw = G_MAXUINT - g_rand_int_range (rand, 0, 4);
      rh = (guint) G_MAXINT + g_rand_int_range (rand, 0, 4);
      break;
    case 3:                    /* empty */
      if (g_rand_boolean (rand))
        rw = 0;
      else
        rh = 0;
      break;
    default:
      break;
  }
  type = types[g_rand_int_range (rand, 0, G_N_ELEMENTS (types))];
#ifdef HAVE_GST_ANALYTICS
  switch (g_rand_int_range (rand, 0, 4)) {
    case 0:
      fuzz_detection_add (buf, rand, type, x, y, rw, rh);
      return;
    case 1:
      fuzz_detection_add (buf, rand, type, x, y, rw, rh);
      break;
    default:
      break;
  }
#endif
  meta = gst_buffer_add_video_region_of_interest_meta (buf, type, x, y, rw,
      rh);
  meta->id = g_rand_int_range (rand, -1, 4);
  /* what DL Streamer's gvadetect and gvatrack attach, now and then
   * malformed */
  if (g_rand_boolean (rand))
    gst_video_region_of_interest_meta_add_param (meta,
        g_rand_int_range (rand, 0, 4) ? gst_structure_new ("detection",
            "confidence", G_TYPE_DOUBLE, g_rand_double (rand), NULL) :
        gst_structure_new ("detection", "confidence", G_TYPE_STRING, "high",
            NULL));
  if (g_rand_boolean (rand))
    gst_video_region_of_interest_meta_add_param (meta,
        gst_structure_new ("object_id", "id", G_TYPE_INT,
            g_rand_int_range (rand, -2, 4), NULL));
  if (g_rand_boolean (rand))
    return;
  params = gst_structure_new_empty ("cudaboxblur");
  for (i = 0; i < G_N_ELEMENTS (fields); i++)
    if (g_rand_int_range (rand, 0, 3) == 0)
      set_fuzz_param (params, rand, fields[i]);
  gst_video_region_of_interest_meta_add_param (meta, params);
}

/* Random redaction settings for frames of @width x @height: mode, radii
 * (now and then of 32-bit column sums), chroma radii, planes, passes,
 * sigma, block size, fill colour, shape, feather, border mode,
 * alpha, invert, regions from metas (with a type list, exclusions among
 * them, a confidence floor, padding and hold) or a static ROI. */
void
test_fuzz_settings (GstCudaBoxBlurSettings * s, GRand * rand, gint w,
    gint height)
{
  static const gchar *const type_lists[] = { "", "face",
    "face,license-plate", "!license-plate", "person,!face"
  };

  gst_cuda_box_blur_settings_init (s);
  s->mode = g_rand_int_range (rand, 0, GST_CUDA_BOX_BLUR_N_MODES);
  s->radius_x = g_rand_int_range (rand, 0, 8) ?
      g_rand_int_range (rand, 0, 24) : g_rand_int_range (rand, 0, 140);
  s->radius_y = g_rand_boolean (rand) ? s->radius_x :
      g_rand_int_range (rand, 0, 24);
  if (g_rand_int_range (rand, 0, 4) == 0) {
    s->chroma_radius_x = g_rand_int_range (rand, 0, 6);
    s->chroma_radius_y = g_rand_int_range (rand, 0, 6);
  }
  if (g_rand_int_range (rand, 0, 4) == 0)
    s->planes = g_rand_int_range (rand, 1, GST_CUDA_BOX_BLUR_PLANES_ALL + 1);
  s->passes = g_rand_int_range (rand, 0, 6) ? g_rand_int_range (rand, 1, 4) :
      g_rand_int_range (rand, 4, 9);
  s->sigma = g_rand_double_range (rand, 0, 12);
  s->block_size = g_rand_int_range (rand, 1, 40);
  s->fill_color = g_rand_int (rand);
  s->shape = g_rand_int_range (rand, 0, GST_CUDA_BOX_BLUR_N_SHAPES);
  s->feather = g_rand_boolean (rand) ? 0 : g_rand_int_range (rand, 1, 32);
  s->border = g_rand_int_range (rand, GST_CUDA_BOX_BLUR_BORDER_SHRINK,
      GST_CUDA_BOX_BLUR_BORDER_CONSTANT + 1);
  s->blur_alpha = g_rand_boolean (rand);
  s->invert = g_rand_int_range (rand, 0, 4) == 0;
  s->roi_meta = g_rand_int_range (rand, 0, 5) > 0;
  s->no_region = g_rand_int_range (rand, 0, 3) == 0 ?
      GST_CUDA_BOX_BLUR_NO_REGION_REDACT : GST_CUDA_BOX_BLUR_NO_REGION_PASS;
  s->roi_padding = g_rand_int_range (rand, 0, 9);
  s->roi_min_confidence = g_rand_boolean (rand) ? 0 : g_rand_double (rand);
  s->roi_hold_motion = g_rand_int_range (rand, 0, 2);
  s->roi_hold_grow = g_rand_double (rand);
  s->roi_hold_reach = g_rand_double (rand);
  fail_unless (gst_cuda_box_blur_settings_set_roi_meta_types (s,
          type_lists[g_rand_int_range (rand, 0,
                  G_N_ELEMENTS (type_lists))]));
  if (!s->roi_meta && g_rand_boolean (rand)) {
    s->roi.x = g_rand_int_range (rand, 0, w);
    s->roi.y = g_rand_int_range (rand, 0, height);
    s->roi.w = g_rand_int_range (rand, 0, w);
    s->roi.h = g_rand_int_range (rand, 0, height);
  }
}
