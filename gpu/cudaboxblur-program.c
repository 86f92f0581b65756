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
#include "cudaboxblur-cache.h"
#include "cudaboxblur-debug.h"
#include "cudaboxblur-device.h"
#include "cudaboxblur-nvrtc.h"
#include "boxblur-kernel.h"
#include "boxblur-images.h"

#include <string.h>
#include <glib/gstdio.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurprogram",
    "cudaboxblur kernels: built in, or compiled by NVRTC")

/* Besides the source and the architecture, NVRTC is given the options the
 * built-in kernels were compiled with: cuda_box_blur_compile_options, from
 * kernels/meson.build. */

#define ARGS_HEADER_NAME "boxblur-args.h"

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
  const GstCudaBoxBlurNvrtc *nvrtc = gst_cuda_box_blur_nvrtc_get (NULL);
  gint wanted = major * 10 + minor, best = 0, n = 0, i;
  gint *archs;

  if (!nvrtc || nvrtc->GetNumSupportedArchs (&n) != NVRTC_SUCCESS || n <= 0)
    return g_strdup_printf ("sm_%d", wanted);

  archs = g_new (gint, n);
  if (nvrtc->GetSupportedArchs (archs) == NVRTC_SUCCESS) {
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
program_log (const GstCudaBoxBlurNvrtc * nvrtc, nvrtcProgram prog)
{
  gsize size = 0;
  gchar *log;

  if (nvrtc->GetProgramLogSize (prog, &size) != NVRTC_SUCCESS || size <= 1)
    return g_strdup ("");
  log = g_malloc0 (size);
  if (nvrtc->GetProgramLog (prog, log) != NVRTC_SUCCESS)
    log[0] = '\0';
  return log;
}

/**
 * gst_cuda_box_blur_program_compile:
 * @arch: "sm_XY" for machine code (cubin) or "compute_XY" for PTX
 *
 * Compiles @source with NVRTC, which finds boxblur-args.h in memory.  Needs
 * no GPU.  On failure @error carries NVRTC's log, or says that no NVRTC
 * library could be loaded.
 *
 * Returns: the cubin, or the NUL-terminated PTX text, or %NULL.
 */
GBytes *
gst_cuda_box_blur_program_compile (const gchar * source, const gchar * arch,
    GError ** error)
{
  const GstCudaBoxBlurNvrtc *nvrtc = gst_cuda_box_blur_nvrtc_get (error);
  nvrtcProgram prog = NULL;
  nvrtcResult res;
  gchar *arch_opt, *log = NULL;
  const gchar *opts[G_N_ELEMENTS (cuda_box_blur_compile_options) + 1];
  gboolean cubin = g_str_has_prefix (arch, "sm_");
  GBytes *image = NULL;
  gsize size = 0;
  gpointer data;
  guint i;

  const gchar *header = cuda_box_blur_args_header;
  const gchar *header_name = ARGS_HEADER_NAME;

  if (!nvrtc)
    return NULL;
  res = nvrtc->CreateProgram (&prog, source, "boxblur.cu", 1, &header,
      &header_name);
  if (res != NVRTC_SUCCESS) {
    g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
        "nvrtcCreateProgram failed: %s", nvrtc->GetErrorString (res));
    return NULL;
  }

  arch_opt = g_strdup_printf ("--gpu-architecture=%s", arch);
  opts[0] = arch_opt;
  for (i = 0; i < G_N_ELEMENTS (cuda_box_blur_compile_options); i++)
    opts[i + 1] = cuda_box_blur_compile_options[i];
  res = nvrtc->CompileProgram (prog, G_N_ELEMENTS (opts), opts);
  log = program_log (nvrtc, prog);

  if (res != NVRTC_SUCCESS) {
    g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
        "NVRTC could not compile the box blur kernels for %s: %s\n%s", arch,
        nvrtc->GetErrorString (res), log);
    goto done;
  }
  if (log[0])
    GST_DEBUG ("NVRTC log for %s:\n%s", arch, log);

  res = cubin ? nvrtc->GetCUBINSize (prog, &size) :
      nvrtc->GetPTXSize (prog, &size);
  if (res == NVRTC_SUCCESS) {
    data = g_malloc (size);
    res = cubin ? nvrtc->GetCUBIN (prog, data) : nvrtc->GetPTX (prog, data);
    if (res == NVRTC_SUCCESS)
      image = g_bytes_new_take (data, size);
    else
      g_free (data);
  }
  if (!image)
    g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
        "NVRTC produced no %s for %s: %s", cubin ? "cubin" : "PTX", arch,
        nvrtc->GetErrorString (res));
  else
    GST_INFO ("compiled %s for %s: %" G_GSIZE_FORMAT " bytes",
        cubin ? "cubin" : "PTX", arch, size);

