#!/usr/bin/env bash
# Runs every libFuzzer target of BUILD (make fuzz) for RUNS inputs, each from its seed
# corpus (tests/fuzz/corpus/NAME) into a working corpus BUILD/fuzz-corpus/NAME. Crash
# inputs land in BUILD/fuzz-artifacts/; a line per target goes to BUILD/fuzz-report-NAME.txt,
# and BUILD/fuzz-report.txt gathers every target's latest line (targets may run at once).
# FUZZ_MAX_SECONDS (optional) ends each target after that many seconds. ASan keeps no
# allocation stacks (malloc_context_size=0, unless ASAN_OPTIONS is set): the targets
# allocate on every input and recording a stack per allocation took a fifth of their time;
# an artifact re-run by hand (BUILD/tests/fuzz/fuzz_NAME FILE) reports them in full.
#   scripts/fuzz.sh BUILD RUNS [TARGET...]
set -euo pipefail
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0}
build=$1 runs=$2
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(topology_spec permutation table_dir cli)
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$build/fuzz-artifacts"
status=0
for t in "${targets[@]}"; do
  work="$build/fuzz-corpus/$t"
  mkdir -p "$work"
  log="$build/fuzz-$t.log"
  start=$(date +%s)
  if "$build/tests/fuzz/fuzz_$t" -runs="$runs" -max_total_time="${FUZZ_MAX_SECONDS:-0}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$build/fuzz-artifacts/$t-" "$work" "$here/tests/fuzz/corpus/$t" > "$log" 2>&1; then
    verdict="no crash, hang or leak"
  elif grep -q 'libFuzzer: run interrupted' "$log" && ! ls "$build/fuzz-artifacts/$t-"* > /dev/null 2>&1; then
    verdict="interrupted (SIGINT) with no crash, hang or leak"  # stopped by hand: not a finding
    status=130
  else
    verdict="FAILED (see $log)"
    status=1
  fi
  done_runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  line="$t: $done_runs inputs in $(( $(date +%s) - start )) s, $verdict"
  echo "$line" | tee "$build/fuzz-report-$t.txt"
done
cat "$build"/fuzz-report-*.txt > "$build/fuzz-report.txt"
exit $status
