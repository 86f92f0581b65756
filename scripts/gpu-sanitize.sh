#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs the GPU test suites under compute-sanitizer's memcheck, racecheck,
# initcheck and synccheck tools, one build directory, four tools in
# parallel.  Any error a tool reports fails its test run.
#
#   scripts/gpu-sanitize.sh [BUILD_DIR] [LOG_DIR] [TEST...]
#
# BUILD_DIR defaults to build, LOG_DIR (one log per tool and suite) to
# BUILD_DIR/sanitize, the tests to every GPU suite (e.g. engine
# elements/cudaboxblur-cuda).  Prints each tool's summary; exits non-zero
# when any tool found an error.  The suites run with CUDABOXBLUR_SANITIZER
# set to the tool: the tests whose kernels fault on purpose say they are
# skipped.  The sweep suite (every kernel the plan chooses) is the one that
# covers every combination: scripts/gpu-sanitize.sh build build/san sweep
# TOOLS="memcheck initcheck" picks tools; CUDABOXBLUR_SWEEP_FAMILIES="GRAY8,
# NV12" picks the sweep's families, for a run in parts.
set -u
build=${1:-build}
logs=${2:-$build/sanitize}
shift $(( $# < 2 ? $# : 2 ))
[ $# -gt 0 ] || set -- --suite gpu
mkdir -p "$logs"
tools=${TOOLS:-memcheck racecheck initcheck synccheck}
status=0
pids=""

for tool in $tools; do
  # API errors are not reported: the fault tests provoke them on purpose
  # (a bad device-id, a kernel launched with too many threads) and assert
  # the element's handling of each.
  meson test -C "$build" --no-rebuild --logbase "sanitize-$tool" "$@" \
      --timeout-multiplier 4 \
      --wrapper "env CUDABOXBLUR_SANITIZER=$tool compute-sanitizer --tool $tool --error-exitcode 99 \
        --report-api-errors no \
        --print-limit 20 --log-file $logs/$tool-%p.log" \
      > "$logs/$tool.txt" 2>&1 &
  pids="$pids $!"
done
for pid in $pids; do
  wait "$pid" || status=1
done

for tool in $tools; do
  echo "== $tool: $(grep -E '^Ok:|^Fail:' "$logs/$tool.txt" | tr -s ' ' | tr '\n' ' ')"
  cat "$logs/$tool"-*.log 2>/dev/null | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" \
    | sort | uniq -c
done
exit $status
