/* cudaboxblur: the instructions the kernels are made of
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Reads the kernels' PTX (built with the plugin, with the options and for
 * the newest architecture of its PTX image; CUDABOXBLUR_PTX_FILE names it)
 * for the instructions that are slow on the GPUs that blur live video:
 * FP64 arithmetic, which GeForce, RTX, L4, T4 and Jetson cards run at
 * 1/32 to 1/64 of their FP32 rate, and 64-bit integer division, dozens of
 * instructions each.  The kernels hold none of either.  Its kernels are
 * those of the plan's table, no more and no fewer.
 */

#include <gst/check/gstcheck.h>
#include <string.h>

#include "cudaboxblur-plan.h"

/* FP64 instructions anywhere in the PTX, at most */
#define MAX_FP64 0

typedef struct
{
  guint entries;                /* kernels (.entry) */
  guint loops;                  /* backward branches */
  guint fp64;                   /* FP64 arithmetic and conversions */
  guint fp64_in_loops;
  guint div64;                  /* 64-bit integer division or remainder */
  GString *where;               /* the offending lines, for messages */
} PtxCounts;

/* The opcode of PTX line @line (its predicate skipped), or NULL for a
 * label, directive, brace or comment. */
static gchar *
opcode (const gchar * line)
{
  const gchar *p = line + strspn (line, " \t");
  gsize n;

  if (*p == '@')
    p += strcspn (p, " \t"), p += strspn (p, " \t");
  if (!g_ascii_isalpha (*p))
    return NULL;
  n = strcspn (p, " \t;");
  return g_strndup (p, n);
}

/* Whether @op (add.f64, cvt.rn.f32.f64, ld.global.f64 ...) computes in FP64:
 * any type suffix .f64, loads, stores and moves aside. */
static gboolean
is_fp64 (const gchar * op)
{
  gchar **parts = g_strsplit (op, ".", -1);
  gboolean fp64 = FALSE;
  guint i;

  if (strcmp (parts[0], "ld") != 0 && strcmp (parts[0], "st") != 0
      && strcmp (parts[0], "mov") != 0)
    for (i = 1; parts[i]; i++)
      fp64 |= strcmp (parts[i], "f64") == 0;
  g_strfreev (parts);
  return fp64;
}

static gboolean
is_div64 (const gchar * op)
{
  return g_str_has_prefix (op, "div.u64") || g_str_has_prefix (op, "div.s64")
      || g_str_has_prefix (op, "rem.u64") || g_str_has_prefix (op, "rem.s64");
}

/* The label a branch goes to, or NULL: "bra.uni $L__BB3_7;" */
static gchar *
branch_target (const gchar * line, const gchar * op)
{
  const gchar *t;

  if (!g_str_has_prefix (op, "bra"))
    return NULL;
  t = strstr (line, op) + strlen (op);
  t += strspn (t, " \t");
  return g_strndup (t, strcspn (t, " \t;"));
}

/* Counts the instructions of @ptx.  A line lies in a loop when it stands
 * between a label and a later branch back to it. */
static PtxCounts
count_ptx (const gchar * ptx)
{
  gchar **lines = g_strsplit (ptx, "\n", -1);
  GHashTable *labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  const guint n = g_strv_length (lines);
  gboolean *in_loop = g_new0 (gboolean, n + 1);
  PtxCounts c = { 0, };
  guint i, j;

  c.where = g_string_new (NULL);
  /* labels, then the loops the backward branches close */
  for (i = 0; i < n; i++) {
    const gchar *l = lines[i] + strspn (lines[i], " \t");
    const gsize len = strcspn (l, ": \t");

    if (l[0] == '$' && l[len] == ':')
      g_hash_table_insert (labels, g_strndup (l, len), GUINT_TO_POINTER (i));
    if (strstr (l, ".entry "))
      c.entries++;
  }
  for (i = 0; i < n; i++) {
    gchar *op = opcode (lines[i]);
    gchar *target = op ? branch_target (lines[i], op) : NULL;
    gpointer at;

    if (target && g_hash_table_lookup_extended (labels, target, NULL, &at)
        && GPOINTER_TO_UINT (at) < i) {
      c.loops++;
      for (j = GPOINTER_TO_UINT (at); j <= i; j++)
        in_loop[j] = TRUE;
    }
    g_free (target);
    g_free (op);
  }

  for (i = 0; i < n; i++) {
    gchar *op = opcode (lines[i]);

    if (op && is_fp64 (op)) {
      c.fp64++;
      c.fp64_in_loops += in_loop[i];
      g_string_append_printf (c.where, "\n  line %u%s: %s", i + 1,
          in_loop[i] ? " (in a loop)" : "", g_strstrip (lines[i]));
    } else if (op && is_div64 (op)) {
      c.div64++;
      g_string_append_printf (c.where, "\n  line %u: %s", i + 1,
          g_strstrip (lines[i]));
    }
    g_free (op);
  }

  g_free (in_loop);
  g_hash_table_unref (labels);
  g_strfreev (lines);
  return c;
}

/* The counting itself, on PTX written by hand: an FP64 add and a 64-bit
 * division in a loop, conversions to and from f64, a reciprocal, a signed
 * remainder and a negated predicate after it, and what must not count (a
 * label, FP64 loads and moves, an f32 register named %f64, a 32-bit
 * division, a wide multiply-add). */
