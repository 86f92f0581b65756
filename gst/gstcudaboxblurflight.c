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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblurflight.h"

/**
 * gst_cuda_box_blur_flight_new:
 *
 * A frame on no engine yet, with nothing mapped.
 */
GstCudaBoxBlurFlight *
gst_cuda_box_blur_flight_new (void)
{
  GstCudaBoxBlurFlight *flight = g_new0 (GstCudaBoxBlurFlight, 1);

  flight->slot = -1;
  return flight;
}

/**
 * gst_cuda_box_blur_flight_hold:
 * @in: (nullable): the input, when the blur reads another buffer than
 *   flight->out
 *
 * Keeps the mapped buffers of a blur queued on engine @slot until
 * gst_cuda_box_blur_flight_free().
 */
void
gst_cuda_box_blur_flight_hold (GstCudaBoxBlurFlight * flight, guint slot,
    GstBuffer * in, const GstMapInfo * in_map, const GstMapInfo * out_map)
{
  if (in) {
    flight->in = gst_buffer_ref (in);
    flight->in_map = *in_map;
  }
  flight->out_map = *out_map;
  flight->slot = slot;
}

/**
 * gst_cuda_box_blur_flight_free:
 *
 * Unmaps what @flight holds and frees it, once its blur is done.
 *
 * Returns: (transfer full) (nullable): its output
 */
GstBuffer *
gst_cuda_box_blur_flight_free (GstCudaBoxBlurFlight * flight)
{
  GstBuffer *out = flight->out;

  if (flight->slot >= 0) {
    gst_buffer_unmap (out, &flight->out_map);
    if (flight->in) {
      gst_buffer_unmap (flight->in, &flight->in_map);
      gst_buffer_unref (flight->in);
    }
  }
  g_free (flight);
  return out;
}

/**
 * gst_cuda_box_blur_flight_free_slot:
 * @pending: the frames in flight (#GstCudaBoxBlurFlight)
 *
 * Returns: the first of @n_slots engines that no frame of @pending runs
 * on; @n_slots - 1 when every other one is taken.
 */
guint
gst_cuda_box_blur_flight_free_slot (const GQueue * pending, guint n_slots)
{
  guint64 used = 0;
  const GList *l;
  guint i;

  g_return_val_if_fail (n_slots > 0 && n_slots <= 64, 0);
  for (l = pending->head; l; l = l->next) {
    const GstCudaBoxBlurFlight *flight = l->data;

    if (flight->slot >= 0)
      used |= G_GUINT64_CONSTANT (1) << flight->slot;
  }
  for (i = 0; i < n_slots - 1 && (used >> i & 1); i++);
  return i;
}
