#!/usr/bin/env python3
# cudaboxblur-regions: regions a detector would find, attached to each
# frame as region of interest metas with parameters of their own, redacted
# on the GPU, with the element's audit messages read from the bus, from
# Python (PyGObject; Debian: python3-gst-1.0).
#
# Copyright (C) 2026 The cudaboxblur authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   cudaboxblur-regions.py [--frames N]
#
# Pushes N gray 640x360 frames through appsrc ! cudaboxblur roi-meta=true
# post-messages=true ! appsink.  Each frame carries two "face" metas, one
# pixelated in blocks of 12 and one a Gaussian ellipse (their own
# "cudaboxblur" parameters), and a "plate" meta filled, by the element's
# mode; the face moves by 4 pixels a frame.  Prints each frame's audit
# message (the regions redacted, with their mode and why) and checks that
# every frame came out with its message.  Exits 0 then, 77 (a skip, for
# meson) when there is no usable GPU (an error of domain resource and code
# not-found), 1 on any other error.
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import GLib, Gst, GstVideo  # noqa: E402

WIDTH, HEIGHT = 640, 360
CAPS = f"video/x-raw,format=GRAY8,width={WIDTH},height={HEIGHT},framerate=30/1"


def frame(i):
    """Frame @i: a gradient, with its regions as metas."""
    data = bytes((x + 2 * y + i) & 0xFF for y in range(HEIGHT)
                 for x in range(WIDTH))
    buf = Gst.Buffer.new_wrapped(data)
    buf.pts = i * Gst.SECOND // 30
    buf.duration = Gst.SECOND // 30

    face = GstVideo.buffer_add_video_region_of_interest_meta(
        buf, "face", 40 + 4 * i, 60, 96, 120)
    face.id = 1
    face.add_param(Gst.Structure.new_from_string(
        "cudaboxblur, mode=(string)pixelate, block-size=(int)12"))
    other = GstVideo.buffer_add_video_region_of_interest_meta(
        buf, "face", 400, 80, 100, 110)
    other.id = 2
    other.add_param(Gst.Structure.new_from_string(
        "cudaboxblur, mode=(string)gaussian, sigma=(double)8, "
        "shape=(string)ellipse, feather=(int)6"))
    GstVideo.buffer_add_video_region_of_interest_meta(
        buf, "plate", 250, 280, 140, 40)
    return buf


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=30)
    args = parser.parse_args()

    Gst.init(None)
    if Gst.ElementFactory.find("cudaboxblur") is None:
        print("cudaboxblur not found: is it on GST_PLUGIN_PATH?")
        return 1

    pipeline = Gst.parse_launch(
        f"appsrc name=src caps={CAPS} format=time ! "
        "cudaboxblur roi-meta=true post-messages=true mode=fill "
        "fill-color=0xff000000 ! appsink name=sink sync=false")
    src = pipeline.get_by_name("src")
    sink = pipeline.get_by_name("sink")
    bus = pipeline.get_bus()
    rc = 0
    out = messages = 0

    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        rc = 1
    for i in range(args.frames if rc == 0 else 0):
        if src.emit("push-buffer", frame(i)) != Gst.FlowReturn.OK:
            break
        if sink.emit("try-pull-sample", 5 * Gst.SECOND) is not None:
            out += 1
    src.emit("end-of-stream")

    while True:
        msg = bus.timed_pop_filtered(
            5 * Gst.SECOND, Gst.MessageType.ELEMENT
            | Gst.MessageType.ERROR | Gst.MessageType.EOS)
        if msg is None or msg.type == Gst.MessageType.EOS:
            break
        if msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            print(f"Error from {msg.src.get_name()}: {err.message}")
            no_gpu = err.matches(Gst.resource_error_quark(),
                                 Gst.ResourceError.NOT_FOUND)
            rc = 77 if no_gpu else 1
            break
        s = msg.get_structure()
        if s.get_name() != "cudaboxblur":
            continue
        messages += 1
        said = []
        for r in s.get_value("regions").array:
            said.append(f"{r.get_string('type')} {r.get_value('width')}x"
                        f"{r.get_value('height')} at {r.get_value('x')},"
                        f"{r.get_value('y')}: {r.get_string('mode')} "
                        f"({r.get_string('reason')})")
        print(f"{s.get_value('timestamp') / Gst.SECOND:.3f} s: "
              + "; ".join(said))
    pipeline.set_state(Gst.State.NULL)

    if rc == 77:
        print("SKIP: no usable CUDA device")
    elif rc == 0 and (out != args.frames or messages != args.frames):
        print(f"{out} frames and {messages} messages of {args.frames}")
        rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
