#!/usr/bin/env bash
# Installs, with apt-get, the Debian bookworm packages fixroute needs that are missing.
# Idempotent: a machine that has everything is left alone (no apt-get update, no root needed).
set -euo pipefail

PACKAGES=(
  make cmake g++ pkg-config
  verilator libsystemc-dev yosys iverilog nextpnr-ice40 fpga-icestorm
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  libcadical-dev libglpk-dev zlib1g-dev libjemalloc-dev
  python3 python3-dev pybind11-dev python3-pip python3-setuptools python3-wheel chromium gtkwave
  slurm-wlm munge
)
# `install-deps.sh fuzz` (make fuzz): also clang and its libFuzzer runtime.
if [ "${1:-}" = "fuzz" ]; then
  PACKAGES+=(clang libclang-rt-14-dev)
fi
# `install-deps.sh poseidon` (bench/peers/poseidon.sh): what Poseidon's build needs.
if [ "${1:-}" = "poseidon" ]; then
  PACKAGES+=(libboost-program-options-dev libpugixml-dev)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
