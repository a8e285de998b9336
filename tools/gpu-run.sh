#!/usr/bin/env bash
# One full, productive visit to the GPU machine: the GPU tests, then `cuzk-bench kernels` (checks
# of every kernel against its CPU twin, then the timing table), logs under $OUT.
#
#   here:  tools/gpu-run.sh --pack          build build-gpu and copy the binaries (static
#                                            cudart) into build-gpu-dist/ (< 64 MiB)
#   there: tools/gpu-run.sh [ARGS...]       run build-gpu-dist/ binaries if present, else configure
#                                            and build build-gpu with the machine's nvcc first
# ARGS go to `cuzk-bench kernels` (e.g. --max-log 24 --reps 3). GPU_TESTS_FILTER narrows the
# gtest run (default: all); GPU_TESTS_TIMEOUT / BENCH_TIMEOUT (s) bound each step (a hung kernel
# must not eat the lease). GPU_DIST names another binary folder; GPU_SKIP_TESTS=1 runs only the
# bench (e.g. a folder with cuzk-bench and the circom fixture alone, to stay under 64 MiB). The
# circom bench fixture is used when $GPU_DIST/fixture/ holds circuit_final.zkey and witness.wtns.
set -uo pipefail
cd "$(dirname "$0")/.."
DIST=${GPU_DIST:-build-gpu-dist}
BUILD=build-gpu

configure_and_build() {
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
    -DCUZK_SKIP_LAYERS=server >/dev/null &&
    ninja -C "$BUILD" gpu_tests cuzk-bench
}

if [[ "${1:-}" == "--pack" ]]; then
  configure_and_build || exit 1
  mkdir -p "$DIST"
  cp "$BUILD/tests/gpu/gpu_tests" "$BUILD/cuzk-bench" "$DIST/"
  strip "$DIST/gpu_tests" "$DIST/cuzk-bench"
  ls -la "$DIST"
  exit 0
fi

OUT=${OUT:-$PWD/gpu-run-out}
mkdir -p "$OUT"
if [[ -x "$DIST/cuzk-bench" && ( -x "$DIST/gpu_tests" || "${GPU_SKIP_TESTS:-0}" == 1 ) ]]; then
  TESTS="$DIST/gpu_tests"
  BENCH="$DIST/cuzk-bench"
else
  echo "== no prebuilt binaries: building with $(command -v nvcc)"
  configure_and_build 2>&1 | tail -20 || exit 1
  TESTS="$BUILD/tests/gpu/gpu_tests"
  BENCH="$BUILD/cuzk-bench"
fi

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  ldd "$BENCH" | grep -v -e linux-vdso -e ld-linux || true
} 2>&1 | tee "$OUT/machine.txt"

tests_rc=0
if [[ "${GPU_SKIP_TESTS:-0}" != 1 ]]; then
  echo "== gpu_tests"
  timeout "${GPU_TESTS_TIMEOUT:-240}" "$TESTS" --gtest_brief=1 \
    --gtest_filter="${GPU_TESTS_FILTER:-*}" 2>&1 | tee "$OUT/gpu_tests.log"
  tests_rc=${PIPESTATUS[0]}
fi

echo "== cuzk-bench kernels $*"
zkey_args=()
if [[ -f "$DIST/fixture/circuit_final.zkey" && -f "$DIST/fixture/witness.wtns" ]]; then
  zkey_args=(--zkey "$DIST/fixture/circuit_final.zkey" --wtns "$DIST/fixture/witness.wtns")
fi
timeout "${BENCH_TIMEOUT:-300}" "$BENCH" kernels "${zkey_args[@]}" "$@" 2>&1 | tee "$OUT/kernels.log"
bench_rc=${PIPESTATUS[0]}

echo "== gpu_tests rc=$tests_rc, cuzk-bench rc=$bench_rc"
grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/gpu_tests.log" 2>/dev/null | tail -5
[[ $tests_rc -eq 0 && $bench_rc -eq 0 ]]
