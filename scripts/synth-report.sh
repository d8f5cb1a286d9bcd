#!/usr/bin/env bash
# Synthesizes one RTL module with yosys (generic gates, memories kept as RAM) and prints its
# cells besides the memories, its flip-flops and its memory bits:
#   scripts/synth-report.sh fr_router [NAME=VALUE ...]    e.g. P=4 DEPTH=2 FIELD_W=8
#   scripts/synth-report.sh fr_xbar_router [NAME=VALUE ...]
# Memories that yosys infers stay $mem_v2 cells (a RAM macro in a real flow); everything else
# is mapped to gates by techmap and abc. Fails if yosys fails or finds no such module.
set -euo pipefail
top=${1:-fr_router}
shift || true
here=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
chparam=""
for setting in "$@"; do chparam="$chparam -set ${setting%%=*} ${setting#*=}"; done
[ -n "$chparam" ] && chparam="chparam $chparam $top;"
yosys -p "read_verilog -I$here/rtl $(find $here/rtl -name "*.v" | sort | tr "\n" " "); $chparam synth -flatten -top $top -run :fine; opt -fast -full; techmap; opt -fast;
          abc -fast; opt -fast; stat; dump t:\$mem_v2" >"$log" 2>&1 || { tail -20 "$log"; exit 1; }
stats=$(awk '/Printing statistics/{s=1} s && /^=== /{c++} s && c==1' "$log")
# (awk reads to the end: one that exits early can fail printf with SIGPIPE under pipefail)
all=$(printf '%s\n' "$stats" | awk '/Number of cells:/ && !n {print $4; n=1}')
mems=$(printf '%s\n' "$stats" | awk '/\$mem_v2/ && !n {print $2; n=1}')
mems=${mems:-0}
ffs=$(printf '%s\n' "$stats" | awk '/\$_S?DFFE?_/ {n += $2} END {print n + 0}')
bits=$(awk '/cell \$mem_v2/ {m=1} m && /parameter \\SIZE/ {s=$3} m && /parameter \\WIDTH/ {b += s * $3; m=0} END {print b + 0}' "$log")
echo "$top: $((all - mems)) cells, $ffs flip-flops, $bits memory bits in $mems RAMs (${*:-default parameters}; yosys generic synth, memories kept)"