done:
  g_free (log);
  g_free (arch_opt);
  nvrtc->DestroyProgram (&prog);
  return image;
}

/* The cache entries of @source for @arch are named
 * "<arch>-<hash>-nvrtc<major>.<minor>.<cubin|ptx>": the hash covers the
 * source, the header it includes, the architecture and the options, and
 * the NVRTC version (zero-padded, so that names sort by it) closes the
 * key.  This gives the name up to "nvrtc". */
static gchar *
entry_prefix (const gchar * source, const gchar * arch)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  const gchar *parts[] = { source, ARGS_HEADER_NAME,
    cuda_box_blur_args_header, arch
  };
  gchar *prefix;
  guint i;

  /* each part with its NUL, so that no two lists hash alike */
  for (i = 0; i < G_N_ELEMENTS (parts); i++)
    g_checksum_update (sum, (const guchar *) parts[i], strlen (parts[i]) + 1);
  for (i = 0; i < G_N_ELEMENTS (cuda_box_blur_compile_options); i++)
    g_checksum_update (sum, (const guchar *)
        cuda_box_blur_compile_options[i],
        strlen (cuda_box_blur_compile_options[i]) + 1);
  prefix = g_strdup_printf ("%s-%.32s-nvrtc", arch,
      g_checksum_get_string (sum));
  g_checksum_free (sum);
  return prefix;
}

/* The name of the entry of @source for @arch compiled by @nvrtc. */
static gchar *
entry_name (const gchar * source, const gchar * arch,
    const GstCudaBoxBlurNvrtc * nvrtc)
{
  gchar *prefix = entry_prefix (source, arch);
  gchar *name = g_strdup_printf ("%s%03d.%03d.%s", prefix, nvrtc->major,
      nvrtc->minor, g_str_has_prefix (arch, "sm_") ? "cubin" : "ptx");

  g_free (prefix);
  return name;
}

/**
 * gst_cuda_box_blur_program_image:
 * @read_cache: whether an image in the cache may be used
 * @arch: (out): the architecture of the image
 * @entry: (out) (optional): the name of the cache entry read or written
 * @cached: (out): whether the image came from the cache
 *
 * The kernels of @source for a GPU of compute capability @major.@minor.
 * A warm start needs no NVRTC: the newest valid entry of the on-disk cache
 * (gst_cuda_box_blur_cache_dir()) holding machine code of this source for
 * the GPU's own architecture serves, whichever NVRTC compiled it (see
 * gst_cuda_box_blur_program_refresh()).  Otherwise NVRTC compiles the
 * kernels, for the GPU's architecture or, when it does not know it, as PTX
 * of the newest it knows; the result is stored under a name that holds
 * the NVRTC version.  Needs no GPU.
 */
