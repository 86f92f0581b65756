/* cudaboxblur: the on-disk cache of compiled kernels (no GPU needed)
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudaboxblur-cache.h"
#include "cudaboxblur-nvrtc.h"
#include "cudaboxblur-program.h"
#include "testutils.h"

/* an H100/H200, which every NVRTC this builds with compiles cubins for */
#define MAJOR 9
#define MINOR 0

/* What the tests cache: a small kernel, which NVRTC compiles in a
 * fraction of the time of the real ones (the program suite compiles
 * those), for the same cache code. */
static const gchar *source = "#include \"boxblur-args.h\"\n"
    "extern \"C\" __global__ void k (BoxBlurArgs a) { a.dst[0] = 1; }\n";

static gchar *
make_dir (void)
{
  gchar *dir = g_dir_make_tmp ("cudaboxblur-cache-XXXXXX", NULL);

  fail_unless (dir != NULL);
  return dir;
}

/* The kernels of @source for MAJOR.MINOR with the cache in @dir (NULL:
 * turned off), and the name of the cache entry used. */
static GBytes *
image_entry (const gchar * source, const gchar * dir, gboolean read_cache,
    gchar ** entry, gboolean * cached)
{
  GError *error = NULL;
  gchar *arch = NULL;
  GBytes *image;

  g_setenv (GST_CUDA_BOX_BLUR_CACHE_ENV, dir ? dir : "", TRUE);
  image = gst_cuda_box_blur_program_image (source, MAJOR, MINOR, read_cache,
      &arch, entry, cached, &error);
  fail_unless (image != NULL, "%s", error ? error->message : "?");
  fail_unless_equals_string (arch, "sm_90");
  g_free (arch);
  return image;
}

static GBytes *
image_of (const gchar * source, const gchar * dir, gboolean read_cache,
    gboolean * cached)
{
  return image_entry (source, dir, read_cache, NULL, cached);
}

static GBytes *
image (const gchar * dir, gboolean * cached)
{
  return image_of (source, dir, TRUE, cached);
}

/* The names in @dir, sorted. */
static GPtrArray *
entries (const gchar * dir)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  if (d)
    g_dir_close (d);
  return names;
}

/* The path of the one entry of @dir. */
static gchar *
only_entry (const gchar * dir)
{
  GPtrArray *names = entries (dir);
  gchar *path;

  fail_unless_equals_int (names->len, 1);
  path = g_build_filename (dir, g_ptr_array_index (names, 0), NULL);
  g_ptr_array_unref (names);
  return path;
}

static void
assert_same (GBytes * a, GBytes * b)
{
  fail_unless (g_bytes_equal (a, b), "images differ (%" G_GSIZE_FORMAT
      " and %" G_GSIZE_FORMAT " bytes)", g_bytes_get_size (a),
      g_bytes_get_size (b));
}

/* The first start compiles the kernels and stores them; the next loads what
 * was stored, and the entry is named after the architecture and the NVRTC
 * version. */
GST_START_TEST (test_miss_then_hit)
{
  const GstCudaBoxBlurNvrtc *nvrtc = gst_cuda_box_blur_nvrtc_get (NULL);
  gchar *dir = make_dir (), *path, *version;
  GBytes *first, *second;
  gboolean cached = TRUE;

  fail_unless (nvrtc != NULL);
  first = image (dir, &cached);
  fail_if (cached, "an empty cache had the kernels");
  path = only_entry (dir);
  version = g_strdup_printf ("-nvrtc%03d.%03d.cubin", nvrtc->major,
      nvrtc->minor);
  fail_unless (g_str_has_prefix (strrchr (path, '/') + 1, "sm_90-"), "%s",
      path);
  fail_unless (g_str_has_suffix (path, version), "%s", path);

  second = image (dir, &cached);
  fail_unless (cached, "the second start compiled again");
  assert_same (first, second);

  g_bytes_unref (first);
  g_bytes_unref (second);
  g_free (version);
  g_free (path);
  gst_cuda_box_blur_cache_remove (dir);
  g_free (dir);
}

GST_END_TEST;

/* Other source is another key: it is compiled, not given the entry of the
 * built-in kernels. */
GST_START_TEST (test_key_covers_the_source)
{
  gchar *dir = make_dir ();
  gchar *other = g_strconcat (source,
      "\n/* changed */\n", NULL);
  GBytes *a, *b;
  GPtrArray *names;
  gboolean cached;

  a = image (dir, &cached);
  fail_if (cached);
  b = image_of (other, dir, TRUE, &cached);
  fail_if (cached, "changed source got the built-in kernels' entry");
  names = entries (dir);
  fail_unless_equals_int (names->len, 2);

  g_ptr_array_unref (names);
  g_bytes_unref (a);
  g_bytes_unref (b);
  g_free (other);
  gst_cuda_box_blur_cache_remove (dir);
  g_free (dir);
}

GST_END_TEST;

