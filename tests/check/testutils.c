/* cudaboxblur test helpers
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutils.h"
#include "boxblur-ref.h"
#include "cudaboxblur-nvrtc.h"

const gchar **test_formats;
guint test_n_formats;
const gchar **test_cuda_formats;
guint test_n_cuda_formats;

/* The names of a caps format list, "{ A, B, ... }". */
static const gchar **
parse_format_list (const gchar * list, guint * n)
{
  gchar *inner = g_strstrip (g_strdelimit (g_strdup (list), "{}", ' '));
  gchar **names = g_strsplit (inner, ",", -1);
  guint i;

  for (i = 0; names[i]; i++)
    g_strstrip (names[i]);
  *n = i;
  g_free (inner);
  /* kept for the life of the test */
  return (const gchar **) names;
}

static void __attribute__((constructor))
read_format_lists (void)
{
  test_formats = parse_format_list (GST_CUDA_BOX_BLUR_FORMATS,
      &test_n_formats);
  test_cuda_formats = parse_format_list (GST_CUDA_BOX_BLUR_CUDA_FORMATS,
      &test_n_cuda_formats);
}

gboolean
test_gpu_available (gchar ** reason)
{
  gint count = 0;
  cudaError_t err = cudaGetDeviceCount (&count);

  if (err != cudaSuccess) {
    *reason = g_strdup_printf ("no usable CUDA device: %s (%s)",
        cudaGetErrorString (err), cudaGetErrorName (err));
    return FALSE;
  }
  if (count == 0) {
    *reason = g_strdup ("no CUDA device found");
    return FALSE;
  }
  return TRUE;
}

void
test_skip_without_gpu (const gchar * name)
{
  gchar *reason = NULL;

  if (!test_gpu_available (&reason)) {
    g_print ("SKIP: %s: %s\n", name, reason);
    g_free (reason);
    exit (TEST_EXIT_SKIP);
  }
}

gboolean
test_nvrtc_available (gchar ** reason)
{
  GError *error = NULL;

  if (gst_cuda_box_blur_nvrtc_get (&error))
    return TRUE;
  *reason = g_strdup (error->message);
  g_error_free (error);
  return FALSE;
}

gint
test_gpu_check_main (int argc, char **argv, const gchar * name,
    Suite * (*suite_func) (void), const TestGpuNeeds * needs,
    const gchar * file)
{
  /* the skip line spells out the number of devices a suite needs */
  static const gchar *const counts[] = { NULL, "one", "two", "three",
    "four"
  };
  gint ret;
  guint i;

  gst_check_init (&argc, &argv);
  test_skip_without_gpu (name);
  if (needs && needs->n_devices > 1) {
    gint count = 0;

    g_assert ((guint) needs->n_devices < G_N_ELEMENTS (counts));
    if (cudaGetDeviceCount (&count) != cudaSuccess
        || count < needs->n_devices) {
      g_print ("SKIP: %s: needs %s CUDA devices, this machine has %d\n",
          name, counts[needs->n_devices], count);
      return TEST_EXIT_SKIP;
    }
  }
  for (i = 0; needs && i < needs->n_elements; i++) {
    GstElementFactory *factory = gst_element_factory_find (needs->elements[i]);

    if (!factory) {
      g_print ("SKIP: %s: GStreamer element %s is not installed\n", name,
          needs->elements[i]);
      return TEST_EXIT_SKIP;
    }
    gst_object_unref (factory);
  }

  if (needs && needs->setup)
    needs->setup ();
  ret = gst_check_run_suite (suite_func (), name, file);
  if (ret != 0) {
    /* Without a fork (CK_FORK=no) a failed test leaves what it made
     * running: a pipeline still playing, frames on the GPU.  Exit now,
     * with the failure reported, rather than wait on them at exit. */
    fflush (stdout);
    fflush (stderr);
    _exit (1);
  }
  if (needs && needs->teardown)
    needs->teardown ();
  return ret;
}

GstCaps *
test_caps_new (const gchar * format, gint width, gint height)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, format,
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
}

GstCudaBoxBlurInfo
test_info (const gchar * format, gint width, gint height)
{
  GstCaps *caps = test_caps_new (format, width, height);
  GstCudaBoxBlurInfo info;

  gchar *text = gst_caps_to_string (caps);

  fail_unless (gst_cuda_box_blur_info_from_caps (&info, caps),
      "cannot parse %s", text);
  g_free (text);
  gst_caps_unref (caps);
  return info;
}

