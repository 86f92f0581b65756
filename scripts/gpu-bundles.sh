#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The suites on a GPU machine that has no GStreamer, against GStreamer 1.22
# and 1.26 in one call: the bundles of ../shared/gpu-host, each packed with
# xz so that both travel with the tree (34 and 40 MB unpacked, 7 and 9
# packed), in .bundles/ (keep it out of git: echo /.bundles/ >>
# .git/info/exclude).
#
#   here:            scripts/gpu-bundles.sh pack 122 126
#   on the GPU host: scripts/gpu-bundles.sh run 126 122 [-- meson test arguments]
#
# run builds /tmp/b-V against each bundle (in parallel; kernels for sm_90,
# or MESON_OPTS), then runs meson test with each in turn, printing the
# results that are not OK and what cudaupload and cudadownload keep of the
# metas.  NOSYNC=1 also runs elements/cudaboxblur-ordered against 1.26 with
# gst_cuda_memory_sync() made a no-op (LD_PRELOAD), which must fail.
# BENCH="--kernels-only --choice-only" then runs cudaboxblur-bench with
# those arguments; where pack was given BASE=REV (the tree at that commit,
# packed into .bundles/base.tar.xz), the bench of REV too, built beside,
# the two alternately, twice each: the before and after of a change in one
# run.  Logs go to $OUT (or /tmp/gpu-bundles).
set -u
cd "$(dirname "$0")/.."
mode=${1:?usage: gpu-bundles.sh pack|run VERSIONS... [-- meson test arguments]}
shift
vers=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do vers+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift

if [ "$mode" = pack ]; then
  mkdir -p .bundles
  for v in "${vers[@]}"; do
    script=../shared/gpu-host/make-bundle.sh
    [ "$v" = 122 ] || script=../shared/gpu-host/make-bundle-${v:0:1}.${v:1}.sh
    tmp=$(mktemp -d)
    bash "$script" "$tmp/gst$v" >/dev/null || exit 1
    tar -C "$tmp" -cf - "gst$v" | xz -6 -T0 > ".bundles/gst$v.tar.xz"
    rm -rf "$tmp"
    ls -l ".bundles/gst$v.tar.xz"
  done
  rm -f .bundles/base.tar.xz
  if [ -n "${BASE:-}" ]; then
    git archive --prefix=base/ "$BASE" | xz -6 -T0 > .bundles/base.tar.xz || exit 1
    ls -l .bundles/base.tar.xz
  fi
  exit 0
fi

out=${OUT:-/tmp/gpu-bundles}
mkdir -p "$out"
envsh() { ls /tmp/gst"$1"/*/env.sh /tmp/gst"$1"/.*/env.sh 2>/dev/null | head -1; }
build() {
  local v=$1
  if [ -z "$(envsh "$v")" ]; then
    mkdir -p "/tmp/gst$v" && xz -dc ".bundles/gst$v.tar.xz" | tar -C "/tmp/gst$v" -xf - || return 1
  fi
  ( source "$(envsh "$v")"
    b=/tmp/b-$v
    [ -f $b/build.ninja ] || meson setup $b -Dcuda-archs=sm_90 ${MESON_OPTS:-} > /tmp/setup-$v.log 2>&1 \
      || { tail -n 40 /tmp/setup-$v.log; exit 1; }
    ninja -C $b > /tmp/build-$v.log 2>&1 || { grep -B5 -A20 -m3 error /tmp/build-$v.log | head -80; exit 1; }
    if [ -n "${BENCH:-}" ] && [ -f .bundles/base.tar.xz ]; then
      [ -d /tmp/base ] || xz -dc .bundles/base.tar.xz | tar -C /tmp -xf -
      b=/tmp/b-base-$v
      ( cd /tmp/base && { [ -f $b/build.ninja ] || meson setup $b -Dcuda-archs=sm_90 \
          ${MESON_OPTS:-} > /tmp/setup-base-$v.log 2>&1; } \
          && ninja -C $b > /tmp/build-base-$v.log 2>&1 ) \
        || { echo "the base failed to build"; tail -n 20 /tmp/build-base-$v.log; exit 1; }
    fi )
}
t0=$(date +%s)
for v in "${vers[@]}"; do build "$v" > "/tmp/buildout-$v.txt" 2>&1 & done
wait
echo "== built in $(( $(date +%s) - t0 )) s"
cat /tmp/buildout-*.txt
for v in "${vers[@]}"; do
  ( source "$(envsh "$v")"
    b=/tmp/b-$v
    t0=$(date +%s)
    meson test -C $b --print-errorlogs "$@" > "$out/test-$v.log" 2>&1
    echo "== GStreamer $v: rc=$? in $(( $(date +%s) - t0 )) s"
    grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout|Expected Fail|Unexpected Pass):" "$out/test-$v.log" \
      | grep -vE " OK +[0-9]"
    grep -h "keeps .* metas*$" $b/meson-logs/testlog.txt | sort -u
    xz -c $b/meson-logs/testlog.txt > "$out/testlog-$v.txt.xz"
    if [ "${NOSYNC:-}" = 1 ] && [ "$v" = 126 ]; then
      echo 'void gst_cuda_memory_sync (void *mem) { }' > /tmp/nosync.c
      gcc -shared -fPIC -o /tmp/nosync.so /tmp/nosync.c
      LD_PRELOAD=/tmp/nosync.so meson test -C $b --no-rebuild --print-errorlogs \
        elements/cudaboxblur-ordered > "$out/nosync.log" 2>&1
      echo "== 1.26 without gst_cuda_memory_sync (must fail): rc=$?"
      grep -E "^ *[0-9]+/[0-9]+ |:F:|:E:" "$out/nosync.log" | head -4
    fi
    if [ -n "${BENCH:-}" ]; then
      builds=$b
      [ -f .bundles/base.tar.xz ] && builds="/tmp/b-base-$v $b /tmp/b-base-$v $b"
      for d in $builds; do
        echo "== $d/bench/cudaboxblur-bench $BENCH" >> "$out/bench-$v.txt"
        GST_PLUGIN_PATH_1_0=$d/gst $d/bench/cudaboxblur-bench --csv /tmp/bench.csv \
          $BENCH >> "$out/bench-$v.txt" 2>&1
        echo "== bench of $d against GStreamer $v: rc=$?"
      done
    fi )
done
