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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-program.h"
#include "cudaboxblur-device.h"
#include "boxblur-kernel.h"

#include <nvrtc.h>

static GstDebugCategory *
ensure_debug_category (void)
{
  static gsize cat = 0;

  if (g_once_init_enter (&cat)) {
    gsize c = (gsize) _gst_debug_category_new ("cudaboxblurprogram", 0,
        "cudaboxblur NVRTC compilation");
    g_once_init_leave (&cat, c);
  }
  return (GstDebugCategory *) cat;
}

#define GST_CAT_DEFAULT ensure_debug_category ()

static const gchar *const format_suffix[] = {
  [GST_CUDA_BOX_BLUR_FORMAT_GRAY8] = "gray8",
  [GST_CUDA_BOX_BLUR_FORMAT_GRAY32F] = "gray32f",
};

static gboolean
get_kernel (GstCudaBoxBlurProgram * program, const gchar * stem,
    guint format, cudaKernel_t * kernel, GError ** error)
{
  gchar *name = g_strdup_printf ("%s_%s", stem, format_suffix[format]);
  gboolean ok = GST_CUDA_BOX_BLUR_CHECK (cudaLibraryGetKernel (kernel,
          program->library, name), error);

  g_free (name);
  return ok;
}

/**
 * gst_cuda_box_blur_program_choose_arch:
 *
 * Picks the compile target for a GPU of compute capability @major.@minor:
 * machine code for that exact architecture when this NVRTC knows it,
 * otherwise PTX for the newest older architecture it knows, which the driver
 * then compiles for the GPU.
 */
gchar *
gst_cuda_box_blur_program_choose_arch (gint major, gint minor)
{
  gint wanted = major * 10 + minor, best = 0, n = 0, i;
  gint *archs;

  if (nvrtcGetNumSupportedArchs (&n) != NVRTC_SUCCESS || n <= 0)
    return g_strdup_printf ("sm_%d", wanted);

  archs = g_new (gint, n);
  if (nvrtcGetSupportedArchs (archs) == NVRTC_SUCCESS) {
    for (i = 0; i < n; i++) {
      if (archs[i] <= wanted && archs[i] > best)
        best = archs[i];
    }
  }
  g_free (archs);

  if (best == wanted || best == 0)
    return g_strdup_printf ("sm_%d", wanted);

  GST_INFO ("NVRTC does not know sm_%d, compiling PTX for compute_%d",
      wanted, best);
  return g_strdup_printf ("compute_%d", best);
}

static gchar *
program_log (nvrtcProgram prog)
{
  gsize size = 0;
  gchar *log;

  if (nvrtcGetProgramLogSize (prog, &size) != NVRTC_SUCCESS || size <= 1)
    return g_strdup ("");
  log = g_malloc0 (size);
  if (nvrtcGetProgramLog (prog, log) != NVRTC_SUCCESS)
    log[0] = '\0';
  return log;
}

/**
 * gst_cuda_box_blur_program_compile:
 * @arch: "sm_XY" for machine code (cubin) or "compute_XY" for PTX
 *
 * Compiles @source with NVRTC.  Needs no GPU.  On failure @error carries
 * NVRTC's log.
 *
 * Returns: the cubin, or the NUL-terminated PTX text, or %NULL.
 */
