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
 * component and the regions to blur.  Shared by the element and the CPU
 * reference, so the two always read the properties alike. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-params.h"
#include "cudaboxblur-debug.h"

#include <math.h>
#include <string.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurparams",
    "cudaboxblur settings, regions and per-region parameters")

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

  if (window->work == GST_CUDA_BOX_BLUR_WORK_FILL)
    window->fill_value = gst_cuda_box_blur_info_color_sample (info, component,
        settings->fill_color);
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
  gint c;

  /* a region may take a radius or sigma of its own: from its size, or
   * from its meta's parameters */
  if (settings->roi_meta || settings->radius_scale > 0)
    probe.radius_x = probe.radius_y = GST_CUDA_BOX_BLUR_MAX_RADIUS;
  if (settings->roi_meta || settings->sigma_scale > 0)
    probe.sigma = GST_CUDA_BOX_BLUR_MAX_SIGMA;
  if (settings->roi_meta || settings->block_scale > 0)
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

/* Clips @r to the frame; FALSE when nothing is left. */
static gboolean
clip_region (GstVideoRectangle * r, gint width, gint height)
{
  const gint x1 = MIN (r->x + r->w, width), y1 = MIN (r->y + r->h, height);

  r->x = MAX (r->x, 0);
  r->y = MAX (r->y, 0);
  r->w = x1 - r->x;
  r->h = y1 - r->y;
  return r->w > 0 && r->h > 0;
}

/**
 * gst_cuda_box_blur_hold_init:
 *
 * Makes @hold empty: no region held.
 */
void
gst_cuda_box_blur_hold_init (GstCudaBoxBlurHold * hold)
{
  hold->regions = g_array_new (FALSE, FALSE, sizeof (GstCudaBoxBlurMetaRegion));
}

void
gst_cuda_box_blur_hold_reset (GstCudaBoxBlurHold * hold)
{
  g_array_set_size (hold->regions, 0);
}

void
gst_cuda_box_blur_hold_clear (GstCudaBoxBlurHold * hold)
{
  g_clear_pointer (&hold->regions, g_array_unref);
}

/* Intersection over union of two regions of metas. */
static gdouble
iou (const GstCudaBoxBlurMetaRegion * a, const GstCudaBoxBlurMetaRegion * b)
{
  const gint64 x0 = MAX (a->x, b->x), y0 = MAX (a->y, b->y);
  const gint64 x1 = MIN ((gint64) a->x + a->w, (gint64) b->x + b->w);
  const gint64 y1 = MIN ((gint64) a->y + a->h, (gint64) b->y + b->h);
  const gdouble inter = x1 > x0 && y1 > y0 ? (gdouble) (x1 - x0) * (y1 - y0)
      : 0;
  const gdouble uni = (gdouble) a->w * a->h + (gdouble) b->w * b->h - inter;

  return uni > 0 ? inter / uni : 0;
}

/* TRUE when @region of this frame is @held's region of an earlier one:
 * the same id where both have one (above 0), else the same type and an
 * intersection over union of at least GST_CUDA_BOX_BLUR_HOLD_MIN_IOU. */
static gboolean
same_region (const GstCudaBoxBlurMetaRegion * region,
    const GstCudaBoxBlurMetaRegion * held)
{
  if (region->id > 0 && held->id > 0)
    return region->id == held->id;
  return region->type == held->type
      && iou (region, held) >= GST_CUDA_BOX_BLUR_HOLD_MIN_IOU;
}

/* Replaces @current, this frame's regions, by the regions to redact: those
 * and, for up to @frames frames after their metas were last seen, the
 * regions @hold keeps, with their last rectangles. */
static void
hold_update (GstCudaBoxBlurHold * hold, GArray * current, guint frames)
{
  const guint n = current->len;
  guint i, j;

  for (j = 0; j < hold->regions->len; j++) {
    GstCudaBoxBlurMetaRegion *held = &g_array_index (hold->regions,
        GstCudaBoxBlurMetaRegion, j);
    gboolean seen = FALSE;

    for (i = 0; i < n && !seen; i++)
      seen = same_region (&g_array_index (current, GstCudaBoxBlurMetaRegion,
              i), held);
    if (!seen && ++held->missed <= frames)
      g_array_append_val (current, *held);
  }
  g_array_set_size (hold->regions, 0);
  g_array_append_vals (hold->regions, current->data, current->len);
}

