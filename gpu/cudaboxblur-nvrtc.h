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

#pragma once

#include <gst/gst.h>
#include <nvrtc.h>

G_BEGIN_DECLS

/* The NVRTC functions the kernels are compiled with, from the NVRTC
 * library found at run time: the plugin links no NVRTC, so it loads (and
 * registers) on machines without the CUDA toolkit. */
typedef struct
{
  gint major;                   /* of the library loaded */
  gint minor;
  const gchar *(*GetErrorString) (nvrtcResult result);
  nvrtcResult (*GetNumSupportedArchs) (int *n);
  nvrtcResult (*GetSupportedArchs) (int *archs);
  nvrtcResult (*CreateProgram) (nvrtcProgram * prog, const char *source,
      const char *name, int n_headers, const char *const *headers,
      const char *const *include_names);
  nvrtcResult (*CompileProgram) (nvrtcProgram prog, int n_options,
      const char *const *options);
  nvrtcResult (*GetProgramLogSize) (nvrtcProgram prog, size_t * size);
  nvrtcResult (*GetProgramLog) (nvrtcProgram prog, char *log);
  nvrtcResult (*GetCUBINSize) (nvrtcProgram prog, size_t * size);
  nvrtcResult (*GetCUBIN) (nvrtcProgram prog, char *cubin);
  nvrtcResult (*GetPTXSize) (nvrtcProgram prog, size_t * size);
  nvrtcResult (*GetPTX) (nvrtcProgram prog, char *ptx);
  nvrtcResult (*DestroyProgram) (nvrtcProgram * prog);
} GstCudaBoxBlurNvrtc;

const GstCudaBoxBlurNvrtc * gst_cuda_box_blur_nvrtc_get (GError ** error);

G_END_DECLS
