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

/* What the element's properties mean for one frame: the window of each
 * component, the modes as data.  Shared by the element and the CPU
 * reference, so the two always read the properties alike. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-params.h"

#include <math.h>
#include <string.h>

void
gst_cuda_box_blur_settings_init (GstCudaBoxBlurSettings * settings)
{
  memset (settings, 0, sizeof (*settings));
  settings->radius_x = settings->radius_y = GST_CUDA_BOX_BLUR_DEFAULT_RADIUS;
  settings->chroma_radius_x = settings->chroma_radius_y =
      GST_CUDA_BOX_BLUR_DEFAULT_CHROMA_RADIUS;
  settings->planes = GST_CUDA_BOX_BLUR_DEFAULT_PLANES;
  settings->blur_alpha = GST_CUDA_BOX_BLUR_DEFAULT_BLUR_ALPHA;
  settings->passes = GST_CUDA_BOX_BLUR_DEFAULT_PASSES;
  settings->mode = GST_CUDA_BOX_BLUR_DEFAULT_MODE;
  settings->sigma = GST_CUDA_BOX_BLUR_DEFAULT_SIGMA;
  settings->block_size = GST_CUDA_BOX_BLUR_DEFAULT_BLOCK_SIZE;
  settings->fill_color = GST_CUDA_BOX_BLUR_DEFAULT_FILL_COLOR;
  settings->shape = GST_CUDA_BOX_BLUR_DEFAULT_SHAPE;
  settings->feather = GST_CUDA_BOX_BLUR_DEFAULT_FEATHER;
  settings->border = GST_CUDA_BOX_BLUR_DEFAULT_BORDER;
  settings->border_value = GST_CUDA_BOX_BLUR_DEFAULT_BORDER_VALUE;
  settings->roi.x = settings->roi.y = settings->roi.w = settings->roi.h =
      GST_CUDA_BOX_BLUR_DEFAULT_ROI;
  settings->roi_meta = GST_CUDA_BOX_BLUR_DEFAULT_ROI_META;
  settings->n_roi_meta_types = 0;       /* GST_CUDA_BOX_BLUR_DEFAULT_ROI_META_TYPE */
  settings->no_region = GST_CUDA_BOX_BLUR_DEFAULT_NO_REGION;
  settings->invert = GST_CUDA_BOX_BLUR_DEFAULT_INVERT;
  settings->roi_padding = GST_CUDA_BOX_BLUR_DEFAULT_ROI_PADDING;
  settings->roi_hold = GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD;
  settings->roi_hold_motion = GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD_MOTION;
  settings->roi_hold_grow = GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD_GROW;
  settings->roi_hold_reach = GST_CUDA_BOX_BLUR_DEFAULT_ROI_HOLD_REACH;
  settings->roi_min_confidence = GST_CUDA_BOX_BLUR_DEFAULT_ROI_MIN_CONFIDENCE;
  settings->radius_scale = GST_CUDA_BOX_BLUR_DEFAULT_SCALE;
  settings->sigma_scale = GST_CUDA_BOX_BLUR_DEFAULT_SCALE;
  settings->block_scale = GST_CUDA_BOX_BLUR_DEFAULT_SCALE;
}

/**
 * gst_cuda_box_blur_settings_passes:
 *
 * Returns: how many blurs run one after the other, as the mode's row says:
 * passes, in mode gaussian at least GST_CUDA_BOX_BLUR_GAUSSIAN_MIN_BOXES,
 * in modes pixelate and fill one.
 */
gint
gst_cuda_box_blur_settings_passes (const GstCudaBoxBlurSettings * settings)
{
  return gst_cuda_box_blur_mode_row (settings->mode)->passes (settings);
}

