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

/* The child: reports on stdout what a fresh registry and one pipeline
 * through cudaboxblur gave, with the toolkit hidden. */
static gint
child_main (void)
{
  GstElement *pipeline, *blur;
  GstMessage *msg;
  GstElementFactory *factory;
  gchar *arch = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (nvrtc_names); i++) {
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
    g_print ("EOS %s\n", arch);
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

/* Runs this test as the child under ld.so --inhibit-cache with a fresh
 * registry and the kernel cache @cache_dir (NULL: off); returns its
 * report. */
static gchar *
run_hidden (const gchar * cache_dir)
{
  GPtrArray *interp = elf_read ("/proc/self/exe", ELF_INTERP);
  gchar *self = g_file_read_link ("/proc/self/exe", NULL);
  gchar *registry_dir = g_dir_make_tmp ("cudaboxblur-reg-XXXXXX", NULL);
  gchar *registry = g_build_filename (registry_dir, "registry.bin", NULL);
  gchar *argv[] = { NULL, (gchar *) "--inhibit-cache", self,
    (gchar *) "--child", NULL
  };
  gchar **envp = g_get_environ ();
  gchar *out = NULL, *err = NULL;
  GError *error = NULL;
  gint status = 0;

  fail_unless_equals_int (interp->len, 1);
  argv[0] = g_ptr_array_index (interp, 0);
  envp = g_environ_setenv (envp, "GST_REGISTRY_1_0", registry, TRUE);
  envp = g_environ_setenv (envp, "GST_REGISTRY_FORK", "no", TRUE);
  envp = g_environ_setenv (envp, "CUDABOXBLUR_CACHE_DIR",
      cache_dir ? cache_dir : "", TRUE);
  fail_unless (g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &err, &status, &error), "%s", error ? error->message : "");
  fail_unless (g_spawn_check_wait_status (status, NULL),
      "the child failed (status %d): %s%s", status, out, err);
  GST_INFO ("child said: %s", out);

  gst_cuda_box_blur_cache_remove (registry_dir);
  g_free (registry);
  g_free (registry_dir);
  g_free (err);
  g_strfreev (envp);
  g_free (self);
  g_ptr_array_unref (interp);
  return g_strstrip (out);
}

/* With the toolkit hidden the plugin registers.  Without a GPU the
 * pipeline says there is no CUDA device; with one (the driver visible), it
 * says NVRTC is missing, unless the kernel cache holds the kernels for the
 * GPU, in which case it blurs. */
GST_START_TEST (test_loads_with_toolkit_hidden)
{
  gchar *report = run_hidden (NULL);
  gchar *reason = NULL;

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
  } else {
    GstCudaBoxBlurDevice device;
    gchar *dir = g_dir_make_tmp ("cudaboxblur-cache-XXXXXX", NULL);
    gchar *arch = NULL;
    gboolean cached;
    GBytes *image;

    fail_unless (g_str_has_prefix (report, "ERROR NVRTC not found"), "%s",
        report);
    fail_unless (strstr (report, "libnvrtc.so.") != NULL, "%s", report);

    /* fill a cache for this GPU, with the toolkit visible here */
    fail_unless (gst_cuda_box_blur_device_open (0, &device, NULL));
    g_setenv ("CUDABOXBLUR_CACHE_DIR", dir, TRUE);
    image = gst_cuda_box_blur_program_image (cuda_box_blur_kernel_source,
        device.major, device.minor, TRUE, &arch, NULL, &cached, NULL);
    fail_unless (image != NULL);
    g_bytes_unref (image);

    g_free (report);
    report = run_hidden (dir);
    fail_unless (g_str_has_prefix (report, "EOS "), "%s", report);
    fail_unless_equals_string (report + 4, arch);
    g_print ("loader: with NVRTC hidden, the kernels for %s came from the "
        "cache\n", arch);
    gst_cuda_box_blur_cache_remove (dir);
    g_free (arch);
    g_free (dir);
  }
  g_free (reason);
  g_free (report);
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
  return s;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--child") == 0)
    return child_main ();
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