GBytes *
gst_cuda_box_blur_program_image (const gchar * source, gint major,
    gint minor, gboolean read_cache, gchar ** arch, gchar ** entry,
    gboolean * cached, GError ** error)
{
  GError *nvrtc_error = NULL, *store_error = NULL;
  const GstCudaBoxBlurNvrtc *nvrtc;
  gchar *dir = gst_cuda_box_blur_cache_dir ();
  gchar *own = g_strdup_printf ("sm_%d%d", major, minor);
  gchar *name = NULL, *prefix;
  GBytes *image = NULL;

  *arch = NULL;
  *cached = FALSE;
  if (dir && read_cache) {
    prefix = entry_prefix (source, own);
    image = gst_cuda_box_blur_cache_load_newest (dir, prefix, ".cubin",
        &name);
    g_free (prefix);
    if (image)
      *arch = g_steal_pointer (&own);
  }

  if (!image) {
    nvrtc = gst_cuda_box_blur_nvrtc_get (&nvrtc_error);
    if (!nvrtc) {
      g_set_error (error, nvrtc_error->domain, nvrtc_error->code,
          "%s; and the kernel cache (%s) holds no kernels for %s",
          nvrtc_error->message, dir ? dir : "turned off", own);
      g_error_free (nvrtc_error);
      goto done;
    }
    *arch = gst_cuda_box_blur_program_choose_arch (major, minor);
    name = entry_name (source, *arch, nvrtc);
    /* PTX for a GPU newer than NVRTC is found by its full name */
    if (dir && read_cache && strcmp (*arch, own) != 0)
      image = gst_cuda_box_blur_cache_load (dir, name);
  }

  if (image) {
    *cached = TRUE;
    GST_INFO ("kernels for %s from the cache: %s", *arch, name);
  } else if (*arch) {
    image = gst_cuda_box_blur_program_compile (source, *arch, error);
    if (image && dir && !gst_cuda_box_blur_cache_store (dir, name, image,
            &store_error)) {
      GST_WARNING ("cannot store the compiled kernels in the cache: %s",
          store_error->message);
      g_error_free (store_error);
    }
  }

done:
  if (!image)
    g_clear_pointer (arch, g_free);
  if (entry && image)
    *entry = g_steal_pointer (&name);
  g_free (name);
  g_free (own);
  g_free (dir);
  return image;
}

/**
 * gst_cuda_box_blur_program_refresh:
 * @entry: the name of the cache entry a warm start used
 *
 * Brings the cache up to date after a warm start, which loads whatever
 * entry it finds without NVRTC: when the NVRTC found now would store
 * another entry (another version, or PTX), compiles that one, stores it and
 * removes @entry.  Slow: it loads NVRTC, and may compile.
 *
 * Returns: %TRUE when it replaced @entry.
 */
gboolean
gst_cuda_box_blur_program_refresh (const gchar * source, gint major,
    gint minor, const gchar * entry)
{
  const GstCudaBoxBlurNvrtc *nvrtc = gst_cuda_box_blur_nvrtc_get (NULL);
  gchar *dir = gst_cuda_box_blur_cache_dir ();
  gchar *arch, *name = NULL, *old;
  GBytes *image = NULL;
  GError *error = NULL;
  gboolean replaced = FALSE;

  if (!nvrtc || !dir) {
    g_free (dir);
    return FALSE;
  }
  arch = gst_cuda_box_blur_program_choose_arch (major, minor);
  name = entry_name (source, arch, nvrtc);
  if (strcmp (name, entry) != 0) {
    GST_INFO ("cache entry %s is not what NVRTC %d.%d makes: storing %s",
        entry, nvrtc->major, nvrtc->minor, name);
    image = gst_cuda_box_blur_program_compile (source, arch, &error);
    if (image && gst_cuda_box_blur_cache_store (dir, name, image, &error)) {
      old = g_build_filename (dir, entry, NULL);
      g_remove (old);
      g_free (old);
      replaced = TRUE;
    } else {
      GST_WARNING ("cannot refresh the kernel cache: %s", error->message);
      g_error_free (error);
    }
  }

  if (image)
    g_bytes_unref (image);
  g_free (name);
  g_free (arch);
  g_free (dir);
  return replaced;
}

/* Appends the text of the file at @path to @out, with each line
 * `#include "NAME.cuh"` replaced by the file NAME.cuh beside it, put
 * together the same way: the kernels' families in one source, as
 * kernels/embed.py puts them together at build time. */
