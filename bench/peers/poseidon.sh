#!/usr/bin/env bash
# Poseidon (T-CREST's TDM slot-table generator) beside fixroute's TDM schedulers on the same
# all-to-all instances: one phit per ordered pair, routerDepth 1, linkDepth 0, phits 1.
#
#   bench/peers/poseidon.sh POSEIDON_SOURCE [SECONDS]
#
# POSEIDON_SOURCE: a checkout of github.com/t-crest/poseidon (nothing is fetched here; the
# tree is copied, never edited). SECONDS: wall time of each GRASP and ALNS run (default 20).
# Environment: FIXROUTE (default build/fixroute), OUT (default build/peers/poseidon),
# INSTANCES (default: the twelve tori and meshes of docs/tdm.md, e.g. "torus:3x3 mesh:4x4").
# Prints a Markdown table (also written to $OUT/table.md) and leaves every schedule in $OUT.
#
# Poseidon's period P is the `length` attribute of its XML schedule (the number it prints
# is P + 2); docs/tdm.md says how the two models line up.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1/src/CMakeLists.txt" ]; then
  echo "usage: bench/peers/poseidon.sh POSEIDON_SOURCE [SECONDS] (a tree with src/CMakeLists.txt)" >&2
  exit 2
fi
SOURCE=$(cd "$1" && pwd)
SECONDS_PER_RUN=${2:-20}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIXROUTE=${FIXROUTE:-$ROOT/build/fixroute}
OUT=${OUT:-$ROOT/build/peers/poseidon}
INSTANCES=${INSTANCES:-"torus:3x3 torus:4x4 torus:5x5 torus:6x6 torus:8x8 torus:10x10 mesh:3x3 mesh:4x4 mesh:5x5 mesh:6x6 mesh:8x8 mesh:10x10"}

[ -x "$FIXROUTE" ] || { echo "poseidon.sh: $FIXROUTE not built (make build)" >&2; exit 2; }
"$ROOT/scripts/install-deps.sh" poseidon

# Build a copy: Debian's pugixml for the submodule a source snapshot lacks, and the missing
# `return *this;` of schedule::operator== (undefined behaviour under GCC 12 -O2).
mkdir -p "$OUT"
rm -rf "$OUT/src" && cp -r "$SOURCE/src" "$OUT/src"
sed -i 's|${PROJECT_SOURCE_DIR}/../lib/pugixml/build/libpugixml.a|pugixml|' "$OUT/src/CMakeLists.txt"
sed -i '/^schedule& schedule::operator == /,/^}/ s|^}|\treturn *this;\n}|' "$OUT/src/schedule.cpp"
grep -q 'return \*this;' "$OUT/src/schedule.cpp" || { echo "poseidon.sh: schedule.cpp patch did not apply" >&2; exit 1; }
cmake -S "$OUT/src" -B "$OUT/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" > "$OUT/build.log" 2>&1
cmake --build "$OUT/build" -j2 >> "$OUT/build.log" 2>&1 || { echo "poseidon.sh: build failed, see $OUT/build.log" >&2; exit 1; }
POSEIDON="$OUT/build/poseidon"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# One Poseidon run: prints "PERIOD SECONDS"; the schedule is verified by Poseidon itself.
run_poseidon() {
  local plat=$1 name=$2; shift 2
  local xml="$OUT/$name.xml" log="$OUT/$name.log" t0 t1
  t0=$(now)
  (cd "$OUT" && "$POSEIDON" -p "$plat" -s "$xml" "$@") > "$log" 2>&1 || { echo "- -"; return; }
  t1=$(now)
  grep -q "Schedule verified" "$log" || { echo "unverified -"; return; }
  echo "$(grep -o 'length="[0-9]*"' "$xml" | head -1 | tr -dc 0-9) $(elapsed "$t0" "$t1")"
}

table="$OUT/table.md"
{
  echo "| network | bound | fixroute | its scheduler | fixroute time | Poseidon GREEDY | GRASP b0.02 | ALNS | Poseidon best | fixroute - best |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} > "$table"
cat "$table"

for instance in $INSTANCES; do
  family=${instance%%:*}; size=${instance#*:}
  width=${size%x*}; height=${size#*x}
  case $family in torus) ptype=bitorus ;; mesh) ptype=mesh ;; *) echo "poseidon.sh: $instance: tori and meshes only" >&2; exit 2 ;; esac
  plat="$OUT/${ptype}${size}.xml.in"
  cat > "$plat" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<platform width="$width" height="$height">
  <topology type="$ptype" routerDepth="1" linkDepth="0"></topology>
</platform>
<communication type="all2all" phits="1">
</communication>
EOF
  # fixroute: the tables alone timed; the period and bounds from a verified ref run of them.
  tables="$OUT/fixroute-${family}${size}"
  t0=$(now)
  "$FIXROUTE" tables "$instance" total-exchange -o "$tables" > /dev/null
  t1=$(now)
  json=$("$FIXROUTE" run "$instance" total-exchange --json)
  ours=$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert r["ok"], "run failed"; print(r["steps"], r["lower_bound"], r["algorithm"])' "$json")
  read -r period bound algorithm <<< "$ours"

  read -r greedy greedy_s <<< "$(run_poseidon "$plat" "${ptype}${size}-greedy" -m GREEDY)"
  read -r grasp _ <<< "$(run_poseidon "$plat" "${ptype}${size}-grasp" -m GRASP -b 0.02 -t "$SECONDS_PER_RUN")"
  read -r alns _ <<< "$(run_poseidon "$plat" "${ptype}${size}-alns" -m ALNS -i GREEDY -t "$SECONDS_PER_RUN")"
  best=$(printf '%s\n' "$greedy" "$grasp" "$alns" | grep -E '^[0-9]+$' | sort -n | head -1 || true)
  diff="-"; [ -n "$best" ] && diff=$((period - best))
  row="| $family $size | $bound | $period | $algorithm | $(elapsed "$t0" "$t1") s | $greedy ($greedy_s s) | $grasp | $alns | ${best:--} | $diff |"
  echo "$row" | tee -a "$table"
done
echo "poseidon.sh: table in $table (GRASP and ALNS: ${SECONDS_PER_RUN} s each)"
