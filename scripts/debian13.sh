#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds cudaboxblur against Debian 13's GStreamer (1.26: stream-ordered
# CUDA memory, the analytics metas) with warnings as errors, in a Debian 13
# chroot, and runs the CPU suites there; then those of the regions and
# metas under the sanitizers.  As root (debootstrap, chroot and
# bind mounts), with the CUDA toolkit installed on this machine, which the
# chroot borrows.  The chroot is made once, with debootstrap, and kept for
# the next run.
#   usage: scripts/debian13.sh [extra meson options]
#   CUDABOXBLUR_DEBIAN13: where the chroot lives (/var/cache/cudaboxblur/debian13)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
root=${CUDABOXBLUR_DEBIAN13:-/var/cache/cudaboxblur/debian13}
cuda=$(readlink -f "${CUDA_PATH:-/usr/local/cuda}")
[ -x "$cuda/bin/nvcc" ] || { echo "debian13: no CUDA toolkit at $cuda" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "debian13: needs root (debootstrap, chroot, mount)" >&2; exit 1; }

# what the build and the CPU suites take, as scripts/setup.sh installs on
# Debian 12, less OpenCV (facedetect is skipped)
pkgs=(meson ninja-build pkg-config gcc g++ libc6-dev python3
      libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
      libgstreamer-plugins-bad1.0-dev libgl-dev libgles-dev libegl-dev
      gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-tools)

if [ ! -f "$root/etc/debian_version" ]; then
  command -v debootstrap >/dev/null || {
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
  }
  rm -rf "$root"; mkdir -p "$root"
  debootstrap --variant=minbase trixie "$root" >"$root.log" 2>&1 \
    || { tail -20 "$root.log"; rm -rf "$root"; exit 1; }
fi

mounts=()
cleanup() {
  local i
  for (( i=${#mounts[@]}-1; i>=0; i-- )); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
bind() {  # bind DIR at the same path inside, or at $2
  local at="$root${2:-$1}"
  mkdir -p "$at"
  mount --bind "$1" "$at"
  mounts+=("$at")
}
mkdir -p "$root/proc"
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
bind /dev
bind "$cuda"
bind "$src" /src
ln -sfn "$cuda" "$root/usr/local/cuda"
cp /etc/resolv.conf "$root/etc/resolv.conf"

in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/cuda/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LD_LIBRARY_PATH=/usr/local/cuda/lib64 LANG=C.UTF-8 /bin/bash -c "$1"
}
in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
  --no-install-recommends ${pkgs[*]} >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log; exit 1; }"
echo "debian13: GStreamer $(in_root 'pkg-config --modversion gstreamer-1.0'), $(in_root 'gcc --version | head -1')"

# a fresh build each time: the tree it was set up from may have changed
# options; the kernels for one architecture
in_root "rm -rf /build && meson setup /build /src -Dwerror=true -Dcuda-archs=sm_90 $* >/tmp/setup.log 2>&1 \
  || { tail -30 /tmp/setup.log; exit 1; }
  grep -E 'gstreamer-(cuda|analytics)-1.0 found' /build/meson-logs/meson-log.txt | sort -u
  ninja -C /build >/tmp/ninja.log 2>&1 || { grep -B2 -A20 -m5 -E 'error|FAILED' /tmp/ninja.log; exit 1; }
  meson test -C /build --suite cpu --print-errorlogs"

# the suites of the regions and metas again, under AddressSanitizer and
# UndefinedBehaviorSanitizer: the analytics metas' code runs on 1.24+ only,
# and GLib 2.76+ allocates what GSlice used to pool with malloc, where
# LeakSanitizer sees it
suites="analytics regions job redaction reference elements/cudaboxblur"
targets=$(for t in $suites; do printf 'tests/check/%s ' "${t//\//_}"; done)
in_root "rm -rf /build-sanitize && meson setup /build-sanitize /src -Dwerror=true \
    -Db_sanitize=address,undefined -Db_lundef=false -Dexamples=disabled \
    -Dbench=disabled -Dcuda-archs=sm_90 $* >/tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 1; }
  ninja -C /build-sanitize $targets gst/libgstcudaboxblur.so >/tmp/ninja.log 2>&1 || { grep -B2 -A20 -m5 -E 'error|FAILED' /tmp/ninja.log; exit 1; }
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0 \
  LSAN_OPTIONS=suppressions=/src/tests/lsan.supp \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C /build-sanitize --no-rebuild --print-errorlogs $suites"
