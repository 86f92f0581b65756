/* cudaboxblur: the plugin loads without the CUDA toolkit's libraries
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run with --hidden, the test starts itself again under the dynamic loader
 * with its cache ignored (ld.so --inhibit-cache), which hides the toolkit's
 * libraries where, as with NVIDIA's packages, only the loader's cache finds
 * them; the system's own directories (GLib, GStreamer, the driver's
 * libcuda) stay visible.  That child registers the plugin from scratch and
 * plays a pipeline through it.
 */

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <dlfcn.h>
#include <elf.h>
#include <string.h>

#include "config.h"
#include "testutils.h"
#include "cudaboxblur-cache.h"
#include "cudaboxblur-device.h"
#include "cudaboxblur-program.h"
#include "boxblur-kernel.h"

/* The NVRTC libraries the plugin looks for. */
static const gchar *const nvrtc_names[] = { "libnvrtc.so.13",
  "libnvrtc.so.12", "libnvrtc.so"
};

/* The strings of the ELF file @path that @kind picks: DT_NEEDED entries,
 * or the interpreter (PT_INTERP). */
typedef enum
{ ELF_NEEDED, ELF_INTERP } ElfQuery;

static GPtrArray *
elf_read (const gchar * path, ElfQuery kind)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  gchar *data = NULL;
  gsize size = 0;
  const Elf64_Ehdr *eh;
  guint i, j;

  fail_unless (g_file_get_contents (path, &data, &size, NULL), "%s", path);
  eh = (const Elf64_Ehdr *) data;
  fail_unless (size > sizeof (*eh) && memcmp (eh->e_ident, ELFMAG, SELFMAG)
      == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64, "%s is no ELF64 file",
      path);

  if (kind == ELF_INTERP) {
    for (i = 0; i < eh->e_phnum; i++) {
      const Elf64_Phdr *ph = (const Elf64_Phdr *) (data + eh->e_phoff +
          (gsize) i * eh->e_phentsize);
      if (ph->p_type == PT_INTERP)
        g_ptr_array_add (out, g_strndup (data + ph->p_offset, ph->p_filesz));
    }
  } else {
    for (i = 0; i < eh->e_shnum; i++) {
      const Elf64_Shdr *sh = (const Elf64_Shdr *) (data + eh->e_shoff +
          (gsize) i * eh->e_shentsize);
      const Elf64_Shdr *strtab;

      if (sh->sh_type != SHT_DYNAMIC)
        continue;
      strtab = (const Elf64_Shdr *) (data + eh->e_shoff +
          (gsize) sh->sh_link * eh->e_shentsize);
      for (j = 0; j < sh->sh_size / sizeof (Elf64_Dyn); j++) {
        const Elf64_Dyn *dyn = (const Elf64_Dyn *) (data + sh->sh_offset) + j;

        if (dyn->d_tag == DT_NEEDED)
          g_ptr_array_add (out, g_strdup (data + strtab->sh_offset +
                  dyn->d_un.d_val));
      }
    }
  }
  g_free (data);
  return out;
}

/* Neither the CUDA runtime nor NVRTC is needed to load the plugin: one is
 * linked in, the other opened when the kernels are compiled. */
GST_START_TEST (test_plugin_needs_no_toolkit_library)
{
  const gchar *plugin = g_getenv ("CUDABOXBLUR_PLUGIN_FILE");
  GPtrArray *needed;
  gboolean gstreamer = FALSE;
  guint i;

  fail_unless (plugin != NULL, "CUDABOXBLUR_PLUGIN_FILE is not set");
  needed = elf_read (plugin, ELF_NEEDED);
  for (i = 0; i < needed->len; i++) {
    const gchar *name = g_ptr_array_index (needed, i);

    GST_INFO ("DT_NEEDED %s", name);
    fail_if (g_str_has_prefix (name, "libcudart"), "the plugin needs %s",
        name);
    fail_if (g_str_has_prefix (name, "libnvrtc"), "the plugin needs %s",
        name);
    gstreamer |= g_str_has_prefix (name, "libgstreamer-1.0");
  }
  /* the entries were read at all */
  fail_unless (gstreamer, "no libgstreamer-1.0 among %u DT_NEEDED entries",
      needed->len);
  g_ptr_array_unref (needed);
}