void
test_fill (const GstCudaBoxBlurInfo * info, const GstCudaBoxBlurFrame * frame,
    guint seed)
{
  guint32 state = seed * 2654435761u + 1;
  gint p, x, y;

  for (p = 0; p < info->n_planes; p++) {
    for (y = 0; y < info->plane_height[p]; y++) {
      guint8 *row = frame->data[p] + (gsize) y * frame->stride[p];

      for (x = 0; x < info->row_bytes[p] / info->sample_size; x++) {
        state = state * 1664525u + 1013904223u;
        if (info->type == GST_CUDA_BOX_BLUR_U8) {
          row[x] = state >> 24;
        } else if (info->type == GST_CUDA_BOX_BLUR_U16) {
          ((guint16 *) row)[x] = state >> 16;
        } else {
          /* values of several magnitudes and both signs, so that float
           * rounding depends on the summation order */
          gfloat v = (gfloat) (state >> 8) / (gfloat) (1 << 24);
          ((gfloat *) row)[x] = (state & 1) ? v * 1000.0f : -v;
        }
      }
      if (y + 1 < info->plane_height[p])
        memset (row + info->row_bytes[p], 0xff,
            frame->stride[p] - info->row_bytes[p]);
    }
  }
}

void
test_fill_data (const GstCudaBoxBlurInfo * info, guint8 * data, guint seed)
{
  GstCudaBoxBlurFrame frame;

  gst_cuda_box_blur_frame_from_data (&frame, info, data);
  test_fill (info, &frame, seed);
}

const gchar *
test_element_memory_type (GstElement * blur)
{
  gint in_use = -1;

  g_object_get (blur, "memory-in-use", &in_use, NULL);
  return in_use == 1 ? GST_CUDA_PINNED_MEMORY_TYPE :
      GST_CUDA_MANAGED_MEMORY_TYPE;
}

gboolean
test_is_element_memory (GstElement * blur, GstBuffer * buf)
{
  return gst_buffer_n_memory (buf) == 1
      && gst_memory_is_type (gst_buffer_peek_memory (buf, 0),
      test_element_memory_type (blur));
}

GstHarness *
test_harness_new (const gchar * format, gint width, gint height)
{
  return test_harness_new_in (NULL, format, width, height);
}

GstHarness *
test_harness_new_in (const gchar * memory_mode, const gchar * format,
    gint width, gint height)
{
  GstElement *blur = gst_element_factory_make ("cudaboxblur", NULL);
  GstHarness *h;

  if (memory_mode)
    gst_util_set_object_arg (G_OBJECT (blur), "memory-mode", memory_mode);
  h = gst_harness_new_with_element (blur, "sink", "src");
  gst_object_unref (blur);
  gst_harness_set_src_caps (h, test_caps_new (format, width, height));
  /* The harness runs the allocation query when it first makes a buffer. */
  gst_buffer_unref (gst_harness_create_buffer (h, 1));
  return h;
}

GstBuffer *
test_pool_buffer (GstHarness * h, const GstCudaBoxBlurInfo * info,
    guint seed)
{
  GstBuffer *buf = gst_harness_create_buffer (h, info->size);
  GstMapInfo map;

  fail_unless (test_is_element_memory (h->element, buf),
      "the offered pool is not the element's memory-in-use");
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  test_fill_data (info, map.data, seed);
  gst_buffer_unmap (buf, &map);
  return buf;
}

