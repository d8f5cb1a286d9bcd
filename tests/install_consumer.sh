#!/bin/sh
# usage: install_consumer.sh CMAKE BUILD_DIR CONSUMER_SOURCE SCRATCH PYTHON
# `cmake --install` of the build under SCRATCH/prefix; the installed tree holds the tool,
# the library, its headers and package files, the RTL and the docs; the consumer project
# configures against it with find_package(fixroute CONFIG), builds, runs and verifies; the
# installed Python module imports from the prefix alone and runs a case.
set -eu
cmake=$1 build=$2 consumer=$3 scratch=$4 python=$5
rm -rf "$scratch"
"$cmake" --install "$build" --prefix "$scratch/prefix" > "$scratch.install.log" 2>&1 || { cat "$scratch.install.log"; exit 1; }
for f in bin/fixroute lib/libfixroute.so include/fixroute/sw/verify/run_case.h include/fixroute/sw/core/algorithm.h \
         lib/cmake/fixroute/fixroute-config.cmake lib/cmake/fixroute/fixroute-targets.cmake \
         share/fixroute/rtl/port_rules/fr_router.v share/doc/fixroute/cli.md share/doc/fixroute/README.md; do
  [ -e "$scratch/prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
[ ! -e "$scratch/prefix/include/fixroute/sw/cli" ] || { echo "the tool's own headers were installed"; exit 1; }
"$cmake" -S "$consumer" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_BUILD_TYPE=Release
"$cmake" --build "$scratch/build"
out=$("$scratch/build/consumer")
echo "$out"
echo "$out" | grep -qx 'ring:8 total-exchange \[message-shift\] on ref: 8 steps, verified'
echo "$out" | grep -qE '^torus:4x4 gossip \[[a-z0-9-]+\] on ref: [0-9]+ steps, verified$'
echo "$out" | grep -qx 'tool installed, rtl installed'
"$scratch/prefix/bin/fixroute" run ring:6 total-exchange --json | grep -q '"ok":true'
modules=$(ls "$scratch"/prefix/lib/python3/dist-packages/fixroute.*.so)
PYTHONPATH="$scratch/prefix/lib/python3/dist-packages" "$python" -c "
import fixroute
assert fixroute.__file__ == '$modules', fixroute.__file__
run = fixroute.run('ring:8', 'total-exchange')
assert run.ok and run.steps == 8, run
print('python module installed:', run)"
echo "installed tool, library, headers, Python module, RTL and docs: consumer built and verified"
