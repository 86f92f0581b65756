#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Turns the benchmark's CSV into a chart: kernel time against radius at
# 3840x2160, for cudaboxblur, NPP's two box filters, the device-to-device
# copy of the same frame and twice that copy (the kernels' target).
#   usage: bench/plot.sh bench.csv chart.png ["title"]
set -euo pipefail
csv=${1:?usage: plot.sh BENCH.CSV OUT.PNG [TITLE]}
png=${2:?usage: plot.sh BENCH.CSV OUT.PNG [TITLE]}
title=${3:-cudaboxblur kernel time, 3840x2160}
command -v gnuplot >/dev/null || { echo "plot.sh: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one data file per (format, what): radius and median ms
for fmt in GRAY8 GRAY32F; do
  for what in cudaboxblur npp-box-border npp-box-advanced d2d-copy; do
    awk -F, -v f="$fmt" -v w="$what" '$1=="kernel" && $2==3840 && $4==f && $5==w {print $6, $7}' "$csv" > "$tmp/$fmt-$what.dat"
  done
done

plots=""
for fmt in GRAY8 GRAY32F; do
  copy=$(awk '{print $2}' "$tmp/$fmt-d2d-copy.dat")
  plots="$plots
set title '$fmt'
plot '$tmp/$fmt-cudaboxblur.dat' w lp lw 2 pt 7 title 'cudaboxblur', \
     '$tmp/$fmt-npp-box-border.dat' w lp lw 2 pt 5 title 'nppiFilterBoxBorder', \
     '$tmp/$fmt-npp-box-advanced.dat' w lp lw 2 pt 9 title 'nppiFilterBoxBorderAdvanced', \
     ${copy:-0} w l lw 2 dt 2 title 'device-to-device copy', \
     2*${copy:-0} w l lw 1 dt 3 lc rgb 'black' title '2 x copy (target)'
"
done

gnuplot <<GP
set terminal pngcairo size 1200,520 font 'sans,10'
set output '$png'
set multiplot layout 1,2 title '$title'
set logscale xy
set xlabel 'radius (window = (2r+1)^2)'
set ylabel 'median ms per frame'
set xrange [0.9:150]
set xtics (1,2,3,7,15,30,63,127)
set grid
set key top left
$plots
unset multiplot
GP
echo "wrote $png"
