#!/usr/bin/env bash
# Synthesizes one RTL module with yosys (generic gates) and prints its cell and
# flip-flop counts: `scripts/synth-report.sh fr_router [PORTS]` or
# `scripts/synth-report.sh fr_xbar_router` (no port parameter). Fails if yosys fails.
set -euo pipefail
top=${1:-fr_router}
ports=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
chparam=""
[ -n "$ports" ] && chparam="chparam -set P $ports $top;"
yosys -p "read_verilog $here/rtl/*.v; $chparam synth -flatten -top $top; stat" >"$log" 2>&1 || { tail -20 "$log"; exit 1; }
stats=$(awk '/Printing statistics/{s=1} s && /^=== /{c++} s && c==1' "$log")
cells=$(printf '%s\n' "$stats" | awk '/Number of cells:/ {print $4; exit}')
ffs=$(printf '%s\n' "$stats" | awk '/\$_S?DFFE?_/ {n += $2} END {print n + 0}')
echo "$top: $cells cells, $ffs flip-flops (${ports:+P=$ports, }default parameters, yosys generic synth)"
