#!/usr/bin/env python3
# cudaboxblur-live: a live stream blurred on the GPU, its radius changed
# while it plays, from Python (PyGObject; Debian: python3-gst-1.0).
#
# Copyright (C) 2026 The cudaboxblur authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   cudaboxblur-live.py [--frames N] [--show]
#
# Plays videotestsrc ! NV12 720p ! cudaboxblur ! sink in real time and sets
# a new radius every 100 ms; every frame that leaves the element is counted
# under the radius it was blurred with.  --show displays the video.  Exits 0
# when the stream ran to its end, 77 (a skip, for meson) when there is no
# usable GPU, 1 on any other error.
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

CAPS = "video/x-raw,format=NV12,width=1280,height=720,framerate=30/1"
RADII = [1, 4, 9, 16, 25, 16, 9, 4]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=150)
    parser.add_argument("--show", action="store_true",
                        help="display the video instead of discarding it")
    args = parser.parse_args()

    Gst.init(None)
    if Gst.ElementFactory.find("cudaboxblur") is None:
        print("cudaboxblur not found: is it on GST_PLUGIN_PATH?")
        return 1

    sink = "videoconvert ! autovideosink" if args.show else "fakesink sync=true"
    pipeline = Gst.parse_launch(
        f"videotestsrc num-buffers={args.frames} pattern=ball ! {CAPS} ! "
        f"cudaboxblur name=blur radius={RADII[0]} ! {sink}")
    blur = pipeline.get_by_name("blur")

    # Negotiation needs no GPU: the element's pads accept the stream's caps.
    caps = Gst.Caps.from_string(CAPS)
    if not blur.get_static_pad("sink").query_accept_caps(caps):
        print(f"cudaboxblur refuses {CAPS}")
        return 1
    print(f"cudaboxblur accepts {CAPS}")

    loop = GLib.MainLoop()
    state = {"step": 0, "rc": 0, "frames": {}}

    def next_radius():
        state["step"] += 1
        radius = RADII[state["step"] % len(RADII)]
        blur.set_property("radius", radius)
        return True

    def count(pad, info):
        # the radius the element holds as the frame leaves it
        radius = blur.get_property("radius")
        state["frames"][radius] = state["frames"].get(radius, 0) + 1
        return Gst.PadProbeReturn.OK

    def on_message(bus, msg):
        if msg.type == Gst.MessageType.EOS:
            loop.quit()
        elif msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            print(f"Error from {msg.src.get_name()}: {err.message}")
            if debug:
                print(debug)
            # no usable GPU is a resource not found (the README's errors)
            no_gpu = err.matches(Gst.resource_error_quark(),
                                 Gst.ResourceError.NOT_FOUND)
            state["rc"] = 77 if no_gpu else 1
            loop.quit()

    blur.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, count)
    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    GLib.timeout_add(100, next_radius)

    pipeline.set_state(Gst.State.PLAYING)
    loop.run()
    pipeline.set_state(Gst.State.NULL)

    if state["rc"] == 77:
        print("SKIP: no usable CUDA device")
    elif state["rc"] == 0:
        total = sum(state["frames"].values())
        print(f"{total} frames blurred on {blur.get_property('arch')}; "
              "frames per radius:",
              ", ".join(f"r={r}: {n}" for r, n in sorted(state["frames"].items())))
        if total != args.frames or len(state["frames"]) < 2:
            print("expected every frame, under more than one radius")
            state["rc"] = 1
    return state["rc"]


if __name__ == "__main__":
    sys.exit(main())