GBytes *
gst_cuda_box_blur_program_compile (const gchar * source, const gchar * arch,
    GError ** error)
{
  nvrtcProgram prog = NULL;
  nvrtcResult res;
  gchar *arch_opt, *log = NULL;
  const gchar *opts[2];
  gboolean cubin = g_str_has_prefix (arch, "sm_");
  GBytes *image = NULL;
  gsize size = 0;
  gpointer data;

  res = nvrtcCreateProgram (&prog, source, "boxblur.cu", 0, NULL, NULL);
  if (res != NVRTC_SUCCESS) {
    g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
        "nvrtcCreateProgram failed: %s", nvrtcGetErrorString (res));
    return NULL;
  }

  /* The defaults are kept on purpose: IEEE division and no fused
   * multiply-add contraction change, so GRAY32F matches the CPU bit for
   * bit. */
  arch_opt = g_strdup_printf ("--gpu-architecture=%s", arch);
  opts[0] = arch_opt;
  opts[1] = "--std=c++17";
  res = nvrtcCompileProgram (prog, G_N_ELEMENTS (opts), opts);
  log = program_log (prog);

  if (res != NVRTC_SUCCESS) {
    g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
        "NVRTC could not compile the box blur kernels for %s: %s\n%s", arch,
        nvrtcGetErrorString (res), log);
    goto done;
  }
  if (log[0])
    GST_DEBUG ("NVRTC log for %s:\n%s", arch, log);

  res = cubin ? nvrtcGetCUBINSize (prog, &size) : nvrtcGetPTXSize (prog,
      &size);
  if (res == NVRTC_SUCCESS) {
    data = g_malloc (size);
    res = cubin ? nvrtcGetCUBIN (prog, data) : nvrtcGetPTX (prog, data);
    if (res == NVRTC_SUCCESS)
      image = g_bytes_new_take (data, size);
    else
      g_free (data);
  }
  if (!image)
    g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
        "NVRTC produced no %s for %s: %s", cubin ? "cubin" : "PTX", arch,
        nvrtcGetErrorString (res));
  else
    GST_INFO ("compiled %s for %s: %" G_GSIZE_FORMAT " bytes",
        cubin ? "cubin" : "PTX", arch, size);

done:
  g_free (log);
  g_free (arch_opt);
  nvrtcDestroyProgram (&prog);
  return image;
}

/* The kernels' source: the copy embedded at build time, or with
 * CUDABOXBLUR_KERNEL_SOURCE set, that file (for kernel work without a
 * rebuild, and for testing compile errors). */
static gchar *
kernel_source (const gchar * override, GError ** error)
{
  gchar *text = NULL;
  GError *err = NULL;

  if (!override)
    return g_strdup (cuda_box_blur_kernel_source);
  if (!g_file_get_contents (override, &text, NULL, &err)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "Cannot read the kernel source named by CUDABOXBLUR_KERNEL_SOURCE: "
        "%s", err->message);
    g_error_free (err);
    return NULL;
  }
  GST_WARNING ("compiling %s instead of the built-in kernels", override);
  return text;
}

static GstCudaBoxBlurProgram *
program_load (const gchar * arch, const gchar * override, GError ** error)
{
  GstCudaBoxBlurProgram *program;
  GBytes *image;
  gchar *source;
  guint i;

  source = kernel_source (override, error);
  if (!source)
    return NULL;
  image = gst_cuda_box_blur_program_compile (source, arch, error);
  g_free (source);
  if (!image)
    return NULL;

  program = g_new0 (GstCudaBoxBlurProgram, 1);
  program->arch = g_strdup (arch);
  if (!GST_CUDA_BOX_BLUR_CHECK (cudaLibraryLoadData (&program->library,
              g_bytes_get_data (image, NULL), NULL, NULL, 0, NULL, NULL, 0),
          error))
    goto failed;

  if (!GST_CUDA_BOX_BLUR_CHECK (cudaLibraryGetKernel (&program->columns16,
              program->library, "box_columns_gray8_16"), error)
      || !GST_CUDA_BOX_BLUR_CHECK (cudaLibraryGetKernel (&program->rows16,
              program->library, "box_rows_gray8_16"), error)) {
    cudaLibraryUnload (program->library);
    goto failed;
  }
  for (i = 0; i < G_N_ELEMENTS (format_suffix); i++) {
    if (!get_kernel (program, "box_blur", i, &program->direct[i], error)
        || !get_kernel (program, "box_blur3", i, &program->direct3x3[i],
            error)
        || !get_kernel (program, "box_columns", i, &program->columns[i],
            error)
        || !get_kernel (program, "box_rows", i, &program->rows[i], error)) {
      cudaLibraryUnload (program->library);
      goto failed;
    }
  }

  g_bytes_unref (image);
  return program;

failed:
  g_bytes_unref (image);
  g_free (program->arch);
  g_free (program);
  return NULL;
}