GST_END_TEST;

/* TRUE when an NVRTC library is mapped into this process (the child's,
 * where check's assertions cannot run). */
static gboolean
nvrtc_mapped (void)
{
  gchar *maps = NULL;
  gboolean mapped;

  if (!g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL))
    g_error ("cannot read /proc/self/maps");
  mapped = strstr (maps, "libnvrtc") != NULL;
  g_free (maps);
  return mapped;
}

/* The child: reports on stdout, in one line, what a fresh registry and one
 * pipeline through cudaboxblur gave: "EOS nvrtc=0|1 arch=ARCH", "ERROR
 * MESSAGE", "NOT REGISTERED", or with --hidden "VISIBLE LIBRARY" when
 * NVRTC is not hidden after all. */
static gint
child_main (gboolean hidden)
{
  GstElement *pipeline, *blur;
  GstMessage *msg;
  GstElementFactory *factory;
  gchar *arch = NULL;
  guint i;

  for (i = 0; hidden && i < G_N_ELEMENTS (nvrtc_names); i++) {
    void *handle = dlopen (nvrtc_names[i], RTLD_LAZY | RTLD_LOCAL);

    if (handle) {
      g_print ("VISIBLE %s\n", nvrtc_names[i]);
      return 0;
    }
  }

  gst_init (NULL, NULL);
  factory = gst_element_factory_find ("cudaboxblur");
  if (!factory) {
    g_print ("NOT REGISTERED\n");
    return 0;
  }
  gst_object_unref (factory);

  pipeline = gst_parse_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! cudaboxblur name=b "
      "radius=2 ! fakesink", NULL);
  blur = gst_bin_get_by_name (GST_BIN (pipeline), "b");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_object_get (blur, "arch", &arch, NULL);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *error = NULL;

    gst_message_parse_error (msg, &error, NULL);
    g_print ("ERROR %s\n", error->message);
    g_error_free (error);
  } else if (msg) {
    g_print ("EOS nvrtc=%d arch=%s\n", nvrtc_mapped (), arch);
  } else {
    g_print ("TIMEOUT\n");
  }
  gst_clear_message (&msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (blur);
  gst_object_unref (pipeline);
  g_free (arch);
  return 0;
}

/* Runs this test as the child, with a fresh registry, the kernel cache
 * @cache_dir (NULL: off) and CUDABOXBLUR_KERNEL_SOURCE @source (NULL:
 * unset); @hidden: under ld.so --inhibit-cache.  Returns its report, and
 * in @log (optional) what it logged of its kernels. */