GST_START_TEST (test_counting)
{
  static const gchar ptx[] =
      ".visible .entry k(\n"
      "\t.param .u64 k_param_0\n"
      ")\n"
      "{\n"
      "\tld.global.f64 \t%fd1, [%rd1];\n"
      "\tmov.f64 \t%fd2, %fd1;\n"
      "$L__BB0_1:\n"
      "\tadd.f64 \t%fd2, %fd2, %fd1;\n"
      "\tdiv.u64 \t%rd2, %rd2, %rd3;\n"
      "\tcvt.rn.f32.u32 \t%f64, %r1;\n"
      "\tsetp.lt.s32 \t%p1, %r1, 8;\n"
      "\t@%p1 bra.uni \t$L__BB0_1;\n"
      "\tcvt.f64.f32 \t%fd3, %f1;\n"
      "\tcvt.rn.f32.f64 \t%f2, %fd3;\n"
      "\t@!%p1 rcp.rn.f64 \t%fd4, %fd3;\n"
      "\trem.s64 \t%rd4, %rd2, %rd3;\n"
      "\tdiv.u32 \t%r2, %r1, %r3;\n"
      "\tmad.wide.u32 \t%rd5, %r1, %r2, %rd4;\n"
      "\t@%p2 bra.uni \t$L__BB0_2;\n"
      "$L__BB0_2:\n"
      "\tret;\n" "}\n";
  PtxCounts c = count_ptx (ptx);

  fail_unless_equals_int (c.entries, 1);
  fail_unless_equals_int (c.loops, 1);
  fail_unless_equals_int (c.fp64, 4);
  fail_unless_equals_int (c.fp64_in_loops, 1);
  fail_unless_equals_int (c.div64, 2);
  g_string_free (c.where, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_kernels)
{
  const gchar *path = g_getenv ("CUDABOXBLUR_PTX_FILE");
  gchar *ptx = NULL;
  PtxCounts c;

  fail_unless (path != NULL, "CUDABOXBLUR_PTX_FILE is not set");
  fail_unless (g_file_get_contents (path, &ptx, NULL, NULL), "%s", path);
  c = count_ptx (ptx);
  GST_INFO ("%s: %u kernels, %u loops, %u FP64 instructions (%u in loops), "
      "%u 64-bit divisions", path, c.entries, c.loops, c.fp64,
      c.fp64_in_loops, c.div64);

  /* what was read is the kernels: every one of them, with their loops */
  fail_unless (c.entries >= 20, "%u kernels in %s", c.entries, path);
  fail_unless (c.loops >= 20, "%u loops in %s", c.loops, path);

  fail_unless (c.fp64_in_loops == 0, "FP64 in loops:%s", c.where->str);
  fail_unless (c.fp64 <= MAX_FP64, "%u FP64 instructions:%s", c.fp64,
      c.where->str);
  fail_unless (c.div64 == 0, "64-bit divisions:%s", c.where->str);
  g_string_free (c.where, TRUE);
  g_free (ptx);
}

GST_END_TEST;

/* The kernels of the PTX are the rows of the plan's kernel table
 * (GstCudaBoxBlurKernel), which the program loads by name: a kernel
 * added to kernels/ without its row, or a row without its kernel, fails
 * here on every machine rather than at load time on a GPU. */
GST_START_TEST (test_kernel_table)
{
  const gchar *path = g_getenv ("CUDABOXBLUR_PTX_FILE");
  GHashTable *rows = g_hash_table_new (g_str_hash, g_str_equal);
  GString *unknown = g_string_new (NULL);
  gchar *ptx = NULL, **lines;
  guint i, k;

  fail_unless (path != NULL, "CUDABOXBLUR_PTX_FILE is not set");
  fail_unless (g_file_get_contents (path, &ptx, NULL, NULL), "%s", path);
  for (k = 0; k < GST_CUDA_BOX_BLUR_N_KERNELS; k++)
    fail_unless (g_hash_table_add (rows,
            (gpointer) gst_cuda_box_blur_kernel_name (k)),
        "%s is in the table twice", gst_cuda_box_blur_kernel_name (k));

  lines = g_strsplit (ptx, "\n", -1);
  for (i = 0; lines[i]; i++) {
    const gchar *entry = strstr (lines[i], ".entry ");
    gchar *name;

    if (!entry)
      continue;
    entry += strlen (".entry ");
    name = g_strndup (entry, strcspn (entry, "( \t"));
    if (!g_hash_table_remove (rows, name))
      g_string_append_printf (unknown, " %s", name);
    g_free (name);
  }
  fail_unless (unknown->len == 0, "kernels without a row in the table:%s",
      unknown->str);
  if (g_hash_table_size (rows) > 0) {
    GHashTableIter iter;
    gpointer name;

    g_hash_table_iter_init (&iter, rows);
    while (g_hash_table_iter_next (&iter, &name, NULL))
      g_string_append_printf (unknown, " %s", (const gchar *) name);
    fail ("rows of the table without a kernel:%s", unknown->str);
  }

  g_strfreev (lines);
  g_string_free (unknown, TRUE);
  g_hash_table_unref (rows);
  g_free (ptx);
}

GST_END_TEST;

static Suite *
ptx_suite (void)
{
  Suite *s = suite_create ("ptx");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_counting);
  tcase_add_test (tc, test_kernels);
  tcase_add_test (tc, test_kernel_table);
  return s;
}

GST_CHECK_MAIN (ptx);