/* The NVRTC version is part of the key.  A warm start takes an entry of
 * another NVRTC without loading NVRTC; the refresh that follows stores the
 * entry of the NVRTC found and removes the other. */
GST_START_TEST (test_other_nvrtc_version)
{
  gchar *dir = make_dir (), *path, *stale, *entry = NULL, *current;
  GBytes *good, *again;
  GPtrArray *names;
  gboolean cached;

  good = image (dir, &cached);
  path = only_entry (dir);
  current = g_path_get_basename (path);
  stale = g_strdup (path);
  memcpy (strstr (stale, "-nvrtc") + 6, "001.000", 7);
  fail_unless_equals_int (g_rename (path, stale), 0);

  again = image_entry (source, dir, TRUE, &entry,
      &cached);
  fail_unless (cached);
  fail_unless (g_str_has_suffix (stale, entry), "%s", entry);
  assert_same (good, again);

  fail_unless (gst_cuda_box_blur_program_refresh
      (source, MAJOR, MINOR, entry));
  names = entries (dir);
  fail_unless_equals_int (names->len, 1);
  fail_unless_equals_string (g_ptr_array_index (names, 0), current);
  /* up to date: nothing to do */
  fail_if (gst_cuda_box_blur_program_refresh (source,
          MAJOR, MINOR, current));

  g_ptr_array_unref (names);
  g_bytes_unref (again);
  g_bytes_unref (good);
  g_free (entry);
  g_free (current);
  g_free (stale);
  g_free (path);
  gst_cuda_box_blur_cache_remove (dir);
  g_free (dir);
}

GST_END_TEST;

/* A damaged entry is never loaded: it is compiled again and replaced. */
GST_START_TEST (test_corrupt_entry)
{
  gchar *dir = make_dir (), *path, *contents;
  gsize length;
  GBytes *good, *again;
  gboolean cached;
  guint damage;

  good = image (dir, &cached);
  path = only_entry (dir);
  fail_unless (g_file_get_contents (path, &contents, &length, NULL));

  for (damage = 0; damage < 4; damage++) {
    gchar *bad = g_memdup2 (contents, length);
    gsize bad_length = length;

    switch (damage) {
      case 0:                  /* one bit of the image */
        bad[length - 20] ^= 0x10;
        break;
      case 1:                  /* truncated */
        bad_length = length / 2;
        break;
      case 2:                  /* shorter than the header */
        bad_length = 10;
        break;
      case 3:                  /* empty */
        bad_length = 0;
        break;
    }
    fail_unless (g_file_set_contents (path, bad, bad_length, NULL));
    again = image (dir, &cached);
    fail_if (cached, "damage %u: a corrupt entry was trusted", damage);
    assert_same (good, again);
    g_bytes_unref (again);

    /* replaced by a good entry */
    again = image (dir, &cached);
    fail_unless (cached, "damage %u: the entry was not replaced", damage);
    assert_same (good, again);
    g_bytes_unref (again);
    g_free (bad);
  }

  g_free (contents);
  g_bytes_unref (good);
  g_free (path);
  gst_cuda_box_blur_cache_remove (dir);
  g_free (dir);
}

GST_END_TEST;

/* An entry that cannot be read (here a directory in its place) is compiled
 * again; the start does not fail because the cache does. */
GST_START_TEST (test_unreadable_entry)
{
  gchar *dir = make_dir (), *path;
  GBytes *good, *again;
  GPtrArray *names;
  gboolean cached;

  good = image (dir, &cached);
  path = only_entry (dir);
  fail_unless_equals_int (g_unlink (path), 0);
  fail_unless_equals_int (g_mkdir (path, 0700), 0);

  again = image (dir, &cached);
  fail_if (cached);
  assert_same (good, again);
  /* no temporary file left behind */
  names = entries (dir);
  fail_unless_equals_int (names->len, 1);

  g_ptr_array_unref (names);
  g_bytes_unref (again);
  g_bytes_unref (good);
  g_free (path);
  gst_cuda_box_blur_cache_remove (dir);
  g_free (dir);
}

GST_END_TEST;

/* A cache that cannot be written still serves what it has, and a miss
 * there compiles without an error. */
GST_START_TEST (test_read_only_cache)
{
  gchar *dir = make_dir (), *other = g_strconcat (source,
      "\n/* read-only */\n", NULL);
  GBytes *good, *again;
  GPtrArray *names;
  gboolean cached;

  good = image (dir, &cached);
  fail_unless_equals_int (g_chmod (dir, 0500), 0);

  again = image (dir, &cached);
  fail_unless (cached, "a read-only cache was not read");
  assert_same (good, again);
  g_bytes_unref (again);

  if (access (dir, W_OK) == 0) {
    /* root writes anywhere: a cache under a file cannot be created */
    gchar *file = g_build_filename (dir, "file", NULL), *under;

    g_print ("cache: running as root, where permissions do not stop "
        "writes: checking a cache directory that cannot be created\n");
    g_chmod (dir, 0700);
    fail_unless (g_file_set_contents (file, "x", 1, NULL));
    under = g_build_filename (file, "cache", NULL);
    again = image_of (other, under, TRUE, &cached);
    fail_if (cached);
    fail_if (g_file_test (under, G_FILE_TEST_EXISTS));
    g_free (under);
    g_free (file);
  } else {
    again = image_of (other, dir, TRUE, &cached);
    fail_if (cached);
    names = entries (dir);
    fail_unless_equals_int (names->len, 1);
    g_ptr_array_unref (names);
  }
  g_bytes_unref (again);

  g_bytes_unref (good);
  g_free (other);
  gst_cuda_box_blur_cache_remove (dir);
  g_free (dir);
}