static gchar *
run_child (gboolean hidden, const gchar * cache_dir, const gchar * source,
    gchar ** log)
{
  GPtrArray *interp = elf_read ("/proc/self/exe", ELF_INTERP);
  gchar *self = g_file_read_link ("/proc/self/exe", NULL);
  gchar *registry_dir = g_dir_make_tmp ("cudaboxblur-reg-XXXXXX", NULL);
  gchar *registry = g_build_filename (registry_dir, "registry.bin", NULL);
  gchar *argv[] = { NULL, (gchar *) "--inhibit-cache", self,
    (gchar *) "--child", (gchar *) "--hidden", NULL
  };
  gchar **envp = g_get_environ ();
  gchar *out = NULL, *err = NULL;
  GError *error = NULL;
  gint status = 0;

  fail_unless_equals_int (interp->len, 1);
  argv[0] = g_ptr_array_index (interp, 0);
  envp = g_environ_setenv (envp, "GST_REGISTRY_1_0", registry, TRUE);
  envp = g_environ_setenv (envp, "GST_REGISTRY_FORK", "no", TRUE);
  /* the plugins the pipeline needs and no others: nvcodec, for one, opens
   * NVRTC itself */
  envp = g_environ_setenv (envp, "GST_PLUGIN_LOADING_WHITELIST",
      "gstreamer:gst-plugins-base:" PACKAGE, TRUE);
  envp = g_environ_setenv (envp, "GST_DEBUG", "cudaboxblur:4", TRUE);
  envp = g_environ_setenv (envp, "GST_DEBUG_NO_COLOR", "1", TRUE);
  envp = g_environ_setenv (envp, "CUDABOXBLUR_CACHE_DIR",
      cache_dir ? cache_dir : "", TRUE);
  if (source)
    envp = g_environ_setenv (envp, "CUDABOXBLUR_KERNEL_SOURCE", source, TRUE);
  else
    envp = g_environ_unsetenv (envp, "CUDABOXBLUR_KERNEL_SOURCE");
  if (!hidden)
    argv[4] = NULL;
  fail_unless (g_spawn_sync (NULL, hidden ? argv : argv + 2, envp,
          G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error), "%s",
      error ? error->message : "");
  fail_unless (g_spawn_check_wait_status (status, NULL),
      "the child failed (status %d): %s%s", status, out, err);
  GST_INFO ("child said: %s", out);

  if (log)
    *log = g_steal_pointer (&err);
  gst_cuda_box_blur_cache_remove (registry_dir);
  g_free (registry);
  g_free (registry_dir);
  g_free (err);
  g_strfreev (envp);
  g_free (self);
  g_ptr_array_unref (interp);
  return g_strstrip (out);
}

/* What the arch property says of the built-in kernels that serve a GPU of
 * compute capability @major.@minor. */
static gchar *
built_in_arch (gint major, gint minor)
{
  const GstCudaBoxBlurBuiltIn *images, *image;
  guint n;

  images = gst_cuda_box_blur_program_built_in (&n);
  image = gst_cuda_box_blur_program_pick (images, n, major, minor);
  fail_unless (image != NULL, "no built-in kernels for sm_%d%d", major,
      minor);
  return image->ptx ?
      g_strdup_printf ("compute_%d (built-in PTX, compiled by the driver)",
      image->arch) : g_strdup_printf ("sm_%d (built in)", image->arch);
}

/* With the toolkit hidden the plugin registers.  Without a GPU the
 * pipeline says there is no CUDA device; with one (the driver visible),
 * the built-in kernels blur, and NVRTC is needed only for kernels from
 * source, unless the kernel cache holds them. */
