/* cudaboxblur: NVRTC compiles the kernels with no GPU present
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define _GNU_SOURCE             /* memmem */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "cudaboxblur-program.h"
#include "boxblur-kernel.h"

/* --newest-arch: only the last of the architectures, where NVRTC is slow
 * (under a sanitizer, which tracks every allocation it makes). */
static gboolean newest_arch_only;

GST_START_TEST (test_compile_cubin_for_each_arch)
{
  const gchar *archs[] = { "sm_75", "sm_80", "sm_86", "sm_89", "sm_90" };
  guint i;

  for (i = newest_arch_only ? G_N_ELEMENTS (archs) - 1 : 0;
      i < G_N_ELEMENTS (archs); i++) {
    GError *error = NULL;
    GBytes *cubin = gst_cuda_box_blur_program_compile
        (cuda_box_blur_kernel_source, archs[i], &error);
    gsize size = 0;
    const guint8 *data;

    fail_unless (cubin != NULL, "%s: %s", archs[i],
        error ? error->message : "?");
    data = g_bytes_get_data (cubin, &size);
    /* a cubin is an ELF image */
    fail_unless (size > 4 && memcmp (data, "\177ELF", 4) == 0, "%s",
        archs[i]);
    fail_unless (memmem (data, size, "box_blur_u8", 11) != NULL);
    fail_unless (memmem (data, size, "box_blur_f32", 12) != NULL);
    g_bytes_unref (cubin);
  }
}

GST_END_TEST;

GST_START_TEST (test_compile_ptx)
{
  GError *error = NULL;
  GBytes *ptx = gst_cuda_box_blur_program_compile
      (cuda_box_blur_kernel_source, "compute_75", &error);
  const gchar *text;

  fail_unless (ptx != NULL, "%s", error ? error->message : "?");
  text = g_bytes_get_data (ptx, NULL);
  fail_unless (strstr (text, ".entry box_blur_f32") != NULL);
  fail_unless (strstr (text, ".target sm_75") != NULL);
  g_bytes_unref (ptx);
}

GST_END_TEST;

GST_START_TEST (test_compile_error_carries_log)
{
  const gchar *bad = "extern \"C\" __global__ void k (float *p)\n"
      "{ p[0] = no_such_identifier; }\n";
  GError *error = NULL;

  fail_unless (gst_cuda_box_blur_program_compile (bad, "sm_80",
          &error) == NULL);
  fail_unless (error != NULL);
  fail_unless (g_error_matches (error, GST_LIBRARY_ERROR,
          GST_LIBRARY_ERROR_INIT));
  fail_unless (strstr (error->message, "sm_80") != NULL, "%s",
      error->message);
  /* NVRTC's own diagnostic, with the file name and the culprit */
  fail_unless (strstr (error->message, "boxblur.cu") != NULL, "%s",
      error->message);
  fail_unless (strstr (error->message, "no_such_identifier") != NULL, "%s",
      error->message);
  g_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_choose_arch)
{
  gchar *arch;

  arch = gst_cuda_box_blur_program_choose_arch (9, 0);
  fail_unless_equals_string (arch, "sm_90");
  g_free (arch);

  arch = gst_cuda_box_blur_program_choose_arch (8, 6);
  fail_unless_equals_string (arch, "sm_86");
  g_free (arch);

  /* A GPU newer than this NVRTC gets PTX of the newest architecture NVRTC
   * knows, for the driver to finish. */
  arch = gst_cuda_box_blur_program_choose_arch (99, 9);
  fail_unless (g_str_has_prefix (arch, "compute_"), "%s", arch);
  fail_unless (atoi (arch + strlen ("compute_")) >= 90, "%s", arch);
  g_free (arch);
}

GST_END_TEST;

static Suite *
program_suite (void)
{
  Suite *s = suite_create ("program");
  TCase *tc = tcase_create ("nvrtc");

  /* Compiling five architectures takes a few seconds. */
  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_compile_cubin_for_each_arch);
  tcase_add_test (tc, test_compile_ptx);
  tcase_add_test (tc, test_compile_error_carries_log);
  tcase_add_test (tc, test_choose_arch);
  return s;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--newest-arch") == 0) {
    newest_arch_only = TRUE;
    argv[1] = argv[0];
    argc--;
    argv++;
  }
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (program_suite (), "program", __FILE__);
}