void
test_apply_settings (GstElement * blur,
    const GstCudaBoxBlurSettings * settings)
{
  const GstCudaBoxBlurSettings *s = settings;
  gchar *types = gst_cuda_box_blur_settings_get_roi_meta_types (s);

  g_object_set (blur, "radius-x", s->radius_x, "radius-y", s->radius_y,
      "chroma-radius-x", s->chroma_radius_x, "chroma-radius-y",
      s->chroma_radius_y, "planes", s->planes, "blur-alpha", s->blur_alpha,
      "passes", s->passes, "mode", s->mode, "sigma", s->sigma,
      "border-mode", s->border, "border-value",
      s->border_value, "roi-x", s->roi.x, "roi-y", s->roi.y, "roi-width",
      s->roi.w, "roi-height", s->roi.h, "roi-meta", s->roi_meta,
      "roi-meta-type", types, "no-region", s->no_region, "invert", s->invert,
      "roi-padding",
      s->roi_padding, "roi-hold", s->roi_hold, "roi-hold-motion",
      s->roi_hold_motion, "roi-hold-grow", s->roi_hold_grow,
      "roi-hold-reach", s->roi_hold_reach,
      "roi-min-confidence", s->roi_min_confidence, "radius-scale",
      s->radius_scale, "sigma-scale", s->sigma_scale, "block-size",
      s->block_size, "block-scale", s->block_scale, "fill-color",
      s->fill_color, "shape", s->shape, "feather", s->feather, NULL);
  g_free (types);
}

GstBuffer *
test_buffer_new (GstAllocator * allocator, const gchar * format, gint width,
    gint height, gint pad, guint seed)
{
  GstCudaBoxBlurInfo info = test_info (format, width, height);
  GstCudaBoxBlurFrame frame;
  GstBuffer *buf;
  GstMapInfo map;
  gint p;

  if (pad) {
    gsize offset = 0;

    for (p = 0; p < info.n_planes; p++) {
      info.stride[p] += pad;
      info.offset[p] = offset;
      offset += (gsize) info.stride[p] * info.plane_height[p];
    }
    info.size = offset;
  }

  buf = gst_buffer_new_allocate (allocator, info.size, NULL);
  fail_unless (buf != NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  gst_cuda_box_blur_frame_from_data (&frame, &info, map.data);
  test_fill (&info, &frame, seed);
  gst_buffer_unmap (buf, &map);

  if (pad)
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        info.video_format, width, height, info.n_planes, info.offset,
        info.stride);
  return buf;
}

/* Larger float32 windows must be within this much of the exact result,
 * relative to the same blur of |input| (the scale of the rounding errors of
 * any summation order). */
#define F32_TOLERANCE 1e-5

/* Where in the frame byte @i of row @y of plane @p is, for messages. */
static gchar *
describe (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurSettings * settings, gint p, gint i, gint y)
{
  return g_strdup_printf ("%dx%d %s radius %d,%d chroma %d,%d, %d passes, "
      "mode %d sigma %g, border %d, roi %d,%d %dx%d%s: plane %d, byte %d of "
      "row %d", info->width, info->height, info->format, settings->radius_x,
      settings->radius_y, settings->chroma_radius_x,
      settings->chroma_radius_y, settings->passes, settings->mode,
      settings->sigma, settings->border,
      settings->roi.x, settings->roi.y, settings->roi.w, settings->roi.h,
      settings->roi_meta ? " (from metas)" : "", p, i, y);
}

/* TRUE when every window of every region (with its settings) is small
 * enough for the CPU reference to sum as the GPU's direct kernels do, and
 * every pixelate block as small: the GPU sums larger blocks in another
 * order, to about twice float32's precision, as the reference does in
 * double, and the two may round a mean differently. */
static gboolean
windows_are_small (const GstCudaBoxBlurInfo * info, GArray * region_settings)
{
  GstCudaBoxBlurWindow w;
  gint c;
  guint i;

  for (i = 0; i < region_settings->len; i++)
    for (c = 0; c < info->n_components; c++)
      if (gst_cuda_box_blur_settings_window (&g_array_index (region_settings,
                  GstCudaBoxBlurSettings, i), info, c, &w)
          && (w.work == GST_CUDA_BOX_BLUR_WORK_BLOCKS ?
              w.block_w * w.block_h > GST_CUDA_BOX_BLUR_DIRECT_MAX_WINDOW :
              !gst_cuda_box_blur_window_is_direct (w.radius_x, w.radius_y)))
        return FALSE;
  return TRUE;
}