GST_START_TEST (test_loads_with_toolkit_hidden)
{
  GstCudaBoxBlurDevice device;
  gchar *report = run_child (TRUE, NULL, NULL, NULL);
  gchar *reason = NULL, *log = NULL, *expected, *source, *dir, *arch = NULL;
  gboolean cached;
  GBytes *image;

  if (g_str_has_prefix (report, "VISIBLE ")) {
    g_print ("loader: %s stays visible with the loader's cache ignored "
        "(LD_LIBRARY_PATH or a system directory): nothing hidden, not "
        "checked\n", report + 8);
    g_free (report);
    return;
  }
  fail_if (strcmp (report, "NOT REGISTERED") == 0,
      "cudaboxblur did not register with the toolkit hidden");
  if (!test_gpu_available (&reason)) {
    fail_unless (g_str_has_prefix (report, "ERROR No CUDA device"), "%s",
        report);
    g_free (reason);
    g_free (report);
    return;
  }

  /* the built-in kernels, the log naming them */
  fail_unless (gst_cuda_box_blur_device_query (0, &device, NULL));
  expected = built_in_arch (device.major, device.minor);
  g_free (report);
  report = run_child (TRUE, NULL, NULL, &log);
  fail_unless (g_str_has_prefix (report, "EOS nvrtc=0 arch="), "%s", report);
  fail_unless_equals_string (strstr (report, "arch=") + 5, expected);
  fail_unless (strstr (log, expected) != NULL, "the log does not name %s:\n"
      "%s", expected, log);
  g_print ("loader: with NVRTC hidden and no kernel cache, %s\n", expected);
  g_free (log);

  /* kernels from source need NVRTC ... */
  source = g_build_filename (g_get_tmp_dir (), "cudaboxblur-loader.cu", NULL);
  fail_unless (g_file_set_contents (source, cuda_box_blur_kernel_source, -1,
          NULL));
  g_free (report);
  report = run_child (TRUE, NULL, source, NULL);
  fail_unless (g_str_has_prefix (report, "ERROR NVRTC not found"), "%s",
      report);
  fail_unless (strstr (report, "libnvrtc.so.") != NULL, "%s", report);

  /* ... unless the cache has them, filled here with the toolkit visible */
  dir = g_dir_make_tmp ("cudaboxblur-cache-XXXXXX", NULL);
  g_setenv ("CUDABOXBLUR_CACHE_DIR", dir, TRUE);
  image = gst_cuda_box_blur_program_image (cuda_box_blur_kernel_source,
      device.major, device.minor, TRUE, &arch, NULL, &cached, NULL);
  fail_unless (image != NULL);
  g_bytes_unref (image);
  g_free (report);
  report = run_child (TRUE, dir, source, NULL);
  fail_unless (g_str_has_prefix (report, "EOS "), "%s", report);
  fail_unless (g_str_has_suffix (report, " (NVRTC, from the kernel cache)"),
      "%s", report);
  fail_unless (strstr (report, arch) != NULL, "%s", report);

  g_remove (source);
  gst_cuda_box_blur_cache_remove (dir);
  g_free (source);
  g_free (dir);
  g_free (arch);
  g_free (expected);
  g_free (report);
}

GST_END_TEST;

/* With the toolkit visible, the built-in kernels serve without NVRTC being
 * loaded or the kernel cache being looked at. */
GST_START_TEST (test_built_in_needs_no_nvrtc)
{
  gchar *reason = NULL, *parent, *dir, *report;

  if (!test_gpu_available (&reason)) {
    g_print ("loader: %s: the built-in kernels not run\n", reason);
    g_free (reason);
    return;
  }
  parent = g_dir_make_tmp ("cudaboxblur-cache-XXXXXX", NULL);
  dir = g_build_filename (parent, "cache", NULL);
  report = run_child (FALSE, dir, NULL, NULL);
  fail_unless (g_str_has_prefix (report, "EOS nvrtc=0 arch="), "%s", report);
  fail_unless (g_str_has_suffix (report, " (built in)")
      || g_str_has_suffix (report, " (built-in PTX, compiled by the driver)"),
      "%s", report);
  fail_if (g_file_test (dir, G_FILE_TEST_EXISTS), "the kernel cache was "
      "made");
  gst_cuda_box_blur_cache_remove (parent);
  g_free (report);
  g_free (dir);
  g_free (parent);
}

GST_END_TEST;

static Suite *
loader_suite (void)
{
  Suite *s = suite_create ("loader");
  TCase *tc = tcase_create ("loader");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_plugin_needs_no_toolkit_library);
  tcase_add_test (tc, test_loads_with_toolkit_hidden);
  tcase_add_test (tc, test_built_in_needs_no_nvrtc);
  return s;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--child") == 0)
    return child_main (argc > 2 && strcmp (argv[2], "--hidden") == 0);
  /* --gpu: the run with the driver visible, on a machine with a GPU */
  if (argc > 1 && strcmp (argv[1], "--gpu") == 0) {
    test_skip_without_gpu ("loader-gpu");
    argv[1] = argv[0];
    argc--;
    argv++;
  }
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (loader_suite (), "loader", __FILE__);
}