static gboolean
append_with_parts (GString * out, const gchar * path, guint depth,
    GError ** error)
{
  gchar *text = NULL, *dir, **lines;
  GError *err = NULL;
  gboolean ok = TRUE;
  guint i;

  if (depth > 8) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "Kernel source files include each other: %s", path);
    return FALSE;
  }
  if (!g_file_get_contents (path, &text, NULL, &err)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "Cannot read the kernel source named by CUDABOXBLUR_KERNEL_SOURCE: "
        "%s", err->message);
    g_error_free (err);
    return FALSE;
  }
  dir = g_path_get_dirname (path);
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i] && ok; i++) {
    gchar *line = g_strstrip (g_strdup (lines[i]));
    gchar **words = g_strsplit_set (line, " \t", -1);

    if (g_strv_length (words) == 2 && g_str_equal (words[0], "#include")
        && g_str_has_prefix (words[1], "\"")
        && g_str_has_suffix (words[1], ".cuh\"")) {
      gchar *name = g_strndup (words[1] + 1, strlen (words[1]) - 2);
      gchar *part = g_build_filename (dir, name, NULL);

      ok = append_with_parts (out, part, depth + 1, error);
      g_free (part);
      g_free (name);
    } else {
      g_string_append (out, lines[i]);
      if (lines[i + 1])
        g_string_append_c (out, '\n');
    }
    g_strfreev (words);
    g_free (line);
  }
  g_strfreev (lines);
  g_free (dir);
  g_free (text);
  return ok;
}

/**
 * gst_cuda_box_blur_program_source:
 * @override: (nullable): the path of a kernel source file
 *
 * The kernels' source: the copy embedded at build time, or that of
 * @override (CUDABOXBLUR_KERNEL_SOURCE: for kernel work without a
 * rebuild, and for testing compile errors) with the families it includes
 * put in their place, as the build does.
 *
 * Returns: (transfer full): the source, or %NULL with @error set.
 */
gchar *
gst_cuda_box_blur_program_source (const gchar * override, GError ** error)
{
  GString *text;

  if (!override)
    return g_strdup (cuda_box_blur_kernel_source);
  text = g_string_new (NULL);
  if (!append_with_parts (text, override, 0, error)) {
    g_string_free (text, TRUE);
    return NULL;
  }
  GST_WARNING ("compiling %s instead of the built-in kernels", override);
  return g_string_free (text, FALSE);
}

/**
 * gst_cuda_box_blur_program_built_in:
 *
 * Returns: the kernel images built with the plugin, @n_images of them:
 * machine code for each architecture of the cuda-archs build option, and
 * PTX of the newest.
 */
const GstCudaBoxBlurBuiltIn *
gst_cuda_box_blur_program_built_in (guint * n_images)
{
  *n_images = G_N_ELEMENTS (cuda_box_blur_images);
  return cuda_box_blur_images;
}

/**
 * gst_cuda_box_blur_program_pick:
 *
 * Picks the image of @images that runs on a GPU of compute capability
 * @major.@minor, as the driver would from one fatbin holding them all:
 * machine code of the same major version and the highest minor version up
 * to the GPU's (machine code runs on later GPUs of its major version only),
 * else the PTX of the newest architecture up to the GPU's, which the driver
 * compiles for it.
 *
 * Returns: the image, or %NULL when none runs there and NVRTC has to
 * compile the kernels.
 */
const GstCudaBoxBlurBuiltIn *
gst_cuda_box_blur_program_pick (const GstCudaBoxBlurBuiltIn * images,
    guint n_images, gint major, gint minor)
{
  const GstCudaBoxBlurBuiltIn *cubin = NULL, *ptx = NULL;
  const gint wanted = major * 10 + minor;
  guint i;

  for (i = 0; i < n_images; i++) {
    const GstCudaBoxBlurBuiltIn *image = &images[i];

    if (image->ptx) {
      if (image->arch <= wanted && (!ptx || image->arch > ptx->arch))
        ptx = image;
    } else if (image->arch / 10 == major && image->arch <= wanted
        && (!cubin || image->arch > cubin->arch)) {
      cubin = image;
    }
  }
  return cubin ? cubin : ptx;
}