/* Warns once per process about a field of a parameter structure it cannot
 * use, and why. */
static void
warn_params_once (const gchar * field, const gchar * problem,
    const GstStructure * params)
{
  static gint warned = 0;

  if (g_atomic_int_compare_and_exchange (&warned, 0, 1)) {
    gchar *text = gst_structure_to_string (params);

    GST_WARNING ("ignoring field %s of a region's parameters (%s): %s", field,
        problem, text);
    g_free (text);
  }
}

/* An integer field's value clamped to @lo..@hi; FALSE when it is none. */
static gboolean
read_int (const GValue * value, gint lo, gint hi, gint * out)
{
  if (G_VALUE_HOLDS_INT (value))
    *out = CLAMP (g_value_get_int (value), lo, hi);
  else if (G_VALUE_HOLDS_UINT (value))
    *out = CLAMP ((gint64) g_value_get_uint (value), lo, hi);
  else
    return FALSE;
  return TRUE;
}

/* A number field's value, floating point or integer, clamped to @lo..@hi;
 * FALSE when it is none, or NaN. */
static gboolean
read_number (const GValue * value, gdouble lo, gdouble hi, gdouble * out)
{
  gdouble v;

  if (G_VALUE_HOLDS_DOUBLE (value))
    v = g_value_get_double (value);
  else if (G_VALUE_HOLDS_INT (value))
    v = g_value_get_int (value);
  else if (G_VALUE_HOLDS_UINT (value))
    v = g_value_get_uint (value);
  else
    return FALSE;
  if (isnan (v))
    return FALSE;
  *out = CLAMP (v, lo, hi);
  return TRUE;
}

static const gchar *const shape_nicks[] = GST_CUDA_BOX_BLUR_SHAPE_NICKS;

/* The index in @nicks of a string field's value; FALSE when it is none. */
static gboolean
read_nick (const GValue * value, const gchar * const *nicks, gint n_nicks,
    gint * out)
{
  gint i;

  for (i = 0; i < n_nicks && G_VALUE_HOLDS_STRING (value); i++)
    if (g_strcmp0 (g_value_get_string (value), nicks[i]) == 0) {
      *out = i;
      return TRUE;
    }
  return FALSE;
}

/* Takes field @name of @params into @m, or warns (once) that it cannot. */
static void
read_param (GstCudaBoxBlurMetaRegion * m, const GstStructure * params,
    const gchar * name, const GValue * value)
{
  const gchar *problem = NULL;

  if (g_str_equal (name, "mode")) {
    GstCudaBoxBlurMode mode;

    if (G_VALUE_HOLDS_STRING (value)
        && gst_cuda_box_blur_mode_from_nick (g_value_get_string (value),
            &mode))
      m->mode = mode;
    else
      problem = "not a mode's name";
  } else if (g_str_equal (name, "radius")) {
    if (!read_int (value, 0, GST_CUDA_BOX_BLUR_MAX_RADIUS, &m->radius))
      problem = "not an integer";
  } else if (g_str_equal (name, "block-size")) {
    if (!read_int (value, 1, GST_CUDA_BOX_BLUR_MAX_BLOCK_SIZE,
            &m->block_size))
      problem = "not an integer";
  } else if (g_str_equal (name, "feather")) {
    if (!read_int (value, 0, GST_CUDA_BOX_BLUR_MAX_FEATHER, &m->feather))
      problem = "not an integer";
  } else if (g_str_equal (name, "shape")) {
    problem = read_nick (value, shape_nicks, GST_CUDA_BOX_BLUR_N_SHAPES,
        &m->shape) ? NULL : "not a shape's name";
  } else if (g_str_equal (name, "fill-color")) {
    if (G_VALUE_HOLDS_UINT (value))
      m->fill_color = g_value_get_uint (value);
    else if (G_VALUE_HOLDS_INT (value))
      m->fill_color = (guint32) g_value_get_int (value);
    else
      problem = "not an integer";
  } else if (g_str_equal (name, "sigma")) {
    if (!read_number (value, 0, GST_CUDA_BOX_BLUR_MAX_SIGMA, &m->sigma))
      problem = "not a number, or NaN";
  } else {
    problem = "unknown";
  }
  if (problem)
    warn_params_once (name, problem, params);
}

