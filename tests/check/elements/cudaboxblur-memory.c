/* cudaboxblur: the memory modes on a real GPU
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * memory-mode=pinned and auto offered, taken and produced, against the CPU
 * reference; others' host memory page-locked when it comes back, in every
 * view of it, and unregistered before it is freed.  Exits with 77
 * (skipped) and says why when there is no usable GPU.
 */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <cuda_runtime_api.h>

#include "testutils.h"

static const gchar *const formats[] = { "GRAY8", "GRAY32F" };

/* memory-mode=pinned: pinned host memory offered and produced, results
 * the same. */
GST_START_TEST (test_pinned_mode)
{
  const gint sizes[][2] = { {17, 13}, {1920, 1080} };
  const gint radii[] = { 1, 7, 40 };
  guint s, f, r;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s][0], height = sizes[s][1];

    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstElement *blur =
          gst_object_ref_sink (gst_element_factory_make ("cudaboxblur",
              NULL));
      GstCudaBoxBlurInfo info;
      GstHarness *h;

      g_object_set (blur, "memory-mode", 1 /* pinned */ , NULL);
      h = gst_harness_new_with_element (blur, "sink", "src");
      gst_harness_set_src_caps (h, test_caps_new (formats[f], w, height));
      info = test_info (formats[f], w, height);

      for (r = 0; r < G_N_ELEMENTS (radii); r++) {
        GstBuffer *in, *out;
        GstMapInfo map;

        g_object_set (blur, "radius", radii[r], NULL);
        in = gst_harness_create_buffer (h, info.size);
        fail_unless (gst_buffer_n_memory (in) == 1
            && gst_memory_is_type (gst_buffer_peek_memory (in, 0),
                GST_CUDA_PINNED_MEMORY_TYPE),
            "the offered pool is not pinned memory");
        fail_unless (gst_buffer_map (in, &map, GST_MAP_WRITE));
        test_fill_data (&info, map.data, r);
        gst_buffer_unmap (in, &map);

        out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
        fail_unless (gst_memory_is_type (gst_buffer_peek_memory (out, 0),
                GST_CUDA_PINNED_MEMORY_TYPE), "output is not pinned memory");
        test_assert_blurred (in, out, formats[f], w, height, radii[r],
            radii[r]);
        gst_buffer_unref (out);
        gst_buffer_unref (in);

        /* and system memory in */
        in = test_buffer_new (NULL, formats[f], w, height, 0, r);
        out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
        test_assert_blurred (in, out, formats[f], w, height, radii[r],
            radii[r]);
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
      gst_harness_teardown (h);
      gst_object_unref (blur);
    }
  }
}

GST_END_TEST;

/* Set by free_checking_unlocked when a memory's bytes are freed: whether
 * they were still page-locked then. */
static gboolean freed_page_locked;

static void
free_checking_unlocked (gpointer data)
{
  unsigned int flags;

  freed_page_locked = cudaHostGetFlags (&flags, data) == cudaSuccess;
  cudaGetLastError ();
  g_free (data);
}

/* Drops the last reference to @mem, whose bytes free_checking_unlocked
 * frees: whether they were freed still page-locked, or not freed. */
static gboolean
last_unref_page_locked (GstMemory * mem)
{
  freed_page_locked = TRUE;
  gst_memory_unref (mem);
  return freed_page_locked;
}

/* Pushes @mem, a GRAY8 640x360 frame of others filled from @seed at
 * @data, through @h blurring with @radius, against the reference;
 * returns whether @page is page-locked then. */
static gboolean
push_others (GstHarness * h, GstMemory * mem, guint8 * data, gint radius,
    guint seed, gconstpointer page)
{
  const GstCudaBoxBlurInfo info = test_info ("GRAY8", 640, 360);
  GstBuffer *in = gst_buffer_new (), *out;
  unsigned int flags;
  gboolean locked;

  g_object_set (h->element, "radius", radius, NULL);
  test_fill_data (&info, data, seed);
  gst_buffer_append_memory (in, gst_memory_ref (mem));
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL, "frame %u: no output", seed);
  test_assert_blurred (in, out, "GRAY8", 640, 360, radius, radius);
  locked = cudaHostGetFlags (&flags, (gpointer) page) == cudaSuccess;
  cudaGetLastError ();
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  return locked;
}

