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

#include "cudaboxblur-nvrtc.h"
#include "cudaboxblur-debug.h"

#include <gmodule.h>
#include <cuda_runtime_api.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurnvrtc", "cudaboxblur NVRTC loader")

/* The NVRTC major versions whose API the kernels are compiled with; the
 * toolkit's own (that of the headers) is tried first. */
static const gint nvrtc_majors[] = { CUDART_VERSION / 1000, 13, 12 };

#define NVRTC_SYMBOL(nvrtc, module, name) \
    g_module_symbol ((module), "nvrtc" G_STRINGIFY (name), \
        (gpointer *) &(nvrtc)->name)

static gboolean
load_symbols (GModule * module, GstCudaBoxBlurNvrtc * nvrtc)
{
  nvrtcResult (*version) (int *major, int *minor) = NULL;

  return g_module_symbol (module, "nvrtcVersion", (gpointer *) & version)
      && version (&nvrtc->major, &nvrtc->minor) == NVRTC_SUCCESS
      && NVRTC_SYMBOL (nvrtc, module, GetErrorString)
      && NVRTC_SYMBOL (nvrtc, module, GetNumSupportedArchs)
      && NVRTC_SYMBOL (nvrtc, module, GetSupportedArchs)
      && NVRTC_SYMBOL (nvrtc, module, CreateProgram)
      && NVRTC_SYMBOL (nvrtc, module, CompileProgram)
      && NVRTC_SYMBOL (nvrtc, module, GetProgramLogSize)
      && NVRTC_SYMBOL (nvrtc, module, GetProgramLog)
      && NVRTC_SYMBOL (nvrtc, module, GetCUBINSize)
      && NVRTC_SYMBOL (nvrtc, module, GetCUBIN)
      && NVRTC_SYMBOL (nvrtc, module, GetPTXSize)
      && NVRTC_SYMBOL (nvrtc, module, GetPTX)
      && NVRTC_SYMBOL (nvrtc, module, DestroyProgram);
}

/* Loads the first NVRTC library of nvrtc_majors that the dynamic linker
 * finds, then plain libnvrtc.so; NULL with the names tried and the last
 * loader error when there is none. */
static GstCudaBoxBlurNvrtc *
nvrtc_load (gchar ** why)
{
  GString *tried = g_string_new (NULL);
  GstCudaBoxBlurNvrtc *nvrtc = g_new0 (GstCudaBoxBlurNvrtc, 1);
  gchar *last_error = NULL;
  guint i;

  for (i = 0; i <= G_N_ELEMENTS (nvrtc_majors); i++) {
    gchar *name = i < G_N_ELEMENTS (nvrtc_majors) ?
        g_strdup_printf ("libnvrtc.so.%d", nvrtc_majors[i]) :
        g_strdup ("libnvrtc.so");
    GModule *module;

    if (i > 0 && i < G_N_ELEMENTS (nvrtc_majors)
        && nvrtc_majors[i] == nvrtc_majors[0]) {
      g_free (name);
      continue;
    }
    g_string_append_printf (tried, "%s%s", tried->len ? ", " : "", name);
    module = g_module_open (name, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
    if (module && load_symbols (module, nvrtc)) {
      /* kept for the life of the process */
      g_module_make_resident (module);
      GST_INFO ("loaded %s, NVRTC %d.%d", name, nvrtc->major, nvrtc->minor);
      g_free (name);
      g_free (last_error);
      g_string_free (tried, TRUE);
      return nvrtc;
    }
    g_free (last_error);
    last_error = module ? g_strdup_printf ("%s lacks NVRTC functions", name)
        : g_strdup (g_module_error ());
    if (module)
      g_module_close (module);
    g_free (name);
  }

  *why = g_strdup_printf ("tried %s; last: %s", tried->str, last_error);
  g_free (last_error);
  g_string_free (tried, TRUE);
  g_free (nvrtc);
  return NULL;
}

/**
 * gst_cuda_box_blur_nvrtc_get:
 *
 * Returns: the NVRTC functions, loaded on first use and kept for the life
 * of the process, or %NULL with @error saying which library was missing.
 */
const GstCudaBoxBlurNvrtc *
gst_cuda_box_blur_nvrtc_get (GError ** error)
{
  static gsize once = 0;
  static GstCudaBoxBlurNvrtc *nvrtc = NULL;
  static gchar *why = NULL;

  if (g_once_init_enter (&once)) {
    nvrtc = nvrtc_load (&why);
    g_once_init_leave (&once, 1);
  }
  if (!nvrtc)
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "NVRTC not found: the kernels are compiled at run time with the "
        "CUDA toolkit's NVRTC library, and none could be loaded (%s)", why);
  return nvrtc;
}
