#!/usr/bin/env bash
# One GPU-machine visit for the pre-compiled constraints (issue 13): the device tests of the SpMV
# and partition-prove paths, then on a synthetic 32 GiB C1 the recording (saved as a PCE file and
# read back), the witness of all 10 partitions with a/b/c by device SpMV, one partition with CPU
# SpMV and with the classic assignment (their abc digests must agree), logs under $OUT.
#
#   here:  tools/gpu-pce-run.sh --pack     build build-gpu, copy gpu_tests, cuzk-bench, cuzk into
#                                          build-gpu-dist/ (stripped, static cudart)
#   there: tools/gpu-pce-run.sh            (device run: carry build-gpu-dist)
set -uo pipefail
cd "$(dirname "$0")/.."
DIST=${GPU_DIST:-build-gpu-dist}
if [[ "${1:-}" == "--pack" ]]; then
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
    -DCUZK_SKIP_LAYERS=server >/dev/null && ninja -C build-gpu gpu_tests cuzk-bench cuzk || exit 1
  mkdir -p "$DIST"
  cp build-gpu/tests/gpu/gpu_tests build-gpu/cuzk-bench build-gpu/cuzk "$DIST/"
  strip "$DIST"/*
  ls -la "$DIST"
  exit 0
fi
OUT=${OUT:-$PWD/gpu-run-out}
WORK=${WORK:-/tmp/cuzk-pce}
mkdir -p "$OUT" "$WORK"
B=$DIST
run() {  # name, command...: tee into $OUT/name.log (the programs print their own peak RSS)
  local name=$1; shift
  echo "== $name: $*"
  { time "$@"; } 2>&1 | tee "$OUT/$name.log"
}
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; free -g; } \
  2>&1 | tee "$OUT/machine.txt"
run gpu_tests timeout 300 "$B/gpu_tests" --gtest_brief=1 \
  --gtest_filter="${GPU_TESTS_FILTER:-DeviceSpmv*:*GpuProof*:GpuTest*:DeviceMsm*:DeviceQuotient*}"
c1=$WORK/c1-32g.json
run c1 "$B/cuzk" c1 synthetic --sector-size 32GiB --out "$c1"
run pce_gpu timeout 420 "$B/cuzk-bench" synth-only --c1 "$c1" --mode pce --all-partitions \
  --gpu-spmv --pce-dir "$WORK/pce" --digest first -i 2
run pce_cpu timeout 200 "$B/cuzk-bench" synth-only --c1 "$c1" --mode pce --partition 0 \
  --pce-dir "$WORK/pce"
run classic timeout 200 "$B/cuzk-bench" synth-only --c1 "$c1" --mode classic --partition 0
echo "== digests (partition 0 must agree across modes)"
grep -h "abc sha256" "$OUT"/pce_gpu.log "$OUT"/pce_cpu.log "$OUT"/classic.log | sort | uniq -c
grep -hE "witness \+ a/b/c|spmv \+ row|recorded|loaded|uploaded|classic synthesis|PASSED|FAILED" \
  "$OUT"/*.log | head -60