/* Host memory of others that comes back (a decoder's pool): page-locked
 * from the second frame on, so that its copy to the GPU is one DMA
 * transfer; unregistered before it is freed; every frame against the
 * reference. */
GST_START_TEST (test_others_memory_page_locked)
{
  const gint w = 640, height = 360;
  const GstCudaBoxBlurInfo info = test_info ("GRAY8", w, height);
  guint8 *data = g_malloc (info.size);
  GstMemory *mem = gst_memory_new_wrapped (0, data, info.size, 0, info.size,
      data, free_checking_unlocked);
  GstHarness *h = test_harness_new_in ("pinned", "GRAY8", w, height);
  guint i;

  for (i = 0; i < 3; i++)
    fail_unless_equals_int (push_others (h, mem, data, 3, i, data), i > 0);
  gst_harness_teardown (h);
  fail_if (last_unref_page_locked (mem), "the memory was freed page-locked");
}

GST_END_TEST;

/* A page-locked memory resized to another view of its block (a producer
 * that skips a header on some frames) is still copied and blurred: the
 * whole block is page-locked, from its start, not from the view the
 * memory was first seen at, so the later view lies inside it (a copy from
 * a range that starts inside a registered one and runs past it fails). */
GST_START_TEST (test_others_memory_resized)
{
  const gint w = 640, height = 360;
  const GstCudaBoxBlurInfo info = test_info ("GRAY8", w, height);
  const gsize skip = 2048;
  guint8 *data = g_malloc (info.size + 2 * skip);
  GstMemory *mem = gst_memory_new_wrapped (0, data, info.size + 2 * skip,
      skip, info.size, data, g_free);
  GstHarness *h = test_harness_new_in ("pinned", "GRAY8", w, height);

  fail_if (push_others (h, mem, data + skip, 3, 0, data));
  fail_unless (push_others (h, mem, data + skip, 3, 1, data),
      "the block's start is not page-locked");
  /* a view another 2048 bytes on, past the end of the first one */
  gst_memory_resize (mem, skip, info.size);
  fail_unless (push_others (h, mem, data + 2 * skip, 3, 2, data));
  gst_harness_teardown (h);
  gst_memory_unref (mem);
}

GST_END_TEST;

/* Sub-memories of one block (frames a parser cuts from one chunk) share
 * one registration: the block is page-locked at the second sight of any
 * of them, and stays so until the last of them, and the block, go. */
GST_START_TEST (test_others_memory_shared)
{
  const GstCudaBoxBlurInfo info = test_info ("GRAY8", 640, 360);
  guint8 *data = g_malloc (2 * info.size);
  GstMemory *block = gst_memory_new_wrapped (0, data, 2 * info.size, 0,
      2 * info.size, data, free_checking_unlocked);
  GstMemory *first = gst_memory_share (block, 0, info.size);
  GstMemory *second = gst_memory_share (block, info.size, info.size);
  GstHarness *h = test_harness_new_in ("pinned", "GRAY8", 640, 360);

  fail_if (push_others (h, first, data, 1, 0, data));
  fail_unless (push_others (h, second, data + info.size, 1, 1, data),
      "a sibling's sight did not count");
  gst_memory_unref (first);
  fail_unless (push_others (h, second, data + info.size, 1, 2, data),
      "the block was unregistered with one of its views");
  gst_harness_teardown (h);
  gst_memory_unref (second);
  fail_if (last_unref_page_locked (block), "the block was freed page-locked");
}

GST_END_TEST;