/**
 * gst_cuda_box_blur_gaussian_radius:
 * @box: 0 to @n_boxes - 1
 *
 * The radius of box @box of the @n_boxes box blurs that approximate a
 * Gaussian of standard deviation @sigma.  A box of radius r has variance
 * r (r + 1) / 3 and the variances of blurs in a row add, so the boxes take
 * radii r and r + 1, the wider ones last, whose total variance is nearest
 * to sigma^2 (on a tie the smaller).  At most GST_CUDA_BOX_BLUR_MAX_RADIUS.
 */
gint
gst_cuda_box_blur_gaussian_radius (gdouble sigma, gint n_boxes, gint box)
{
  const gdouble target = 3.0 * sigma * sigma;   /* variances times 3 */
  gdouble best = G_MAXDOUBLE;
  gint r = 0, k, wider = 0;

  while (r < GST_CUDA_BOX_BLUR_MAX_RADIUS
      && (gdouble) n_boxes * (r + 1) * (r + 2) <= target)
    r++;
  for (k = 0; k <= n_boxes && r < GST_CUDA_BOX_BLUR_MAX_RADIUS; k++) {
    const gdouble v = (gdouble) (n_boxes - k) * r * (r + 1) +
        (gdouble) k * (r + 1) * (r + 2);

    if (fabs (v - target) < best) {
      best = fabs (v - target);
      wider = k;
    }
  }
  return box >= n_boxes - wider ? r + 1 : r;
}

static gboolean
kind_is_chroma (GstCudaBoxBlurComponentKind kind)
{
  return kind == GST_CUDA_BOX_BLUR_CHROMA_U
      || kind == GST_CUDA_BOX_BLUR_CHROMA_V;
}

/* Rounded up, so that any luma radius above 0 blurs the chroma too. */
static gint
scale_radius (gint radius, gint sub)
{
  return (radius + (1 << sub) - 1) >> sub;
}

static gint
passes_as_set (const GstCudaBoxBlurSettings * settings)
{
  return settings->passes;
}

static gint
gaussian_passes (const GstCudaBoxBlurSettings * settings)
{
  return MAX (settings->passes, GST_CUDA_BOX_BLUR_GAUSSIAN_MIN_BOXES);
}

static gint
one_pass (const GstCudaBoxBlurSettings * settings)
{
  return 1;
}

/* mode box: the radii; chroma takes the chroma radii, or the luma ones
 * divided by the subsampling, rounded up */
static void
box_radii (const GstCudaBoxBlurSettings * settings, gboolean chroma,
    gint w_sub, gint h_sub, gint pass, gint n, gint * x, gint * y)
{
  *x = !chroma ? settings->radius_x : settings->chroma_radius_x >= 0 ?
      settings->chroma_radius_x : scale_radius (settings->radius_x, w_sub);
  *y = !chroma ? settings->radius_y : settings->chroma_radius_y >= 0 ?
      settings->chroma_radius_y : scale_radius (settings->radius_y, h_sub);
}

/* mode gaussian: box @pass of @n for sigma in the component's own
 * samples */
static void
gaussian_radii (const GstCudaBoxBlurSettings * settings, gboolean chroma,
    gint w_sub, gint h_sub, gint pass, gint n, gint * x, gint * y)
{
  *x = gst_cuda_box_blur_gaussian_radius (settings->sigma /
      (1 << (chroma ? w_sub : 0)), n, pass);
  *y = gst_cuda_box_blur_gaussian_radius (settings->sigma /
      (1 << (chroma ? h_sub : 0)), n, pass);
}

/* mode pixelate: blocks of the same pixels in every component, rounded
 * up */
static void
block_sides (const GstCudaBoxBlurSettings * settings, gboolean chroma,
    gint w_sub, gint h_sub, gint pass, gint n, gint * x, gint * y)
{
  *x = scale_radius (settings->block_size, chroma ? w_sub : 0);
  *y = scale_radius (settings->block_size, chroma ? h_sub : 0);
}

