#!/usr/bin/env python3
# Turns a CUDA source file into a C header holding it as one string, so the
# plugin carries its kernels and NVRTC never looks for a file at run time.
import sys

src, out, name = sys.argv[1], sys.argv[2], sys.argv[3]
with open(src, encoding="utf-8") as f:
    text = f.read()

lines = []
for line in text.splitlines(keepends=True):
    esc = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    lines.append('  "%s"' % esc)

with open(out, "w", encoding="utf-8") as f:
    f.write("/* Generated from %s by embed.py; do not edit. */\n" % src.split("/")[-1])
    f.write("#pragma once\n\n")
    f.write("static const char %s[] =\n%s;\n" % (name, "\n".join(lines) or '""'))
