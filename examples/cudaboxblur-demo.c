/* cudaboxblur-demo: NVIDIA's "Image Blur with Unified Memory" sample, done
 * through a GStreamer pipeline.
 *
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Makes the sample's test pattern (or loads --input), blurs it with
 * `appsrc ! cudaboxblur ! appsink`, writes original_image.png and
 * blurred_image.png with pngenc, and checks the result against the CPU
 * reference.  Exits 0 when the GPU result matches it exactly.
 *
 * --regions redacts three regions of interest of a colour frame instead,
 * given as GstVideoRegionOfInterestMeta, in every mode and shape, and
 * writes the frame before, each result and a grid of them.
 */

#include <gst/gst.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boxblur-ref.h"
#include "cudaboxblur-device.h"
#include "cudaboxblur-info.h"
#include "cudaboxblur-params.h"

#define RULE "============================================================"

typedef struct
{
  const gchar *format;          /* "GRAY8" or "GRAY32F" */
  gint width, height, stride;   /* stride in bytes */
  guint8 *data;
} Image;

static void
image_alloc (Image * img, const gchar * format, gint width, gint height)
{
  GstCudaBoxBlurInfo info;
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      format, "width", G_TYPE_INT, width,
      "height", G_TYPE_INT, height, NULL);

  if (!gst_cuda_box_blur_info_from_caps (&info, caps))
    g_error ("invalid image size %dx%d", width, height);
  gst_caps_unref (caps);

  img->format = format;
  img->width = width;
  img->height = height;
  img->stride = info.stride[0];
  img->data = g_malloc0 (info.size);
}

static GstCaps *
image_caps (const Image * img)
{
  return gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      img->format, "width", G_TYPE_INT,
      img->width, "height", G_TYPE_INT, img->height, "framerate",
      GST_TYPE_FRACTION, 0, 1, NULL);
}

static gfloat
image_get (const Image * img, gint x, gint y)
{
  const guint8 *row = img->data + (gsize) y * img->stride;

  if (strcmp (img->format, "GRAY8") == 0)
    return row[x];
  return ((const gfloat *) row)[x];
}

/* The sample's test pattern: a line every 50 rows at 255, a line every 50
 * columns at 128, then a disc of radius min(w,h)/6 at 200, as uint8. */
static void
make_pattern (Image * gray8)
{
  gint x, y, cx = gray8->width / 2, cy = gray8->height / 2;
  gint r = MIN (gray8->width, gray8->height) / 6;

  for (y = 0; y < gray8->height; y++) {
    guint8 *row = gray8->data + (gsize) y * gray8->stride;

    for (x = 0; x < gray8->width; x++) {
      guint8 v = 0;

      if (y % 50 == 0)
        v = 255;
      if (x % 50 == 0)
        v = 128;
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
        v = 200;
      row[x] = v;
    }
  }
}

/* GRAY8 -> float32 in [0, 1], as the sample does. */
static void
to_gray32f (const Image * gray8, Image * f32)
{
  gint x, y;

  image_alloc (f32, "GRAY32F", gray8->width,
      gray8->height);
  for (y = 0; y < gray8->height; y++)
    for (x = 0; x < gray8->width; x++)
      ((gfloat *) (f32->data + (gsize) y * f32->stride))[x] =
          image_get (gray8, x, y) / 255.0f;
}

/* For pngenc: float32 in [0, 1] -> GRAY8, rounded and clamped. */
static void
to_gray8 (const Image * img, Image * gray8)
{
  gint x, y;

  image_alloc (gray8, "GRAY8", img->width,
      img->height);
  for (y = 0; y < img->height; y++) {
    for (x = 0; x < img->width; x++) {
      gfloat v = image_get (img, x, y);

      if (strcmp (img->format, "GRAY32F") == 0)
        v = CLAMP (v * 255.0f + 0.5f, 0.0f, 255.0f);
      gray8->data[(gsize) y * gray8->stride + x] = (guint8) v;
    }
  }
}