static void
no_size (const GstCudaBoxBlurSettings * settings, gboolean chroma,
    gint w_sub, gint h_sub, gint pass, gint n, gint * x, gint * y)
{
  *x = *y = 0;
}

static const GstCudaBoxBlurModeRow mode_rows[GST_CUDA_BOX_BLUR_N_MODES] = {
  [GST_CUDA_BOX_BLUR_MODE_BOX] = {"box",
        "Box blur of the radii, passes times",
      GST_CUDA_BOX_BLUR_WORK_WINDOWS, passes_as_set, box_radii},
  [GST_CUDA_BOX_BLUR_MODE_GAUSSIAN] = {"gaussian",
        "Gaussian blur of sigma, made of box blurs",
      GST_CUDA_BOX_BLUR_WORK_WINDOWS, gaussian_passes, gaussian_radii},
  [GST_CUDA_BOX_BLUR_MODE_PIXELATE] = {"pixelate",
        "Blocks of block-size pixels, each the mean of its pixels",
      GST_CUDA_BOX_BLUR_WORK_BLOCKS, one_pass, block_sides},
  [GST_CUDA_BOX_BLUR_MODE_FILL] = {"fill", "One colour, fill-color",
      GST_CUDA_BOX_BLUR_WORK_FILL, one_pass, no_size},
};

/**
 * gst_cuda_box_blur_mode_row:
 *
 * Returns: what @mode does, as data.
 */
const GstCudaBoxBlurModeRow *
gst_cuda_box_blur_mode_row (GstCudaBoxBlurMode mode)
{
  g_return_val_if_fail ((guint) mode < GST_CUDA_BOX_BLUR_N_MODES,
      &mode_rows[GST_CUDA_BOX_BLUR_DEFAULT_MODE]);
  return &mode_rows[mode];
}

/**
 * gst_cuda_box_blur_mode_from_nick:
 *
 * Returns: whether @nick names a mode, which goes into @mode.
 */
gboolean
gst_cuda_box_blur_mode_from_nick (const gchar * nick,
    GstCudaBoxBlurMode * mode)
{
  gint m;

  for (m = 0; m < GST_CUDA_BOX_BLUR_N_MODES; m++)
    if (g_strcmp0 (nick, mode_rows[m].nick) == 0) {
      *mode = m;
      return TRUE;
    }
  return FALSE;
}

/**
 * gst_cuda_box_blur_windows_alike:
 *
 * Whether @a and @b make the same of the same samples, their shape,
 * feather and fill value aside: what lets the passes of two regions share
 * their launches.  Fills never do (compose lays each on alone).
 */
gboolean
gst_cuda_box_blur_windows_alike (const GstCudaBoxBlurWindow * a,
    const GstCudaBoxBlurWindow * b)
{
  if (a->work != b->work)
    return FALSE;
  switch (a->work) {
    case GST_CUDA_BOX_BLUR_WORK_WINDOWS:
      return a->radius_x == b->radius_x && a->radius_y == b->radius_y
          && a->border == b->border && a->border_value == b->border_value;
    case GST_CUDA_BOX_BLUR_WORK_BLOCKS:
      return a->block_w == b->block_w && a->block_h == b->block_h;
    case GST_CUDA_BOX_BLUR_WORK_FILL:
      break;
  }
  return FALSE;
}

/**
 * gst_cuda_box_blur_window_describe:
 *
 * Appends what @window does to @s, in a few words (the job's log lines).
 */
void
gst_cuda_box_blur_window_describe (const GstCudaBoxBlurWindow * window,
    GString * s)
{
  switch (window->work) {
    case GST_CUDA_BOX_BLUR_WORK_WINDOWS:
      g_string_append_printf (s, "r %d,%d", window->radius_x,
          window->radius_y);
      break;
    case GST_CUDA_BOX_BLUR_WORK_BLOCKS:
      g_string_append_printf (s, "blocks %dx%d", window->block_w,
          window->block_h);
      break;
    case GST_CUDA_BOX_BLUR_WORK_FILL:
      g_string_append_printf (s, "fill %g", window->fill_value);
      break;
  }
}

