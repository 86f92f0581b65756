#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The container's entrypoint: one gst-launch-1.0 process, one stream. It
# takes the stream from its source, decodes it with NVDEC, blurs or redacts
# it with cudaboxblur and sends it on.
#
#   cudaboxblur-pipeline            runs the pipeline (exec gst-launch-1.0)
#   cudaboxblur-pipeline --print    prints the pipeline and exits
#
# The environment it reads:
#   SOURCE_URI       the stream: rtsp://... (also rtsps, rtspt, rtspu, rtsph),
#                    srt://... (MPEG-TS), or any other URI GStreamer has a
#                    source for (file://..., through urisourcebin and
#                    parsebin). Empty: the POD_INDEX-th URI of SOURCE_LIST
#   SOURCE_LIST      a file of URIs, one a line; blank lines and lines
#                    whose first non-blank character is '#' do not count
#                    (default /etc/cudaboxblur/sources)
#   POD_INDEX        which URI of SOURCE_LIST, counting from 0. Empty: the
#                    number after the last '-' of the host name, a
#                    StatefulSet pod's ordinal (cudaboxblur-2: 2)
#   CODEC            h264 (default) or h265: the depayloader, parser and
#                    decoder (nvh264dec, nvh265dec)
#   DETECTOR         elements between the decoder and cudaboxblur, such as
#                    a detector that attaches GstVideoRegionOfInterestMeta
#                    (default none)
#   BLUR_PROPERTIES  cudaboxblur's properties (default "radius=16 passes=3":
#                    the whole frame)
#   SINK_URI         srt://...: the result as H.264 in MPEG-TS to an SRT
#                    peer. Empty (default): to fakesink
#   ENCODER          the H.264 encoder for SINK_URI (default
#                    "x264enc tune=zerolatency speed-preset=veryfast", on
#                    the CPU; nvh264enc on GPUs with NVENC)
#   WATCHDOG_MS      milliseconds without a compressed frame after which the
#                    pipeline fails (default 10000; 0: never)
#   RTSP_PROTOCOLS   rtspsrc's protocols (default tcp: RTP interleaved in
#                    the RTSP connection, which passes NAT and pod networks)
# URIs go into the pipeline quoted; the other variables are pipeline
# syntax, given as they are.
set -euo pipefail

die() {
  echo "cudaboxblur-pipeline: $*" >&2
  exit 2
}

# A value as a quoted string of gst-launch's syntax.
quote() {
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$s"
}

print=false
case "${1:-}" in
  --print) print=true ;;
  "") ;;
  *) die "usage: cudaboxblur-pipeline [--print]" ;;
esac

uri=${SOURCE_URI:-}
if [ -z "$uri" ]; then
  list=${SOURCE_LIST:-/etc/cudaboxblur/sources}
  index=${POD_INDEX:-}
  if [ -z "$index" ]; then
    host=${HOSTNAME:-$(hostname)}
    index=${host##*-}
  fi
  [[ $index =~ ^[0-9]+$ ]] ||
    die "no SOURCE_URI, and no index for SOURCE_LIST: POD_INDEX is empty and the host name ${host:-} does not end in -N"
  index=$((10#$index))
  [ -r "$list" ] || die "no SOURCE_URI, and SOURCE_LIST $list cannot be read"
  uris=()
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line#"${line%%[![:space:]]*}"}
    line=${line%"${line##*[![:space:]]}"}
    case "$line" in "" | "#"*) continue ;; esac
    uris+=("$line")
  done <"$list"
  [ "$index" -lt "${#uris[@]}" ] ||
    die "SOURCE_LIST $list has ${#uris[@]} URIs, none for index $index (more replicas than streams?)"
  uri=${uris[$index]}
  echo "cudaboxblur-pipeline: stream $index of $list" >&2
fi

codec=${CODEC:-h264}
case "$codec" in
  h264 | h265) ;;
  *) die "CODEC must be h264 or h265, not $codec" ;;
esac

case "$uri" in
  rtsp://* | rtsps://* | rtspt://* | rtspu://* | rtsph://*)
    src="rtspsrc location=$(quote "$uri") protocols=${RTSP_PROTOCOLS:-tcp} ! rtp${codec}depay" ;;
  srt://*)
    src="srtsrc uri=$(quote "$uri") ! tsdemux" ;;
  [a-z]*://*)
    src="urisourcebin uri=$(quote "$uri") ! parsebin" ;;
  *)
    die "SOURCE_URI is not a URI: $uri" ;;
esac

watchdog=${WATCHDOG_MS:-10000}
[[ $watchdog =~ ^[0-9]+$ ]] || die "WATCHDOG_MS must be a number of milliseconds, not $watchdog"

pipeline="$src ! ${codec}parse"
if [ "$((10#$watchdog))" -gt 0 ]; then
  pipeline+=" ! watchdog timeout=$((10#$watchdog))"
fi
pipeline+=" ! nv${codec}dec"
if [ -n "${DETECTOR:-}" ]; then
  pipeline+=" ! $DETECTOR"
fi
pipeline+=" ! cudaboxblur ${BLUR_PROPERTIES:-radius=16 passes=3}"

sink=${SINK_URI:-}
case "$sink" in
  "")
    pipeline+=" ! fakesink sync=false" ;;
  srt://*)
    pipeline+=" ! ${ENCODER:-x264enc tune=zerolatency speed-preset=veryfast key-int-max=60}"
    pipeline+=" ! h264parse config-interval=-1 ! mpegtsmux alignment=7"
    pipeline+=" ! srtsink uri=$(quote "$sink") wait-for-connection=false" ;;
  *)
    die "SINK_URI must be srt://... or empty, not $sink" ;;
esac

if $print; then
  printf '%s\n' "$pipeline"
  exit 0
fi

# gst-launch-1.0 joins its arguments with spaces and parses the whole:
# the words, not one argument, so that it does not escape the spaces.
# Quoted URIs keep theirs across the join.
set -f
# shellcheck disable=SC2086
exec gst-launch-1.0 $pipeline
