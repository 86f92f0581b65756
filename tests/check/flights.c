/* cudaboxblur: the frames in flight
 * Copyright (C) 2026 The cudaboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The books of frames-in-flight: frames leave in the order they came,
 * each once its engine's blur is done, each engine taken by one frame at
 * a time; a blur that failed drops its frame and the frames behind it
 * when draining.  The engines are stand-ins: no GPU.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "gstcudaboxblurflight.h"

typedef struct
{
  GstCudaBoxBlurFlights flights;
  guint waited[8];              /* waits per engine */
  guint failing;                /* engines whose blur fails, a bit each */
  GList *pushed;                /* what was pushed, in order */
  GstFlowReturn push_returns;
} Books;

static gboolean
wait_engine (gpointer user_data, guint slot)
{
  Books *b = user_data;

  b->waited[slot]++;
  return !(b->failing >> slot & 1);
}

static GstFlowReturn
push_frame (gpointer user_data, GstBuffer * out)
{
  Books *b = user_data;

  b->pushed = g_list_append (b->pushed, out);
  return b->push_returns;
}

/* Frame @n, a buffer whose offset is @n, queued: on engine @slot, or on
 * none (-1: nothing to blur). */
static void
queue_frame (Books * b, guint n, gint slot)
{
  GstCudaBoxBlurFlight *flight = gst_cuda_box_blur_flight_new ();

  flight->out = gst_buffer_new ();
  GST_BUFFER_OFFSET (flight->out) = n;
  if (slot >= 0) {
    GstMapInfo map = GST_MAP_INFO_INIT;

    fail_unless (gst_buffer_map (flight->out, &map, GST_MAP_READ));
    gst_cuda_box_blur_flight_hold (flight, slot, NULL, NULL, &map);
  }
  gst_cuda_box_blur_flights_queue (&b->flights, flight);
}

static void
books_init (Books * b)
{
  memset (b, 0, sizeof (*b));
  gst_cuda_box_blur_flights_init (&b->flights, wait_engine, b);
}

static void
books_clear (Books * b)
{
  fail_unless_equals_int (gst_cuda_box_blur_flights_length (&b->flights), 0);
  g_list_free_full (b->pushed, (GDestroyNotify) gst_buffer_unref);
}

static guint64
offset_of (GList * pushed, guint i)
{
  return GST_BUFFER_OFFSET (GST_BUFFER (g_list_nth_data (pushed, i)));
}

/* Three engines: a free one each time, the first free from the start; the
 * oldest frame lands first, after its engine's wait, and frees the
 * engine; a frame with nothing to blur waits for no engine. */
GST_START_TEST (test_land_in_order)
{
  Books b;
  GstBuffer *out;
  guint i;

  books_init (&b);
  fail_unless_equals_int (gst_cuda_box_blur_flights_free_slot (&b.flights,
          3), 0);
  queue_frame (&b, 0, 0);
  fail_unless_equals_int (gst_cuda_box_blur_flights_free_slot (&b.flights,
          3), 1);
  queue_frame (&b, 1, -1);
  queue_frame (&b, 2, 1);
  fail_unless_equals_int (gst_cuda_box_blur_flights_free_slot (&b.flights,
          3), 2);
  fail_unless_equals_int (gst_cuda_box_blur_flights_length (&b.flights), 3);

  for (i = 0; i < 3; i++) {
    fail_unless (gst_cuda_box_blur_flights_land (&b.flights, &out));
    fail_unless (out != NULL);
    fail_unless_equals_int (GST_BUFFER_OFFSET (out), i);
    gst_buffer_unref (out);
    if (i == 0)
      fail_unless_equals_int (gst_cuda_box_blur_flights_free_slot
          (&b.flights, 3), 0);
  }
  fail_unless_equals_int (b.waited[0], 1);
  fail_unless_equals_int (b.waited[1], 1);
  fail_unless_equals_int (b.waited[2], 0);
  /* nothing in flight: nothing lands */
  fail_unless (gst_cuda_box_blur_flights_land (&b.flights, &out));
  fail_unless (out == NULL);
  books_clear (&b);
}

GST_END_TEST;

