/* cudaboxblur: the kernels built with the plugin, the choice among them,
 * and NVRTC, which compiles them at run time with no GPU present
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run with the architectures of the cuda-archs build option as arguments
 * (sm_75 sm_80 ...).
 */

#define _GNU_SOURCE             /* memmem */
#include <gst/check/gstcheck.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cudaboxblur-program.h"
#include "boxblur-kernel.h"
#include "testutils.h"

/* the architectures the build was asked for */
static gchar **option_archs;

/* A small kernel, which NVRTC compiles in a fraction of the time of the
 * real ones. */
static const gchar *small_source = "#include \"boxblur-args.h\"\n"
    "extern \"C\" __global__ void k (BoxBlurArgs a) { a.dst[0] = 1; }\n";

/* What nvcc writes at the start of a fatbin and of its first entry: the
 * magic number, then at offset 16 the entry's kind (1: PTX, 2: machine
 * code) and at offset 44 its architecture (90 for sm_90). */
#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_KIND_PTX 1
#define FATBIN_KIND_ELF 2

static guint32
read_u32 (const guint8 * p)
{
  return p[0] | p[1] << 8 | p[2] << 16 | (guint32) p[3] << 24;
}

/* Every architecture of the option has machine code among the built-in
 * images, there is PTX of the newest of them, and nothing else; each image
 * is a fatbin whose first entry is what the table says. */
GST_START_TEST (test_built_in_images)
{
  const GstCudaBoxBlurBuiltIn *images;
  guint n, i, n_ptx = 0;
  gint newest = 0;

  images = gst_cuda_box_blur_program_built_in (&n);
  fail_unless (g_strv_length (option_archs) > 0, "no architecture given");
  fail_unless_equals_int (n, g_strv_length (option_archs) + 1);

  for (i = 0; option_archs[i]; i++) {
    gint arch = atoi (option_archs[i] + strlen ("sm_"));
    gboolean found = FALSE;
    guint j;

    fail_unless (g_str_has_prefix (option_archs[i], "sm_") && arch >= 75,
        "%s", option_archs[i]);
    newest = MAX (newest, arch);
    for (j = 0; j < n; j++)
      found |= !images[j].ptx && images[j].arch == arch;
    fail_unless (found, "no machine code for %s", option_archs[i]);
  }

  for (i = 0; i < n; i++) {
    const guint8 *data = images[i].data;

    GST_INFO ("%s_%d: %" G_GSIZE_FORMAT " bytes", images[i].ptx ? "compute"
        : "sm", images[i].arch, images[i].size);
    fail_unless (images[i].size > 64);
    fail_unless ((guintptr) data % 8 == 0, "image %u is not aligned", i);
    fail_unless_equals_uint64 (read_u32 (data), FATBIN_MAGIC);
    fail_unless_equals_int (data[16], images[i].ptx ? FATBIN_KIND_PTX :
        FATBIN_KIND_ELF);
    fail_unless_equals_uint64 (read_u32 (data + 44), images[i].arch);
    if (images[i].ptx) {
      fail_unless_equals_int (images[i].arch, newest);
      n_ptx++;
    }
  }
  fail_unless_equals_int (n_ptx, 1);
}

GST_END_TEST;

/* The choice of image for a GPU, in every case: machine code of its own
 * architecture, else of the same major version and a lower minor one (the
 * highest), else PTX of an older architecture (the newest), else none, and
 * NVRTC compiles. */
GST_START_TEST (test_pick)
{
  static const guint8 data[1];
  static const GstCudaBoxBlurBuiltIn images[] = {
    {75, FALSE, data, 1}, {80, FALSE, data, 1}, {86, FALSE, data, 1},
    {90, FALSE, data, 1}, {100, FALSE, data, 1}, {90, TRUE, data, 1},
    {80, TRUE, data, 1},
  };
  static const struct
  {
    gint major, minor;
    gint arch;                  /* 0: none */
    gboolean ptx;
  } cases[] = {
    {9, 0, 90, FALSE},          /* its own */
    {7, 5, 75, FALSE},
    {8, 6, 86, FALSE},
    {8, 7, 86, FALSE},          /* Jetson Orin: 8.6's, not 8.0's */
    {8, 9, 86, FALSE},
    {10, 3, 100, FALSE},        /* a later minor version */
    {12, 0, 90, TRUE},          /* newer than all: the newest PTX */
    {11, 0, 90, TRUE},
    {9, 1, 90, FALSE},
    {7, 0, 0, FALSE},           /* older than all: NVRTC */
    {7, 2, 0, FALSE},
  };
  static const GstCudaBoxBlurBuiltIn only_ptx[] = { {90, TRUE, data, 1} };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const GstCudaBoxBlurBuiltIn *image = gst_cuda_box_blur_program_pick
        (images, G_N_ELEMENTS (images), cases[i].major, cases[i].minor);

    if (!cases[i].arch) {
      fail_unless (image == NULL, "sm_%d%d", cases[i].major, cases[i].minor);
      continue;
    }
    fail_unless (image != NULL, "sm_%d%d", cases[i].major, cases[i].minor);
    fail_unless_equals_int (image->arch, cases[i].arch);
    fail_unless_equals_int (image->ptx, cases[i].ptx);
  }

  /* machine code of another major version never serves: PTX does */
  fail_unless (gst_cuda_box_blur_program_pick (only_ptx, 1, 9, 0) ==
      &only_ptx[0]);
  fail_unless (gst_cuda_box_blur_program_pick (only_ptx, 1, 8, 9) == NULL);
  fail_unless (gst_cuda_box_blur_program_pick (images, 0, 9, 0) == NULL);
}