static void
compare_exact (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurSettings * settings, const GstCudaBoxBlurFrame * got,
    const GstCudaBoxBlurFrame * want)
{
  gint p, y, i;

  for (p = 0; p < info->n_planes; p++) {
    for (y = 0; y < info->plane_height[p]; y++) {
      const guint8 *g = got->data[p] + (gsize) y * got->stride[p];
      const guint8 *w = want->data[p] + (gsize) y * want->stride[p];

      if (memcmp (g, w, info->row_bytes[p]) == 0)
        continue;
      for (i = 0; g[i] == w[i]; i++);
      if (info->type == GST_CUDA_BOX_BLUR_F32) {
        i -= i % 4;
        fail ("%s is %.9g, expected exactly %.9g", describe (info, settings,
                p, i, y), *(gfloat *) (g + i), *(gfloat *) (w + i));
      } else {
        fail ("%s is %u, expected %u", describe (info, settings, p, i, y),
            g[i], w[i]);
      }
    }
  }
}

static gboolean
in_regions (const GArray * regions, gint x, gint y)
{
  guint i;

  for (i = 0; i < regions->len; i++) {
    const GstVideoRectangle *r = &g_array_index (regions, GstVideoRectangle,
        i);
    if (x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h)
      return TRUE;
  }
  return FALSE;
}

/* Float32 frames (one plane) within tolerance inside @regions, and outside
 * them as they were in @in, bit for bit. */
static void
compare_f32 (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurSettings * settings, const GArray * regions,
    const GstCudaBoxBlurFrame * in, const GstCudaBoxBlurFrame * got,
    const GstCudaBoxBlurFrame * want, const GstCudaBoxBlurFrame * scale)
{
  gint x, y;

  for (y = 0; y < info->height; y++) {
    const gfloat *s = (const gfloat *) (in->data[0] + y * in->stride[0]);
    const gfloat *g = (const gfloat *) (got->data[0] + y * got->stride[0]);
    const gfloat *w = (const gfloat *) (want->data[0] + y * want->stride[0]);
    const gfloat *m = (const gfloat *) (scale->data[0] +
        y * scale->stride[0]);

    for (x = 0; x < info->width; x++) {
      const gdouble err = fabs ((gdouble) g[x] - w[x]);

      if (!in_regions (regions, x, y)) {
        if (memcmp (&g[x], &s[x], 4) != 0)
          fail ("%s is %.9g, expected the input %.9g untouched", describe
              (info, settings, 0, 4 * x, y), g[x], s[x]);
      } else if (!(err <= F32_TOLERANCE * m[x])) {
        fail ("%s is %.9g, expected %.9g (error %.3g, allowed %.3g)",
            describe (info, settings, 0, 4 * x, y), g[x], w[x], err,
            F32_TOLERANCE * m[x]);
      }
    }
  }
}

/* The frame in @buf, mapped into @map. */
static void
map_frame (GstBuffer * buf, const GstCudaBoxBlurInfo * info, GstMapInfo * map,
    GstCudaBoxBlurFrame * frame)
{
  GError *error = NULL;

  fail_unless (gst_buffer_map (buf, map, GST_MAP_READ));
  fail_unless (gst_cuda_box_blur_frame_from_buffer (frame, info, buf, map,
          &error), "%s", error ? error->message : "");
}