GST_END_TEST;

/* Two processes fill an empty cache at the same moment: both start, and
 * what is left is one whole entry. */
GST_START_TEST (test_two_processes)
{
  gchar *dir = make_dir (), *path;
  GBytes *expected, *stored;
  GPtrArray *names;
  gboolean cached;
  gint gate[2], i, status;
  pid_t child[2];

  expected = image_of (source, NULL, FALSE, &cached);
  fail_unless (pipe (gate) == 0);
  for (i = 0; i < 2; i++) {
    child[i] = fork ();
    fail_unless (child[i] >= 0);
    if (child[i] == 0) {
      GError *error = NULL;
      gchar *arch = NULL, c;
      GBytes *img;

      close (gate[1]);
      /* both wait here until the parent closes the gate */
      while (read (gate[0], &c, 1) > 0);
      g_setenv (GST_CUDA_BOX_BLUR_CACHE_ENV, dir, TRUE);
      img = gst_cuda_box_blur_program_image (source,
          MAJOR, MINOR, TRUE, &arch, NULL, &cached, &error);
      _exit (img && g_bytes_equal (img, expected) ? 0 : 1);
    }
  }
  close (gate[0]);
  close (gate[1]);
  for (i = 0; i < 2; i++) {
    fail_unless (waitpid (child[i], &status, 0) == child[i]);
    fail_unless (WIFEXITED (status) && WEXITSTATUS (status) == 0,
        "process %d failed (status %d)", i, status);
  }

  names = entries (dir);
  fail_unless_equals_int (names->len, 1);
  path = only_entry (dir);
  stored = image (dir, &cached);
  fail_unless (cached);
  assert_same (expected, stored);

  g_ptr_array_unref (names);
  g_bytes_unref (stored);
  g_bytes_unref (expected);
  g_free (path);
  gst_cuda_box_blur_cache_remove (dir);
  g_free (dir);
}

GST_END_TEST;

/* Unset, the cache is in the user's cache directory; set empty, it is off
 * and nothing is written anywhere. */
GST_START_TEST (test_default_and_off)
{
  gchar *home = g_build_filename (g_getenv ("XDG_CACHE_HOME"), "cudaboxblur",
      NULL);
  gchar *dir;
  GBytes *a, *b;
  GPtrArray *names;
  gboolean cached;

  g_unsetenv (GST_CUDA_BOX_BLUR_CACHE_ENV);
  dir = gst_cuda_box_blur_cache_dir ();
  fail_unless_equals_string (dir, home);
  g_free (dir);

  /* off: compiled each time, nothing written */
  a = image (NULL, &cached);
  fail_if (cached);
  b = image (NULL, &cached);
  fail_if (cached, "the cache was used while turned off");
  assert_same (a, b);
  names = entries (home);
  fail_unless_equals_int (names->len, 0);
  g_ptr_array_unref (names);

  g_bytes_unref (a);
  g_bytes_unref (b);
  g_free (home);
  gst_cuda_box_blur_cache_remove (g_getenv ("XDG_CACHE_HOME"));
}

GST_END_TEST;

static Suite *
cache_suite (void)
{
  Suite *s = suite_create ("cache");
  TCase *tc = tcase_create ("cache");
  gchar *xdg = g_dir_make_tmp ("cudaboxblur-xdg-XXXXXX", NULL);

  /* the user's cache directory of this test, read by GLib once */
  g_setenv ("XDG_CACHE_HOME", xdg, TRUE);
  g_free (xdg);

  /* each test compiles the kernels a few times */
  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_default_and_off);
  tcase_add_test (tc, test_miss_then_hit);
  tcase_add_test (tc, test_key_covers_the_source);
  tcase_add_test (tc, test_other_nvrtc_version);
  tcase_add_test (tc, test_corrupt_entry);
  tcase_add_test (tc, test_unreadable_entry);
  tcase_add_test (tc, test_read_only_cache);
  tcase_add_test (tc, test_two_processes);
  return s;
}

int
main (int argc, char **argv)
{
  gchar *reason = NULL;

  gst_check_init (&argc, &argv);
  /* every test compiles */
  if (!test_nvrtc_available (&reason)) {
    g_print ("SKIP: cache: %s\n", reason);
    g_free (reason);
    return TEST_EXIT_SKIP;
  }
  return gst_check_run_suite (cache_suite (), "cache", __FILE__);
}
