#!/usr/bin/env bash
# Places and routes routers on a Lattice iCE40 (yosys synth_ice40, nextpnr-ice40: Debian's
# yosys, nextpnr-ice40 and fpga-icestorm, which scripts/install-deps.sh installs) and prints, per build, the logic cells, flip-flops,
# block RAMs and the Fmax nextpnr reports:
#   scripts/fpga-report.sh [hx8k|up5k] [MODULE NAME=VALUE ...]
# Without a module: each router kind's build of docs/rtl.md ("FPGA"), one line each.
#
# A router has more pins than the package (P ports of data each way): it is placed inside a
# shell with four pins -- clk, rst, a serial input shifted through a register as wide as the
# router's inputs, and one output, the XOR of all the router's outputs, registered -- so that
# nothing of it is optimised away. The shell's own flip-flops (inputs + 1) are subtracted
# from the count printed; its logic cells are not (one a flip-flop, about the same number).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
device=hx8k
case "${1:-}" in hx8k|up5k) device=$1; shift ;; esac
case $device in
  hx8k) part=(--hx8k --package ct256) ;;
  up5k) part=(--up5k --package sg48) ;;
esac
for tool in yosys nextpnr-ice40 python3; do
  command -v "$tool" >/dev/null || { echo "fpga-report: $tool missing (scripts/install-deps.sh)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sources=$(find "$here/rtl" -name "*.v" | sort | tr "\n" " ")

report() {  # MODULE NAME=VALUE ...
  local top=$1; shift
  local chparam="" params=""
  for setting in "$@"; do
    chparam="$chparam -set ${setting%%=*} ${setting#*=}"
    params="$params${params:+, }.${setting%%=*}(${setting#*=})"
  done
  [ -n "$chparam" ] && chparam="chparam $chparam $top;"
  # The router's ports as yosys elaborates them with these parameters.
  yosys -q -p "read_verilog -I$here/rtl $sources; $chparam hierarchy -top $top; proc; write_json $work/ports.json" \
    >"$work/ports.log" 2>&1 || { tail -5 "$work/ports.log" >&2; return 1; }
  local shell_ffs
  shell_ffs=$(python3 - "$work/ports.json" "$top" "$params" "$work/shell.v" <<'PY'
import json, sys
ports_file, top, params, out = sys.argv[1:5]
ports = json.load(open(ports_file))["modules"][top]["ports"]
ins, outs, conns = 0, 0, []
for name, p in ports.items():
    width = len(p["bits"])
    if name in ("clk", "rst"):
        conns.append(f".{name}({name})")
    elif p["direction"] == "input":
        conns.append(f".{name}(shift[{ins + width - 1}:{ins}])")
        ins += width
    else:
        conns.append(f".{name}(outs[{outs + width - 1}:{outs}])")
        outs += width
with open(out, "w") as f:
    f.write(f"""module fr_fpga_shell(input wire clk, input wire rst, input wire si, output reg so);
  reg [{max(ins, 2) - 1}:0] shift;
  wire [{max(outs, 1) - 1}:0] outs;
  always @(posedge clk) shift <= {{shift[{max(ins, 2) - 2}:0], si}};
  always @(posedge clk) so <= ^outs;
  {top} #({params}) dut({", ".join(conns)});
endmodule
""")
print(max(ins, 2) + 1)
PY
)
  yosys -q -p "read_verilog -I$here/rtl $sources $work/shell.v; synth_ice40 -top fr_fpga_shell -json $work/net.json; tee -o $work/stat.txt stat" \
    >"$work/synth.log" 2>&1 || { tail -5 "$work/synth.log" >&2; return 1; }
  if ! nextpnr-ice40 "${part[@]}" --json "$work/net.json" --asc "$work/net.asc" --pcf-allow-unconstrained --freq 12 \
    --seed 1 >"$work/pnr.log" 2>&1; then
    # Too big for the device is a result (the cells it needs); any other failure is an error.
    # nextpnr's utilisation line, "ICESTORM_LC: NEEDED/ HAS": more needed than the device has.
    local needed
    needed=$(awk '/ICESTORM_LC:/ {n=$3; h=$4; gsub("/", "", n); if (n + 0 > h + 0) print n}' "$work/pnr.log" | head -1)
    if [ -z "$needed" ]; then
      needed=$(grep -oE "of [0-9]+ ICESTORM_LCs" "$work/pnr.log" | grep -oE "[0-9]+" | head -1 || true)
    fi
    if [ -n "$needed" ]; then
      echo "$top (${*:-default parameters}) on $device: does not fit, $needed logic cells needed"
      return 0
    fi
    grep -E "ERROR" "$work/pnr.log" | head -3 >&2
    echo "$top (${*:-default parameters}): does not place and route on $device"
    return 1
  fi
  local lcs brams ffs fmax
  lcs=$(awk '/ICESTORM_LC:/ {v=$3} END {gsub("/", "", v); print v}' "$work/pnr.log")
  brams=$(awk '/ICESTORM_RAM:/ {v=$3} END {gsub("/", "", v); print v}' "$work/pnr.log")
  ffs=$(awk '/SB_DFF/ {n += $2} END {print n + 0}' "$work/stat.txt")
  fmax=$(grep -E "Max frequency for clock" "$work/pnr.log" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
  echo "$top (${*:-default parameters}) on $device: $lcs logic cells, $((ffs - shell_ffs)) flip-flops, $brams block RAMs, Fmax $fmax MHz"
}

if [ $# -gt 0 ]; then
  report "$@"
  exit
fi
status=0
report fr_router P=4 DEPTH=2 FIELD_W=8 TAPS=0 FURTHEST_FIRST=0 || status=1
report fr_router P=4 DEPTH=2 FIELD_W=8 || status=1
report fr_xbar_router || status=1
report fr_tree_router P=4 ORIGINS=64 ORIGIN_W=6 ROWS=64 ADDR_W=9 || status=1
report fr_combining_router P=4 ORIGINS=64 ROWS=64 ADDR_W=7 || status=1
report fr_sum_router P=4 REGS=8 ROWS=64 ADDR_W=9 || status=1
report fr_tdm_router P=4 ROWS=64 CHAIN_W=16 PERIOD_W=4 ADDR_W=9 || status=1
exit $status
