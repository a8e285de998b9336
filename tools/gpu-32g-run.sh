#!/usr/bin/env bash
# The 32 GiB PoRep C2 on the GPU machine (issue 14), in two commands on one warm machine:
#
#   here:  tools/gpu-32g-run.sh --pack   build build-gpu (CUDA, with the daemon) and copy cuzk,
#                                        cuzk-daemon, cuzk-bench, gpu_tests (stripped, static
#                                        libstdc++/cudart) and the daemon's Debian .so files (lib/)
#                                        into build-gpu-dist/ (< 64 MiB with the tree)
#   there: tools/gpu-32g-run.sh setup    device tests; 2 KiB and 8 MiB test parameters made on the
#                                        GPU and on the CPU (the files must be identical); the
#                                        32 GiB recording and INSECURE parameters made on the GPU
#          tools/gpu-32g-run.sh prove    cuzk-daemon on them: preload, a warm-up proof, one proof
#                                        alone, `cuzk porep verify`, then 2 and 3 in flight; GPU
#                                        memory and busy sampled, the daemon's peak RSS
# Logs and a summary under $OUT; the work files in $WORK (default /tmp/cuzk-32g, ~55 GB: the
# parameters 47 GB, the recording 6 GB) stay between the two commands.
set -uo pipefail
cd "$(dirname "$0")/.."
DIST=${GPU_DIST:-build-gpu-dist}
if [[ "${1:-}" == "--pack" ]]; then
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON >/dev/null &&
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
run() {  # name, command...: output into $OUT/name.log, wall time into the summary
  local name=$1; shift
  echo "== $name: $*"
  local t0=$SECONDS
  "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  tail -n 25 "$OUT/$name.log"
  log "$name: exit $rc, $((SECONDS - t0)) s"
  return $rc
}

if [[ "${1:-}" == "setup" ]]; then
  { nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; nproc
    free -g; df -h "$WORK"; } 2>&1 | tee "$OUT/machine.txt"
  run gpu_tests timeout 240 "$B/gpu_tests" --gtest_brief=1 \
    --gtest_filter="${GPU_TESTS_FILTER:-DeviceSetup*:DeviceSpmv*:*GpuProof*:DeviceQuotient*}"
  for size in 2KiB 8MiB; do
    for backend in gpu cpu; do
      rm -rf "$WORK/p-$backend-$size"
      run "params-$size-$backend" "$B/cuzk" porep params --sector-size "$size" --backend "$backend" \
        --out "$WORK/p-$backend-$size" --seed "cuzk h200 $size"
    done
    if diff -r "$WORK/p-gpu-$size" "$WORK/p-cpu-$size" >/dev/null; then
      log "params $size: GPU and CPU files IDENTICAL ($(du -sb "$WORK/p-gpu-$size" | cut -f1) bytes)"
    else
      log "params $size: GPU and CPU files DIFFER"
    fi
  done
  run c1 "$B/cuzk" c1 synthetic --sector-size 32GiB --out "$C1"
  run pce "$B/cuzk" pce record --sector-size 32GiB --out "$WORK/pce"
  rm -rf "$WORK/params"
  run params-32g "$B/cuzk" porep params --sector-size 32GiB --backend gpu --allow-large \
    --out "$WORK/params" --pce-dir "$WORK/pce" --seed "cuzk h200 32g"
  ls -la "$WORK/params" | tee -a "$OUT/summary.txt"
  df -h "$WORK" | tee -a "$OUT/summary.txt"
  exit 0
fi

if [[ "${1:-}" == "prove" ]]; then
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
  run preload "${bench[@]}" preload --circuit porep-32g
  run warmup "${bench[@]}" single --c1 "$C1" --out "$WORK/proof0.bin"
  run single "${bench[@]}" single --c1 "$C1" --out "$WORK/proof1.bin"
  run verify "$B/cuzk" porep verify --c1 "$C1" --params "$WORK/params" --proof "$WORK/proof1.bin" \
    --allow-insecure-params
  for j in ${JOBS:-2 3}; do
    run "batch-j$j" "${bench[@]}" batch --c1 "$C1" -n $((2 * j)) -j "$j"
  done
  "${bench[@]}" metrics > "$OUT/metrics.txt" 2>&1
  grep -E "VmHWM|VmRSS" "/proc/$daemon/status" | tee -a "$OUT/summary.txt"
  kill -TERM "$daemon"; wait "$daemon"; kill $smi 2>/dev/null
  trap - EXIT
  sort -t, -k2 -n "$OUT/gpu.csv" | tail -1 | sed 's/^/peak GPU memory sample: /' | tee -a "$OUT/summary.txt"
  grep -hE "s/proof|throughput|partition|total" "$OUT"/batch-j*.log | head -20
  exit 0
fi
echo "usage: $0 --pack | setup | prove" >&2
exit 2