/* @meta's region, with what its GST_CUDA_BOX_BLUR_META_PARAMS structure
 * sets for it. */
static GstCudaBoxBlurMetaRegion
meta_region (GstVideoRegionOfInterestMeta * meta)
{
  GstCudaBoxBlurMetaRegion m = { meta->x, meta->y, meta->w, meta->h,
    meta->roi_type, meta->id, 0, -1, -1, -1.0, -1, -1, -1, -1
  };
  const GstStructure *params = gst_video_region_of_interest_meta_get_param
      (meta, GST_CUDA_BOX_BLUR_META_PARAMS);
  gint i;

  for (i = 0; params && i < gst_structure_n_fields (params); i++) {
    const gchar *name = gst_structure_nth_field_name (params, i);

    read_param (&m, params, name, gst_structure_get_value (params, name));
  }
  return m;
}

/* The settings of a region @w x @h with @settings: radii and sigma scaled
 * to its size where the scales ask, then what its meta sets (@m may be
 * NULL). */
static void
settings_for_region (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurMetaRegion * m, gint64 w, gint64 h,
    GstCudaBoxBlurSettings * out)
{
  const gdouble size = MIN (w, h);

  *out = *settings;
  if (settings->radius_scale > 0)
    out->radius_x = out->radius_y = CLAMP (round (settings->radius_scale *
            size), 0, GST_CUDA_BOX_BLUR_MAX_RADIUS);
  if (settings->sigma_scale > 0)
    out->sigma = MIN (settings->sigma_scale * size,
        GST_CUDA_BOX_BLUR_MAX_SIGMA);
  if (settings->block_scale > 0)
    out->block_size = CLAMP (round (settings->block_scale * size), 1,
        GST_CUDA_BOX_BLUR_MAX_BLOCK_SIZE);
  if (m && m->mode >= 0)
    out->mode = m->mode;
  if (m && m->radius >= 0)
    out->radius_x = out->radius_y = m->radius;
  if (m && m->sigma >= 0)
    out->sigma = m->sigma;
  if (m && m->block_size >= 0)
    out->block_size = m->block_size;
  if (m && m->shape >= 0)
    out->shape = m->shape;
  if (m && m->feather >= 0)
    out->feather = m->feather;
  if (m && m->fill_color >= 0)
    out->fill_color = m->fill_color;
  /* resolved: nothing left to take from the region */
  out->roi_meta = FALSE;
  out->radius_scale = out->sigma_scale = out->block_scale = 0;
}

/* Appends region @r with the settings of a region of @w x @h that @m
 * (nullable) sets, unless they leave it untouched; FALSE when they do. */
static gboolean
add_region (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurInfo * info, const GstCudaBoxBlurMetaRegion * m,
    gint64 w, gint64 h, const GstVideoRectangle * r,
    const GstCudaBoxBlurRegionOrigin * origin, GArray * regions,
    GArray * region_settings, GArray * origins)
{
  if (region_settings) {
    GstCudaBoxBlurSettings rs;

    if (origin->reason == GST_CUDA_BOX_BLUR_REASON_NO_REGION)
      gst_cuda_box_blur_settings_for_frame (settings, info, &rs);
    else
      settings_for_region (settings, m, w, h, &rs);
    /* a region kept clear by invert takes only its shape and feather */
    if (!settings->invert && gst_cuda_box_blur_settings_blurs_nothing (&rs,
            info))
      return FALSE;
    g_array_append_val (region_settings, rs);
  }
  g_array_append_vals (regions, r, 1);
  if (origins)
    g_array_append_vals (origins, origin, 1);
  return TRUE;
}

/**
 * gst_cuda_box_blur_settings_for_frame:
 *
 * The settings of a redaction of the whole frame (no-region=redact, and
 * invert's): @settings with the scales applied to the frame's size, as to
 * a region's, hard-edged.
 */
void
gst_cuda_box_blur_settings_for_frame (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurInfo * info, GstCudaBoxBlurSettings * out)
{
  settings_for_region (settings, NULL, info->width, info->height, out);
  out->shape = GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE;
  out->feather = 0;
  out->invert = FALSE;
}