/* With every other engine taken, the last is the one left. */
GST_START_TEST (test_free_slot_last)
{
  Books b;

  books_init (&b);
  queue_frame (&b, 0, 0);
  queue_frame (&b, 1, 1);
  queue_frame (&b, 2, 2);
  fail_unless_equals_int (gst_cuda_box_blur_flights_free_slot (&b.flights,
          4), 3);
  fail_unless_equals_int (gst_cuda_box_blur_flights_free_slot (&b.flights,
          3), 2);
  fail_unless_equals_int (gst_cuda_box_blur_flights_drain (&b.flights,
          NULL), GST_FLOW_OK);
  books_clear (&b);
}

GST_END_TEST;

/* Draining pushes every frame, oldest first, each after its blur; without
 * a push it drops them, still after their blurs. */
GST_START_TEST (test_drain)
{
  Books b;
  guint i;

  books_init (&b);
  for (i = 0; i < 4; i++)
    queue_frame (&b, i, i % 2 ? (gint) i : -1);
  fail_unless_equals_int (gst_cuda_box_blur_flights_drain (&b.flights,
          push_frame), GST_FLOW_OK);
  fail_unless_equals_int (g_list_length (b.pushed), 4);
  for (i = 0; i < 4; i++)
    fail_unless_equals_int (offset_of (b.pushed, i), i);
  fail_unless (b.waited[1] == 1 && b.waited[3] == 1);
  books_clear (&b);

  books_init (&b);
  queue_frame (&b, 0, 0);
  queue_frame (&b, 1, 1);
  fail_unless_equals_int (gst_cuda_box_blur_flights_drain (&b.flights,
          NULL), GST_FLOW_OK);
  fail_unless (b.pushed == NULL);
  fail_unless (b.waited[0] == 1 && b.waited[1] == 1);
  books_clear (&b);
}

GST_END_TEST;

/* A blur that failed: its frame is never pushed, landing it says so, and
 * a drain returns an error, pushes the frames before it and drops those
 * behind it, each still waited for (their engines may be reused). */
GST_START_TEST (test_failed_blur)
{
  Books b;
  GstBuffer *out = NULL;

  books_init (&b);
  b.failing = 1u << 1;
  queue_frame (&b, 0, 1);
  fail_if (gst_cuda_box_blur_flights_land (&b.flights, &out));
  fail_unless (out == NULL);
  books_clear (&b);

  books_init (&b);
  b.failing = 1u << 1;
  queue_frame (&b, 0, 0);
  queue_frame (&b, 1, 1);
  queue_frame (&b, 2, 2);
  fail_unless_equals_int (gst_cuda_box_blur_flights_drain (&b.flights,
          push_frame), GST_FLOW_ERROR);
  fail_unless_equals_int (g_list_length (b.pushed), 1);
  fail_unless_equals_int (offset_of (b.pushed, 0), 0);
  fail_unless (b.waited[0] == 1 && b.waited[1] == 1 && b.waited[2] == 1);
  books_clear (&b);
}

GST_END_TEST;

/* A push that fails (downstream flushing): the frames behind are dropped,
 * and the drain returns what the push returned. */
GST_START_TEST (test_failed_push)
{
  Books b;

  books_init (&b);
  b.push_returns = GST_FLOW_FLUSHING;
  queue_frame (&b, 0, 0);
  queue_frame (&b, 1, 1);
  queue_frame (&b, 2, -1);
  fail_unless_equals_int (gst_cuda_box_blur_flights_drain (&b.flights,
          push_frame), GST_FLOW_FLUSHING);
  fail_unless_equals_int (g_list_length (b.pushed), 1);
  fail_unless (b.waited[0] == 1 && b.waited[1] == 1);
  books_clear (&b);
}

GST_END_TEST;

static Suite *
flights_suite (void)
{
  Suite *s = suite_create ("flights");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_land_in_order);
  tcase_add_test (tc, test_free_slot_last);
  tcase_add_test (tc, test_drain);
  tcase_add_test (tc, test_failed_blur);
  tcase_add_test (tc, test_failed_push);
  return s;
}

GST_CHECK_MAIN (flights);
