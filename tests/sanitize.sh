#!/usr/bin/env bash
# The checked run: the whole test suite built with clang under
# AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer, then
# each libFuzzer target for a bounded time on a seed corpus of real,
# mutated and broken traces. CI runs it after the README's test command.
#
#   bash tests/sanitize.sh            # FUZZ_SECONDS=60 per target by default
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz_seconds="${FUZZ_SECONDS:-60}"
build="${CHECKED_BUILD_DIR:-build-checked}"

bash packaging/install-deps.sh --checked
CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DRANKSCOPE_SANITIZE=address,undefined -DRANKSCOPE_FUZZ=ON
cmake --build "$build" -j"$(nproc)"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
ctest --test-dir "$build" --output-on-failure --timeout 1200

# Seeds: the bad-input corpus, the real traces and the synthetic exports.
seeds="$build/fuzz-seeds"
rm -rf "$seeds" && mkdir -p "$seeds/kineto" "$seeds/nsys"
"$build/tests/support/rankscope-badcorpus" "$seeds/all" >/dev/null
cp "$seeds"/all/*.json* tests/data/kineto/variants/*.json "$seeds/kineto/"
gzip -dc tests/data/kineto/fast_rank0.pt.trace.json.gz >"$seeds/kineto/fast_rank0.json"
cp tests/data/kineto/ddp_gloo_rank0.pt.trace.json.gz "$seeds/kineto/"
cp "$seeds"/all/*.sqlite tests/data/nsys/slow_1gpu/slow_1gpu.sqlite "$seeds/nsys/"
# CPU samples and CUDA API backtraces: callchain tables to mutate.
cp tests/data/third-party/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite "$seeds/nsys/"
# Sets of files for one session (tests/fuzz/fuzzload.h: files separated by a marker line).
separator='\n#rankscope-next-file#\n'
{ cat tests/data/kineto/variants/nccl_rank1.json; printf "$separator"; cat tests/data/kineto/variants/old_bare_array.json; } >"$seeds/kineto/two_files.json"
small_exports=$(ls -S "$seeds"/all/*.sqlite | tail -n 2)
{ first=1; for f in $small_exports; do [ $first = 1 ] || printf "$separator"; cat "$f"; first=0; done; } >"$seeds/nsys/two_files.sqlite"
# Index caches: a sound one for the trace fuzz_indexcache names, and a damaged one.
mkdir -p "$seeds/indexcache"
"$build/app/cli/rankscope-cli" index --cache "$seeds/indexcache" "$PWD/tests/data/kineto/variants/nccl_rank1.json" >/dev/null
head -c 3000 "$seeds"/indexcache/*.rsindex >"$seeds/indexcache/truncated.rsindex"
for target in kineto nsys indexcache; do
  mkdir -p "$build/fuzz-findings/$target" "$build/fuzz-work-$target"
  echo "== fuzz_$target for ${fuzz_seconds}s"
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$fuzz_seconds" -timeout=20 -rss_limit_mb=4096 \
    -max_len=2000000 -artifact_prefix="$build/fuzz-findings/$target/" -print_final_stats=1 \
    "$build/fuzz-work-$target" "$seeds/$target" 2>&1 | tail -n 25
done
echo "checked run: sanitizers clean, fuzzers found nothing"
