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
 * gst_cuda_box_blur_flights_init:
 * @wait: how a frame's blur is waited for
 *
 * No frame in flight yet.
 */
void
gst_cuda_box_blur_flights_init (GstCudaBoxBlurFlights * flights,
    GstCudaBoxBlurWaitFunc wait, gpointer user_data)
{
  g_queue_init (&flights->queue);
  flights->wait = wait;
  flights->user_data = user_data;
}

/**
 * gst_cuda_box_blur_flights_length:
 *
 * Returns: how many frames are in flight.
 */
guint
gst_cuda_box_blur_flights_length (const GstCudaBoxBlurFlights * flights)
{
  return flights->queue.length;
}

/**
 * gst_cuda_box_blur_flights_free_slot:
 *
 * Returns: the first of @n_slots engines that no frame in flight runs on;
 * @n_slots - 1 when every other one is taken.
 */
guint
gst_cuda_box_blur_flights_free_slot (const GstCudaBoxBlurFlights * flights,
    guint n_slots)
{
  guint64 used = 0;
  const GList *l;
  guint i;

  g_return_val_if_fail (n_slots > 0 && n_slots <= 64, 0);
  for (l = flights->queue.head; l; l = l->next) {
    const GstCudaBoxBlurFlight *flight = l->data;

    if (flight->slot >= 0)
      used |= G_GUINT64_CONSTANT (1) << flight->slot;
  }
  for (i = 0; i < n_slots - 1 && (used >> i & 1); i++);
  return i;
}

/**
 * gst_cuda_box_blur_flights_queue:
 *
 * Puts @flight, with its output, behind the frames in flight.
 */
void
gst_cuda_box_blur_flights_queue (GstCudaBoxBlurFlights * flights,
    GstCudaBoxBlurFlight * flight)
{
  g_return_if_fail (flight->out != NULL);
  g_queue_push_tail (&flights->queue, flight);
}

/**
 * gst_cuda_box_blur_flights_land:
 * @out: (out) (transfer full) (nullable): the oldest frame's output, once
 *   its blur is done; %NULL when there is none or its blur failed
 *
 * Takes the oldest frame in flight off the queue, waits for its blur and
 * frees it.
 *
 * Returns: %FALSE when its blur failed (the output is dropped).
 */
gboolean
gst_cuda_box_blur_flights_land (GstCudaBoxBlurFlights * flights,
    GstBuffer ** out)
{
  GstCudaBoxBlurFlight *flight = g_queue_pop_head (&flights->queue);
  gboolean ok;

  *out = NULL;
  if (!flight)
    return TRUE;
  ok = flight->slot < 0 || flights->wait (flights->user_data, flight->slot);
  *out = gst_cuda_box_blur_flight_free (flight);
  if (!ok)
    gst_clear_buffer (out);
  return ok;
}

/**
 * gst_cuda_box_blur_flights_drain:
 * @push: (nullable): where the frames go; %NULL drops them
 *
 * Lands every frame in flight, oldest first, and sends each on with
 * @push.  After a blur or a push that failed, the frames behind are
 * landed and dropped.
 *
 * Returns: %GST_FLOW_ERROR after a blur that failed, else what the first
 * push that failed returned, else %GST_FLOW_OK.
 */
GstFlowReturn
gst_cuda_box_blur_flights_drain (GstCudaBoxBlurFlights * flights,
    GstCudaBoxBlurPushFunc push)
{
  GstFlowReturn ret = GST_FLOW_OK;

  while (flights->queue.length > 0) {
    GstBuffer *out;

    if (!gst_cuda_box_blur_flights_land (flights, &out))
      ret = GST_FLOW_ERROR;
    else if (push && ret == GST_FLOW_OK)
      ret = push (flights->user_data, out);
    else
      gst_buffer_unref (out);
  }
  return ret;
}
