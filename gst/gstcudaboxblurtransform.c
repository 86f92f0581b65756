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

/* One frame through the element: its settings at its stream time, its
 * job, its output buffer (or none: in place, or untouched), the blur
 * queued on an engine, the audit message, and the frames in flight that
 * keep several blurs queued at once. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaboxblurpriv.h"
#include "gstcudaboxblurcontext.h"
#include "gstcudaboxblurimage.h"
#include "gstcudaboxblurregister.h"

/* The CUDA context whose memory the element uses where it is, on a side
 * whose caps carry CUDA memory (@cuda): the shared one; else none. */
#define MEMORY_CONTEXT(self, cuda) ((cuda) ? CUDA_CONTEXT (self) : NULL)

/* TRUE when the regions of @buffer can be blurred where they are: the
 * frame stays in its memory, the GPU can write the buffer in place, and
 * the regions allow it. */
static gboolean
gst_cuda_box_blur_takes_in_place (GstCudaBoxBlur * self, GstBuffer * buffer)
{
  return self->cuda_in == self->cuda_out
      && gst_cuda_box_blur_image_is_writable_in_place (buffer,
      MEMORY_CONTEXT (self, self->cuda_in))
      && gst_cuda_box_blur_job_in_place_helps (&self->job);
}

/* Passthrough when @settings change no pixel of the negotiated format,
 * or before caps, of any format; never while frames cross between system
 * and CUDA memory.  Decided on the streaming thread alone (at new caps,
 * and before each frame from the frame's own settings), which is also the
 * thread that reads it: a property set from another thread between the
 * decision and the frame could otherwise let a frame that its settings
 * redact go out as it came in. */
void
gst_cuda_box_blur_update_passthrough (GstCudaBoxBlur * self,
    const GstCudaBoxBlurSettings * settings)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  gboolean passthrough;

  g_mutex_lock (&self->passthrough_lock);
  GST_OBJECT_LOCK (self);
  passthrough = gst_cuda_box_blur_settings_blurs_nothing (settings,
      self->negotiated ? &self->info : NULL)
      && self->cuda_in == self->cuda_out;
  GST_OBJECT_UNLOCK (self);

  if (passthrough != gst_base_transform_is_passthrough (trans)) {
    GST_DEBUG_OBJECT (self, "passthrough %s", passthrough ? "on" : "off");
    gst_base_transform_set_passthrough (trans, passthrough);
    /* Leaving passthrough needs our output pool: renegotiate allocation
     * (before this frame: basetransform reconfigures when it takes it) */
    gst_base_transform_reconfigure_src (trans);
  }
  g_mutex_unlock (&self->passthrough_lock);
}

/* Brings the controlled properties to the buffer's stream time, then
 * takes this frame's copy of the settings and decides passthrough from
 * it.  Runs before basetransform reconfigures and allocates the output, so
 * a controller or a property that moves a radius off 0 blurs this very
 * frame. */
void
gst_cuda_box_blur_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstClockTime stream_time = GST_CLOCK_TIME_NONE;

  if (trans->segment.format == GST_FORMAT_TIME)
    stream_time = gst_segment_to_stream_time (&trans->segment,
        GST_FORMAT_TIME, GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time)) {
    GST_LOG_OBJECT (self, "syncing to %" GST_TIME_FORMAT,
        GST_TIME_ARGS (stream_time));
    gst_object_sync_values (GST_OBJECT (self), stream_time);
  }

  GST_OBJECT_LOCK (self);
  self->frame_settings = self->props.settings;
  self->frame_post_messages = self->props.post_messages;
  GST_OBJECT_UNLOCK (self);
  gst_cuda_box_blur_update_passthrough (self, &self->frame_settings);
}

/* Takes this frame's regions.  A frame with nothing to blur (roi-meta and
 * no matching region, or a region outside the frame) goes out as it came
 * in, unless it crosses into the other memory: then transform() copies
 * it.  One whose regions can be blurred in place goes out as it came in
 * too, blurred by transform().
 * GstBaseTransform returns an error without a message when its output pool
 * cannot allocate: say what ran out. */