/* Runs @pipeline until EOS; on error prints it and returns FALSE. */
static gboolean
run_to_eos (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gboolean ok = FALSE;

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE) {
    msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    ok = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
    gst_message_unref (msg);
  }
  if (!ok) {
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg) {
      GError *error = NULL;
      gchar *debug = NULL;

      gst_message_parse_error (msg, &error, &debug);
      g_printerr ("Error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
          error->message, GST_STR_NULL (debug));
      g_error_free (error);
      g_free (debug);
      gst_message_unref (msg);
    }
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  return ok;
}

/* Writes the frame in @buf, of @caps, to @path as a PNG. */
static gboolean
save_buffer_png (GstBuffer * buf, GstCaps * caps, const gchar * path)
{
  GstElement *pipeline, *src;
  GstFlowReturn flow;
  gboolean ok;
  gchar *desc, *quoted = g_strescape (path, NULL);

  desc = g_strdup_printf ("appsrc name=src ! videoconvert ! pngenc ! "
      "filesink location=\"%s\"", quoted);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  g_free (quoted);
  if (!pipeline) {
    g_printerr ("Cannot build the PNG pipeline (pngenc, videoconvert)\n");
    return FALSE;
  }

  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  g_signal_emit_by_name (src, "push-buffer", buf, &flow);
  g_signal_emit_by_name (src, "end-of-stream", &flow);
  gst_object_unref (src);

  ok = run_to_eos (pipeline);
  gst_object_unref (pipeline);
  return ok;
}

static gboolean
save_png (const Image * img, const gchar * path)
{
  GstBuffer *buf;
  GstCaps *caps;
  Image gray8;
  gboolean ok;

  to_gray8 (img, &gray8);
  caps = image_caps (&gray8);
  buf = gst_buffer_new_wrapped (gray8.data,
      (gsize) gray8.stride * gray8.height);
  ok = save_buffer_png (buf, caps, path);
  gst_buffer_unref (buf);
  gst_caps_unref (caps);
  return ok;
}

