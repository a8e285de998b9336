#!/usr/bin/env bash
# libFuzzer targets under ASan + UBSan (fuzz/, clang from Debian):
#   tools/fuzz.sh TARGET SECONDS   build the fuzz tree (once; ccache), then fuzz TARGET
#   tools/fuzz.sh all SECONDS      every target, SECONDS each
#   tools/fuzz.sh list             the targets
#   tools/fuzz.sh gate RUNS        the CI gate (ctest fuzz_smoke): every target replays its corpus,
#                                  then fuzzes RUNS executions from a fixed seed. No wall-clock
#                                  budget: the same commit gives the same answer on any machine.
# What open-ended fuzzing finds joins fuzz/corpus/TARGET with its fix, so the gate replays it.
# Seeds: fuzz/corpus/TARGET (read only; new inputs go to a scratch corpus). A crash, leak,
# sanitizer report or violated property stops with the reproducer under $FUZZ_OUT (default
# build-fuzz/findings) and exit 1. Prints executions per target. $FUZZ_BUILD_DIR overrides the
# tree (default build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
build="${FUZZ_BUILD_DIR:-$src/build-fuzz}"
out="${FUZZ_OUT:-$build/findings}"
targets=(fuzz_c1 fuzz_base64 fuzz_vanilla_proof fuzz_update_partition_proof fuzz_bellperson
         fuzz_snarkjs_binary fuzz_snarkjs_json fuzz_point_encoding fuzz_pce_file fuzz_daemon_config
         fuzz_grpc_request)

target="${1:-}"; seconds="${2:-30}"
if [ "$target" = list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
if [ -z "$target" ]; then echo "usage: $0 TARGET|all|list [SECONDS] | gate RUNS" >&2; exit 2; fi
gate_runs=""
if [ "$target" = gate ]; then
  gate_runs="${2:-}"
  [[ "$gate_runs" =~ ^[0-9]+$ ]] || { echo "usage: $0 gate RUNS" >&2; exit 2; }
  target=all
fi
if [ "$target" = all ]; then run=("${targets[@]}"); else run=("$target"); fi
for t in "${run[@]}"; do
  [[ " ${targets[*]} " == *" $t "* ]] || { echo "unknown target $t (try: $0 list)" >&2; exit 2; }
done

launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
                                          -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$build/build.ninja" ]; then
  # -O1 with line tables: sanitizer reports with lines, a quick build (asserts stay on).
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only" -DCMAKE_C_FLAGS_RELEASE="-O1" \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" \
    -DCUZK_FUZZ=ON -DCUZK_CUDA=OFF -DCUZK_BUILD_TESTS=OFF -DCUZK_BUILD_BENCH=OFF \
    -DCUZK_BUILD_APPS=OFF -DCUZK_SKIP_LAYERS="gadgets;circuits;gpu;porep;engine" > /dev/null
fi
t0=$(date +%s)
ninja -C "$build" "${run[@]}" > "$build/ninja.log" 2>&1 || { tail -50 "$build/ninja.log"; exit 1; }
echo "fuzz tree built in $(( $(date +%s) - t0 )) s ($build)"

mkdir -p "$out"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for t in "${run[@]}"; do
  scratch=$(mktemp -d)
  seeds="$src/fuzz/corpus/$t"
  log="$out/$t.log"
  common=(-print_final_stats=1 -timeout=20 -rss_limit_mb=2560 -artifact_prefix="$out/$t-")
  set +e
  if [ -n "$gate_runs" ]; then
    # Every corpus file once, by name (each a regression input or a seed), then a fixed-seed,
    # fixed-length run that starts from the same corpus.
    mapfile -t files < <(find "$seeds" -type f | LC_ALL=C sort)
    [ ${#files[@]} -gt 0 ] || { echo "$t: no corpus in $seeds" >&2; exit 1; }
    "$build/fuzz/$t" "${common[@]}" "${files[@]}" > "$log" 2>&1 &&
      "$build/fuzz/$t" "${common[@]}" -seed=1 -runs="$gate_runs" "$scratch" "$seeds" >> "$log" 2>&1
  else
    "$build/fuzz/$t" "${common[@]}" -max_total_time="$seconds" "$scratch" "$seeds" > "$log" 2>&1
  fi
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  if [ "$rc" -eq 0 ]; then
    if [ -n "$gate_runs" ]; then
      echo "$t: ${#files[@]} corpus files replayed, ${execs:-?} executions from seed 1, ${cov:-cov ?}, nothing found"
    else
      echo "$t: ${execs:-?} executions in ${seconds} s, ${cov:-cov ?}, nothing found"
    fi
  else
    echo "$t: FOUND something (exit $rc) after ${execs:-?} executions; reproducer and log in $out"
    grep -E "ERROR|SUMMARY|property violated|Test unit written" "$log" | head -8 || true
    status=1
  fi
  rm -rf "$scratch"
done
exit $status
