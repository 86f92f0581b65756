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

#pragma once

/* The frames in flight (frames-in-flight above 1): each frame's blur
 * queued on an engine of its own, its buffers kept mapped until it is
 * done, the frames in the order they came.  The element waits for the
 * engines and pushes the frames; this keeps the books. */

#include <gst/gst.h>

G_BEGIN_DECLS

/* A frame whose blur may still run on the GPU: its output, and what must
 * stay mapped and alive until the blur is done. */
typedef struct
{
  GstBuffer *out;               /* what goes downstream */
  GstBuffer *in;                /* the input read, when another buffer */
  GstMapInfo in_map;
  GstMapInfo out_map;
  gint slot;                    /* the engine it runs on; -1: none */
} GstCudaBoxBlurFlight;

GstCudaBoxBlurFlight * gst_cuda_box_blur_flight_new       (void);

void                   gst_cuda_box_blur_flight_hold      (GstCudaBoxBlurFlight * flight,
                                                           guint slot,
                                                           GstBuffer * in,
                                                           const GstMapInfo * in_map,
                                                           const GstMapInfo * out_map);

GstBuffer *            gst_cuda_box_blur_flight_free      (GstCudaBoxBlurFlight * flight);

/* Waits for the blurs queued on engine @slot: FALSE when one failed (the
 * waiter says why). */
typedef gboolean (*GstCudaBoxBlurWaitFunc) (gpointer user_data, guint slot);

/* Sends a landed frame on; takes @out. */
typedef GstFlowReturn (*GstCudaBoxBlurPushFunc) (gpointer user_data,
    GstBuffer * out);

/* The frames in flight, oldest first. */
typedef struct
{
  GQueue queue;                 /* GstCudaBoxBlurFlight */
  GstCudaBoxBlurWaitFunc wait;
  gpointer user_data;
} GstCudaBoxBlurFlights;

void                   gst_cuda_box_blur_flights_init     (GstCudaBoxBlurFlights * flights,
                                                           GstCudaBoxBlurWaitFunc wait,
                                                           gpointer user_data);

guint                  gst_cuda_box_blur_flights_length   (const GstCudaBoxBlurFlights * flights);

guint                  gst_cuda_box_blur_flights_free_slot (const GstCudaBoxBlurFlights * flights,
                                                            guint n_slots);

void                   gst_cuda_box_blur_flights_queue    (GstCudaBoxBlurFlights * flights,
                                                           GstCudaBoxBlurFlight * flight);

gboolean               gst_cuda_box_blur_flights_land     (GstCudaBoxBlurFlights * flights,
                                                           GstBuffer ** out);

GstFlowReturn          gst_cuda_box_blur_flights_drain    (GstCudaBoxBlurFlights * flights,
                                                           GstCudaBoxBlurPushFunc push);

G_END_DECLS