/* Loads the kernels of the image at @data, or says why it cannot. */
static GstCudaBoxBlurProgram *
program_new (gconstpointer data, const gchar * arch,
    GstCudaBoxBlurOrigin origin, GError ** error)
{
  static const gchar *const origins[] = {
    [GST_CUDA_BOX_BLUR_BUILT_IN] = "built in",
    [GST_CUDA_BOX_BLUR_BUILT_IN_PTX] = "built-in PTX, compiled by the driver",
    [GST_CUDA_BOX_BLUR_NVRTC] = "NVRTC",
    [GST_CUDA_BOX_BLUR_NVRTC_CACHE] = "NVRTC, from the kernel cache",
  };
  GstCudaBoxBlurProgram *program = g_new0 (GstCudaBoxBlurProgram, 1);
  guint i;

  program->arch = g_strdup (arch);
  program->origin = origin;
  program->description = g_strdup_printf ("%s (%s)", arch, origins[origin]);
  if (!GST_CUDA_BOX_BLUR_CHECK (cudaLibraryLoadData (&program->library,
              data, NULL, NULL, 0, NULL, NULL, 0), error))
    goto failed;

  for (i = 0; i < GST_CUDA_BOX_BLUR_N_KERNELS; i++)
    if (!GST_CUDA_BOX_BLUR_CHECK (cudaLibraryGetKernel (&program->kernels[i],
                program->library, gst_cuda_box_blur_kernel_name (i)), error))
      goto unload;
  return program;

unload:
  cudaLibraryUnload (program->library);
failed:
  g_free (program->description);
  g_free (program->arch);
  g_free (program);
  return NULL;
}

/* The built-in image for the GPU, loaded; NULL with @error saying why
 * there is none, or why it does not load. */
static GstCudaBoxBlurProgram *
program_load_built_in (gint major, gint minor, GError ** error)
{
  const GstCudaBoxBlurBuiltIn *image;
  GstCudaBoxBlurProgram *program;
  GError *load_error = NULL;
  gchar *arch;

  image = gst_cuda_box_blur_program_pick (cuda_box_blur_images,
      G_N_ELEMENTS (cuda_box_blur_images), major, minor);
  if (!image) {
    GString *archs = g_string_new (NULL);
    guint i;

    for (i = 0; i < G_N_ELEMENTS (cuda_box_blur_images); i++)
      g_string_append_printf (archs, "%s%s_%d", i ? ", " : "",
          cuda_box_blur_images[i].ptx ? "compute" : "sm",
          cuda_box_blur_images[i].arch);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "the kernels built with the plugin (%s) do not run on sm_%d%d",
        archs->str, major, minor);
    g_string_free (archs, TRUE);
    return NULL;
  }

  arch = g_strdup_printf ("%s_%d", image->ptx ? "compute" : "sm",
      image->arch);
  program = program_new (image->data, arch, image->ptx ?
      GST_CUDA_BOX_BLUR_BUILT_IN_PTX : GST_CUDA_BOX_BLUR_BUILT_IN,
      &load_error);
  if (!program) {
    g_set_error (error, load_error->domain, load_error->code,
        "the kernels built with the plugin for %s do not load on sm_%d%d: "
        "%s", arch, major, minor, load_error->message);
    g_error_free (load_error);
  }
  g_free (arch);
  return program;
}

/* The kernels compiled by NVRTC from @override (NULL: the built-in source),
 * or found in the kernel cache. */
static GstCudaBoxBlurProgram *
program_load_nvrtc (gint major, gint minor, const gchar * override,
    GError ** error)
{
  GstCudaBoxBlurProgram *program = NULL;
  GError *load_error = NULL;
  GBytes *image;
  gchar *source, *arch = NULL, *entry = NULL;
  gboolean cached;

  source = gst_cuda_box_blur_program_source (override, error);
  if (!source)
    return NULL;
  image = gst_cuda_box_blur_program_image (source, major, minor, TRUE, &arch,
      &entry, &cached, error);
  if (image)
    program = program_new (g_bytes_get_data (image, NULL), arch, cached ?
        GST_CUDA_BOX_BLUR_NVRTC_CACHE : GST_CUDA_BOX_BLUR_NVRTC, cached ?
        &load_error : error);

  if (!program && cached) {
    /* A cached image the driver refuses (one from a newer NVRTC than the
     * driver knows, say) is removed, and compiled again. */
    gchar *dir = gst_cuda_box_blur_cache_dir ();
    gchar *path = g_build_filename (dir, entry, NULL);

    GST_WARNING ("the cached kernels %s do not load (%s): compiling them "
        "again", path, load_error->message);
    g_remove (path);
    g_free (path);
    g_free (dir);
    g_clear_error (&load_error);
    g_bytes_unref (image);
    g_free (arch);
    g_free (entry);
    image = gst_cuda_box_blur_program_image (source, major, minor, FALSE,
        &arch, &entry, &cached, error);
    if (image)
      program = program_new (g_bytes_get_data (image, NULL), arch,
          GST_CUDA_BOX_BLUR_NVRTC, error);
  } else if (program && cached) {
    /* Started without NVRTC: gst_cuda_box_blur_program_settle() checks
     * the entry against it later. */
    program->refresh_source = g_steal_pointer (&source);
    program->refresh_entry = g_steal_pointer (&entry);
    program->major = major;
    program->minor = minor;
  }

  if (image)
    g_bytes_unref (image);
  g_free (entry);
  g_free (arch);
  g_free (source);
  return program;
}