/* TRUE when @type is one of roi_meta's types, or they are none. */
static gboolean
type_is_wanted (const GstCudaBoxBlurSettings * settings, GQuark type)
{
  guint i;

  for (i = 0; i < settings->n_roi_meta_types; i++)
    if (settings->roi_meta_types[i] == type)
      return TRUE;
  return settings->n_roi_meta_types == 0;
}

/* The regions of roi_meta: see gst_cuda_box_blur_settings_find_regions().
 * Returns whether any region of a meta lies in the frame. */
static gboolean
find_meta_regions (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurInfo * info, GstBuffer * buffer,
    GstCudaBoxBlurHold * hold, GArray * regions, GArray * region_settings,
    GArray * origins)
{
  GArray *found = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurMetaRegion));
  GstVideoRegionOfInterestMeta *meta;
  gpointer state = NULL;
  const gint pad = settings->roi_padding;
  gboolean in_frame = FALSE;
  guint i;

  while ((meta = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstCudaBoxBlurMetaRegion m;

    if (!type_is_wanted (settings, meta->roi_type))
      continue;
    m = meta_region (meta);
    g_array_append_val (found, m);
  }
  if (hold)
    hold_update (hold, found, settings->roi_hold);

  for (i = 0; i < found->len; i++) {
    const GstCudaBoxBlurMetaRegion *m = &g_array_index (found,
        GstCudaBoxBlurMetaRegion, i);
    const GstCudaBoxBlurRegionOrigin origin = { m->missed > 0 ?
          GST_CUDA_BOX_BLUR_REASON_HELD : GST_CUDA_BOX_BLUR_REASON_META,
      m->type, m->id
    };
    /* in 64 bits: metas come from anywhere */
    const gint64 x0 = MAX ((gint64) m->x - pad, 0);
    const gint64 y0 = MAX ((gint64) m->y - pad, 0);
    const gint64 x1 = MIN ((gint64) m->x + m->w + pad, info->width);
    const gint64 y1 = MIN ((gint64) m->y + m->h + pad, info->height);
    GstVideoRectangle r;

    if (x1 <= x0 || y1 <= y0)
      continue;
    in_frame = TRUE;
    r.x = x0;
    r.y = y0;
    r.w = x1 - x0;
    r.h = y1 - y0;
    add_region (settings, info, m, m->w, m->h, &r, &origin, regions,
        region_settings, origins);
  }
  g_array_unref (found);
  return in_frame;
}

/**
 * gst_cuda_box_blur_settings_find_regions:
 * @hold: (nullable): the regions held from earlier frames, updated
 * @regions: a #GArray of #GstVideoRectangle, emptied first
 * @region_settings: (nullable): a #GArray of #GstCudaBoxBlurSettings,
 *   emptied first, that gets the settings of each region: @settings with
 *   radius_scale and sigma_scale applied to the region's size (the meta's
 *   rectangle, or the clipped roi), then the fields of the meta's
 *   GST_CUDA_BOX_BLUR_META_PARAMS structure (mode, radius, sigma,
 *   block-size, shape, feather, fill-color; others are ignored with a
 *   warning, once).  Regions these settings leave untouched are left out,
 *   but with invert, where they are kept clear.
 * @origins: (nullable): a #GArray of #GstCudaBoxBlurRegionOrigin, emptied first,
 *   that gets where each region comes from
 *
 * The rectangles of @buffer to blur, in frame pixels, clipped to the frame:
 * with roi_meta, those of its #GstVideoRegionOfInterestMeta (of one of
 * roi_meta_types when there are any), and with @hold those of the last
 * roi_hold frames that have no meta in this one (matched by id, or by
 * overlap), each grown by roi_padding on every side; when none of these
 * lies in the frame and no_region is redact, the whole frame, with
 * @settings as for a region of its size, hard-edged (not with invert,
 * which redacts the whole frame around the regions, if any).  Without roi_meta,
 * the roi rectangle, whose 0 width or height reaches the frame's edge (all
 * 0: the whole frame).  Call it once per frame, in order: it counts the
 * frames a region was missed.
 *
 * Returns: the number of rectangles.
 */
