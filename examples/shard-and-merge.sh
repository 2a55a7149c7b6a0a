#!/usr/bin/env bash
# Fans a conformance run and a fuzzing campaign out over jobs on one machine, as
# examples/github-actions/conformance.yml does over a CI matrix, then merges
# each: the run's shards into one report, the fuzzing shards' findings (each
# minimal counterexample once).
#
#   examples/shard-and-merge.sh
#   SHARDS=4 RUN_ARGS="--target my-target.yaml" FUZZ_ARGS="--target my-target.yaml --time 300" examples/shard-and-merge.sh
#
# A target instance has one clock, which every job freezes, sets and advances
# (PROFILE.md §12): two jobs must never drive one instance at once. Without a
# --target each job starts an embedded reference of its own, so the jobs run
# side by side in the background. With one, they all drive that instance, so
# they run one after another; each also waits for the target's test-control
# lease (--lease-wait), should anything else be driving it.
#
# Environment (options are split on spaces):
#   SHARDS     number of shards of each (default 2)
#   OUT        output folder (default reports/fan-out): run-N/, fuzz-N/, merged/, fuzz-merged/, compare/
#   SEED       the seed every shard shares (default random)
#   RUN_ARGS   more options for each run shard (default none: the embedded reference)
#   FUZZ_ARGS  options for each fuzzing shard (default "--time 60"); "skip" skips fuzzing
#   LEASE_WAIT seconds a job waits for the target's test-control lease (default 3600)
#   CPR        the command (default "npx cpr-conformance")
#
# Exit code: that of report merge (README "In CI"); when it is 0, that of fuzz
# merge (1 when something was found, 2 when a shard did not report).
set -u

shards=${SHARDS:-2}
out=${OUT:-reports/fan-out}
seed=${SEED:-$(( (RANDOM << 15) | RANDOM ))}
run_args=${RUN_ARGS:-}
fuzz_args=${FUZZ_ARGS:---time 60}
lease_wait=${LEASE_WAIT:-3600}
cpr=${CPR:-npx cpr-conformance}

# One shared target instance: the jobs take turns. Each its own embedded reference: side by side.
case " $run_args $fuzz_args " in
  *" --target "*) shared=1 ;;
  *) shared=0 ;;
esac

mkdir -p "$out"
pids=()
job() {
  if [ "$shared" -eq 1 ]; then "$@"; else "$@" & pids+=($!); fi
}
for i in $(seq 1 "$shards"); do
  # shellcheck disable=SC2086  # options are split on purpose
  job $cpr run --shard "$i/$shards" --seed "$seed" --allow-partial --lease-wait "$lease_wait" --report-dir "$out/run-$i" $run_args >"$out/run-$i.log" 2>&1
  if [ "$fuzz_args" != skip ]; then
    # shellcheck disable=SC2086
    job $cpr fuzz --shard "$i/$shards" --seed "$seed" --lease-wait "$lease_wait" --out "$out/fuzz-$i" $fuzz_args >"$out/fuzz-$i.log" 2>&1
  fi
done
# Each shard's exit code says what it saw; the merges decide.
for pid in ${pids[@]+"${pids[@]}"}; do wait "$pid"; done

# The reports there are: a shard that wrote none is named missing by report merge
# (REPORT_SHARDS_MISSING: the merged verdict is an error, exit 2).
run_dirs=()
for i in $(seq 1 "$shards"); do
  if [ -f "$out/run-$i/report.json" ]; then run_dirs+=("$out/run-$i"); fi
done
$cpr report merge "${run_dirs[@]}" --report-dir "$out/merged"
status=$?
# The comparison page and badge of the merged run (compare.html, badges/).
if [ -f "$out/merged/report.json" ]; then $cpr compare "$out/merged" --report-dir "$out/compare" >/dev/null; fi

if [ "$fuzz_args" != skip ]; then
  # Every shard's folder: one without fuzz-shard.json makes fuzz merge refuse (FUZZ_SHARDS_MISSING).
  fuzz_dirs=()
  for i in $(seq 1 "$shards"); do fuzz_dirs+=("$out/fuzz-$i"); done
  $cpr fuzz merge "${fuzz_dirs[@]}" --out "$out/fuzz-merged"
  fuzz_status=$?
  if [ "$status" -eq 0 ]; then status=$fuzz_status; fi
fi
exit "$status"