/* The window of pass @pass (-1: the widest, that of the last pass) over a
 * component of @kind subsampled by 2^w_sub x 2^h_sub, as the mode's row
 * says; FALSE when every pass leaves the component untouched.  A pass
 * past the last (a region of fewer passes than another's) copies: a
 * window or block of 1 sample. */
static gboolean
component_window (const GstCudaBoxBlurSettings * settings,
    GstCudaBoxBlurComponentKind kind, gint w_sub, gint h_sub, gint pass,
    GstCudaBoxBlurWindow * window)
{
  /* the planes flag of each kind; alpha goes by blur_alpha instead */
  static const guint planes_flag[] = {
    [GST_CUDA_BOX_BLUR_LUMA] = GST_CUDA_BOX_BLUR_PLANE_Y,
    [GST_CUDA_BOX_BLUR_CHROMA_U] = GST_CUDA_BOX_BLUR_PLANE_U,
    [GST_CUDA_BOX_BLUR_CHROMA_V] = GST_CUDA_BOX_BLUR_PLANE_V,
    [GST_CUDA_BOX_BLUR_RED] = GST_CUDA_BOX_BLUR_PLANE_R,
    [GST_CUDA_BOX_BLUR_GREEN] = GST_CUDA_BOX_BLUR_PLANE_G,
    [GST_CUDA_BOX_BLUR_BLUE] = GST_CUDA_BOX_BLUR_PLANE_B,
  };
  const GstCudaBoxBlurModeRow *row =
      gst_cuda_box_blur_mode_row (settings->mode);
  const gboolean selected = kind == GST_CUDA_BOX_BLUR_ALPHA ?
      settings->blur_alpha : (settings->planes & planes_flag[kind]) != 0;
  const gint n = row->passes (settings);
  const gboolean chroma = kind_is_chroma (kind);
  gint widest_x, widest_y, x = 0, y = 0;

  window->work = row->work;
  window->border = settings->border;
  window->border_value = settings->border_value;
  window->shape = settings->shape;
  /* the same edge in every component, rounded up */
  window->feather = scale_radius (settings->feather, chroma ? MAX (w_sub,
          h_sub) : 0);
  window->fill_value = 0;       /* set from the caps by the callers */

  /* the passes' sizes never shrink (gst_cuda_box_blur_gaussian_radius) */
  row->size (settings, chroma, w_sub, h_sub, n - 1, n, &widest_x, &widest_y);
  if (pass < n)
    row->size (settings, chroma, w_sub, h_sub, pass < 0 ? n - 1 : pass, n,
        &x, &y);
  switch (row->work) {
    case GST_CUDA_BOX_BLUR_WORK_WINDOWS:
      window->radius_x = x;
      window->radius_y = y;
      window->block_w = window->block_h = 1;
      return selected && (widest_x > 0 || widest_y > 0);
    case GST_CUDA_BOX_BLUR_WORK_BLOCKS:
      window->radius_x = window->radius_y = 0;
      window->block_w = MAX (x, 1);
      window->block_h = MAX (y, 1);
      /* chroma blocks of one sample go with luma blocks of more */
      row->size (settings, FALSE, 0, 0, n - 1, n, &widest_x, &widest_y);
      return selected && (widest_x > 1 || widest_y > 1);
    case GST_CUDA_BOX_BLUR_WORK_FILL:
      break;
  }
  window->radius_x = window->radius_y = 0;
  window->block_w = window->block_h = 1;
  return selected;
}