void
test_assert_output (GstBuffer * in, GstBuffer * out, const gchar * format,
    gint width, gint height, const GstCudaBoxBlurSettings * settings)
{
  GstCudaBoxBlurInfo info = test_info (format, width, height);
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GArray *region_settings = g_array_new (FALSE, FALSE,
      sizeof (GstCudaBoxBlurSettings));
  GArray *checked, *checked_settings;
  GstCudaBoxBlurFrame src, got, want;
  GstMapInfo in_map, out_map;
  guint8 *want_mem;

  map_frame (in, &info, &in_map, &src);
  map_frame (out, &info, &out_map, &got);
  want_mem = g_malloc (info.size);
  gst_cuda_box_blur_frame_from_data (&want, &info, want_mem);

  gst_cuda_box_blur_settings_held_regions (settings, &info, in, NULL, regions,
      region_settings);
  box_blur_ref_frame (&info, settings, &src, &want,
      (const GstVideoRectangle *) regions->data, regions->len,
      (const GstCudaBoxBlurSettings *) region_settings->data);

  /* with invert, the whole frame is redacted with the frame's settings */
  checked = regions;
  checked_settings = region_settings;
  if (settings->invert) {
    const GstVideoRectangle whole = { 0, 0, width, height };
    GstCudaBoxBlurSettings frame;

    gst_cuda_box_blur_settings_for_frame (settings, &info, &frame);
    checked = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
    checked_settings = g_array_new (FALSE, FALSE,
        sizeof (GstCudaBoxBlurSettings));
    g_array_append_val (checked, whole);
    g_array_append_val (checked_settings, frame);
  }

  if (info.type != GST_CUDA_BOX_BLUR_F32 || windows_are_small (&info,
          checked_settings)) {
    compare_exact (&info, settings, &got, &want);
  } else {
    /* the scale of the rounding errors: the same blur of |input| */
    guint8 *abs_mem = g_malloc (info.size), *scale_mem = g_malloc (info.size);
    GstCudaBoxBlurFrame abs_in, scale;
    gint x, y;

    gst_cuda_box_blur_frame_from_data (&abs_in, &info, abs_mem);
    gst_cuda_box_blur_frame_from_data (&scale, &info, scale_mem);
    for (y = 0; y < height; y++)
      for (x = 0; x < width; x++)
        ((gfloat *) (abs_in.data[0] + y * abs_in.stride[0]))[x] =
            fabsf (((gfloat *) (src.data[0] + y * src.stride[0]))[x]);
    box_blur_ref_frame (&info, settings, &abs_in, &scale,
        (const GstVideoRectangle *) regions->data, regions->len,
        (const GstCudaBoxBlurSettings *) region_settings->data);
    compare_f32 (&info, settings, checked, &src, &got, &want, &scale);
    g_free (abs_mem);
    g_free (scale_mem);
  }

  g_free (want_mem);
  if (checked != regions) {
    g_array_unref (checked);
    g_array_unref (checked_settings);
  }
  g_array_unref (regions);
  g_array_unref (region_settings);
  gst_buffer_unmap (out, &out_map);
  gst_buffer_unmap (in, &in_map);
}

void
test_assert_blurred (GstBuffer * in, GstBuffer * out, const gchar * format,
    gint width, gint height, gint radius_x, gint radius_y)
{
  GstCudaBoxBlurSettings settings;

  gst_cuda_box_blur_settings_init (&settings);
  settings.radius_x = radius_x;
  settings.radius_y = radius_y;
  test_assert_output (in, out, format, width, height, &settings);
}

gchar *
test_file_path (const gchar * name)
{
  return g_build_filename (TEST_FILES_DIR, name, NULL);
}

GstBuffer *
test_png_rgb (const gchar * name, gint * width, gint * height)
{
  GstHarness *h = gst_harness_new_parse ("pngdec ! videoconvert "
      "! capsfilter caps=video/x-raw,format=RGB");
  gchar *path = test_file_path (name), *data;
  GError *error = NULL;
  GstVideoInfo vinfo;
  GstBuffer *frame;
  GstCaps *caps;
  gsize size;

  fail_unless (g_file_get_contents (path, &data, &size, &error), "%s",
      error ? error->message : path);
  gst_harness_set_src_caps_str (h, "image/png");
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_wrapped (data,
              size)), GST_FLOW_OK);
  /* a decoder that waits for the end of the stream gives its frame now */
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  frame = gst_harness_pull (h);
  fail_unless (frame != NULL, "pngdec made no frame of %s", path);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL && gst_video_info_from_caps (&vinfo, caps));
  *width = GST_VIDEO_INFO_WIDTH (&vinfo);
  *height = GST_VIDEO_INFO_HEIGHT (&vinfo);

  gst_caps_unref (caps);
  g_free (path);
  gst_harness_teardown (h);
  return frame;
}

GArray *
test_read_rectangles (const gchar * name)
{
  GArray *rects = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  gchar *path = test_file_path (name), *text, **lines;
  GError *error = NULL;
  guint i;

  fail_unless (g_file_get_contents (path, &text, NULL, &error), "%s",
      error ? error->message : path);
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    const gchar *line = g_strstrip (lines[i]);
    GstVideoRectangle r;
    gint end = 0;

    if (*line == '\0' || *line == '#')
      continue;
    fail_unless (sscanf (line, "%d %d %d %d%n", &r.x, &r.y, &r.w, &r.h,
            &end) == 4 && line[end] == '\0',
        "%s, line %u: not \"x y width height\": %s", path, i + 1, line);
    g_array_append_val (rects, r);
  }

  g_strfreev (lines);
  g_free (text);
  g_free (path);
  return rects;
}
