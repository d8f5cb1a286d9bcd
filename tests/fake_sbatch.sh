#!/bin/bash
# A stand-in for sbatch (tests of scripts/slurm-sweep.sh where no Slurm runs): runs the
# --wrap command at once, once per array task with SLURM_ARRAY_TASK_ID set, its output to
# --output (%a: the task), and prints a job id as `sbatch --parsable` does.
set -u
array="" output="/dev/null" wrap=""
for arg in "$@"; do
  case $arg in
    --array=*) array=${arg#--array=} ;;
    --output=*) output=${arg#--output=} ;;
  esac
done
while [ $# -gt 0 ]; do
  if [ "$1" = "--wrap" ]; then wrap=$2; shift; fi
  shift
done
echo "$wrap" >> "${FAKE_SBATCH_LOG:-/dev/null}"
if [ -n "$array" ]; then
  for k in $(seq "${array%-*}" "${array#*-}"); do
    SLURM_ARRAY_TASK_ID=$k bash -c "$wrap" > "${output//%a/$k}" 2>&1
  done
else
  bash -c "$wrap" > "$output" 2>&1
fi
echo "$RANDOM"