/* Decodes @path with decodebin into a GRAY8 image. */
static gboolean
load_image (const gchar * path, Image * out)
{
  GstElement *pipeline, *sink;
  GstSample *sample = NULL;
  GstVideoInfo vinfo;
  GstMapInfo map;
  GError *error = NULL;
  gchar *desc, *quoted = g_strescape (path, NULL);
  gint y;

  desc = g_strdup_printf ("filesrc location=\"%s\" ! decodebin ! "
      "videoconvert ! video/x-raw,format=GRAY8 ! appsink name=sink", quoted);
  pipeline = gst_parse_launch (desc, &error);
  g_free (desc);
  g_free (quoted);
  if (!pipeline) {
    g_printerr ("Cannot build the decoding pipeline: %s\n", error->message);
    g_error_free (error);
    return FALSE;
  }

  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  g_signal_emit_by_name (sink, "pull-preroll", &sample);
  gst_object_unref (sink);

  if (!sample || !gst_video_info_from_caps (&vinfo,
          gst_sample_get_caps (sample))) {
    g_printerr ("Cannot decode %s\n", path);
    run_to_eos (pipeline);      /* prints the error, if any */
    gst_object_unref (pipeline);
    if (sample)
      gst_sample_unref (sample);
    return FALSE;
  }

  image_alloc (out, "GRAY8",
      GST_VIDEO_INFO_WIDTH (&vinfo), GST_VIDEO_INFO_HEIGHT (&vinfo));
  gst_buffer_map (gst_sample_get_buffer (sample), &map, GST_MAP_READ);
  for (y = 0; y < out->height; y++)
    memcpy (out->data + (gsize) y * out->stride,
        map.data + (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (&vinfo, 0),
        out->width);
  gst_buffer_unmap (gst_sample_get_buffer (sample), &map);

  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return TRUE;
}

/* Blurs @in through appsrc ! cudaboxblur ! appsink into @out. */
static gboolean
blur_on_gpu (const Image * in, Image * out, guint radius, gint device_id)
{
  GstElement *pipeline, *src, *blur, *sink;
  GstSample *sample = NULL;
  GstBuffer *buf;
  GstCaps *caps;
  GstMapInfo map;
  GstFlowReturn flow;
  gchar *arch = NULL;
  gboolean ok = FALSE;
  gint y;

  pipeline = gst_parse_launch ("appsrc name=src format=time ! "
      "cudaboxblur name=blur ! appsink name=sink sync=false", NULL);
  if (!pipeline) {
    g_printerr ("Cannot build the pipeline: is the cudaboxblur plugin on "
        "GST_PLUGIN_PATH?\n");
    return FALSE;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  blur = gst_bin_get_by_name (GST_BIN (pipeline), "blur");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");

  caps = image_caps (in);
  g_object_set (src, "caps", caps, NULL);
  g_object_set (blur, "radius", radius, "device-id", device_id, NULL);

  g_print ("Starting cudaboxblur (CUDA context and kernels)...\n");
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    run_to_eos (pipeline);      /* prints the element's error */
    goto done;
  }
  g_object_get (blur, "arch", &arch, NULL);
  g_print ("  Compiled for architecture: %s\n\n", GST_STR_NULL (arch));

  g_print ("Image size: %dx%d grayscale (%s), radius %u\n", in->width,
      in->height, in->format, radius);
  g_print ("Blurring image on GPU...\n\n");

  buf = gst_buffer_new_memdup (in->data, (gsize) in->stride * in->height);
  g_signal_emit_by_name (src, "push-buffer", buf, &flow);
  gst_buffer_unref (buf);
  g_signal_emit_by_name (src, "end-of-stream", &flow);
  g_signal_emit_by_name (sink, "pull-sample", &sample);
  if (!sample) {
    run_to_eos (pipeline);
    goto done;
  }

  if (!gst_caps_is_equal (gst_sample_get_caps (sample), caps)) {
    g_printerr ("Unexpected output caps %" GST_PTR_FORMAT "\n",
        gst_sample_get_caps (sample));
    goto done;
  }

  image_alloc (out, in->format, in->width, in->height);
  buf = gst_sample_get_buffer (sample);
  gst_buffer_map (buf, &map, GST_MAP_READ);
  for (y = 0; y < out->height; y++)
    memcpy (out->data + (gsize) y * out->stride,
        map.data + (gsize) y * out->stride, out->stride);
  gst_buffer_unmap (buf, &map);
  ok = TRUE;

done:
  if (sample)
    gst_sample_unref (sample);
  g_free (arch);
  gst_caps_unref (caps);
  gst_object_unref (src);
  gst_object_unref (blur);
  gst_object_unref (sink);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return ok;
}

/* A colourful frame with fine detail, so that blurring shows: colour
 * ramps under a checkerboard and thin diagonal lines. */
static void
make_colour_pattern (guint8 * rgba, gint stride, gint width, gint height)
{
  gint x, y;

  for (y = 0; y < height; y++) {
    guint8 *p = rgba + (gsize) y * stride;

    for (x = 0; x < width; x++, p += 4) {
      const gboolean check = ((x / 12) + (y / 12)) % 2;
      const gboolean line = (x + y) % 16 < 2;

      p[0] = line ? 255 : 40 + 200 * x / width;
      p[1] = line ? 255 : 40 + 180 * y / height;
      p[2] = line ? 255 : (check ? 220 : 30);
      p[3] = 255;
    }
  }
}

#define DEMO_BLOCK_SIZE 16
#define DEMO_FEATHER 8

/* What --regions shows: each mode, with a hard rectangle and with a
 * feathered ellipse. */
static const struct
{
  const gchar *name;
  GstCudaBoxBlurMode mode;
  GstCudaBoxBlurShape shape;
  gint feather;
} redactions[] = {
  {"box", GST_CUDA_BOX_BLUR_MODE_BOX, GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0},
  {"gaussian", GST_CUDA_BOX_BLUR_MODE_GAUSSIAN,
      GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0},
  {"pixelate", GST_CUDA_BOX_BLUR_MODE_PIXELATE,
      GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0},
  {"fill", GST_CUDA_BOX_BLUR_MODE_FILL, GST_CUDA_BOX_BLUR_SHAPE_RECTANGLE, 0},
  {"box-ellipse", GST_CUDA_BOX_BLUR_MODE_BOX, GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE,
      DEMO_FEATHER},
  {"gaussian-ellipse", GST_CUDA_BOX_BLUR_MODE_GAUSSIAN,
      GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE, DEMO_FEATHER},
  {"pixelate-ellipse", GST_CUDA_BOX_BLUR_MODE_PIXELATE,
      GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE, DEMO_FEATHER},
  {"fill-ellipse", GST_CUDA_BOX_BLUR_MODE_FILL,
      GST_CUDA_BOX_BLUR_SHAPE_ELLIPSE, DEMO_FEATHER},
};

#define GRID_COLUMNS 4
#define GRID_GAP 4              /* white pixels between the pictures */

/* Redaction @i of the demo, for a radius of @radius. */
static void
redaction_settings (guint i, gint radius, GstCudaBoxBlurSettings * s)
{
  gst_cuda_box_blur_settings_init (s);
  s->roi_meta = TRUE;
  s->radius_x = s->radius_y = radius;
  s->passes = 3;
  s->sigma = radius;
  s->block_size = DEMO_BLOCK_SIZE;
  s->fill_color = 0xff303030;
  s->mode = redactions[i].mode;
  s->shape = redactions[i].shape;
  s->feather = redactions[i].feather;
}

/* Copies @frame (@width x @height RGBA), halved by 2x2 means, into cell
 * @cell of @grid, whose rows are @grid_stride bytes. */
static void
put_in_grid (guint8 * grid, gint grid_stride, gint cell,
    const guint8 * frame, gint stride, gint width, gint height)
{
  const gint cw = width / 2, ch = height / 2;
  guint8 *origin = grid + (gsize) (cell / GRID_COLUMNS) * (ch + GRID_GAP) *
      grid_stride + (gsize) (cell % GRID_COLUMNS) * (cw + GRID_GAP) * 4;
  gint x, y, k;

  for (y = 0; y < ch; y++)
    for (x = 0; x < cw; x++)
      for (k = 0; k < 4; k++) {
        const guint8 *p = frame + (gsize) 2 * y * stride + 2 * x * 4 + k;

        origin[(gsize) y * grid_stride + x * 4 + k] =
            (p[0] + p[4] + p[stride] + p[stride + 4] + 2) / 4;
      }
}

/* TRUE when @out is what the reference makes of @in with @settings. */
static gboolean
matches_reference (const GstCudaBoxBlurInfo * info,
    const GstCudaBoxBlurSettings * settings, GstBuffer * in, GstBuffer * out)
{
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
  GArray *rs = g_array_new (FALSE, FALSE, sizeof (GstCudaBoxBlurSettings));
  GstCudaBoxBlurFrame in_frame, want_frame;
  GstMapInfo in_map, out_map;
  guint8 *want = g_malloc (info->size);
  gboolean same;

  gst_buffer_map (in, &in_map, GST_MAP_READ);
  gst_buffer_map (out, &out_map, GST_MAP_READ);
  gst_cuda_box_blur_frame_from_data (&in_frame, info, in_map.data);
  gst_cuda_box_blur_frame_from_data (&want_frame, info, want);
  gst_cuda_box_blur_settings_held_regions (settings, info, in, NULL, regions,
      rs);
  box_blur_ref_frame (info, settings, &in_frame, &want_frame,
      (const GstVideoRectangle *) regions->data, regions->len,
      (const GstCudaBoxBlurSettings *) rs->data);
  same = out_map.size >= info->size
      && memcmp (out_map.data, want, info->size) == 0;
  gst_buffer_unmap (out, &out_map);
  gst_buffer_unmap (in, &in_map);
  g_free (want);
  g_array_unref (regions);
  g_array_unref (rs);
  return same;
}

/* --regions: redacts three regions of a colour frame, given as
 * GstVideoRegionOfInterestMeta the way a detector would attach them, in
 * every mode and shape: one pipeline, its properties changed between
 * frames.  Writes the frame before, each result and a grid of them, and
 * checks each against the CPU reference. */
static gint
regions_demo (gint radius, gint width, gint height, const gchar * output_dir,
    gint device_id)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "RGBA", "width", G_TYPE_INT, width, "height",
      G_TYPE_INT, height, "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
  const gint rows = (G_N_ELEMENTS (redactions) + GRID_COLUMNS - 1) /
      GRID_COLUMNS;
  GstCaps *grid_caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "RGBA", "width", G_TYPE_INT, (width / 2 + GRID_GAP) *
      GRID_COLUMNS - GRID_GAP, "height", G_TYPE_INT, (height / 2 + GRID_GAP) *
      rows - GRID_GAP, "framerate",
      GST_TYPE_FRACTION, 0, 1, NULL);
  GstElement *pipeline, *src, *blur, *sink;
  GstCudaBoxBlurSettings settings;
  GstCudaBoxBlurInfo info, grid_info;
  GstBuffer *in, *grid;
  GstMapInfo map, grid_map;
  gchar *path, *desc;
  guint i, passed = 0;

  gst_cuda_box_blur_info_from_caps (&info, caps);
  gst_cuda_box_blur_info_from_caps (&grid_info, grid_caps);
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_map (in, &map, GST_MAP_WRITE);
  make_colour_pattern (map.data, info.stride[0], width, height);
  gst_buffer_unmap (in, &map);
  gst_buffer_add_video_region_of_interest_meta (in, "face", width / 8,
      height / 6, width / 4, height / 3);
  gst_buffer_add_video_region_of_interest_meta (in, "face", width / 2,
      height / 10, width / 8, height / 5);
  gst_buffer_add_video_region_of_interest_meta (in, "license-plate",
      width * 5 / 8, height / 2, width / 4, height / 6);
  grid = gst_buffer_new_allocate (NULL, grid_info.size, NULL);
  gst_buffer_memset (grid, 0, 255, grid_info.size);

  desc = g_strdup_printf ("appsrc name=src format=time ! cudaboxblur "
      "name=blur roi-meta=true device-id=%d ! appsink name=sink sync=false",
      device_id);
  g_print ("Pipeline: %s\n", desc);
  g_print ("Three regions of interest (two faces, a license plate); box "
      "radius %d with 3 passes, gaussian sigma %d, pixelate in blocks of "
      "%d, fill dark gray; each as rectangles and as ellipses feathered "
      "over %d pixels\n\n", radius, radius, DEMO_BLOCK_SIZE, DEMO_FEATHER);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  if (!pipeline) {
    g_printerr ("Cannot build the pipeline: is the cudaboxblur plugin on "
        "GST_PLUGIN_PATH?\n");
    return 1;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  blur = gst_bin_get_by_name (GST_BIN (pipeline), "blur");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (src, "caps", caps, NULL);

  path = g_build_filename (output_dir, "colour_before.png", NULL);
  if (save_buffer_png (in, caps, path))
    g_print ("Saved: %s\n", path);
  g_free (path);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    run_to_eos (pipeline);
    goto done;
  }
  for (i = 0; i < G_N_ELEMENTS (redactions); i++) {
    GstSample *sample = NULL;
    GstFlowReturn flow;
    GstBuffer *out;
    gboolean same;

    redaction_settings (i, radius, &settings);
    g_object_set (blur, "radius", radius, "passes", settings.passes, "sigma",
        settings.sigma, "block-size", settings.block_size, "fill-color",
        settings.fill_color, "mode", settings.mode, "shape", settings.shape,
        "feather", settings.feather, NULL);
    g_signal_emit_by_name (src, "push-buffer", in, &flow);
    g_signal_emit_by_name (sink, "pull-sample", &sample);
    if (!sample) {
      g_signal_emit_by_name (src, "end-of-stream", &flow);
      run_to_eos (pipeline);
      goto done;
    }
    out = gst_sample_get_buffer (sample);
    same = matches_reference (&info, &settings, in, out);
    passed += same;
    path = g_strdup_printf ("%s/regions_%s.png", output_dir,
        redactions[i].name);
    if (!save_buffer_png (out, caps, path))
      g_printerr ("Cannot write %s\n", path);
    g_print ("  %-17s %s, %s\n", redactions[i].name, same ?
        "matches the CPU reference" : "DIFFERS from the CPU reference", path);
    g_free (path);

    gst_buffer_map (out, &map, GST_MAP_READ);
    gst_buffer_map (grid, &grid_map, GST_MAP_WRITE);
    put_in_grid (grid_map.data, grid_info.stride[0], i, map.data,
        info.stride[0], width, height);
    gst_buffer_unmap (grid, &grid_map);
    gst_buffer_unmap (out, &map);
    gst_sample_unref (sample);
  }

  path = g_build_filename (output_dir, "regions_grid.png", NULL);
  if (save_buffer_png (grid, grid_caps, path))
    g_print ("Saved: %s (columns box, gaussian, pixelate, fill; rows "
        "rectangle, feathered ellipse)\n", path);
  g_free (path);

