#!/bin/sh
# One case of the second simulator (docs/rtl.md "A second simulator"): the tables that
# `fixroute tables` writes, loaded and run by a plain-Verilog testbench under Icarus
# Verilog, whose trace and step count must equal the reference engine's.
# Usage: icarus_case.sh FIXROUTE IVERILOG VVP SOURCE_DIR WORK_DIR TOPOLOGY COLLECTIVE ALGORITHM TB_TOP [--OPTION=VALUE | PARAM=VALUE]...
# (--OPTION=VALUE: options of `fixroute tables` and `run`, such as --combining or --ports=1-port;
# PARAM=VALUE: the testbench's parameters)
set -eu
fixroute=$1 iverilog=$2 vvp=$3 src=$4 work=$5 topology=$6 collective=$7 algorithm=$8 top=$9
shift 9
options=""
params=""
for p in "$@"; do
  case $p in
    --*) options="$options $p" ;;
    *) params="$params -P $top.$p" ;;
  esac
done
rm -rf "$work"
mkdir -p "$work"
# shellcheck disable=SC2086
"$fixroute" tables "$topology" "$collective" --algorithm "$algorithm" $options -o "$work/tables" >/dev/null
# shellcheck disable=SC2086
"$fixroute" run "$topology" "$collective" --algorithm "$algorithm" $options --engine ref --trace "$work/ref.csv" --json > "$work/ref.json"
ref_steps=$(sed -n 's/.*"steps":\([0-9]*\).*/\1/p' "$work/ref.json")
ref_slots=$(sed -n 's/.*"steps_simulated":\([0-9]*\).*/\1/p' "$work/ref.json")

case $top in
  fr_grid_tb) kind=port_rules
    rtl="port_rules/fr_grid_top.v port_rules/fr_router.v port_rules/fr_table_mem.v port_rules/fr_out_queue.v port_rules/fr_fifo_queue.v fr_cfg_loader.v" ;;
  fr_mesh_xbar_tb) kind=crossbar
    rtl="crossbar/fr_mesh_xbar_top.v crossbar/fr_xbar_router.v crossbar/fr_xbar_table_mem.v fr_cfg_loader.v" ;;
  fr_tree_tb) kind=broadcast_trees rtl="broadcast_trees/fr_tree_router.v fr_round_table.v fr_cfg_loader.v" ;;
  fr_combining_tb) kind=combining rtl="combining/fr_combining_router.v fr_cfg_loader.v" ;;
  fr_tdm_tb) kind=tdm rtl="tdm/fr_tdm_router.v fr_round_table.v fr_cfg_loader.v" ;;
  fr_sum_tb) kind=combining_sum rtl="combining_sum/fr_sum_router.v fr_round_table.v fr_cfg_loader.v" ;;
  *) echo "unknown testbench $top" >&2; exit 2 ;;
esac
sources="$src/tb/$kind/$top.v"
for f in $rtl; do sources="$sources $src/rtl/$f"; done
# shellcheck disable=SC2086
"$iverilog" -g2005 -I "$src/tb" -I "$src/rtl" -o "$work/sim" -s "$top" $params $sources
# (+slots: the TDM testbench runs as many slots as the reference engine did)
"$vvp" -n "$work/sim" "+tables=$work/tables" "+trace=$work/icarus.csv" "+slots=$ref_slots" > "$work/sim.log"
cat "$work/sim.log"
if grep -q '^FAIL' "$work/sim.log"; then exit 1; fi
sim_steps=$(sed -n 's/^STEPS \([0-9]*\) .*/\1/p' "$work/sim.log")
if [ -z "$sim_steps" ] || [ "$sim_steps" != "$ref_steps" ]; then
  echo "steps: Icarus ${sim_steps:-none}, reference engine $ref_steps" >&2
  exit 1
fi
# Same rows; the testbench writes a step's rows by router and port, the engines sort them.
sort_rows() { tail -n +2 "$1" | sort -t, -k1,1n -k2,2n -k3,3n -k4,4n -k5,5n -k6,6n; }
if [ "$(head -n 1 "$work/icarus.csv")" != "$(head -n 1 "$work/ref.csv")" ]; then
  echo "trace headers differ" >&2
  exit 1
fi
sort_rows "$work/icarus.csv" > "$work/icarus.sorted"
sort_rows "$work/ref.csv" > "$work/ref.sorted"
if ! cmp -s "$work/icarus.sorted" "$work/ref.sorted"; then
  echo "traces differ (Icarus < > reference):" >&2
  diff "$work/icarus.sorted" "$work/ref.sorted" | head -n 10 >&2
  exit 1
fi
rows=$(wc -l < "$work/ref.sorted")
echo "icarus: $topology $collective [$algorithm]: $sim_steps steps, $rows crossings, trace equal to the reference engine's"
rm -rf "$work"