GstFlowReturn
gst_cuda_box_blur_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstFlowReturn ret;

  self->in_place = FALSE;
  if (!gst_base_transform_is_passthrough (trans)) {
    gst_cuda_box_blur_job_resolve (&self->job, &self->frame_settings,
        &self->info, input, &self->hold);
    if (!gst_cuda_box_blur_job_redacts (&self->job)
        && self->cuda_in == self->cuda_out) {
      GST_LOG_OBJECT (self, "no region to blur in %" GST_PTR_FORMAT, input);
      *outbuf = input;
      return GST_FLOW_OK;
    }
    if (gst_debug_category_get_threshold (GST_CAT_DEFAULT) >= GST_LEVEL_LOG) {
      gchar *job = gst_cuda_box_blur_job_to_string (&self->job);

      GST_LOG_OBJECT (self, "%" GST_PTR_FORMAT ": %s", input, job);
      g_free (job);
    }
    if (gst_cuda_box_blur_takes_in_place (self, input)) {
      self->in_place = TRUE;
      *outbuf = input;
      return GST_FLOW_OK;
    }
  }

  ret = GST_CUDA_BOX_BLUR_PARENT_CLASS->prepare_output_buffer (trans,
      input, outbuf);
  if (ret == GST_FLOW_ERROR)
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Cannot allocate an output frame in %s memory",
            self->cuda_out ? "CUDA" :
            self->mode == GST_CUDA_BOX_BLUR_MEMORY_PINNED ? "pinned host" :
            "CUDA managed"), ("%s %dx%d, %" G_GSIZE_FORMAT " bytes",
            self->info.format, self->info.width, self->info.height,
            self->info.size));
  return ret;
}

/* Maps @buffer, of a side whose caps carry CUDA memory when @cuda, with
 * @flags and describes its frame for the engine
 * (gst_cuda_box_blur_image_map()); warns once about frames in CUDA memory
 * of another context, which go through the host. */
static gboolean
gst_cuda_box_blur_map (GstCudaBoxBlur * self, GstBuffer * buffer,
    gboolean cuda, GstMapFlags flags, GstMapInfo * map,
    GstCudaBoxBlurImage * image, GError ** error)
{
  gboolean foreign;

  if (!gst_cuda_box_blur_image_map (image, buffer, &self->info,
          MEMORY_CONTEXT (self, cuda), flags, map, &foreign, error))
    return FALSE;
  /* others' host memory that comes back is page-locked, and copied at the
   * bus's rate */
  if (image->location == GST_CUDA_BOX_BLUR_IN_HOST)
    gst_cuda_box_blur_register_host (self, buffer, map, CUDA_CONTEXT (self),
        self->device.device_id);
  if (foreign && !self->foreign_logged) {
    GST_WARNING_OBJECT (self, "%" GST_PTR_FORMAT " is not CUDA memory of "
        "the shared CUDA context: copying it through the host", buffer);
    self->foreign_logged = TRUE;
  }
  return TRUE;
}

/**
 * gst_cuda_box_blur_post_if_lost:
 *
 * When a CUDA call of the element failed with @error because a kernel
 * fault left its CUDA context lost, marks the device lost for the rest of
 * the process (gst_cuda_box_blur_device_mark_lost()) and posts the error
 * that says to restart it.
 *
 * Returns: whether the context was lost (and the error posted).
 */
gboolean
gst_cuda_box_blur_post_if_lost (GstCudaBoxBlur * self, const GError * error)
{
  gboolean lost = !gst_cuda_box_blur_enter (self, NULL);

  if (!lost) {
    lost = gst_cuda_box_blur_context_lost ();
    gst_cuda_box_blur_leave (self);
  }
  if (lost) {
    gst_cuda_box_blur_device_mark_lost (self->device.device_id);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA error while blurring a frame: a kernel fault left CUDA device "
            "%d unusable in this process; restart the process to use it "
            "again", self->device.device_id), ("%s", error->message));
  }
  return lost;
}

/* Posts the element error of a blur that failed (the lost device's where
 * it is lost), and frees @error.  Only the first of a stream is posted:
 * the frames in flight behind a failed one fail with it, and are logged. */
static void
gst_cuda_box_blur_post_blur_error (GstCudaBoxBlur * self, GError * error)
{
  if (self->blur_error_posted) {
    GST_WARNING_OBJECT (self, "CUDA error while blurring a frame, after "
        "the one posted: %s", error->message);
  } else if (!gst_cuda_box_blur_post_if_lost (self, error)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA error while blurring a frame"), ("%s", error->message));
  }
  self->blur_error_posted = TRUE;
  g_error_free (error);
}

/* Sums the work memory of the engines into the work-memory property. */
void
gst_cuda_box_blur_count_work_memory (GstCudaBoxBlur * self)
{
  guint64 bytes = 0;
  guint i;

  for (i = 0; i < MAX_FRAMES_IN_FLIGHT; i++)
    if (self->engines[i])
      bytes += gst_cuda_box_blur_engine_work_bytes (self->engines[i]);
  GST_OBJECT_LOCK (self);
  self->props.work_memory = bytes;
  GST_OBJECT_UNLOCK (self);
}