GST_END_TEST;

/* NVRTC compiles the real kernels, once. */
GST_START_TEST (test_compile_cubin)
{
  GError *error = NULL;
  GBytes *cubin = gst_cuda_box_blur_program_compile
      (cuda_box_blur_kernel_source, "sm_90", &error);
  gsize size = 0;
  const guint8 *data;

  fail_unless (cubin != NULL, "%s", error ? error->message : "?");
  data = g_bytes_get_data (cubin, &size);
  /* a cubin is an ELF image */
  fail_unless (size > 4 && memcmp (data, "\177ELF", 4) == 0);
  fail_unless (memmem (data, size, "box_blur_u8", 11) != NULL);
  fail_unless (memmem (data, size, "box_blur_f32", 12) != NULL);
  g_bytes_unref (cubin);
}

GST_END_TEST;

GST_START_TEST (test_compile_ptx)
{
  GError *error = NULL;
  GBytes *ptx = gst_cuda_box_blur_program_compile (small_source,
      "compute_75", &error);
  gsize size = 0;
  const gchar *text;

  fail_unless (ptx != NULL, "%s", error ? error->message : "?");
  text = g_bytes_get_data (ptx, &size);
  /* NUL-terminated, as the driver wants PTX */
  fail_unless (size > 0 && text[size - 1] == '\0');
  fail_unless (strstr (text, ".entry k") != NULL, "%s", text);
  fail_unless (strstr (text, ".target sm_75") != NULL, "%s", text);
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

/* A kernel source file (CUDABOXBLUR_KERNEL_SOURCE) is read with the
 * families it includes put in their place: the source tree's boxblur.cu
 * gives the very text the build embedded (kernels/embed.py puts it
 * together the same way); a file that includes itself is refused. */
GST_START_TEST (test_source_with_parts)
{
  gchar *path = g_build_filename (KERNELS_DIR, "boxblur.cu", NULL);
  gchar *text, *loop = NULL;
  GError *error = NULL;
  gint fd;

  text = gst_cuda_box_blur_program_source (NULL, &error);
  fail_unless_equals_string (text, cuda_box_blur_kernel_source);
  g_free (text);
  text = gst_cuda_box_blur_program_source (path, &error);
  fail_unless (text != NULL, "%s", error ? error->message : "");
  fail_unless (strstr (text, "box_tiles_px4") != NULL);
  fail_unless_equals_string (text, cuda_box_blur_kernel_source);
  g_free (text);

  fd = g_file_open_tmp ("cudaboxblur-XXXXXX.cuh", &loop, NULL);
  fail_unless (fd >= 0);
  close (fd);
  text = g_strdup_printf ("#include \"%s\"\n", strrchr (loop, '/') + 1);
  fail_unless (g_file_set_contents (loop, text, -1, NULL));
  g_free (text);
  fail_if (gst_cuda_box_blur_program_source (loop, &error));
  fail_unless (strstr (error->message, "include each other") != NULL, "%s",
      error->message);
  g_clear_error (&error);
  g_unlink (loop);
  g_free (loop);
  g_free (path);
}

GST_END_TEST;

/* the reason NVRTC cannot be loaded; NULL where it can */
static gchar *no_nvrtc;

static Suite *
program_suite (void)
{
  Suite *s = suite_create ("program");
  TCase *built_in = tcase_create ("built-in");
  TCase *nvrtc;

  suite_add_tcase (s, built_in);
  tcase_add_test (built_in, test_built_in_images);
  tcase_add_test (built_in, test_pick);
  tcase_add_test (built_in, test_source_with_parts);

  if (no_nvrtc)
    return s;
  nvrtc = tcase_create ("nvrtc");
  /* one compile of the real kernels: seconds, minutes under a sanitizer */
  tcase_set_timeout (nvrtc, 300);
  suite_add_tcase (s, nvrtc);
  tcase_add_test (nvrtc, test_compile_cubin);
  tcase_add_test (nvrtc, test_compile_ptx);
  tcase_add_test (nvrtc, test_compile_error_carries_log);
  tcase_add_test (nvrtc, test_choose_arch);
  return s;
}

int
main (int argc, char **argv)
{
  gint i, ret;

  /* the architectures, before gst_check_init() sees the arguments */
  option_archs = g_new0 (gchar *, argc);
  for (i = 1; i < argc && g_str_has_prefix (argv[i], "sm_"); i++)
    option_archs[i - 1] = argv[i];
  argv[i - 1] = argv[0];
  argc -= i - 1;
  argv += i - 1;

  gst_check_init (&argc, &argv);
  /* without NVRTC the built-in images are still checked, and the suite
   * says it skipped the rest */
  test_nvrtc_available (&no_nvrtc);
  ret = gst_check_run_suite (program_suite (), "program", __FILE__);
  if (ret == 0 && no_nvrtc) {
    g_print ("SKIP: program: the NVRTC tests: %s\n", no_nvrtc);
    ret = TEST_EXIT_SKIP;
  }
  g_free (no_nvrtc);
  return ret;
}
