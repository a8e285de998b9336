#!/usr/bin/env bash
# The 32 GiB PoRep C2 on the GPU machine (issue 14). A machine goes back 30 s after a command and
# takes its disk with it, so the 32 GiB run is one command (< 10 min), the small checks another:
#
#   here:  tools/gpu-32g-run.sh --pack   build build-gpu (CUDA, with the daemon) and copy cuzk,
#                                        cuzk-daemon, cuzk-bench, gpu_tests (stripped, static
#                                        libstdc++/cudart) and the daemon's Debian .so files (lib/)
#                                        into build-gpu-dist/ (< 64 MiB with the tree)
#   there: tools/gpu-32g-run.sh small    device tests; 2 KiB and 8 MiB test parameters made on the
#                                        GPU and on the CPU (the files must be identical)
#          tools/gpu-32g-run.sh 32g      a synthetic 32 GiB C1, the recording, INSECURE parameters
#                                        made on the GPU (47 GB on disk), then cuzk-daemon on them:
#                                        preload, a warm-up proof, one proof alone, `cuzk porep
#                                        verify`, then JOBS (default 2) in flight; GPU memory and
#                                        busy sampled, the daemon's peak RSS
# Logs and a summary under $OUT; the work files in $WORK (default /tmp/cuzk-32g, ~55 GB).
set -uo pipefail
cd "$(dirname "$0")/.."
DIST=${GPU_DIST:-build-gpu-dist}
if [[ "${1:-}" == "--pack" ]]; then
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCUZK_SKIP_LAYERS= \
    >/dev/null &&
    ninja -C build-gpu gpu_tests cuzk-bench cuzk cuzk-daemon || exit 1
  rm -rf "$DIST" && mkdir -p "$DIST/lib"
  cp build-gpu/tests/gpu/gpu_tests build-gpu/cuzk-bench build-gpu/cuzk build-gpu/cuzk-daemon "$DIST/"
  strip "$DIST"/gpu_tests "$DIST"/cuzk-bench "$DIST"/cuzk "$DIST"/cuzk-daemon
  # The daemon's and client's shared libraries, but the C and C++ runtimes (the machine's are
  # newer and compatible).
  ldd "$DIST/cuzk-daemon" "$DIST/cuzk-bench" | awk '/=> \//{print $3}' | sort -u |
    grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux|libpthread|libdl|librt)[.-]' |
    while read -r so; do cp -L "$so" "$DIST/lib/"; done
  strip --strip-unneeded "$DIST"/lib/* 2>/dev/null
  du -sh "$DIST" "$DIST/lib"
  exit 0
fi

OUT=${OUT:-$PWD/gpu-run-out}
WORK=${WORK:-/tmp/cuzk-32g}
mkdir -p "$OUT" "$WORK"
B=$PWD/$DIST
export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUZK_PROGRESS_SECONDS=10
C1=$WORK/c1-32g.json
log() { echo "$*" | tee -a "$OUT/summary.txt"; }
run() {  # name, limit s, command...: output into $OUT/name.log, wall time into the summary
  local name=$1 limit=$2; shift 2
  echo "== $name: $*"
  local t0=$SECONDS
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  tail -n 25 "$OUT/$name.log"
  log "$name: exit $rc, $((SECONDS - t0)) s"
  return $rc
}

if [[ "${1:-}" == "small" ]]; then
  { nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; nproc
    free -g; df -h "$WORK"; } 2>&1 | tee "$OUT/machine.txt"
  run gpu_tests 240 "$B/gpu_tests" --gtest_brief=1 \
    --gtest_filter="${GPU_TESTS_FILTER:-DeviceSetup*:DeviceSpmv*:*GpuProof*:DeviceQuotient*}"
  for size in 2KiB 8MiB; do
    for backend in gpu cpu; do
      rm -rf "$WORK/p-$backend-$size"
      run "params-$size-$backend" 120 "$B/cuzk" porep params --sector-size "$size" --backend "$backend" \
        --out "$WORK/p-$backend-$size" --seed "cuzk h200 $size"
    done
    if diff -r "$WORK/p-gpu-$size" "$WORK/p-cpu-$size" >/dev/null; then
      log "params $size: GPU and CPU files IDENTICAL ($(du -sb "$WORK/p-gpu-$size" | cut -f1) bytes)"
    else
      log "params $size: GPU and CPU files DIFFER"
    fi
  done
  exit 0
fi

if [[ "${1:-}" == "32g" ]]; then
  { nvidia-smi --query-gpu=name,memory.total --format=csv; nproc; free -g; df -h "$WORK"; } \
    > "$OUT/machine.txt" 2>&1
  run c1 120 "$B/cuzk" c1 synthetic --sector-size 32GiB --out "$C1" || exit 1
  run pce 150 "$B/cuzk" pce record --sector-size 32GiB --out "$WORK/pce" || exit 1
  rm -rf "$WORK/params"
  run params-32g 330 "$B/cuzk" porep params --sector-size 32GiB --backend gpu \
    --out "$WORK/params" --pce-dir "$WORK/pce" --seed "cuzk h200 32g" || exit 1
  ls -la "$WORK/params" >> "$OUT/summary.txt"
  df -h "$WORK" >> "$OUT/summary.txt"
  sock=$WORK/cuzk.sock
  cat > "$WORK/cuzk.toml" <<TOML
[daemon]
listen = "unix://$sock"
status_listen = "127.0.0.1:9777"
[srs]
param_cache = "$WORK/params"
allow_insecure_params = true
[pce]
cache_dir = "$WORK/pce"
[synthesis]
workers = ${SYNTH_WORKERS:-2}
[pipeline]
synthesis_lookahead = ${LOOKAHEAD:-2}
TOML
  nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv -lms 500 \
    > "$OUT/gpu.csv" 2>&1 &
  smi=$!
  "$B/cuzk-daemon" --config "$WORK/cuzk.toml" > "$OUT/daemon.log" 2>&1 &
  daemon=$!
  trap 'kill $smi 2>/dev/null; kill -TERM $daemon 2>/dev/null' EXIT
  for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
  bench=("$B/cuzk-bench" --addr "unix://$sock")
  run preload 120 "${bench[@]}" preload --circuit porep-32g
  run warmup 120 "${bench[@]}" single --c1 "$C1" --out "$WORK/proof0.bin"
  run single 90 "${bench[@]}" single --c1 "$C1" --out "$WORK/proof1.bin"
  run verify 60 "$B/cuzk" porep verify --c1 "$C1" --params "$WORK/params" \
    --proof "$WORK/proof1.bin" --allow-insecure-params
  for j in ${JOBS:-2}; do
    run "batch-j$j" 150 "${bench[@]}" batch --c1 "$C1" -n $((2 * j)) -j "$j"
  done
  "${bench[@]}" metrics > "$OUT/metrics.txt" 2>&1
  grep -E "VmHWM|VmRSS" "/proc/$daemon/status" | tee -a "$OUT/summary.txt"
  kill -TERM "$daemon"; wait "$daemon"; kill $smi 2>/dev/null
  trap - EXIT
  sort -t, -k2 -n "$OUT/gpu.csv" | tail -1 | sed 's/^/peak GPU memory sample: /' | tee -a "$OUT/summary.txt"
  grep -hE "s/proof|throughput|partition|total" "$OUT"/batch-j*.log | head -20
  exit 0
fi
echo "usage: $0 --pack | small | 32g" >&2
exit 2
