#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs what cudaboxblur needs to build and test on Debian 12 (the CUDA
# toolkit must already be installed), then configures ./build.
#   usage: scripts/setup.sh [--extras] [extra meson options]
# --extras also installs what the README's pipelines use besides: the
# CUDA elements and h264parse (-bad), x264enc (-ugly) and a CPU H.264
# decoder (libav).
set -euo pipefail
cd "$(dirname "$0")/.."

# libgstreamer-plugins-bad1.0-dev brings gstreamer-cuda-1.0 (CUDA memory),
# whose .pc file needs the GL ones.  GStreamer's CUDA elements (cudaupload,
# cudadownload, nvh264dec) are in gstreamer1.0-plugins-bad, which the GPU
# suites need and a machine without a GPU does not.  OpenCV's facedetect
# (gstreamer1.0-opencv, its face cascade in opencv-data) is for the
# facedetect suite and the README's face pipelines; the suite is skipped
# without it.
pkgs=(meson ninja-build pkg-config gcc python3
      libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
      libgstreamer-plugins-bad1.0-dev libgl-dev libgles-dev libegl-dev
      gstreamer1.0-plugins-base gstreamer1.0-plugins-good
      gstreamer1.0-tools python3-gst-1.0 gstreamer1.0-opencv opencv-data)
if [ "${1:-}" = "--extras" ]; then
  pkgs+=(gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav)
  shift
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The CUDA toolkit's usual home, for meson's CUDA lookup.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
command -v nvcc >/dev/null || { echo "setup: the CUDA toolkit (nvcc, cudart, NVRTC) is not installed" >&2; exit 1; }

if [ -f build/build.ninja ]; then
  meson configure build "$@" >/dev/null
else
  meson setup build "$@"
fi