/**
 * gst_cuda_box_blur_program_get:
 *
 * Returns the kernels for GPUs of compute capability @major.@minor,
 * compiling and loading them on first use (from the file named by
 * CUDABOXBLUR_KERNEL_SOURCE when that is set).  The result is shared by every
 * element of the process; a library loaded with cudaLibraryLoadData is
 * usable from every device context, so one entry serves all GPUs of one
 * architecture.
 */
const GstCudaBoxBlurProgram *
gst_cuda_box_blur_program_get (gint major, gint minor, GError ** error)
{
  static GMutex lock;
  static GHashTable *cache = NULL;
  const gchar *override = g_getenv ("CUDABOXBLUR_KERNEL_SOURCE");
  GstCudaBoxBlurProgram *program;
  gchar *arch, *key;

  arch = gst_cuda_box_blur_program_choose_arch (major, minor);
  key = g_strconcat (arch, "|", override ? override : "", NULL);

  g_mutex_lock (&lock);
  if (!cache)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  program = g_hash_table_lookup (cache, key);
  if (!program) {
    program = program_load (arch, override, error);
    if (program)
      g_hash_table_insert (cache, g_strdup (key), program);
  } else {
    GST_DEBUG ("using cached program for %s", key);
  }
  g_mutex_unlock (&lock);

  g_free (key);
  g_free (arch);
  return program;
}

/* Threads per block of the direct kernels; the 3x3 one makes BOX3_ROWS
 * pixels per thread, as in kernels/boxblur.cu. */
#define BLOCK_W 32
#define BLOCK_H 8
#define BOX3_ROWS 4

/* Launch geometry of the separable passes; COLUMN_RUN must match
 * kernels/boxblur.cu. */
#define COLUMN_THREADS 128
#define COLUMN_RUN 64
#define ROW_THREADS 256
#define ROW_RUN 1024

/* Largest window, in pixels, blurred by the direct kernel; larger ones take
 * the two separable passes, whose cost does not depend on the radius.
 * Measured with bench/ on an H200: at radius 1 the direct (3x3) kernel
 * wins (4K GRAY32F 0.032 ms against 0.077 ms); from radius 2 on the
 * separable passes win in both formats at 1080p and 4K (4K GRAY32F 0.076
 * against 0.104 ms). */
#define DIRECT_MAX_WINDOW 9

/**
 * gst_cuda_box_blur_program_choose:
 *
 * Picks the kernels for a window: the direct kernel (which keeps the
 * sample's summation order) for small windows, the separable passes for
 * larger ones.
 */
GstCudaBoxBlurVariant
gst_cuda_box_blur_program_choose (gint radius_x, gint radius_y)
{
  return (2 * radius_x + 1) * (2 * radius_y + 1) <= DIRECT_MAX_WINDOW ?
      GST_CUDA_BOX_BLUR_DIRECT : GST_CUDA_BOX_BLUR_SEPARABLE;
}

/* Bytes of the column sums the separable passes keep between them: one
 * 32-bit value (integer or float) per pixel. */
gsize
gst_cuda_box_blur_program_mid_size (gint width, gint height)
{
  return (gsize) width * height * 4;
}

