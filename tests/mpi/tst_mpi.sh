#!/usr/bin/env bash
# rankscope-cli built with -DRANKSCOPE_MPI=ON under mpirun with 1, 2 and 4
# processes, on a generated 6-rank set with one broken file: `stats` prints
# byte for byte what a serial run without MPI or caches prints (stdout,
# stderr, exit status); `index` writes one cache per readable file, names the
# broken one on stderr and exits 2, and lists the files in the serial order.
# Under 2 and 4 processes, process 0 matches the collectives from the
# records the processes gathered for every rank, not from its own reading,
# and takes rank_summary's and rank_comparison's rows from those they sent;
# the critical paths over that match are the serial run's.
#
#   bash tests/mpi/tst_mpi.sh RANKSCOPE_CLI RANKSCOPE_TRACEGEN
set -euo pipefail
cli="$1"
tracegen="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export RANKSCOPE_INDEX_CACHE=off
# CI runs as root, which Open MPI refuses unless told; 4 processes on 2 cores.
mpirun=(mpirun --allow-run-as-root --oversubscribe)

"$tracegen" --format nsys --profile ddp --ranks 6 --events 30000 --straggler 2:300:4 "$work/set" >/dev/null
printf 'this is not a trace' >"$work/set/broken_rank6.sqlite"
reports=cuda_gpu_kern_sum,nvtx_sum,cuda_api_sum,gpu_gaps,rank_summary,rank_comparison,collectives,rank_wait,rank_time_map,critical_path_summary

status=0
"$cli" stats --no-cache --report "$reports" "$work/set" >"$work/serial.out" 2>"$work/serial.err" || status=$?
[ "$(grep -vc '^rankscope-cli: ' "$work/serial.err" || true)" -eq 0 ] || { echo "serial stats: stderr lines not from rankscope-cli"; exit 1; }
[ "$status" -eq 2 ] || { echo "serial stats: exit $status, expected 2 (one broken file)"; exit 1; }
grep -q broken_rank6.sqlite "$work/serial.err" || { echo "serial stats: the broken file is not named"; exit 1; }
[ "$(grep -c '^Time (%)' "$work/serial.out" || true)" -ge 1 ] || { echo "serial stats printed no kernel table"; exit 1; }

for n in 1 2 4; do
  status=0
  RANKSCOPE_REPORT_GATHERED=1 "${mpirun[@]}" -x RANKSCOPE_REPORT_GATHERED -n "$n" "$cli" stats --cache "$work/cache$n" --report "$reports" "$work/set" \
    >"$work/mpi$n.out" 2>"$work/mpi$n.err" || status=$?
  [ "$status" -eq 2 ] || { echo "mpirun -n $n stats: exit $status, expected 2"; cat "$work/mpi$n.err"; exit 1; }
  cmp -s "$work/serial.out" "$work/mpi$n.out" || { echo "mpirun -n $n stats: stdout differs from the serial run"; diff "$work/serial.out" "$work/mpi$n.out" | head -20; exit 1; }
  # mpirun adds its own banner about the exit status; the CLI's lines come first.
  grep '^rankscope-cli: ' "$work/mpi$n.err" >"$work/mpi$n.cli.err" || true
  cmp -s "$work/serial.err" "$work/mpi$n.cli.err" || { echo "mpirun -n $n stats: stderr differs from the serial run"; diff "$work/serial.err" "$work/mpi$n.err" | head -20; exit 1; }
  [ "$(ls "$work/cache$n"/*.rsindex | wc -l)" -eq 6 ] || { echo "mpirun -n $n stats: expected 6 caches"; exit 1; }
  gathered=""
  if [ "$n" -gt 1 ]; then
    gathered=" (collectives matched from the gathered records, rank_summary and rank_comparison from the gathered rows)"
    grep -qx "gathered: 6 of 6 ranks' collective records" "$work/mpi$n.err" \
      || { echo "mpirun -n $n stats: process 0 did not match gathered records"; cat "$work/mpi$n.err"; exit 1; }
    grep -qx "gathered: 6 of 6 ranks' breakdowns" "$work/mpi$n.err" \
      || { echo "mpirun -n $n stats: process 0 did not use gathered breakdowns"; cat "$work/mpi$n.err"; exit 1; }
    grep -qx "gathered: 6 of 6 ranks' comparison rows" "$work/mpi$n.err" \
      || { echo "mpirun -n $n stats: process 0 did not use gathered comparison rows"; cat "$work/mpi$n.err"; exit 1; }
  fi

  status=0
  "${mpirun[@]}" -n "$n" "$cli" index --cache "$work/index$n" "$work/set" >"$work/index$n.out" 2>"$work/index$n.err" || status=$?
  [ "$status" -eq 2 ] || { echo "mpirun -n $n index: exit $status, expected 2"; exit 1; }
  grep -q "broken_rank6.sqlite: " "$work/index$n.err" || { echo "mpirun -n $n index: the broken file is not named"; cat "$work/index$n.err"; exit 1; }
  [ "$(ls "$work/index$n"/*.rsindex | wc -l)" -eq 6 ] || { echo "mpirun -n $n index: expected 6 caches"; exit 1; }
  # The files in the serial order, each indexed once.
  sed 's/: indexed in .*//' "$work/index$n.out" >"$work/index$n.files"
  ls "$work/set"/ddp_rank*.sqlite >"$work/expected.files"
  cmp -s "$work/index$n.files" "$work/expected.files" || { echo "mpirun -n $n index: files listed"; diff "$work/expected.files" "$work/index$n.files"; exit 1; }
  echo "mpirun -n $n: stats identical to the serial run$gathered; index wrote 6 caches and named the broken file"
done