/* The kernels for the GPU: built in, else compiled by NVRTC (which
 * @override, CUDABOXBLUR_KERNEL_SOURCE, always asks for).  NVRTC and the
 * kernel cache are not touched when built-in kernels serve. */
static GstCudaBoxBlurProgram *
program_load (gint major, gint minor, const gchar * override, GError ** error)
{
  GstCudaBoxBlurProgram *program;
  GError *built_in_error = NULL, *nvrtc_error = NULL;

  if (override)
    return program_load_nvrtc (major, minor, override, error);

  program = program_load_built_in (major, minor, &built_in_error);
  if (program)
    return program;
  GST_WARNING ("%s: compiling them with NVRTC", built_in_error->message);
  program = program_load_nvrtc (major, minor, NULL, &nvrtc_error);
  if (!program) {
    g_set_error (error, nvrtc_error->domain, nvrtc_error->code,
        "No kernels for this GPU: %s, and %s", built_in_error->message,
        nvrtc_error->message);
    g_error_free (nvrtc_error);
  }
  g_error_free (built_in_error);
  return program;
}

static GMutex programs_lock;

/**
 * gst_cuda_box_blur_program_settle:
 *
 * Runs the gst_cuda_box_blur_program_refresh() that @program's warm start
 * left for later, once per program.  It loads NVRTC (milliseconds) and,
 * after an NVRTC upgrade, compiles (a second or two), so the element calls
 * it when it stops rather than while it starts; synchronously, since a
 * thread still inside NVRTC when the process exits can crash it.
 */
void
gst_cuda_box_blur_program_settle (const GstCudaBoxBlurProgram * program)
{
  GstCudaBoxBlurProgram *p = (GstCudaBoxBlurProgram *) program;
  gchar *source, *entry;

  g_mutex_lock (&programs_lock);
  source = g_steal_pointer (&p->refresh_source);
  entry = g_steal_pointer (&p->refresh_entry);
  g_mutex_unlock (&programs_lock);

  if (source)
    gst_cuda_box_blur_program_refresh (source, p->major, p->minor, entry);
  g_free (source);
  g_free (entry);
}

/**
 * gst_cuda_box_blur_program_get:
 *
 * Returns the kernels for GPUs of compute capability @major.@minor, loading
 * them on first use: those built with the plugin for the GPU's
 * architecture, else its PTX, else compiled by NVRTC or found in the
 * on-disk cache (from the file named by CUDABOXBLUR_KERNEL_SOURCE, when
 * that is set, always).  The result is shared by every element of the
 * process; a library loaded with cudaLibraryLoadData is usable from every
 * CUDA context, so one entry serves all GPUs of one architecture.
 */
const GstCudaBoxBlurProgram *
gst_cuda_box_blur_program_get (gint major, gint minor, GError ** error)
{
  static GHashTable *cache = NULL;
  const gchar *override = g_getenv ("CUDABOXBLUR_KERNEL_SOURCE");
  GstCudaBoxBlurProgram *program;
  gchar *key;

  key = g_strdup_printf ("%d.%d|%s", major, minor, override ? override : "");

  g_mutex_lock (&programs_lock);
  if (!cache)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  program = g_hash_table_lookup (cache, key);
  if (!program) {
    program = program_load (major, minor, override, error);
    if (program) {
      GST_INFO ("kernels for sm_%d%d: %s", major, minor,
          program->description);
      g_hash_table_insert (cache, g_strdup (key), program);
    }
  } else {
    GST_DEBUG ("using cached program for %s", key);
  }
  g_mutex_unlock (&programs_lock);

  g_free (key);
  return program;
}