/* Runs the engine on this frame in the engine's context; posts the
 * error. */
static gboolean
gst_cuda_box_blur_run (GstCudaBoxBlur * self, const GstCudaBoxBlurImage * in,
    const GstCudaBoxBlurImage * out)
{
  GError *error = NULL;
  gboolean ok;

  GST_LOG_OBJECT (self, "blurring %u regions%s", self->job.regions->len,
      out ? "" : " in place");
  ok = gst_cuda_box_blur_enter (self, &error);
  if (ok) {
    GstCudaBoxBlurEngine *engine = self->engines[self->slot];

    ok = out ? gst_cuda_box_blur_engine_queue_blur (engine, &self->job, in,
        out, &error)
        : gst_cuda_box_blur_engine_queue_blur_in_place (engine, &self->job,
        in, &error);
    gst_cuda_box_blur_leave (self);
  }
  if (!ok)
    gst_cuda_box_blur_post_blur_error (self, error);
  gst_cuda_box_blur_count_work_memory (self);
  return ok;
}

/* Waits for the blurs queued on engine @slot; posts the error. */
static gboolean
gst_cuda_box_blur_wait_slot (GstCudaBoxBlur * self, guint slot)
{
  GError *error = NULL;
  gboolean ok;

  /* an engine dropped since (new caps) finished its work first */
  if (!self->engines[slot])
    return TRUE;
  ok = gst_cuda_box_blur_enter (self, &error);
  if (ok) {
    ok = gst_cuda_box_blur_engine_wait (self->engines[slot], &error);
    gst_cuda_box_blur_leave (self);
  }
  if (!ok)
    gst_cuda_box_blur_post_blur_error (self, error);
  return ok;
}

/* After the blur of @out (from @in, NULL in place) was queued, or failed
 * to be (@ok): with frames in flight, hands the mapped buffers to the
 * frame's flight, to be unmapped once its blur is done; otherwise waits
 * for the blur and unmaps them. */
static GstFlowReturn
gst_cuda_box_blur_settle (GstCudaBoxBlur * self, gboolean ok, GstBuffer * in,
    GstMapInfo * in_map, GstBuffer * out, GstMapInfo * out_map)
{
  if (ok && self->flight) {
    gst_cuda_box_blur_flight_hold (self->flight, self->slot, in, in_map,
        out_map);
    return GST_FLOW_OK;
  }
  /* a failed queue may have left work running on the buffers */
  ok = gst_cuda_box_blur_wait_slot (self, self->slot) && ok;
  gst_buffer_unmap (out, out_map);
  if (in)
    gst_buffer_unmap (in, in_map);
  return ok ? GST_FLOW_OK : GST_FLOW_ERROR;
}

/* With post-messages, posts what this frame of @buffer got: the regions
 * of its job as they were redacted, for audit logs. */
static void
gst_cuda_box_blur_post_audit (GstCudaBoxBlur * self, GstBuffer * buffer)
{
  if (!self->frame_post_messages)
    return;
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self),
          gst_cuda_box_blur_job_audit (&self->job,
              &GST_BASE_TRANSFORM (self)->segment, buffer)));
}

static GstFlowReturn
gst_cuda_box_blur_transform_in_place (GstCudaBoxBlur * self, GstBuffer * buf)
{
  GstCudaBoxBlurImage image;
  GstMapInfo map;
  GError *error = NULL;

  if (!gst_cuda_box_blur_map (self, buf, self->cuda_in, GST_MAP_READWRITE,
          &map, &image, &error)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot use the frame"),
        ("%s", error->message));
    g_error_free (error);
    return GST_FLOW_ERROR;
  }
  return gst_cuda_box_blur_settle (self, gst_cuda_box_blur_run (self, &image,
          NULL), NULL, NULL, buf, &map);
}

static GstFlowReturn
gst_cuda_box_blur_transform_into (GstCudaBoxBlur * self, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstMapInfo in_map, out_map;
  GstCudaBoxBlurImage in, out;
  GError *error = NULL;

  if (!gst_cuda_box_blur_map (self, inbuf, self->cuda_in, GST_MAP_READ,
          &in_map, &in, &error)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot read the input frame"),
        ("%s", error->message));
    g_error_free (error);
    return GST_FLOW_ERROR;
  }
  if (!gst_cuda_box_blur_map (self, outbuf, self->cuda_out, GST_MAP_WRITE,
          &out_map, &out, &error)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot write the output "
            "frame"), ("%s", error->message));
    g_error_free (error);
    gst_buffer_unmap (inbuf, &in_map);
    return GST_FLOW_ERROR;
  }
  return gst_cuda_box_blur_settle (self, gst_cuda_box_blur_run (self, &in,
          &out), inbuf, &in_map, outbuf, &out_map);
}