/**
 * gst_cuda_box_blur_settings_window:
 *
 * The widest window of the passes over component @component of @info
 * frames, which bounds what its blur reads; in mode box every pass has
 * it.  Chroma (U and V) takes chroma_radius_x/y, or when that is -1 the
 * luma radius divided by the chroma subsampling, rounded up; in mode
 * gaussian, sigma divided by the subsampling.  Every other component takes
 * the luma radius, or sigma.  Alpha is blurred only with blur_alpha.
 *
 * Returns: %FALSE when the component is left untouched (not selected, or
 * a window of 1x1 in every pass).
 */
gboolean
gst_cuda_box_blur_settings_window (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurInfo * info, gint component,
    GstCudaBoxBlurWindow * window)
{
  return gst_cuda_box_blur_settings_pass_window (settings, info, component,
      -1, window);
}

/**
 * gst_cuda_box_blur_settings_pass_window:
 * @pass: 0 to gst_cuda_box_blur_settings_passes() - 1
 *
 * The window of pass @pass over component @component.  In mode gaussian
 * the passes' radii differ, and a pass over a blurred component may have a
 * window of 1x1, which copies.
 *
 * Returns: as gst_cuda_box_blur_settings_window().
 */
gboolean
gst_cuda_box_blur_settings_pass_window (const GstCudaBoxBlurSettings *
    settings, const GstCudaBoxBlurInfo * info, gint component, gint pass,
    GstCudaBoxBlurWindow * window)
{
  const GstCudaBoxBlurComponent *comp = &info->comp[component];
  const gboolean touched = component_window (settings, comp->kind,
      comp->w_sub, comp->h_sub, pass, window);

  /* fill colours and border-value at the format's depth, then as they are
   * stored: in the high bits of the word for P010 and P012 */
  if (window->work == GST_CUDA_BOX_BLUR_WORK_FILL)
    window->fill_value = gst_cuda_box_blur_info_color_sample (info, component,
        settings->fill_color) * (1 << comp->shift);
  if (info->type != GST_CUDA_BOX_BLUR_F32)
    window->border_value = round (CLAMP (window->border_value, 0,
            gst_cuda_box_blur_info_sample_max (info, component))) *
        (1 << comp->shift);
  return touched;
}

/**
 * gst_cuda_box_blur_window_is_direct:
 *
 * TRUE when a window of these radii is small enough for the direct kernels
 * (GST_CUDA_BOX_BLUR_DIRECT_MAX_WINDOW pixels), whose float32 sums follow
 * the NVIDIA sample's order bit for bit.
 */
gboolean
gst_cuda_box_blur_window_is_direct (gint radius_x, gint radius_y)
{
  return (2 * radius_x + 1) * (2 * radius_y + 1) <=
      GST_CUDA_BOX_BLUR_DIRECT_MAX_WINDOW;
}

/**
 * gst_cuda_box_blur_settings_blurs_nothing:
 * @info: (nullable): the frames, or %NULL for frames of any format
 *
 * Returns: %TRUE when no component of @info frames would change, whatever
 * the regions, their sizes and their metas' parameters.
 */
gboolean
gst_cuda_box_blur_settings_blurs_nothing (const GstCudaBoxBlurSettings *
    settings, const GstCudaBoxBlurInfo * info)
{
  GstCudaBoxBlurSettings probe = *settings;
  GstCudaBoxBlurWindow window;
  gint c, m;

  /* a meta's parameters may take any mode */
  if (settings->roi_meta) {
    for (m = 0; m < GST_CUDA_BOX_BLUR_N_MODES; m++) {
      probe.mode = m;
      probe.roi_meta = FALSE;
      probe.radius_scale = probe.sigma_scale = probe.block_scale = 1;
      if (!gst_cuda_box_blur_settings_blurs_nothing (&probe, info))
        return FALSE;
    }
    return TRUE;
  }
  /* a region may take a radius or sigma of its own from its size */
  if (settings->radius_scale > 0)
    probe.radius_x = probe.radius_y = GST_CUDA_BOX_BLUR_MAX_RADIUS;
  if (settings->sigma_scale > 0)
    probe.sigma = GST_CUDA_BOX_BLUR_MAX_SIGMA;
  if (settings->block_scale > 0)
    probe.block_size = GST_CUDA_BOX_BLUR_MAX_BLOCK_SIZE;
  settings = &probe;

  if (!info) {
    /* subsampling does not decide whether a chroma radius is 0 */
    for (c = GST_CUDA_BOX_BLUR_LUMA; c <= GST_CUDA_BOX_BLUR_ALPHA; c++)
      if (component_window (settings, c, 0, 0, -1, &window))
        return FALSE;
    return TRUE;
  }
  for (c = 0; c < info->n_components; c++)
    if (gst_cuda_box_blur_settings_window (settings, info, c, &window))
      return FALSE;
  return TRUE;
}

