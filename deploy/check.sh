#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Checks deploy/ on a machine without a GPU, a container engine or a
# cluster, in seconds:
#  - every YAML document of deploy/kubernetes parses, and the fields that
#    matter agree with each other, with the Containerfile, with the
#    entrypoint and with debian/ (one GPU a pod, the image, the
#    environment the entrypoint reads, the source list and its mount);
#  - the Containerfile: its two stages, NVIDIA_DRIVER_CAPABILITIES, the
#    entrypoint, debian/control's Build-Depends, and each RUN's shell
#    under bash -n and sh -n;
#  - the entrypoint, run with made-up sources: the URI each pod ordinal
#    takes, its errors, the quoting of URIs, and the elements of the
#    pipelines it prints, which the Containerfile must check for;
#  - where python3-gi and GStreamer's plugins are installed, each element
#    of those pipelines made with its properties by GStreamer's own parser
#    (those that need a GPU are skipped; cudaboxblur is taken from
#    $GST_PLUGIN_PATH or build/gst).
# Needs bash and python3 with PyYAML (Debian: python3-yaml).
#   usage: deploy/check.sh
set -uo pipefail
# the counting end of a pipe runs in this shell
shopt -s lastpipe
cd "$(dirname "$0")/.." || exit 1

passed=0
failed=0
skipped=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
skip() { skipped=$((skipped + 1)); echo "skip - $*"; }
# counts the lines another program printed in the same form
tally() {
  local line
  while IFS= read -r line; do
    case "$line" in
      "ok - "*) ok "${line#ok - }" ;;
      "not ok - "*) not_ok "${line#not ok - }" ;;
      "skip - "*) skip "${line#skip - }" ;;
      *) echo "$line" ;;
    esac
  done
}
finish() {
  echo "deploy: $passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ]
  exit
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import yaml' 2>/dev/null; then
    py=$p
    break
  fi
done
if [ -z "$py" ]; then
  not_ok "python3 with PyYAML (Debian: python3-yaml) is not installed"
  finish
fi

entry=deploy/cudaboxblur-pipeline.sh

# (a) the YAML and the Containerfile; leaves in $tmp what the shell checks
# below need: each RUN's shell, the elements the Containerfile checks for,
# the ConfigMap's source list and the StatefulSet's name and replicas
"$py" - "$tmp" <<'PY' | tally
import glob, os, re, sys
import yaml

tmp = sys.argv[1]


def check(name, cond, why=""):
    print(("ok - " if cond else "not ok - ") + name + ("" if cond or not why else ": " + why))
    return cond


version = open("debian/changelog").readline().split("(")[1].split(")")[0]
entry = open("deploy/cudaboxblur-pipeline.sh").read()
entry_vars = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", entry))

# the Containerfile's instructions, continuation lines joined and comments
# dropped
instructions, current = [], ""
for line in open("deploy/Containerfile"):
    stripped = line.strip()
    if stripped.startswith("#") or (not stripped and not current):
        continue
    if stripped.endswith("\\"):
        current += stripped[:-1] + " "
        continue
    current += stripped
    word, _, rest = current.partition(" ")
    instructions.append((word.upper(), rest.strip()))
    current = ""

froms = [rest for word, rest in instructions if word == "FROM"]
check("Containerfile: two stages, the build on CUDA's devel image",
      len(froms) == 2 and re.fullmatch(
          r"\$\{CUDA_IMAGE\}:\$\{CUDA_VERSION\}-devel-\$\{UBUNTU\} AS build", froms[0]) is not None,
      repr(froms))
check("Containerfile: the runtime on CUDA's base or runtime image of the same version",
      len(froms) == 2 and re.fullmatch(
          r"\$\{CUDA_IMAGE\}:\$\{CUDA_VERSION\}-(base|runtime)-\$\{UBUNTU\}", froms[1]) is not None,
      repr(froms[1:]))
args = dict(rest.split("=", 1) for word, rest in instructions if word == "ARG" and "=" in rest)
check("Containerfile: CUDA_VERSION is an ARG of the form X.Y.Z, on Ubuntu 24.04",
      re.fullmatch(r"\d+\.\d+\.\d+", args.get("CUDA_VERSION", "")) is not None
      and args.get("UBUNTU") == "ubuntu24.04", repr(args))

stages = [i for i, (word, _) in enumerate(instructions) if word == "FROM"]
build = instructions[stages[0]:stages[1]] if len(stages) == 2 else []
runtime = instructions[stages[1]:] if len(stages) == 2 else []
env = {}
for word, rest in runtime:
    if word == "ENV":
        key, _, value = rest.partition("=")
        env[key] = value
caps = set(env.get("NVIDIA_DRIVER_CAPABILITIES", "").split(","))
check("Containerfile: NVIDIA_DRIVER_CAPABILITIES has compute, utility and video",
      {"compute", "utility", "video"} <= caps, repr(env.get("NVIDIA_DRIVER_CAPABILITIES")))

entrypoints = [rest for word, rest in runtime if word == "ENTRYPOINT"]
copies = {}
for word, rest in runtime:
    if word == "COPY":
        parts = [p for p in rest.split() if not p.startswith("--")]
        if len(parts) == 2:
            copies[parts[1]] = parts[0]
try:
    entrypoint = yaml.safe_load(entrypoints[-1]) if entrypoints else None
except yaml.YAMLError:
    entrypoint = None
check("Containerfile: ENTRYPOINT, in exec form, is deploy/cudaboxblur-pipeline.sh as copied",
      isinstance(entrypoint, list) and len(entrypoint) == 1
      and copies.get(entrypoint[0]) == "deploy/cudaboxblur-pipeline.sh"
      and os.access("deploy/cudaboxblur-pipeline.sh", os.X_OK),
      repr((entrypoint, copies)))
users = [rest for word, rest in runtime if word == "USER"]
uid = users[-1].split(":")[0] if users else ""
check("Containerfile: runs as a numeric user other than root",
      uid.isdigit() and uid != "0", repr(users))
check("Containerfile: STOPSIGNAL SIGINT (gst-launch-1.0 is process 1)",
      ("STOPSIGNAL", "SIGINT") in runtime)

# debian/control's Build-Depends, by name, against the build stage's
# apt-get install
control = open("debian/control").read()
field = re.search(r"^Build-Depends:(.*?)^(?=\S)", control, re.S | re.M).group(1)
field = "\n".join(l for l in field.splitlines() if not l.strip().startswith("#"))
wanted = {re.split(r"[\s(\[<]", d.strip())[0] for d in field.split(",") if d.strip()}
wanted = {"debhelper" if d == "debhelper-compat" else d for d in wanted}
installed = set()
for word, rest in build:
    if word == "RUN" and "apt-get install" in rest:
        installed |= set(re.findall(r"(?<![-/\w])([a-z0-9][a-z0-9.+-]+)", rest.split("apt-get install", 1)[1]))
check("Containerfile: the build stage installs debian/control's Build-Depends",
      wanted <= installed, "missing " + " ".join(sorted(wanted - installed)))
check("Containerfile: the build runs dpkg-buildpackage -b with CUDA_ARCHS",
      any(w == "RUN" and "dpkg-buildpackage -b" in r and "CUDA_ARCHS=" in r for w, r in build))

# each RUN's shell for bash -n and sh -n; the elements checked for
n = 0
for word, rest in instructions:
    if word == "RUN":
        n += 1
        with open(os.path.join(tmp, "run-%d.sh" % n), "w") as f:
            f.write(rest + "\n")
        m = re.search(r"for e in (.*?); do", rest, re.S)
        if m:
            with open(os.path.join(tmp, "elements"), "w") as f:
                f.write("\n".join(m.group(1).split()) + "\n")
check("Containerfile: its runtime stage checks for the pipelines' elements",
      os.path.exists(os.path.join(tmp, "elements")))

# the Kubernetes documents
docs = []
for path in sorted(glob.glob("deploy/kubernetes/*.yaml")):
    try:
        for doc in yaml.safe_load_all(open(path)):
            if doc is not None:
                docs.append((path, doc))
        check("%s parses" % path, True)
    except yaml.YAMLError as e:
        check("%s parses" % path, False, str(e).replace("\n", " "))
for path, doc in docs:
    check("%s: %s has apiVersion, kind and metadata.name" % (path, doc.get("kind")),
          all(isinstance(doc.get(k), str) for k in ("apiVersion", "kind"))
          and isinstance((doc.get("metadata") or {}).get("name"), str))


def of_kind(kind):
    return [doc for _, doc in docs if doc.get("kind") == kind]


sets = of_kind("StatefulSet")
if not check("kubernetes: one StatefulSet", len(sets) == 1, "%d" % len(sets)):
    sys.exit(0)
sts = sets[0]
spec = sts.get("spec") or {}
pod = (spec.get("template") or {}).get("spec") or {}
labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
check("StatefulSet: apps/v1, 2 replicas", sts.get("apiVersion") == "apps/v1" and spec.get("replicas") == 2,
      repr((sts.get("apiVersion"), spec.get("replicas"))))
match = (spec.get("selector") or {}).get("matchLabels") or {}
check("StatefulSet: the selector matches the pod template's labels",
      bool(match) and all(labels.get(k) == v for k, v in match.items()), repr((match, labels)))
services = {s["metadata"]["name"]: s for s in of_kind("Service")}
service = services.get(spec.get("serviceName"))
check("StatefulSet: serviceName is a headless Service that selects its pods",
      service is not None and service["spec"].get("clusterIP") == "None"
      and all(labels.get(k) == v for k, v in (service["spec"].get("selector") or {}).items()),
      repr(spec.get("serviceName")))
check("StatefulSet: runtimeClassName nvidia", pod.get("runtimeClassName") == "nvidia")

containers = pod.get("containers") or []
if not check("StatefulSet: one container", len(containers) == 1, "%d" % len(containers)):
    sys.exit(0)
c = containers[0]
limits = (c.get("resources") or {}).get("limits") or {}
check("StatefulSet: nvidia.com/gpu limit 1", str(limits.get("nvidia.com/gpu")) == "1",
      repr(limits.get("nvidia.com/gpu")))
image = c.get("image", "")
check("StatefulSet: the image is cudaboxblur:%s (debian/changelog's version)" % version,
      image.rsplit("/", 1)[-1] == "cudaboxblur:" + version, repr(image))
security = pod.get("securityContext") or {}
check("StatefulSet: runs as the Containerfile's user",
      security.get("runAsNonRoot") is True and str(security.get("runAsUser")) == uid,
      repr((security, uid)))
check("StatefulSet: no probe (the pipeline's process is its health)",
      not any(k in c for k in ("livenessProbe", "readinessProbe", "startupProbe")))

envs = {e["name"]: e for e in c.get("env") or []}
check("StatefulSet: every env variable is one the entrypoint reads",
      set(envs) <= entry_vars, "unknown: " + " ".join(sorted(set(envs) - entry_vars)))
index_ref = ((envs.get("POD_INDEX") or {}).get("valueFrom") or {}).get("fieldRef") or {}
check("StatefulSet: POD_INDEX from the label apps.kubernetes.io/pod-index",
      index_ref.get("fieldPath") == "metadata.labels['apps.kubernetes.io/pod-index']", repr(index_ref))
check("StatefulSet: no SOURCE_URI, which would give every pod the same stream",
      "SOURCE_URI" not in envs)

# SOURCE_LIST is the ConfigMap's key, mounted
source_list = (envs.get("SOURCE_LIST") or {}).get("value") or "/etc/cudaboxblur/sources"
volumes = {v["name"]: v for v in pod.get("volumes") or []}
found = None
for mount in c.get("volumeMounts") or []:
    cm = (volumes.get(mount["name"]) or {}).get("configMap")
    if not cm:
        continue
    for item in cm.get("items") or []:
        if os.path.join(mount["mountPath"], item["path"]) == source_list:
            found = (cm["name"], item["key"])
maps = {m["metadata"]["name"]: m for m in of_kind("ConfigMap")}
check("StatefulSet: SOURCE_LIST (%s) is a ConfigMap's key, mounted" % source_list,
      found is not None and found[0] in maps and found[1] in (maps[found[0]].get("data") or {}),
      repr(found))
if found and found[0] in maps:
    with open(os.path.join(tmp, "sources"), "w") as f:
        f.write(maps[found[0]]["data"].get(found[1], ""))
with open(os.path.join(tmp, "statefulset"), "w") as f:
    f.write("%s %s\n" % (sts["metadata"]["name"], spec.get("replicas")))

# an SRT listener's port is the container's and the Service's
sink = (envs.get("SINK_URI") or {}).get("value") or ""
m = re.match(r"srt://[^:/?]*:(\d+)\?(.*\b)?mode=listener", sink)
if m:
    port = int(m.group(1))
    check("StatefulSet: the SRT listener's port %d is a UDP port of the container and the Service" % port,
          any(p.get("containerPort") == port and p.get("protocol") == "UDP" for p in c.get("ports") or [])
          and service is not None
          and any(p.get("port") == port and p.get("protocol") == "UDP" for p in service["spec"].get("ports") or []))
PY

# (b) the Containerfile's shell
runs=("$tmp"/run-*.sh)
if [ -e "${runs[0]}" ]; then
  for f in "${runs[@]}"; do
    name="Containerfile: RUN #$(basename "$f" .sh | cut -d- -f2)"
    if err=$(bash -n "$f" 2>&1); then ok "$name under bash -n"; else not_ok "$name under bash -n: $err"; fi
    if err=$(sh -n "$f" 2>&1); then ok "$name under sh -n"; else not_ok "$name under sh -n: $err"; fi
  done
else
  not_ok "Containerfile: no RUN found"
fi

# (c) the entrypoint
if err=$(bash -n "$entry" 2>&1); then ok "$entry under bash -n"; else not_ok "$entry under bash -n: $err"; fi
if command -v shellcheck >/dev/null; then
  if err=$(shellcheck "$entry" 2>&1); then ok "$entry under shellcheck"; else not_ok "$entry under shellcheck: $err"; fi
else
  skip "$entry under shellcheck: shellcheck is not installed"
fi

# runs the entrypoint with --print in a clean environment plus the
# assignments given; its output (and error) in $out, its status in $rc
run() {
  out=$(env -i PATH="$PATH" "$@" bash "$entry" --print 2>&1)
  rc=$?
  return "$rc"
}
expect() { # name, then a substring the output must have
  if [ "$rc" -eq 0 ] && [[ $out == *"$2"* ]]; then ok "$1"; else not_ok "$1: status $rc, output: $out"; fi
}
expect_error() { # name, then a substring the error must have
  if [ "$rc" -ne 0 ] && [[ $out == *"$2"* ]]; then ok "$1"; else not_ok "$1: status $rc, output: $out"; fi
}

list=$tmp/list
printf '%s\n' '# cameras' 'rtsp://cam-0.test/live' '' \
  '   srt://enc-1.test:9000?mode=caller   ' '	# indented comment' \
  'file:///media/clip-2.ts' >"$list"
run SOURCE_LIST="$list" POD_INDEX=0
expect "entrypoint: POD_INDEX 0 takes the first URI, to rtspsrc over TCP" \
  'rtspsrc location="rtsp://cam-0.test/live" protocols=tcp ! rtph264depay ! h264parse'
run SOURCE_LIST="$list" POD_INDEX=1
expect "entrypoint: POD_INDEX 1 takes the second, trimmed, comments and blanks skipped, to srtsrc" \
  'srtsrc uri="srt://enc-1.test:9000?mode=caller" ! tsdemux ! h264parse'
run SOURCE_LIST="$list" POD_INDEX=02
expect "entrypoint: POD_INDEX 02 is 2" 'urisourcebin uri="file:///media/clip-2.ts" ! parsebin'
run SOURCE_LIST="$list" POD_INDEX= HOSTNAME=cudaboxblur-1
expect "entrypoint: no POD_INDEX: the ordinal of the host name cudaboxblur-1" 'srt://enc-1.test:9000'
run SOURCE_LIST="$list" HOSTNAME=cudaboxblur-3
expect_error "entrypoint: an ordinal past the list fails, saying so" 'has 3 URIs, none for index 3'
run SOURCE_LIST="$list" HOSTNAME=cudaboxblur-7d9f8-xk2lp
expect_error "entrypoint: a host name without an ordinal (a Deployment's pod) fails" 'does not end in -N'
run SOURCE_LIST="$tmp/none" POD_INDEX=0
expect_error "entrypoint: a missing SOURCE_LIST fails" 'cannot be read'
run SOURCE_LIST="$list" POD_INDEX=0 SOURCE_URI='srt://other.test:1234'
expect "entrypoint: SOURCE_URI comes before the list" 'srtsrc uri="srt://other.test:1234"'
run SOURCE_URI='rtsp://u:p@cam.test/a"b\c'
expect "entrypoint: a URI's quotes and backslashes are escaped" \
  'location="rtsp://u:p@cam.test/a\"b\\c"'
run SOURCE_URI=rtsp://cam.test/x
expect "entrypoint: the default: watchdog, nvh264dec, a whole-frame blur, fakesink" \
  'h264parse ! watchdog timeout=10000 ! nvh264dec ! cudaboxblur radius=16 passes=3 ! fakesink sync=false'
run SOURCE_URI=rtsp://cam.test/x CODEC=h265 WATCHDOG_MS=0
expect "entrypoint: CODEC h265 and WATCHDOG_MS 0" 'rtph265depay ! h265parse ! nvh265dec !'
if [[ $out != *watchdog* ]]; then
  ok "entrypoint: WATCHDOG_MS 0 leaves the watchdog out"
else
  not_ok "entrypoint: WATCHDOG_MS 0 leaves the watchdog out: $out"
fi
run SOURCE_URI=rtsp://cam.test/x DETECTOR='identity name=detector' \
  BLUR_PROPERTIES='roi-meta=true roi-hold=5'
expect "entrypoint: DETECTOR between the decoder and cudaboxblur, BLUR_PROPERTIES given" \
  'nvh264dec ! identity name=detector ! cudaboxblur roi-meta=true roi-hold=5 !'
run SOURCE_URI=rtsp://cam.test/x SINK_URI='srt://:9000?mode=listener'
expect "entrypoint: SINK_URI srt:// encodes, muxes 7 TS packets a buffer and sends" \
  'x264enc tune=zerolatency speed-preset=veryfast key-int-max=60 ! h264parse config-interval=-1 ! mpegtsmux alignment=7 ! srtsink uri="srt://:9000?mode=listener" wait-for-connection=false'
run SOURCE_URI=rtsp://cam.test/x SINK_URI=udp://host:1
expect_error "entrypoint: another SINK_URI fails" 'SINK_URI must be'
run SOURCE_URI=rtsp://cam.test/x CODEC=vp9
expect_error "entrypoint: another CODEC fails" 'CODEC must be'
run SOURCE_URI=/dev/video0
expect_error "entrypoint: a source that is not a URI fails" 'not a URI'

# the ConfigMap's own list: each pod of the StatefulSet a stream of its own
if [ -s "$tmp/sources" ] && read -r sts replicas <"$tmp/statefulset"; then
  seen=""
  good=true
  for ((i = 0; i < replicas; i++)); do
    run SOURCE_LIST="$tmp/sources" HOSTNAME="$sts-$i"
    uri=$(grep -oE '(location|uri)="[^"]*"' <<<"$out" | head -1)
    if [ "$rc" -ne 0 ] || [ -z "$uri" ] || [[ $seen == *"|$uri|"* ]]; then
      good=false
      not_ok "kubernetes: pod $sts-$i's stream from the ConfigMap: status $rc, $out"
    fi
    seen+="|$uri|"
  done
  $good && ok "kubernetes: each of the $replicas pods takes a stream of its own from the ConfigMap"
else
  not_ok "kubernetes: no source list or StatefulSet to run the entrypoint on"
fi

# the elements of every pipeline the entrypoint makes, and the
# Containerfile's check for them
descs=$tmp/pipelines
: >"$descs"
for vars in "SOURCE_URI=rtsp://cam.test/x" "SOURCE_URI=srt://enc.test:9000" \
  "SOURCE_URI=file:///clip.ts" "SOURCE_URI=rtsp://cam.test/x CODEC=h265" \
  "SOURCE_URI=rtsp://cam.test/x SINK_URI=srt://:9000?mode=listener"; do
  # shellcheck disable=SC2086
  run $vars && echo "$out" >>"$descs"
done
elements=$(tr '!' '\n' <"$descs" | awk '{print $1}' | sort -u)
# made only where there is a GPU (nvcodec), or checked on its own (the plugin)
needs_gpu="nvh264dec nvh265dec cudaboxblur"
missing=""
for e in $elements; do
  [[ " $needs_gpu " == *" $e "* ]] && continue
  grep -qx "$e" "$tmp/elements" 2>/dev/null || missing+=" $e"
done
if [ -z "$missing" ]; then
  ok "Containerfile: checks for every element of the entrypoint's pipelines"
else
  not_ok "Containerfile: does not check for:$missing"
fi

# (d) each element of those pipelines, with its properties, through
# GStreamer's parser, where GStreamer's Python bindings are installed
if [ -z "${GST_PLUGIN_PATH:-}" ] && [ -d build/gst ]; then
  export GST_PLUGIN_PATH=$PWD/build/gst
fi
gi_py=""
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null &&
    "$p" -c 'import gi; gi.require_version("Gst", "1.0")' 2>/dev/null; then
    gi_py=$p
    break
  fi
done
if [ -z "$gi_py" ]; then
  skip "the pipelines' elements through GStreamer's parser: python3-gi with GStreamer is not installed"
else
  "$gi_py" - "$descs" "$needs_gpu" <<'PY' | tally
import sys
import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst, GLib

Gst.init(None)
needs_gpu = sys.argv[2].split()
segments = set()
for desc in open(sys.argv[1]):
    # gst-launch-1.0 gets the words and joins them with spaces
    segments |= {s.strip() for s in " ".join(desc.split()).split("!")}
for segment in sorted(segments):
    name = segment.split()[0]
    if not Gst.ElementFactory.find(name):
        if name in needs_gpu:
            print("skip - %s: not registered here (a GPU's element, or the plugin not built)" % segment)
        else:
            print("skip - %s: not installed here" % segment)
        continue
    try:
        Gst.parse_launch(segment)
        print("ok - GStreamer makes: %s" % segment)
    except GLib.Error as e:
        print("not ok - GStreamer makes: %s: %s" % (segment, e.message))
PY
fi

finish
