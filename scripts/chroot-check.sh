#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds cudaboxblur with warnings as errors against another distribution's
# GStreamer, in a chroot of it that debootstrap makes (kept for the next
# run), and runs the CPU suites there; the CUDA toolkit of this machine is
# bound in at the same path.  As root (debootstrap, chroot, bind mounts).
#   usage: scripts/chroot-check.sh DISTRIBUTION [extra meson options]
#   debian13     GStreamer 1.26: stream-ordered CUDA memory, the analytics
#                metas; then the suites of the regions and metas again
#                under AddressSanitizer and UndefinedBehaviorSanitizer
#   ubuntu22.04  GStreamer 1.20 (JetPack 6, DeepStream 7): system memory
#                only, as 1.20 has no gstreamer-cuda-1.0; from Ubuntu's
#                archive
#   ubuntu24.04  GStreamer 1.24 (DeepStream 8, JetPack 7), from Ubuntu's
#                archive
#   CUDABOXBLUR_CHROOTS: where the chroots live (/var/cache/cudaboxblur)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
dist=${1:?usage: chroot-check.sh debian13|ubuntu22.04 [meson options]}
shift
cuda=$(readlink -f "${CUDA_PATH:-/usr/local/cuda}")
[ -x "$cuda/bin/nvcc" ] || { echo "$dist: no CUDA toolkit at $cuda" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "$dist: needs root (debootstrap, chroot, mount)" >&2; exit 1; }

# what the build and the CPU suites take (scripts/setup.sh's packages on
# Debian 12), one row a distribution
common=(meson ninja-build pkg-config gcc g++ python3
        libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
        gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-tools)
case $dist in
  debian13)
    suite=trixie mirror="" keyring=""
    pkgs=("${common[@]}" libgstreamer-plugins-bad1.0-dev libgl-dev libgles-dev libegl-dev)
    options=() sanitize=yes ;;
  ubuntu22.04)
    suite=jammy
    pkgs=("${common[@]}")
    options=(-Dcuda-memory=disabled) sanitize="" ;;
  ubuntu24.04)
    suite=noble
    pkgs=("${common[@]}" libgstreamer-plugins-bad1.0-dev libgl-dev libgles-dev libegl-dev)
    options=() sanitize="" ;;
  *) echo "chroot-check: no distribution $dist (debian13, ubuntu22.04, ubuntu24.04)" >&2; exit 2 ;;
esac
case $dist in
  ubuntu*)
    mirror=http://archive.ubuntu.com/ubuntu
    # Ubuntu's archive key, which Debian does not package: jammy's keyring
    # package, checked against its hash in jammy's signed index (the key
    # signs noble too); debootstrap's script for Ubuntu of jammy's day
    keyring=ubuntu-keyring_2021.03.26_all.deb
    keyring_sha256=0d0e7ed6b112f5d03eabf3c7eb01ebdacf9c57714b279e90495cfc58c8c4520f ;;
esac
root=${CUDABOXBLUR_CHROOTS:-/var/cache/cudaboxblur}/$dist

command -v debootstrap >/dev/null || {
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
}
if [ ! -f "$root/etc/os-release" ]; then
  rm -rf "$root"; mkdir -p "$root"
  args=(--variant=minbase)
  if [ -n "$keyring" ]; then
    tmp=$(mktemp -d)
    # the one archive outside Debian's: where it cannot be reached, say so
    if ! python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
        "$mirror/pool/main/u/ubuntu-keyring/$keyring" "$tmp/$keyring" 2>"$tmp/error"; then
      echo "SKIP: $dist: $mirror cannot be reached: $(tail -1 "$tmp/error")"
      exit 0
    fi
    echo "$keyring_sha256  $tmp/$keyring" | sha256sum -c --quiet
    dpkg-deb -x "$tmp/$keyring" "$tmp/k"
    args+=(--keyring="$tmp/k/usr/share/keyrings/ubuntu-archive-keyring.gpg")
  fi
  debootstrap "${args[@]}" "$suite" "$root" $mirror \
    ${mirror:+/usr/share/debootstrap/scripts/gutsy} >"$root.log" 2>&1 \
    || { tail -20 "$root.log"; rm -rf "$root"; exit 1; }
  if [ -n "$mirror" ]; then
    printf 'deb %s %s main universe\n' "$mirror" "$suite" "$mirror" "$suite-updates" \
      > "$root/etc/apt/sources.list"
  fi
fi

mounts=()
cleanup() {
  local i
  for (( i=${#mounts[@]}-1; i>=0; i-- )); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
bind() {  # DIR at the same path inside, or at $2
  mkdir -p "$root${2:-$1}"
  mount --bind "$1" "$root${2:-$1}"
  mounts+=("$root${2:-$1}")
}
mkdir -p "$root/proc"
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
bind /dev
bind "$cuda"
bind "$src" /src
ln -sfn "$cuda" "$root/usr/local/cuda"
cp /etc/resolv.conf "$root/etc/resolv.conf"

# the toolkit's NVRTC on the loader's path, for the program and cache suites
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/cuda/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LD_LIBRARY_PATH=/usr/local/cuda/lib64 LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/bash -c "$1"
}
# once for a list of packages: a chroot kept from an earlier run has them
if [ "$(cat "$root/etc/cudaboxblur-packages" 2>/dev/null)" != "${pkgs[*]}" ]; then
  in_root "apt-get update -qq && apt-get install -y -qq --no-install-recommends ${pkgs[*]} \
    >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log; exit 1; }"
  echo "${pkgs[*]}" > "$root/etc/cudaboxblur-packages"
fi
echo "$dist: GStreamer $(in_root 'pkg-config --modversion gstreamer-1.0'), $(in_root 'gcc --version | head -1')"

# a fresh build each time (the tree may have changed options); the kernels
# for one architecture
in_root "rm -rf /build && meson setup /build /src -Dwerror=true -Dcuda-archs=sm_90 ${options[*]} $* \
    >/tmp/setup.log 2>&1 || { tail -30 /tmp/setup.log; exit 1; }
  grep -E 'gstreamer-(cuda|analytics)-1.0 found' /build/meson-logs/meson-log.txt | sort -u
  ninja -C /build >/tmp/ninja.log 2>&1 || { grep -B2 -A20 -m5 -E 'error|FAILED' /tmp/ninja.log; exit 1; }
  meson test -C /build --suite cpu --print-errorlogs"
[ -n "$sanitize" ] || exit 0

# the suites of the regions and metas again, under the sanitizers: the
# analytics metas' code runs on 1.24+ only, and from GLib 2.76 on what
# GSlice pooled is malloc's, where LeakSanitizer sees it
suites="analytics regions job redaction reference elements/cudaboxblur"
targets=$(for t in $suites; do printf 'tests/check/%s ' "${t//\//_}"; done)
in_root "rm -rf /build-sanitize && meson setup /build-sanitize /src -Dwerror=true \
    -Db_sanitize=address,undefined -Db_lundef=false -Dexamples=disabled \
    -Dbench=disabled -Dcuda-archs=sm_90 ${options[*]} $* >/tmp/setup.log 2>&1 \
    || { tail -30 /tmp/setup.log; exit 1; }
  ninja -C /build-sanitize $targets gst/libgstcudaboxblur.so >/tmp/ninja.log 2>&1 \
    || { grep -B2 -A20 -m5 -E 'error|FAILED' /tmp/ninja.log; exit 1; }
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0 \
  LSAN_OPTIONS=suppressions=/src/tests/lsan.supp \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C /build-sanitize --no-rebuild --print-errorlogs $suites"
