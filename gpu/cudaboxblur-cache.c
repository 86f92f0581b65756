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

/* The on-disk cache of compiled kernels, so that a process starts without
 * running NVRTC.  One file per compiled image, named by the caller after
 * everything that decides the image (see cudaboxblur-program.c).  Each file
 * is a header, then the image:
 *
 *   8 bytes   CACHE_MAGIC
 *   8 bytes   the image's size, little endian
 *   8 bytes   the image's checksum, little endian
 *
 * so that a truncated or corrupt file is recognised and never loaded.  The
 * checksum catches damage, not malice (the directory is the user's own):
 * it is a 64-bit multiplicative hash, a tenth of SHA-256's time on a
 * cubin, since it is paid on every start.
 * Files are written whole under a temporary name and renamed into place,
 * so readers, and processes filling the cache at once, never see half a
 * file. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaboxblur-cache.h"
#include "cudaboxblur-debug.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

CUDA_BOX_BLUR_DEBUG_CATEGORY ("cudaboxblurcache",
    "cudaboxblur on-disk kernel cache")

#define CACHE_MAGIC "CBBLUR\x02\n"
#define MAGIC_SIZE 8
#define HEADER_SIZE (MAGIC_SIZE + 8 + 8)

/**
 * gst_cuda_box_blur_cache_dir:
 *
 * Returns: the cache directory: $CUDABOXBLUR_CACHE_DIR when set, else
 * g_get_user_cache_dir()/cudaboxblur; %NULL when CUDABOXBLUR_CACHE_DIR is
 * set and empty, which turns the cache off.
 */
gchar *
gst_cuda_box_blur_cache_dir (void)
{
  const gchar *dir = g_getenv (GST_CUDA_BOX_BLUR_CACHE_ENV);

  if (dir)
    return dir[0] ? g_strdup (dir) : NULL;
  return g_build_filename (g_get_user_cache_dir (), "cudaboxblur", NULL);
}

/* FNV-1a's step on 64-bit words: each step is a bijection of the state for
 * a given word, so any change to one word changes the result. */
static guint64
checksum (const guint8 * data, gsize size)
{
  guint64 h = 0xcbf29ce484222325ull ^ size, w;
  gsize i;

  for (i = 0; i + 8 <= size; i += 8) {
    memcpy (&w, data + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
  }
  for (; i < size; i++)
    h = (h ^ data[i]) * 0x100000001b3ull;
  return h;
}

/**
 * gst_cuda_box_blur_cache_load:
 *
 * Returns: the image of entry @name of @dir, or %NULL when there is none,
 * or it cannot be read, or its header does not match its contents.
 */
GBytes *
gst_cuda_box_blur_cache_load (const gchar * dir, const gchar * name)
{
  gchar *path = g_build_filename (dir, name, NULL);
  gchar *contents = NULL;
  gsize length = 0;
  guint64 size, sum = 0, stored;
  GError *error = NULL;
  GBytes *whole, *image = NULL;

  if (!g_file_get_contents (path, &contents, &length, &error)) {
    if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
      GST_DEBUG ("no entry %s", path);
    else
      GST_WARNING ("cannot read kernel cache entry %s, compiling again: %s",
          path, error->message);
    g_error_free (error);
    goto done;
  }

  if (length >= HEADER_SIZE) {
    memcpy (&size, contents + MAGIC_SIZE, 8);
    memcpy (&stored, contents + MAGIC_SIZE + 8, 8);
    size = GUINT64_FROM_LE (size);
    sum = checksum ((const guint8 *) contents + HEADER_SIZE,
        length - HEADER_SIZE);
  }
  if (length < HEADER_SIZE || memcmp (contents, CACHE_MAGIC, MAGIC_SIZE)
      || size != length - HEADER_SIZE || sum != GUINT64_FROM_LE (stored)) {
    GST_WARNING ("kernel cache entry %s is corrupt or truncated (%"
        G_GSIZE_FORMAT " bytes), compiling again", path, length);
    g_free (contents);
    goto done;
  }

  GST_DEBUG ("loaded %s, %" G_GUINT64_FORMAT " bytes", path, size);
  whole = g_bytes_new_take (contents, length);
  image = g_bytes_new_from_bytes (whole, HEADER_SIZE, size);
  g_bytes_unref (whole);

done:
  g_free (path);
  return image;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

/**
 * gst_cuda_box_blur_cache_load_newest:
 * @name: (out): the entry loaded
 *
 * Loads the valid entry of @dir whose name starts with @prefix, ends with
 * @suffix and sorts last: with names that end in the compiler's version,
 * the image of the newest compiler.  For when no compiler can say which
 * name to load.
 */
GBytes *
gst_cuda_box_blur_cache_load_newest (const gchar * dir, const gchar * prefix,
    const gchar * suffix, gchar ** name)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const gchar *entry;
  GBytes *image = NULL;
  gint i;

  *name = NULL;
  if (!d)
    goto done;
  while ((entry = g_dir_read_name (d)))
    if (g_str_has_prefix (entry, prefix) && g_str_has_suffix (entry, suffix))
      g_ptr_array_add (names, g_strdup (entry));
  g_dir_close (d);

  g_ptr_array_sort (names, compare_names);
  for (i = names->len - 1; i >= 0 && !image; i--) {
    image = gst_cuda_box_blur_cache_load (dir, g_ptr_array_index (names, i));
    if (image)
      *name = g_strdup (g_ptr_array_index (names, i));
  }

done:
  g_ptr_array_unref (names);
  return image;
}

/**
 * gst_cuda_box_blur_cache_store:
 *
 * Writes @image as entry @name of @dir, creating @dir, atomically: the
 * entry appears whole or not at all, replacing any older one.
 */
gboolean
gst_cuda_box_blur_cache_store (const gchar * dir, const gchar * name,
    GBytes * image, GError ** error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (image, &size);
  guint8 *contents = g_malloc (HEADER_SIZE + size);
  guint64 le_size = GUINT64_TO_LE ((guint64) size);
  guint64 le_sum = GUINT64_TO_LE (checksum (data, size));
  gchar *path = g_build_filename (dir, name, NULL);
  gboolean ok = FALSE;

  memcpy (contents, CACHE_MAGIC, MAGIC_SIZE);
  memcpy (contents + MAGIC_SIZE, &le_size, 8);
  memcpy (contents + MAGIC_SIZE + 8, &le_sum, 8);
  memcpy (contents + HEADER_SIZE, data, size);

  if (g_mkdir_with_parents (dir, 0700) != 0) {
    const gint err = errno;

    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err),
        "cannot create the kernel cache directory %s: %s", dir,
        g_strerror (err));
    goto done;
  }
  /* a temporary file next to it, then rename() */
  ok = g_file_set_contents_full (path, (const gchar *) contents,
      HEADER_SIZE + size, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
  if (ok)
    GST_INFO ("stored %s, %" G_GSIZE_FORMAT " bytes", path, size);

done:
  g_free (path);
  g_free (contents);
  return ok;
}

/**
 * gst_cuda_box_blur_cache_remove:
 *
 * Removes @path and, when it is a directory, everything below it: a cache
 * directory, for users who clear it and for tests and benchmarks that make
 * their own.
 */
void
gst_cuda_box_blur_cache_remove (const gchar * path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  if (!dir) {
    g_remove (path);
    return;
  }
  g_chmod (path, 0700);
  while ((name = g_dir_read_name (dir))) {
    gchar *child = g_build_filename (path, name, NULL);

    gst_cuda_box_blur_cache_remove (child);
    g_free (child);
  }
  g_dir_close (dir);
  g_rmdir (path);
}