/* The two branches of a tee each see a frame once: a memory new with
 * every frame is copied as it is, never page-locked (which costs more
 * than the copy it would save); one element seeing it again locks it. */
GST_START_TEST (test_others_memory_seen_by_two)
{
  const gint w = 640, height = 360;
  const GstCudaBoxBlurInfo info = test_info ("GRAY8", w, height);
  GstHarness *a = test_harness_new_in ("pinned", "GRAY8", w, height);
  GstHarness *b = test_harness_new_in ("pinned", "GRAY8", w, height);
  guint8 *data = g_malloc (info.size);
  GstMemory *mem = gst_memory_new_wrapped (0, data, info.size, 0, info.size,
      data, g_free);
  GstHarness *const seers[] = { a, b, a };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (seers); i++)
    fail_unless_equals_int (push_others (seers[i], mem, data, 1, i, data),
        i == 2);
  gst_harness_teardown (a);
  gst_harness_teardown (b);
  gst_memory_unref (mem);
}

GST_END_TEST;

/* memory-mode=auto: the memory the device's attributes call for (read
 * here from the CUDA runtime: managed on integrated GPUs and those that
 * read the host's page tables, where the CPU may touch managed memory
 * while kernels run; pinned on the others), said by memory-in-use once
 * started, offered upstream and produced. */
GST_START_TEST (test_memory_auto)
{
  const gint w = 640, height = 360;
  GstElement *blur = gst_object_ref_sink (gst_element_factory_make
      ("cudaboxblur", NULL));
  GstCudaBoxBlurInfo info = test_info ("GRAY8", w, height);
  struct cudaDeviceProp props;
  gboolean managed;
  const gchar *type;
  GstBuffer *in, *out;
  GstHarness *h;
  gint in_use;

  fail_unless (cudaGetDeviceProperties (&props, 0) == cudaSuccess);
  managed = props.concurrentManagedAccess && (props.integrated
      || props.pageableMemoryAccessUsesHostPageTables);
  type = managed ? GST_CUDA_MANAGED_MEMORY_TYPE : GST_CUDA_PINNED_MEMORY_TYPE;
  g_print ("memory-mode=auto on %s (integrated %d, host page tables %d, "
      "concurrent managed access %d): %s\n", props.name, props.integrated,
      props.pageableMemoryAccessUsesHostPageTables,
      props.concurrentManagedAccess, type);

  gst_util_set_object_arg (G_OBJECT (blur), "memory-mode", "auto");
  h = gst_harness_new_with_element (blur, "sink", "src");
  gst_harness_set_src_caps (h, test_caps_new ("GRAY8", w, height));
  in = gst_harness_create_buffer (h, info.size);
  fail_unless (gst_memory_is_type (gst_buffer_peek_memory (in, 0), type),
      "the offered pool is not %s", type);
  gst_buffer_unref (in);
  in = test_buffer_new (NULL, "GRAY8", w, height, 0, 3);
  g_object_set (blur, "radius", 4, NULL);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (gst_memory_is_type (gst_buffer_peek_memory (out, 0), type),
      "the output is not %s", type);
  test_assert_blurred (in, out, "GRAY8", w, height, 4, 4);
  g_object_get (blur, "memory-in-use", &in_use, NULL);
  fail_unless_equals_int (in_use, managed ? 0 : 1);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
  gst_object_unref (blur);
}

GST_END_TEST;

static Suite *
cudaboxblur_memory_suite (void)
{
  Suite *s = suite_create ("cudaboxblur-memory");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pinned_mode);
  tcase_add_test (tc, test_memory_auto);
  tcase_add_test (tc, test_others_memory_page_locked);
  tcase_add_test (tc, test_others_memory_resized);
  tcase_add_test (tc, test_others_memory_shared);
  tcase_add_test (tc, test_others_memory_seen_by_two);
  return s;
}

TEST_GPU_CHECK_MAIN ("cudaboxblur-memory", cudaboxblur_memory_suite, NULL);