/**
 * gst_cuda_box_blur_settings_set_roi_meta_types:
 * @types: (nullable): a comma-separated list of region types
 *   ("face,license-plate"), each to take, or with a leading '!' to leave
 *   out ("!plate"); %NULL or "" for every type
 *
 * Returns: %FALSE, leaving @settings as they were, when the list names more
 * than GST_CUDA_BOX_BLUR_MAX_ROI_META_TYPES types.
 */
gboolean
gst_cuda_box_blur_settings_set_roi_meta_types (GstCudaBoxBlurSettings *
    settings, const gchar * types)
{
  gchar **names = g_strsplit (types ? types : "", ",", -1);
  GQuark quarks[GST_CUDA_BOX_BLUR_MAX_ROI_META_TYPES];
  guint32 excluded = 0;
  guint n = 0, i;
  gboolean ok = TRUE;

  for (i = 0; names[i] && ok; i++) {
    gchar *name = g_strstrip (names[i]);
    const gboolean out = name[0] == '!';

    if (out)
      name = g_strstrip (name + 1);
    if (!name[0])
      continue;
    if (n == GST_CUDA_BOX_BLUR_MAX_ROI_META_TYPES) {
      ok = FALSE;
    } else {
      excluded |= (guint32) out << n;
      quarks[n++] = g_quark_from_string (name);
    }
  }
  g_strfreev (names);
  if (!ok)
    return FALSE;
  memcpy (settings->roi_meta_types, quarks, n * sizeof (GQuark));
  settings->n_roi_meta_types = n;
  settings->roi_meta_excluded = excluded;
  return TRUE;
}

/**
 * gst_cuda_box_blur_settings_get_roi_meta_types:
 *
 * Returns: (transfer full) (nullable): roi_meta's types, comma-separated,
 * those left out after a '!', or %NULL for every type.
 */
gchar *
gst_cuda_box_blur_settings_get_roi_meta_types (const GstCudaBoxBlurSettings *
    settings)
{
  GString *s;
  guint i;

  if (settings->n_roi_meta_types == 0)
    return NULL;
  s = g_string_new (NULL);
  for (i = 0; i < settings->n_roi_meta_types; i++)
    g_string_append_printf (s, "%s%s%s", i ? "," : "",
        settings->roi_meta_excluded & (1u << i) ? "!" : "",
        g_quark_to_string (settings->roi_meta_types[i]));
  return g_string_free (s, FALSE);
}

/**
 * gst_cuda_box_blur_settings_wants_type:
 *
 * Whether roi_meta takes regions of @type: when none of the types it
 * leaves out, and, where it names types to take, one of them.
 */
gboolean
gst_cuda_box_blur_settings_wants_type (const GstCudaBoxBlurSettings *
    settings, GQuark type)
{
  gboolean takes_some = FALSE, taken = FALSE;
  guint i;

  for (i = 0; i < settings->n_roi_meta_types; i++) {
    const gboolean same = settings->roi_meta_types[i] == type;

    if (settings->roi_meta_excluded & (1u << i)) {
      if (same)
        return FALSE;
    } else {
      takes_some = TRUE;
      taken |= same;
    }
  }
  return !takes_some || taken;
}