done:
  if (passed == G_N_ELEMENTS (redactions))
    g_print ("\n  Test PASSED: every redaction matches the CPU reference and "
        "every other pixel is untouched\n");
  else
    g_print ("\n  Test FAILED: %u of %u redactions differ from the CPU "
        "reference\n", (guint) G_N_ELEMENTS (redactions) - passed,
        (guint) G_N_ELEMENTS (redactions));
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (blur);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  gst_buffer_unref (in);
  gst_buffer_unref (grid);
  gst_caps_unref (caps);
  gst_caps_unref (grid_caps);
  return passed == G_N_ELEMENTS (redactions) ? 0 : 1;
}

int
main (int argc, char **argv)
{
  gint radius = -1, width = -1, height = -1, device_id = 0;
  gboolean regions = FALSE;
  gchar *format_name = NULL, *input = NULL, *output_dir = NULL;
  GOptionEntry entries[] = {
    {"radius", 'r', 0, G_OPTION_ARG_INT, &radius,
        "Blur radius: the window is (2r+1)x(2r+1) (default 1)", "R"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
        "gray32f (default) or gray8", "FORMAT"},
    {"width", 'W', 0, G_OPTION_ARG_INT, &width,
        "Test pattern width (default 256)", "PIXELS"},
    {"height", 'H', 0, G_OPTION_ARG_INT, &height,
        "Test pattern height (default 256)", "PIXELS"},
    {"input", 'i', 0, G_OPTION_ARG_FILENAME, &input,
        "Blur this image (any format GStreamer decodes) instead of the "
          "test pattern", "FILE"},
    {"output-dir", 'o', 0, G_OPTION_ARG_FILENAME, &output_dir,
        "Where to write the PNG files (default: current directory)", "DIR"},
    {"device-id", 'd', 0, G_OPTION_ARG_INT, &device_id,
        "CUDA device ordinal (default 0)", "ID"},
    {"regions", 0, 0, G_OPTION_ARG_NONE, &regions,
        "Redact three regions of interest of a colour frame instead, in "
          "every mode and shape (writes colour_before.png, regions_*.png "
          "and regions_grid.png; radius 10 and 640x360 unless given)", NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *error = NULL;
  GstCudaBoxBlurDevice device;
  const gchar *format;
  Image pattern = { 0, }, src = { 0, }, blurred = { 0, }, expected = { 0, };
  gchar *orig_path, *blur_path;
  gint x, y, mismatches = 0, bad_x = 0, bad_y = 0;
  gfloat max_change = 0.0f;
  gboolean saved;

  ctx = g_option_context_new ("- blur an image on the GPU with cudaboxblur");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  g_option_context_free (ctx);

  if (radius < 0)
    radius = regions ? 10 : 1;
  if (width < 0)
    width = regions ? 640 : 256;
  if (height < 0)
    height = regions ? 360 : 256;
  if (!format_name || g_ascii_strcasecmp (format_name, "gray32f") == 0) {
    format = "GRAY32F";
  } else if (g_ascii_strcasecmp (format_name, "gray8") == 0) {
    format = "GRAY8";
  } else {
    g_printerr ("--format must be gray8 or gray32f, not %s\n", format_name);
    return 2;
  }
  if (radius < 0 || radius > 255 || width < 1 || height < 1
      || width > GST_CUDA_BOX_BLUR_MAX_DIMENSION
      || height > GST_CUDA_BOX_BLUR_MAX_DIMENSION) {
    g_printerr ("--radius must be 0..255 and the size 1..%d pixels a side\n",
        GST_CUDA_BOX_BLUR_MAX_DIMENSION);
    return 2;
  }
  if (!output_dir)
    output_dir = g_strdup (".");
  if (g_mkdir_with_parents (output_dir, 0755) != 0) {
    g_printerr ("Cannot create %s\n", output_dir);
    return 1;
  }

  g_print (RULE "\nImage Blur with Unified Memory (GStreamer cudaboxblur)\n"
      RULE "\n\n");

  if (!gst_cuda_box_blur_device_open (device_id, &device, &error)) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  g_print ("Device: %s\n", device.name);
  g_print ("Compute Capability: sm_%d%d\n\n", device.major, device.minor);

  if (regions) {
    gint rc = regions_demo (radius, width, height, output_dir, device_id);

    g_free (format_name);
    g_free (input);
    g_free (output_dir);
    return rc;
  }

  if (input) {
    g_print ("Loading %s...\n", input);
    if (!load_image (input, &pattern))
      return 1;
  } else {
    image_alloc (&pattern, "GRAY8", width, height);
    g_print ("Creating sample image...\n");
    make_pattern (&pattern);
  }
  if (strcmp (format, "GRAY32F") == 0)
    to_gray32f (&pattern, &src);
  else
    src = pattern;

  if (!blur_on_gpu (&src, &blurred, radius, device_id))
    return 1;

  g_print ("Saving results...\n");
  orig_path = g_build_filename (output_dir, "original_image.png", NULL);
  blur_path = g_build_filename (output_dir, "blurred_image.png", NULL);
  saved = save_png (&src, orig_path) && save_png (&blurred, blur_path);
  if (saved) {
    g_print ("  Saved: %s\n  Saved: %s\n\n", orig_path, blur_path);
  } else {
    g_printerr ("Cannot write the PNG files\n");
  }

  g_print ("Verifying result...\n");
  image_alloc (&expected, src.format, src.width, src.height);
  {
    const gint size = strcmp (src.format, "GRAY8") == 0 ? 1 : 4;
    GstCudaBoxBlurPlane in = { src.data, src.width, src.height, src.stride,
      size
    };
    GstCudaBoxBlurPlane out = { expected.data, src.width, src.height,
      expected.stride, size
    };
    GstCudaBoxBlurWindow window = { radius, radius,
      GST_CUDA_BOX_BLUR_BORDER_SHRINK, 0
    };

    box_blur_ref_plane (size == 1 ? GST_CUDA_BOX_BLUR_U8 :
        GST_CUDA_BOX_BLUR_F32, &in, &out, &window, NULL);
  }

  for (y = 0; y < src.height; y++) {
    for (x = 0; x < src.width; x++) {
      gfloat got = image_get (&blurred, x, y);
      gfloat want = image_get (&expected, x, y);

      /* bit for bit: the GPU sums in the same order as the reference */
      if (memcmp (&got, &want, sizeof (gfloat)) != 0) {
        if (mismatches++ == 0) {
          bad_x = x;
          bad_y = y;
        }
      }
      max_change = MAX (max_change, fabsf (got - image_get (&src, x, y)));
    }
  }

  if (mismatches == 0 && saved)
    g_print ("  Test PASSED\n");
  else if (mismatches)
    g_print ("  Test FAILED: %d pixels differ from the CPU reference, the "
        "first at (%d,%d): %.9g instead of %.9g\n", mismatches, bad_x, bad_y,
        image_get (&blurred, bad_x, bad_y), image_get (&expected, bad_x,
            bad_y));
  else
    g_print ("  Test FAILED: the PNG files could not be written\n");
  g_print ("  Max difference from original: %g\n", max_change);

  if (src.data != pattern.data)
    g_free (src.data);
  g_free (pattern.data);
  g_free (blurred.data);
  g_free (expected.data);
  g_free (orig_path);
  g_free (blur_path);
  g_free (format_name);
  g_free (input);
  g_free (output_dir);
  return mismatches == 0 && saved ? 0 : 1;
}
