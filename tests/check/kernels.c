/* cudaboxblur: every kernel variant against the CPU reference
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The element picks one variant per window; this suite runs each of them
 * on device memory for every radius class, so that a variant is proven
 * before the choice ever falls on it.  Exits with 77 (skipped) and says why
 * when there is no usable GPU.
 */

#include <gst/check/gstcheck.h>
#include <cuda_runtime_api.h>

#include "cudaboxblur-device.h"
#include "cudaboxblur-program.h"
#include "testutils.h"

static const GstCudaBoxBlurProgram *program;

static void
check_variant (GstCudaBoxBlurVariant variant, GstCudaBoxBlurFormat format,
    gint w, gint h, gint rx, gint ry)
{
  GstCaps *caps = test_caps_new (format, w, h);
  GstCudaBoxBlurInfo info;
  gint bpp, in_stride, out_stride;
  GstBuffer *in, *out;
  GstCudaBoxBlurPlane src, dst;
  GstMapInfo map;
  GError *error = NULL;
  gpointer mid;

  fail_unless (gst_cuda_box_blur_info_from_caps (&info, caps));
  gst_caps_unref (caps);
  bpp = info.bpp;
  /* padded rows on the input, the caps' default layout on the output */
  in_stride = w * bpp + 4 * bpp;
  out_stride = info.stride;
  in = test_buffer_new (NULL, format, w, h, in_stride, w + h);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  src = (GstCudaBoxBlurPlane) { NULL, w, h, in_stride, bpp };
  dst = (GstCudaBoxBlurPlane) { NULL, w, h, out_stride, bpp };

  fail_unless (cudaMalloc ((void **) &src.data, (gsize) in_stride * h) == 0);
  fail_unless (cudaMalloc ((void **) &dst.data, (gsize) out_stride * h) ==
      0);
  fail_unless (cudaMalloc (&mid, gst_cuda_box_blur_program_mid_size (w,
              h)) == 0);

  fail_unless (gst_buffer_map (in, &map, GST_MAP_READ));
  fail_unless (cudaMemcpy (src.data, map.data, map.size,
          cudaMemcpyHostToDevice) == 0);
  gst_buffer_unmap (in, &map);

  fail_unless (gst_cuda_box_blur_program_launch (program, format, variant,
          &src, &dst, rx, ry, mid, NULL, &error), "%s",
      error ? error->message : "");
  fail_unless_equals_int (cudaDeviceSynchronize (), cudaSuccess);

  fail_unless (gst_buffer_map (out, &map, GST_MAP_WRITE));
  fail_unless (cudaMemcpy (map.data, dst.data, map.size,
          cudaMemcpyDeviceToHost) == 0);
  gst_buffer_unmap (out, &map);

  test_assert_blurred (in, out, format, w, h, rx, ry);

  cudaFree (src.data);
  cudaFree (dst.data);
  cudaFree (mid);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

static void
check_all_sizes (GstCudaBoxBlurVariant variant, gint max_window)
{
  const gint sizes[][2] = { {1, 1}, {3, 2}, {17, 13}, {323, 241}, {4097, 7},
  {5, 600}, {1920, 1080}
  };
  const gint radii[][2] = { {1, 1}, {2, 2}, {3, 0}, {0, 4}, {7, 7},
  {30, 30}, {127, 5}, {5, 127}, {255, 255}
  };
  guint s, r, f;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (r = 0; r < G_N_ELEMENTS (radii); r++)
      for (f = 0; f < 2; f++) {
        gint rx = radii[r][0], ry = radii[r][1];

        if ((2 * rx + 1) * (2 * ry + 1) > max_window)
          continue;
        /* 3x3 GRAY32F must match the sample bit for bit, which only the
         * direct kernels promise (the element uses nothing else there) */
        if (variant != GST_CUDA_BOX_BLUR_DIRECT && rx <= 1 && ry <= 1
            && f == GST_CUDA_BOX_BLUR_FORMAT_GRAY32F)
          continue;
        GST_INFO ("variant %d %dx%d format %u radius %d,%d", variant,
            sizes[s][0], sizes[s][1], f, rx, ry);
        check_variant (variant, f, sizes[s][0], sizes[s][1], rx, ry);
      }
}

GST_START_TEST (test_direct)
{
  /* the direct kernels take (2r+1)^2 reads a pixel: windows up to 15x15 */
  check_all_sizes (GST_CUDA_BOX_BLUR_DIRECT, 225);
}

GST_END_TEST;

GST_START_TEST (test_separable)
{
  check_all_sizes (GST_CUDA_BOX_BLUR_SEPARABLE, G_MAXINT);
}

GST_END_TEST;

static Suite *
kernels_suite (void)
{
  Suite *s = suite_create ("kernels");
  TCase *tc = tcase_create ("variants");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_direct);
  tcase_add_test (tc, test_separable);
  return s;
}

int
main (int argc, char **argv)
{
  GstCudaBoxBlurDevice device;
  GError *error = NULL;

  gst_check_init (&argc, &argv);
  test_skip_without_gpu ("kernels");
  if (!gst_cuda_box_blur_device_open (0, &device, &error)
      || !(program = gst_cuda_box_blur_program_get (device.major,
              device.minor, &error)))
    g_error ("%s", error->message);
  return gst_check_run_suite (kernels_suite (), "kernels", __FILE__);
}
