/* cudaboxblur test helpers
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include "cudaboxblur-info.h"
#include "cudaboxblur-params.h"
#include "gstcudaboxblurallocator.h"

G_BEGIN_DECLS

/* Exit status meson reads as "skipped". */
#define TEST_EXIT_SKIP 77

/* Every format the element takes in system memory, in its caps order, and
 * those it takes in CUDA memory: GST_CUDA_BOX_BLUR_FORMATS and
 * GST_CUDA_BOX_BLUR_CUDA_FORMATS, read when the test starts. */
extern const gchar **test_formats;
extern guint test_n_formats;
extern const gchar **test_cuda_formats;
extern guint test_n_cuda_formats;

gboolean     test_gpu_available  (gchar ** reason);

/* Exits with TEST_EXIT_SKIP, saying why, when there is no usable GPU. */
void         test_skip_without_gpu (const gchar * name);

/* FALSE, with why in @reason, when the toolkit's NVRTC cannot be loaded
 * (the kernels are built in, and the toolkit is not on every machine). */
gboolean     test_nvrtc_available (gchar ** reason);

/* What a GPU suite needs besides one usable CUDA device. */
typedef struct
{
  /* CUDA devices it uses at once; 0 for one */
  gint n_devices;
  /* GStreamer elements its pipelines are made of */
  const gchar *const *elements;
  guint n_elements;
  /* run once the machine has all that, before the suite and after it;
   * either may be NULL */
  void (*setup) (void);
  void (*teardown) (void);
} TestGpuNeeds;

/* The main() of GPU suite @name, made by @suite_func in source @file:
 * gst_check_init(), then an exit with TEST_EXIT_SKIP, saying why, on a
 * machine without a usable GPU or without what @needs (may be NULL) asks
 * for; then the suite, between @needs' setup and teardown. */
gint         test_gpu_check_main (int argc, char **argv, const gchar * name,
                                  Suite * (*suite_func) (void),
                                  const TestGpuNeeds * needs,
                                  const gchar * file);

/* GST_CHECK_MAIN() for a suite that needs a GPU (see
 * test_gpu_check_main()). */
#define TEST_GPU_CHECK_MAIN(name, suite_func, needs)                      \
int                                                                       \
main (int argc, char **argv)                                              \
{                                                                         \
  return test_gpu_check_main (argc, argv, name, suite_func, needs,        \
      __FILE__);                                                          \
}

GstCaps *    test_caps_new       (const gchar * format, gint width,
                                  gint height);

/* The frame description of @format at @width x @height. */
GstCudaBoxBlurInfo test_info     (const gchar * format, gint width,
                                  gint height);

/* Deterministic samples from @seed in every plane; the bytes of each row
 * past its pixels (padding) are 0xff, a NaN in GRAY32F, so that a kernel
 * that reads padding gives visibly wrong results. */
void         test_fill           (const GstCudaBoxBlurInfo * info,
                                  const GstCudaBoxBlurFrame * frame,
                                  guint seed);

/* A frame in @allocator's memory (NULL: system memory) whose rows are
 * @pad bytes longer than the caps' default (0: the default layout, no
 * GstVideoMeta; otherwise planes one after the other, with a meta). */
GstBuffer *  test_buffer_new     (GstAllocator * allocator,
                                  const gchar * format, gint width,
                                  gint height, gint pad, guint seed);

/* Fails the running test unless @out is what the element makes of @in with
 * @settings, by the CPU reference: equal for integer samples, and for
 * float32 when every window has at most 9 pixels (the sample's summation
 * order); larger float32 windows within 1e-5 of the exact result, relative
 * to the same blur of |input|, and outside the regions equal to the input
 * bit for bit. */
void         test_assert_output  (GstBuffer * in, GstBuffer * out,
                                  const gchar * format, gint width,
                                  gint height,
                                  const GstCudaBoxBlurSettings * settings);

/* test_assert_output() with the default settings and radii @radius_x,
 * @radius_y. */
void         test_assert_blurred (GstBuffer * in, GstBuffer * out,
                                  const gchar * format, gint width,
                                  gint height, gint radius_x, gint radius_y);

/* test_fill() of a frame in the caps' default layout at @data. */
void         test_fill_data      (const GstCudaBoxBlurInfo * info,
                                  guint8 * data, guint seed);

/* The memory type of the route @blur's memory-in-use names once started:
 * managed or pinned. */
const gchar *test_element_memory_type (GstElement * blur);

/* TRUE when @buf is one block of @blur's memory-in-use. */
gboolean     test_is_element_memory (GstElement * blur, GstBuffer * buf);

/* A harness around one cudaboxblur (h->element) fed with @format frames
 * of @width x @height, with the allocation query already answered. */
GstHarness * test_harness_new    (const gchar * format, gint width,
                                  gint height);

/* The same with memory-mode set to @memory_mode (a nick; NULL: the
 * default). */
GstHarness * test_harness_new_in (const gchar * memory_mode,
                                  const gchar * format, gint width,
                                  gint height);

/* A frame from the pool the harness's cudaboxblur offered upstream (its
 * memory-in-use), filled by test_fill() from @seed. */
GstBuffer *  test_pool_buffer    (GstHarness * h,
                                  const GstCudaBoxBlurInfo * info,
                                  guint seed);

/* Sets every blur property of a cudaboxblur from @settings. */
void         test_apply_settings (GstElement * blur,
                                  const GstCudaBoxBlurSettings * settings);

/* A photo with one face (tests/files/README), and the faces facedetect
 * finds in it, one "x y width height" a line. */
#define TEST_PHOTO "astronaut.png"
#define TEST_PHOTO_FACES "astronaut-faces.txt"

/* The path of @name in tests/files, to be freed. */
gchar *      test_file_path      (const gchar * name);

/* The PNG picture tests/files/@name decoded by pngdec (gst-plugins-good)
 * into an RGB frame in system memory; its size in @width and @height. */
GstBuffer *  test_png_rgb        (const gchar * name, gint * width,
                                  gint * height);

/* The rectangles (GstVideoRectangle) listed in tests/files/@name, one
 * "x y width height" a line; lines starting with '#' are comments. */
GArray *     test_read_rectangles (const gchar * name);

G_END_DECLS
