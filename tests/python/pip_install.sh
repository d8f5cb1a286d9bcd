#!/usr/bin/env bash
# `pip install .` as docs/python.md shows it (offline, Debian's pip, setuptools and wheel),
# into a scratch directory, reusing the test build tree (FIXROUTE_BUILD_DIR); then the
# installed module, imported from there alone, runs a case and says its version.
# Usage: pip_install.sh PYTHON SOURCE_DIR BUILD_DIR SCRATCH
set -euo pipefail
python=$1 source=$2 build=$3 scratch=$4
rm -rf "$scratch" && mkdir -p "$scratch"

FIXROUTE_BUILD_DIR="$build" "$python" -m pip install --no-build-isolation --no-index --no-deps --quiet \
  --target "$scratch/site" "$source"
rm -rf "$source/fixroute.egg-info"
cd "$scratch"
FIXROUTE_SOURCE="$source" PYTHONPATH="$scratch/site" PYTHONNOUSERSITE=1 "$python" - <<'PY'
import fixroute, os, re, sys
assert os.path.dirname(fixroute.__file__).endswith("site"), fixroute.__file__
cmake = open(os.path.join(os.environ.get("FIXROUTE_SOURCE", "."), "CMakeLists.txt")).read()
version = re.search(r"project\(fixroute VERSION ([0-9.]+)", cmake).group(1)
assert fixroute.__version__ == version, (fixroute.__version__, version)
run = fixroute.run("ring:8", "total-exchange")
assert run.ok and run.steps == 8, run.report
assert run.report["format"] == "fixroute-run" and run.report["fixroute_version"] == version
print("pip-installed fixroute", fixroute.__version__, "ran ring:8 total-exchange in", run.steps, "steps")
PY