GstFlowReturn
gst_cuda_box_blur_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstFlowReturn ret;

  /* prepare_output_buffer() found nothing to blur */
  if (!self->in_place && inbuf == outbuf)
    return GST_FLOW_OK;
  ret = self->in_place ? gst_cuda_box_blur_transform_in_place (self, inbuf)
      : gst_cuda_box_blur_transform_into (self, inbuf, outbuf);
  if (ret == GST_FLOW_OK && gst_cuda_box_blur_job_redacts (&self->job))
    gst_cuda_box_blur_post_audit (self, inbuf);
  return ret;
}

static GstFlowReturn
gst_cuda_box_blur_push_landed (gpointer element, GstBuffer * out)
{
  return gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (element), out);
}

static gboolean
gst_cuda_box_blur_wait_landing (gpointer element, guint slot)
{
  return gst_cuda_box_blur_wait_slot (GST_CUDA_BOX_BLUR (element), slot);
}

/* No frame in flight yet; frames land through the element's engines. */
void
gst_cuda_box_blur_init_flights (GstCudaBoxBlur * self)
{
  gst_cuda_box_blur_flights_init (&self->flights,
      gst_cuda_box_blur_wait_landing, self);
}

/* Lands every frame in flight, oldest first, and with @push sends each
 * downstream (after a failed push, the rest are dropped). */
GstFlowReturn
gst_cuda_box_blur_drain (GstCudaBoxBlur * self, gboolean push)
{
  return gst_cuda_box_blur_flights_drain (&self->flights,
      push ? gst_cuda_box_blur_push_landed : NULL);
}

/* The engine no frame in flight runs on, made when first needed. */
static gboolean
gst_cuda_box_blur_free_slot (GstCudaBoxBlur * self, guint * slot)
{
  /* at most frames-in-flight - 1 frames wait, so one engine is free */
  const guint i = gst_cuda_box_blur_flights_free_slot (&self->flights,
      MAX_FRAMES_IN_FLIGHT);
  GError *error = NULL;

  *slot = i;
  if (self->engines[i])
    return TRUE;
  if (gst_cuda_box_blur_enter (self, &error)) {
    self->engines[i] = gst_cuda_box_blur_engine_new (&self->device,
        self->program, self, &error);
    gst_cuda_box_blur_leave (self);
  }
  if (!self->engines[i]) {
    /* an earlier frame's kernel may have faulted since */
    if (!gst_cuda_box_blur_post_if_lost (self, error))
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Cannot keep %u frames in flight", i + 1), ("%s",
              error->message));
    g_error_free (error);
    return FALSE;
  }
  return TRUE;
}

/* With frames-in-flight at N above 1, each frame's blur is queued on an
 * engine of its own and the frame waits in self->flights; the oldest goes
 * downstream, once its blur is done, when N frames are in flight.  Frames
 * with nothing to blur queue up too, so frames leave in the order they
 * came, each with its own timestamps and metas. */
GstFlowReturn
gst_cuda_box_blur_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaBoxBlur *self = GST_CUDA_BOX_BLUR (trans);
  GstFlowReturn ret = GST_FLOW_OK;
  guint depth;

  GST_OBJECT_LOCK (self);
  depth = self->props.frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  *outbuf = NULL;

  if (trans->queued_buf) {
    GstBuffer *out = NULL;

    self->slot = 0;
    self->flight = NULL;
    if (depth > 1 || gst_cuda_box_blur_flights_length (&self->flights) > 0) {
      if (!gst_cuda_box_blur_free_slot (self, &self->slot))
        return GST_FLOW_ERROR;
      self->flight = gst_cuda_box_blur_flight_new ();
    }
    ret = GST_CUDA_BOX_BLUR_PARENT_CLASS->generate_output (trans,
        &out);
    if (!self->flight) {
      *outbuf = out;
      return ret;
    }
    if (ret != GST_FLOW_OK || !out) {
      /* nothing was mapped or queued for a frame that failed or was
       * dropped */
      g_clear_pointer (&self->flight, g_free);
      gst_clear_buffer (&out);
      return ret;
    }
    self->flight->out = out;
    gst_cuda_box_blur_flights_queue (&self->flights, self->flight);
    self->flight = NULL;
  }

  if (gst_cuda_box_blur_flights_length (&self->flights) >= MAX (depth, 1)
      && !gst_cuda_box_blur_flights_land (&self->flights, outbuf))
    ret = GST_FLOW_ERROR;
  return ret;
}