static gboolean
launch_direct (const GstCudaBoxBlurProgram * program,
    GstCudaBoxBlurFormat format, const GstCudaBoxBlurPlane * src,
    const GstCudaBoxBlurPlane * dst, gint radius_x, gint radius_y,
    cudaStream_t stream, GError ** error)
{
  void *args[] = {
    (void *) &src->data, (void *) &src->stride,
    (void *) &dst->data, (void *) &dst->stride,
    (void *) &dst->width, (void *) &dst->height, &radius_x, &radius_y,
  };
  const gboolean box3 = radius_x == 1 && radius_y == 1;
  /* the 3x3 kernel makes BOX3_ROWS pixels per thread */
  const gint rows = box3 ? BLOCK_H * BOX3_ROWS : BLOCK_H;
  dim3 block = { BLOCK_W, BLOCK_H, 1 };
  dim3 grid = { (dst->width + BLOCK_W - 1) / BLOCK_W,
    (dst->height + rows - 1) / rows, 1
  };

  return GST_CUDA_BOX_BLUR_CHECK (cudaLaunchKernel ((const void *)
          (box3 ? program->direct3x3[format] : program->direct[format]),
          grid, block, args, 0, stream), error);
}

static gboolean
launch_separable (const GstCudaBoxBlurProgram * program,
    GstCudaBoxBlurFormat format, const GstCudaBoxBlurPlane * src,
    const GstCudaBoxBlurPlane * dst, gint radius_x, gint radius_y,
    gpointer mid, cudaStream_t stream, GError ** error)
{
  const gsize acc_size = format == GST_CUDA_BOX_BLUR_FORMAT_GRAY8 ?
      sizeof (guint32) : sizeof (gdouble);
  gint run = MIN (dst->width, ROW_RUN);
  void *col_args[] = {
    (void *) &src->data, (void *) &src->stride, &mid,
    (void *) &dst->width, (void *) &dst->height, &radius_y,
  };
  void *row_args[] = {
    &mid, (void *) &dst->data, (void *) &dst->stride,
    (void *) &dst->width, (void *) &dst->height, &radius_x, &radius_y, &run,
  };
  dim3 col_block = { COLUMN_THREADS, 1, 1 };
  dim3 col_grid = { (dst->width + COLUMN_THREADS - 1) / COLUMN_THREADS,
    (dst->height + COLUMN_RUN - 1) / COLUMN_RUN, 1
  };
  dim3 row_block = { ROW_THREADS, 1, 1 };
  dim3 row_grid = { (dst->width + run - 1) / run, dst->height, 1 };
  /* prefix sums of one run and its halo */
  gsize shared = (run + 2 * radius_x + 1) * acc_size;

  /* 16-bit column sums halve the intermediate traffic where they fit */
  const gboolean narrow = format == GST_CUDA_BOX_BLUR_FORMAT_GRAY8
      && radius_y <= 128;

  return GST_CUDA_BOX_BLUR_CHECK (cudaLaunchKernel ((const void *)
          (narrow ? program->columns16 : program->columns[format]), col_grid,
          col_block, col_args, 0, stream), error)
      && GST_CUDA_BOX_BLUR_CHECK (cudaLaunchKernel ((const void *)
          (narrow ? program->rows16 : program->rows[format]), row_grid,
          row_block, row_args, shared, stream), error);
}

/**
 * gst_cuda_box_blur_program_launch:
 * @mid: for %GST_CUDA_BOX_BLUR_SEPARABLE, device memory of
 *   gst_cuda_box_blur_program_mid_size() bytes
 *
 * Queues the blur of @src into @dst on @stream.  @src and @dst must be
 * addressable by the GPU and must not overlap.
 */
gboolean
gst_cuda_box_blur_program_launch (const GstCudaBoxBlurProgram * program,
    GstCudaBoxBlurFormat format, GstCudaBoxBlurVariant variant,
    const GstCudaBoxBlurPlane * src, const GstCudaBoxBlurPlane * dst,
    gint radius_x, gint radius_y, gpointer mid, cudaStream_t stream,
    GError ** error)
{
  if (variant == GST_CUDA_BOX_BLUR_DIRECT)
    return launch_direct (program, format, src, dst, radius_x, radius_y,
        stream, error);
  return launch_separable (program, format, src, dst, radius_x, radius_y,
      mid, stream, error);
}
