/* cudaboxblur-bench: how fast the kernels and the element are
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Prints tables and writes one CSV (--csv).  The parts:
 *  - kernels: data already on the GPU, CUDA events around each launch,
 *    against a device-to-device copy of the same frame (and NPP's box
 *    filters when NPP was found at build time);
 *  - element: appsrc ! cudaboxblur ! fakesink (and identity instead),
 *    frames per second and per-frame latency, input from the element's pool
 *    and from system memory, against a pinned host<->device copy;
 *  - start-up: NULL to the first output buffer, each start in a new
 *    process, and the steps of a start with the GPU library alone;
 *  - regions: face-sized regions of a 4K frame redacted in place in each
 *    mode, against the whole frame (--regions runs this part only);
 *  - CUDA memory (built with gstreamer-cuda-1.0): the element on frames in
 *    GStreamer's CUDA memory against its kernels, and behind nvh264dec.
 * --gpu-memory runs the last two only.  --memory N, run alone, reads the GPU
 * memory of decode pipelines with and without cudaboxblur from nvidia-smi.
 * --live, run alone, times the element on a live 30 fps source in each
 * memory mode with GStreamer's latency tracer.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bench.h"
#include <string.h>

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#endif

int
main (int argc, char **argv)
{
  gchar *csv_path = NULL;
  gint frames = 300;
  gboolean kernels_only = FALSE, gpu_only = FALSE, startup_only = FALSE;
  gboolean regions_only = FALSE, elements_only = FALSE, live_only = FALSE;
  gint child = 0, steps_child = 0, memory_pipelines = 0;
  gchar *memory_arg = NULL, *live_arg = NULL;
  GstElementFactory *factory;
  gint soak_frames = 0;
  GOptionEntry entries[] = {
    {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path,
        "Write the results here (default bench.csv)", "FILE"},
    {"repeats", 0, 0, G_OPTION_ARG_INT, &repeats,
        "Timed launches per kernel measurement (default 50)", "N"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames,
        "Frames per element measurement (default 300)", "N"},
    {"kernels-only", 0, 0, G_OPTION_ARG_NONE, &kernels_only,
        "Only the kernels on whole frames", NULL},
    {"choice-only", 0, 0, G_OPTION_ARG_NONE, &choice_only,
        "In the kernels part, only the kernels the element picks (no "
          "other variant, no NPP)", NULL},
    {"width", 0, 0, G_OPTION_ARG_INT, &only_width,
        "In the kernels parts, only frames of this width (1920 or 3840; "
          "another is timed at 16:9 in the GRAY8 and GRAY32F part)",
        "W"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &only_format,
        "In the kernels parts, only this format (GRAY8, GRAY32F, NV12, "
          "RGBA, RGB, YUY2 or P010_10LE)", "FORMAT"},
    {"radius", 0, 0, G_OPTION_ARG_INT, &only_radius,
        "In the kernels parts, only this radius", "R"},
    {"gpu-memory", 0, 0, G_OPTION_ARG_NONE, &gpu_only,
        "Only the parts on frames in GPU memory: regions in place, "
          "GStreamer's CUDA memory and nvh264dec", NULL},
    {"regions", 0, 0, G_OPTION_ARG_NONE, &regions_only,
        "Only the regions of a 4K frame, in each mode", NULL},
    {"elements", 0, 0, G_OPTION_ARG_NONE, &elements_only,
        "Only the element in pipelines, in each memory mode", NULL},
    {"startup", 0, 0, G_OPTION_ARG_NONE, &startup_only,
        "Only start-up, with the kernel cache cold and warm", NULL},
    {"startup-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &child,
        NULL, NULL},
    {"startup-steps-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT,
        &steps_child, NULL, NULL},
    {"memory", 0, 0, G_OPTION_ARG_INT, &memory_pipelines,
        "Only the GPU memory of decode pipelines with and without "
          "cudaboxblur, by nvidia-smi, one and N in a process", "N"},
    {"memory-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING,
        &memory_arg, NULL, NULL},
    {"live", 0, 0, G_OPTION_ARG_NONE, &live_only,
        "Only the element's latency on a live 30 fps source (1080p and 4K, "
          "I420, RGBA and YUY2, each memory mode), by GStreamer's latency "
          "tracer", NULL},
    {"live-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &live_arg,
        NULL, NULL},
    {"soak", 0, 0, G_OPTION_ARG_INT, &soak_frames,
        "Only a soak run of N 1080p frames, in each memory mode (and of N "
          "720p frames decoded by nvh264dec into CUDA memory)", "N"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- benchmark cudaboxblur");
  GstCudaBoxBlurDevice dev;
  GError *error = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    g_error ("%s", error->message);
  g_option_context_free (ctx);
  repeats = MAX (repeats, 1);
  frames = MAX (frames, 1);
  /* progress line by line, also into a pipe or a log */
  setvbuf (stdout, NULL, _IOLBF, 0);

  /* the kernels and regions parts call the engine; the others play the
   * element */
  factory = gst_element_factory_find ("cudaboxblur");
  if (!factory && !kernels_only && !regions_only) {
    g_printerr ("cudaboxblur-bench: no cudaboxblur element: run it with "
        "`meson compile -C BUILD bench`, or point GST_PLUGIN_PATH_1_0 at "
        "BUILD/gst\n");
    return 1;
  }
  g_clear_object (&factory);
  if (child > 0)
    return startup_child (child);
  if (steps_child > 0)
    return startup_steps_child (steps_child);
  if (memory_arg)
    return memory_child (memory_arg);
  if (live_arg)
    return live_child (live_arg);

  csv = fopen (csv_path ? csv_path : "bench.csv", "w");
  if (!csv)
    g_error ("cannot write %s", csv_path ? csv_path : "bench.csv");
  fprintf (csv, "part,width,height,format,what,radius,median_ms,min_ms,"
      "max_ms,gbps,ratio,fps,p99_ms,ratio_fastest\n");

  /* before this process holds a CUDA context of its own */
  if (live_only) {
    bench_live (argv[0]);
    fclose (csv);
    return 0;
  }
  if (memory_pipelines > 0) {
    bench_memory (argv[0], memory_pipelines);
    fclose (csv);
    return 0;
  }

  if (!gst_cuda_box_blur_device_open (0, &dev, &error))
    g_error ("%s", error->message);
  g_print ("Device: %s, sm_%d%d%s\n", dev.name, dev.major, dev.minor,
#ifdef HAVE_NPP
      ", NPP found"
#else
      ", NPP not found (no comparison)"
#endif
      );

  if (startup_only) {
    bench_startup (argv[0]);
    fclose (csv);
    return 0;
  }

  if (soak_frames > 0) {
    soak (soak_frames, PINNED);
    soak (soak_frames, MANAGED);
#ifdef HAVE_GST_CUDA
    decode_soak (soak_frames);
#endif
    fclose (csv);
    return 0;
  }

  if (elements_only) {
    bench_elements (frames);
    fclose (csv);
    return 0;
  }

  if (!kernels_only)
    bench_regions (&dev);
  if (regions_only) {
    fclose (csv);
    return 0;
  }
#ifdef HAVE_GST_CUDA
  if (!kernels_only) {
    if (!gst_cuda_load_library ())
      g_error ("cannot load the CUDA driver library");
    gst_cuda_memory_init_once ();
    bench_cuda_memory (&dev, frames);
  }
#endif
  if (gpu_only) {
    fclose (csv);
    return 0;
  }

  if (!kernels_only)
    bench_startup (argv[0]);
  bench_kernels (&dev);
  bench_kernel_formats (&dev);
  if (!kernels_only)
    bench_elements (frames);

  fclose (csv);
  g_free (csv_path);
  g_free (only_format);
  return 0;
}