guint
gst_cuda_box_blur_settings_find_regions (const GstCudaBoxBlurSettings *
    settings, const GstCudaBoxBlurInfo * info, GstBuffer * buffer,
    GstCudaBoxBlurHold * hold, GArray * regions, GArray * region_settings,
    GArray * origins)
{
  const GstVideoRectangle frame = { 0, 0, info->width, info->height };
  GstCudaBoxBlurRegionOrigin origin = { GST_CUDA_BOX_BLUR_REASON_ROI, 0, 0 };
  GstVideoRectangle r;

  g_array_set_size (regions, 0);
  if (region_settings)
    g_array_set_size (region_settings, 0);
  if (origins)
    g_array_set_size (origins, 0);

  if (settings->roi_meta) {
    if (!find_meta_regions (settings, info, buffer, hold, regions,
            region_settings, origins)
        && settings->no_region == GST_CUDA_BOX_BLUR_NO_REGION_REDACT
        && !settings->invert) {
      origin.reason = GST_CUDA_BOX_BLUR_REASON_NO_REGION;
      add_region (settings, info, NULL, frame.w, frame.h, &frame, &origin,
          regions, region_settings, origins);
    }
    return regions->len;
  }

  r = settings->roi;
  if (r.w == 0)
    r.w = info->width - r.x;
  if (r.h == 0)
    r.h = info->height - r.y;
  if (clip_region (&r, info->width, info->height))
    add_region (settings, info, NULL, r.w, r.h, &r, &origin, regions,
        region_settings, origins);
  return regions->len;
}

/**
 * gst_cuda_box_blur_settings_held_regions:
 *
 * gst_cuda_box_blur_settings_find_regions() without the origins.
 */
guint
gst_cuda_box_blur_settings_held_regions (const GstCudaBoxBlurSettings *
    settings, const GstCudaBoxBlurInfo * info, GstBuffer * buffer,
    GstCudaBoxBlurHold * hold, GArray * regions, GArray * region_settings)
{
  return gst_cuda_box_blur_settings_find_regions (settings, info, buffer,
      hold, regions, region_settings, NULL);
}

/**
 * gst_cuda_box_blur_settings_set_roi_meta_types:
 * @types: (nullable): a comma-separated list of region types
 *   ("face,license-plate"); %NULL or "" for every type
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
  guint n = 0, i;
  gboolean ok = TRUE;

  for (i = 0; names[i] && ok; i++) {
    const gchar *name = g_strstrip (names[i]);

    if (!name[0])
      continue;
    if (n == GST_CUDA_BOX_BLUR_MAX_ROI_META_TYPES)
      ok = FALSE;
    else
      quarks[n++] = g_quark_from_string (name);
  }
  g_strfreev (names);
  if (!ok)
    return FALSE;
  memcpy (settings->roi_meta_types, quarks, n * sizeof (GQuark));
  settings->n_roi_meta_types = n;
  return TRUE;
}

/**
 * gst_cuda_box_blur_settings_get_roi_meta_types:
 *
 * Returns: (transfer full) (nullable): roi_meta's types, comma-separated,
 * or %NULL for every type.
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
    g_string_append_printf (s, "%s%s", i ? "," : "",
        g_quark_to_string (settings->roi_meta_types[i]));
  return g_string_free (s, FALSE);
}

/**
 * gst_cuda_box_blur_settings_regions:
 *
 * gst_cuda_box_blur_settings_held_regions() of @buffer alone, with no
 * region held from earlier frames.
 */
guint
gst_cuda_box_blur_settings_regions (const GstCudaBoxBlurSettings * settings,
    const GstCudaBoxBlurInfo * info, GstBuffer * buffer, GArray * regions)
{
  return gst_cuda_box_blur_settings_held_regions (settings, info, buffer,
      NULL, regions, NULL);
}

/**
 * gst_cuda_box_blur_region_for_component:
 *
 * @region of the frame in the samples of component @component: divided by
 * the subsampling and rounded outwards, so that every chroma sample that
 * covers a pixel of the region is blurred.
 */
void
gst_cuda_box_blur_region_for_component (const GstCudaBoxBlurInfo * info,
    gint component, const GstVideoRectangle * region,
    GstVideoRectangle * scaled)
{
  const GstCudaBoxBlurComponent *comp = &info->comp[component];
  const gint x1 = -((-(region->x + region->w)) >> comp->w_sub);
  const gint y1 = -((-(region->y + region->h)) >> comp->h_sub);

  scaled->x = region->x >> comp->w_sub;
  scaled->y = region->y >> comp->h_sub;
  scaled->w = x1 - scaled->x;
  scaled->h = y1 - scaled->y;
}
