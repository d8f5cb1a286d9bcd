#!/bin/bash
# The regression sweep on a Slurm cluster (docs/cli.md, "Sweeps on a cluster"):
#   scripts/slurm-sweep.sh SHARDS OUTDIR [sweep options: --max-size N --engine ... --algorithm ...]
# submits `fixroute sweep --shard K/SHARDS` as a job array, one task per shard writing
# OUTDIR/shard-K.csv, then a job that, once every task has ended, merges the shards into
# OUTDIR/results.csv and the report OUTDIR/report/index.html (`fixroute sweep --merge`;
# a missing shard is refused there).
# FIXROUTE names the binary (default: build/fixroute beside this script), SBATCH the
# submit command (default sbatch) and SBATCH_OPTIONS extra sbatch options (partition...).
set -euo pipefail
if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 SHARDS OUTDIR [fixroute sweep options]" >&2
  exit 2
fi
shards=$1
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
fixroute=$(realpath "${FIXROUTE:-$(dirname "$0")/../build/fixroute}")
[ -x "$fixroute" ] || { echo "$0: no fixroute binary at $fixroute (build it, or set FIXROUTE)" >&2; exit 2; }
sbatch=${SBATCH:-sbatch}
extra=$(printf ' %q' "$@")
# shellcheck disable=SC2086  # SBATCH_OPTIONS is a list of options
array=$("$sbatch" --parsable ${SBATCH_OPTIONS:-} --array="1-$shards" --job-name=fixroute-sweep \
  --output="$out/shard-%a.log" \
  --wrap "cd $(printf %q "$out") && $(printf %q "$fixroute") sweep --quiet --shard \$SLURM_ARRAY_TASK_ID/$shards --csv shard-\$SLURM_ARRAY_TASK_ID.csv$extra")
array=${array%%;*}
shard_files=""
for k in $(seq 1 "$shards"); do shard_files+=" shard-$k.csv"; done
# shellcheck disable=SC2086
merge=$("$sbatch" --parsable ${SBATCH_OPTIONS:-} --dependency="afterany:$array" --job-name=fixroute-merge \
  --output="$out/merge.log" \
  --wrap "cd $(printf %q "$out") && $(printf %q "$fixroute") sweep --merge$shard_files --csv results.csv")
echo "submitted: shards as job $array (array 1-$shards), merge as job ${merge%%;*}; results in $out/results.csv, the report in $out/report/index.html"
