#!/usr/bin/env bash
# The 32 GiB PoRep C2 on the GPU machine (issue 14). A machine goes back 30 s after a command and
# takes its disk with it, so the 32 GiB run is one command (< 10 min), the small checks another:
#
#   here:  tools/gpu-32g-run.sh --pack   build build-gpu (CUDA, with the daemon) and copy cuzk,
#                                        cuzk-daemon, cuzk-bench, gpu_tests (stripped, static
#                                        cudart) and the daemon's Debian .so files (lib/; the C++
#                                        runtime is the machine's)
#                                        into build-gpu-dist/, gzipped into build-gpu-z/ (carry
#                                        that: the plain folder is past 64 MiB)
#   there: tools/gpu-32g-run.sh small    device tests (the capped ones too); 2 KiB and 8 MiB test
#                                        parameters made on the GPU and on the CPU (the files
#                                        must be identical)
#          tools/gpu-32g-run.sh 32g      a synthetic 32 GiB C1, the recording, INSECURE parameters
#                                        made on the GPU (47 GB on disk), then cuzk-daemon on them:
#                                        preload, a warm-up proof, one proof alone, `cuzk porep
#                                        verify`, then JOBS (default 2) in flight, 2 x JOBS proofs
#                                        (COUNT); GPU memory and busy sampled, the daemon's peak RSS
#          SIZE=512MiB ... 32g           the same at another sector size
#          tools/gpu-32g-run.sh wpost    a WindowPoSt partition of 2349 synthetic 32 GiB sectors:
#                                        parameters made on the GPU (61 GB), tools/post-bench.sh
#                                        through the daemon, COUNT (default 3) proofs, each verified
#                                        (LIMIT=24GiB: the daemon under that [gpus] memory_limit)
#          tools/gpu-32g-run.sh snap     a synthetic 32 GiB SnapDeals update (16 partitions):
#                                        parameters made on the GPU, the daemon: one proof alone
#                                        (COUNT, default 2), then 2 in flight x 2, each verified
#                                        (LIMIT=16GiB: the daemon under that [gpus] memory_limit;
#                                        DAEMON=path: another cuzk-daemon binary, for an A/B)
#          tools/gpu-32g-run.sh winning-busy   32 GiB PoRep parameters made on the GPU, then
#                                        WinningPoSt alone and while 2 PoRep C2 jobs prove
#                                        (BUSY_SAMPLES: that many, 2-4 s apart; LIMIT=24GiB:
#                                        the daemon under that [gpus] memory_limit)
#          tools/gpu-32g-run.sh capped   32 GiB PoRep parameters made on the GPU, then one daemon
#                                        per [gpus] memory_limit in LIMITS (default "0 24GiB
#                                        16GiB": uncapped, then the bases streamed from host
#                                        memory): preload, (uncapped: a warm-up), COUNT (default
#                                        1) proofs, each verified, then STEADY (if set) proofs
#                                        with 2 in flight; GPU memory sampled per limit, each
#                                        job's PCIe bytes and floor from the daemon's log
#                                        (DAEMON=path: another cuzk-daemon binary, for an A/B
#                                        on the same parameters with KEEP_PARAMS=1;
#                                        HOST_POINTS=auto|always: the daemons' [srs] host_points)
#          tools/gpu-32g-run.sh faults   engine_gpu_fault_tests (issue 18): each GPU fault plan
#                                        through the engine, 2 KiB PoRep, outcome per plan
#          tools/gpu-32g-run.sh kernels  gpu_tests RealSizes* (issue 17): NTT and H chain at 2^27
#                                        vs the CPU, G1 MSM 2^26/2^27 and G2 2^24 vs an oracle
#          tools/gpu-32g-run.sh msm-split  (~4 min on the H200, at most ~9: the steps' limits)
#                                        where the capped H MSM's time goes (issue 30): `cuzk-bench
#                                        kernels --only msm-chunks`, 2^MSM_LOG (default 27) G1
#                                        scalars through MsmAccumulator in chunks of 2^24 and 2^25
#                                        and through one msm_split, resident, REPS (default 5)
#                                        timed runs each, phase split and checks; then, when ncu is
#                                        on PATH (or under /opt/nvidia/nsight-compute), one chunk's
#                                        kernels and the reduction of the 2^24-chunked accumulator,
#                                        and the arith table's field-product chains (MontF64 and
#                                        Mont32) and DFMA ceiling (issue 32), each with the
#                                        SpeedOfLight, WarpStateStats, SchedulerStats, LaunchStats
#                                        and Occupancy sections (details and one line per kernel by
#                                        tools/ncu_summary.py under $OUT, 7 files: $OUT brings back
#                                        8 at most; the .ncu-rep reports stay in $WORK)
#          SIZE=2KiB PARAMS_BACKEND=cpu BACKEND=cpu ... wpost|snap|winning-busy|capped   the same flow
#                                        at a test size on a machine without a GPU (a dry run;
#                                        KEEP_PARAMS=1: use the parameters in $WORK/params)
# Logs and a summary under $OUT; the work files in $WORK (default /tmp/cuzk-32g, ~55 GB).
set -uo pipefail
cd "$(dirname "$0")/.."
DIST=${GPU_DIST:-build-gpu-dist}
if [[ "${1:-}" == "--pack" ]]; then
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCUZK_SKIP_LAYERS= \
    >/dev/null &&
    ninja -C build-gpu gpu_tests engine_gpu_fault_tests cuzk-bench cuzk cuzk-daemon || exit 1
  rm -rf "$DIST" && mkdir -p "$DIST/lib"
  cp build-gpu/tests/gpu/gpu_tests build-gpu/tests/engine/engine_gpu_fault_tests \
    build-gpu/cuzk-bench build-gpu/cuzk build-gpu/cuzk-daemon "$DIST/"
  strip "$DIST"/gpu_tests "$DIST"/engine_gpu_fault_tests "$DIST"/cuzk-bench "$DIST"/cuzk \
    "$DIST"/cuzk-daemon
  # The daemon's and client's shared libraries, but the C and C++ runtimes (the machine's are
  # newer and compatible).
  ldd "$DIST/cuzk-daemon" "$DIST/cuzk-bench" | awk '/=> \//{print $3}' | sort -u |
    grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux|libpthread|libdl|librt)[.-]' |
    while read -r so; do cp -L "$so" "$DIST/lib/"; done
  strip --strip-unneeded "$DIST"/lib/* 2>/dev/null
  du -sh "$DIST" "$DIST/lib"
  # The binaries are past the device's 64 MiB carry limit (67 MiB, 2026-12-01): they travel
  # gzipped (30 MB); carry build-gpu-z, the modes below unpack it.
  rm -rf build-gpu-z && mkdir -p build-gpu-z && tar -czf build-gpu-z/dist.tar.gz "$DIST" &&
    du -sh build-gpu-z
  exit 0
fi
[[ -d "$DIST" || ! -f build-gpu-z/dist.tar.gz ]] || tar -xzf build-gpu-z/dist.tar.gz || exit 1

OUT=${OUT:-$PWD/gpu-run-out}
WORK=${WORK:-/tmp/cuzk-32g}
mkdir -p "$OUT" "$WORK"
B=$PWD/$DIST
export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUZK_PROGRESS_SECONDS=10
SIZE=${SIZE:-32GiB}
case $SIZE in 32GiB) SHORT=32g ;; 512MiB) SHORT=512m ;; 8MiB) SHORT=8m ;; 2KiB) SHORT=2k ;;
  *) echo "SIZE: 2KiB, 8MiB, 512MiB or 32GiB" >&2; exit 2 ;; esac
C1=$WORK/c1-$SHORT.json
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
# The daemon's metrics file $2 as seconds per partition: each phase's sum over the partitions it
# proved (cuzk_partitions_total), one line tagged $1 into the summary; then msm_h by its parts
# (cuzk_partition_msm_h_seconds: sort, accumulate, reduce, other) where the device split it,
# and apart the host's cudaMalloc/cudaFree time within it and within a batch's sections
# (cuzk_partition_allocation_seconds, phase msm_h and batch).
per_partition() {
  awk -v tag="$1" '
    /^cuzk_partitions_total/ { n += $2 }
    /^cuzk_partition_phase_seconds_sum/ {
      match($0, /phase="[a-z0-9_]+"/); sum[substr($0, RSTART + 7, RLENGTH - 8)] += $2 }
    /^cuzk_partition_msm_h_seconds_sum/ {
      match($0, /part="[a-z0-9_]+"/); part[substr($0, RSTART + 6, RLENGTH - 7)] += $2; parts = 1 }
    /^cuzk_partition_allocation_seconds_sum/ {
      if ($0 ~ /phase="batch"/) batch_alloc += $2; else alloc += $2 }
    END {
      if (n == 0) exit
      line = sprintf("%s: seconds per partition (%d):", tag, n)
      for (k in sum) line = line sprintf(" %s %.3f", k, sum[k] / n)
      print line
      if (!parts) exit
      line = sprintf("%s: msm_h per partition by part:", tag)
      for (k in part) line = line sprintf(" %s %.4f", k, part[k] / n)
      print line sprintf("; allocation within it %.4f; in the batch sections %.4f", alloc / n,
                         batch_alloc / n)
    }' "$2" | tee -a "$OUT/summary.txt"
}
# nvidia-smi samples every 0.5 s into $1 until killed (pid in SMI): memory, busy, SM clock,
# power, temperature, and the clocks' event reasons where the driver names them (a bit mask:
# 0x4 software power cap, 0x20 software thermal, 0x40 hardware thermal, 0x80 power brake).
# A driver that knows none of the extra fields still gives memory and busy.
gpu_samples() {
  local q=timestamp,memory.used,utilization.gpu
  nvidia-smi --query-gpu=$q,clocks.sm,power.draw,temperature.gpu --format=csv >/dev/null 2>&1 &&
    q=$q,clocks.sm,power.draw,temperature.gpu &&
    nvidia-smi --query-gpu=$q,clocks_event_reasons.active --format=csv >/dev/null 2>&1 &&
    q=$q,clocks_event_reasons.active
  nvidia-smi --query-gpu=$q --format=csv -lms 500 > "$1" 2>&1 &
  SMI=$!
}
# The busy samples of $2 (utilization >= 90%): how many, the SM clock's median and lowest, the
# power's median, and how often each event-reason mask was set; one line tagged $1.
busy_clocks() {
  local busy
  busy=$(awk -F', *' 'NR > 1 && NF >= 6 && $3 + 0 >= 90' "$2")
  [[ -n $busy ]] || return 0
  local n mid
  n=$(wc -l <<< "$busy")
  mid=$(((n + 1) / 2))
  echo "$1: busy samples $n: SM clock median $(cut -d, -f4 <<< "$busy" | sort -n |
    sed -n "${mid}p" | tr -d ' '), lowest $(cut -d, -f4 <<< "$busy" | sort -n | head -1 |
    tr -d ' '); power median $(cut -d, -f5 <<< "$busy" | sort -n | sed -n "${mid}p" |
    tr -d ' '); temperature median $(cut -d, -f6 <<< "$busy" | sort -n | sed -n "${mid}p" |
    tr -d ' ') C; event reasons $(cut -d, -f7 -s <<< "$busy" | sort | uniq -c | tr -s ' ' |
    tr '\n' ';')" | tee -a "$OUT/summary.txt"
}

if [[ "${1:-}" == "small" ]]; then
  { nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; nproc
    free -g; df -h "$WORK"; } 2>&1 | tee "$OUT/machine.txt"
  run gpu_tests 240 "$B/gpu_tests" --gtest_brief=1 \
    --gtest_filter="${GPU_TESTS_FILTER:-DeviceSetup*:DeviceSpmv*:*GpuProof*:DeviceQuotient*:StreamedMsm*:*DeviceMemory*}"
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

if [[ "${1:-}" == "faults" ]]; then  # issue 18: the GPU fault hooks through the engine
  CUZK_POREP_TEST_CACHE=$WORK/porep-test-params run gpu_faults 500 "$B/engine_gpu_fault_tests"
  exit $?
fi

if [[ "${1:-}" == "kernels" ]]; then  # issue 17: the kernels at a 32 GiB proof's sizes vs the CPU
  CUZK_GPU_REAL_SIZES=1 run real_sizes 540 "$B/gpu_tests" --gtest_filter='RealSizes*'
  exit $?
fi

if [[ "${1:-}" == "32g" ]]; then
  { nvidia-smi --query-gpu=name,memory.total --format=csv; nproc; free -g; df -h "$WORK"; } \
    > "$OUT/machine.txt" 2>&1
  run c1 120 "$B/cuzk" c1 synthetic --sector-size "$SIZE" --out "$C1" || exit 1
  run pce 150 "$B/cuzk" pce record --sector-size "$SIZE" --out "$WORK/pce" || exit 1
  rm -rf "$WORK/params"
  run "params-$SHORT" 330 "$B/cuzk" porep params --sector-size "$SIZE" --backend gpu \
    --out "$WORK/params" --pce-dir "$WORK/pce" --seed "cuzk h200 $SHORT" || exit 1
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
  gpu_samples "$OUT/gpu.csv"
  smi=$SMI
  "$B/cuzk-daemon" --config "$WORK/cuzk.toml" > "$OUT/daemon.log" 2>&1 &
  daemon=$!
  trap 'kill $smi 2>/dev/null; kill -TERM $daemon 2>/dev/null' EXIT
  for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
  bench=("$B/cuzk-bench" --addr "unix://$sock")
  run preload 120 "${bench[@]}" preload --circuit "porep-$SHORT"
  run warmup 120 "${bench[@]}" single --c1 "$C1" --out "$WORK/proof0.bin"
  run single 90 "${bench[@]}" single --c1 "$C1" --out "$WORK/proof1.bin"
  run verify 60 "$B/cuzk" porep verify --c1 "$C1" --params "$WORK/params" \
    --proof "$WORK/proof1.bin" --allow-insecure-params
  for j in ${JOBS:-2}; do
    run "batch-j$j" 150 "${bench[@]}" batch --c1 "$C1" -n "${COUNT:-$((2 * j))}" -j "$j"
  done
  "${bench[@]}" metrics > "$OUT/metrics.txt" 2>&1
  grep -E "VmHWM|VmRSS" "/proc/$daemon/status" | tee -a "$OUT/summary.txt"
  kill -TERM "$daemon"; wait "$daemon"; kill $smi 2>/dev/null
  trap - EXIT
  sort -t, -k2 -n "$OUT/gpu.csv" | tail -1 | sed 's/^/peak GPU memory sample: /' | tee -a "$OUT/summary.txt"
  busy_clocks all "$OUT/gpu.csv"
  grep -hE "s/proof|throughput|partition|total" "$OUT"/batch-j*.log | head -20
  exit 0
fi
machine() {
  { nvidia-smi --query-gpu=name,memory.total --format=csv; nproc; free -g; df -h "$WORK"; } \
    > "$OUT/machine.txt" 2>&1
}
# A kind's 2 KiB test parameters made on the GPU and on the CPU must be the same bytes.
identical() {  # name, params command words (without --backend/--out)...
  local name=$1; shift
  for backend in gpu cpu; do
    rm -rf "$WORK/id-$name-$backend"
    run "params-$name-$backend" 120 "$B/cuzk" "$@" --backend "$backend" --out "$WORK/id-$name-$backend"
  done
  if diff -r "$WORK/id-$name-gpu" "$WORK/id-$name-cpu" >/dev/null; then
    log "params $name: GPU and CPU files IDENTICAL ($(du -sb "$WORK/id-$name-gpu" | cut -f1) bytes)"
  else
    log "params $name: GPU and CPU files DIFFER"
  fi
}
# The daemon's peak host memory and the device's, sampled while `tools/post-bench.sh` runs.
post_bench() {  # post-bench options...
  gpu_samples "$OUT/gpu.csv"
  local smi=$SMI
  OUT=$OUT WORK=$WORK/post timeout 420 tools/post-bench.sh --bin "$B" --backend "${BACKEND:-gpu}" \
    --params "$WORK/params" --pce "${PCE_DIR:-$WORK/pce}" --no-subgroup-check "$@" 2>&1 |
    tee "$OUT/post-bench.log" | tail -n 30
  kill $smi 2>/dev/null
  sort -t, -k2 -n "$OUT/gpu.csv" | tail -1 | sed 's/^/peak GPU memory sample: /' | tee -a "$OUT/summary.txt"
  busy_clocks all "$OUT/gpu.csv"
}

if [[ "${1:-}" == "wpost" ]]; then
  machine
  identical winning-2k post params --proof winning --sector-size 2KiB --seed "cuzk h200"
  identical wpost-2k post params --proof window --sector-size 2KiB --seed "cuzk h200"
  # The 32 GiB set (60.8 GB) and its recording (8.4 GB) are past the device's 64 GiB disk
  # together (2026-12-04): the recording goes to memory (/dev/shm) there.
  PCE_DIR=${PCE_DIR:-$WORK/pce}
  [[ $SIZE == 32GiB && -d /dev/shm && $PCE_DIR == "$WORK/pce" ]] && PCE_DIR=/dev/shm/cuzk-pce
  [[ -n "${KEEP_PARAMS:-}" ]] || { rm -rf "$WORK/params" "$WORK/pce" "$PCE_DIR"
  # The recording alone took 265 s on an H100 host (2026-12-06), 190-206 s on the H200's:
  # PARAMS_LIMIT raises the step's limit where the host is slower.
  run params-wpost-$SHORT "${PARAMS_LIMIT:-330}" "$B/cuzk" post params --proof window --sector-size "$SIZE" --backend "${PARAMS_BACKEND:-gpu}" \
    --out "$WORK/params" --pce-dir "$PCE_DIR" --seed "cuzk h200 wpost-$SHORT" || exit 1; }
  ls -la "$WORK/params" "$PCE_DIR" >> "$OUT/summary.txt"; df -h "$WORK" >> "$OUT/summary.txt"
  post_bench --kind window --sector-size "$SIZE" --count "${COUNT:-3}" --memory-limit "${LIMIT:-0}"
  exit 0
fi

if [[ "${1:-}" == "winning-busy" ]]; then
  machine
  run c1 120 "$B/cuzk" c1 synthetic --sector-size "$SIZE" --out "$WORK/c1-$SHORT.json" || exit 1
  [[ -n "${KEEP_PARAMS:-}" ]] || { rm -rf "$WORK/params" "$WORK/pce"
  run params-porep-$SHORT 330 "$B/cuzk" porep params --sector-size "$SIZE" --backend "${PARAMS_BACKEND:-gpu}" \
    --out "$WORK/params" --pce-dir "$WORK/pce" --seed "cuzk h200 $SHORT" || exit 1; }
  post_bench --kind winning --sector-size "$SIZE" --count "${COUNT:-3}" \
    --busy-c1 "$WORK/c1-$SHORT.json" --busy 2 --busy-samples "${BUSY_SAMPLES:-1}" \
    --memory-limit "${LIMIT:-0}"
  exit 0
fi

if [[ "${1:-}" == "snap" ]]; then
  machine
  V=$WORK/update-$SHORT
  identical snap-2k update params --sector-size 2KiB --seed "cuzk h200"
  run synthetic 120 "$B/cuzk" update synthetic --sector-size "$SIZE" --out "$V.json" \
    --vanilla-proofs-out "$V.proofs.json" --force || exit 1
  [[ -n "${KEEP_PARAMS:-}" ]] || { rm -rf "$WORK/params" "$WORK/pce"
  run params-snap-$SHORT 330 "$B/cuzk" update params --sector-size "$SIZE" --backend "${PARAMS_BACKEND:-gpu}" \
    --out "$WORK/params" --pce-dir "$WORK/pce" --seed "cuzk h200 snap-$SHORT" || exit 1; }
  ls -la "$WORK/params" >> "$OUT/summary.txt"
  sock=$WORK/cuzk.sock
  cat > "$WORK/cuzk.toml" <<TOML
[daemon]
listen = "unix://$sock"
[srs]
param_cache = "$WORK/params"
allow_insecure_params = true
check_subgroups = false
[pce]
cache_dir = "$WORK/pce"
[gpus]
backend = "${BACKEND:-gpu}"
memory_limit = $([[ ${LIMIT:-0} == 0 ]] && echo 0 || echo "\"$LIMIT\"")
[synthesis]
workers = ${SYNTH_WORKERS:-2}
TOML
  gpu_samples "$OUT/gpu.csv"
  smi=$SMI
  "${DAEMON:-$B/cuzk-daemon}" --config "$WORK/cuzk.toml" > "$OUT/daemon.log" 2>&1 &
  daemon=$!
  trap 'kill $smi 2>/dev/null; kill -TERM $daemon 2>/dev/null' EXIT
  for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
  bench=("$B/cuzk-bench" --addr "unix://$sock")
  comm() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$V.json" "$1"; }
  snap_args=(-t snap --vanilla "$V.proofs.json" --registered-proof "$(comm registered_proof)"
    --comm-r-old "$(comm comm_r_old)" --comm-r-new "$(comm comm_r_new)"
    --comm-d-new "$(comm comm_d_new)")
  prove() {  # name, limit
    run "$1" "$2" "${bench[@]}" single "${snap_args[@]}" --request-id "$1" --out "$WORK/$1.bin" &&
      run "verify-$1" 60 "$B/cuzk" update verify --vanilla "$V.json" --params "$WORK/params" \
        --allow-insecure-params --proof "$WORK/$1.bin"
  }
  run preload 150 "${bench[@]}" preload --circuit snap-$SHORT
  prove warmup 150
  for i in $(seq "${COUNT:-2}"); do prove "single-$i" 120; done
  t0=$SECONDS
  for round in 1 2; do
    prove "pair-$round-a" 200 & a=$!
    prove "pair-$round-b" 200 & b=$!
    wait $a; wait $b
  done
  log "2 in flight: 4 proofs in $((SECONDS - t0)) s"
  grep -h "^timings" "$OUT"/single-*.log "$OUT"/pair-*.log | tee -a "$OUT/summary.txt"
  "${bench[@]}" metrics > "$OUT/metrics.txt" 2>&1
  per_partition snap "$OUT/metrics.txt"
  grep -E "VmHWM|VmRSS" "/proc/$daemon/status" | tee -a "$OUT/summary.txt"
  kill -TERM "$daemon"; wait "$daemon"; kill $smi 2>/dev/null
  trap - EXIT
  sort -t, -k2 -n "$OUT/gpu.csv" | tail -1 | sed 's/^/peak GPU memory sample: /' | tee -a "$OUT/summary.txt"
  busy_clocks all "$OUT/gpu.csv"
  exit 0
fi
# One daemon under [gpus] memory_limit = $2 ("0": the device's memory): preload, a warm-up when
# uncapped (the first proof uploads the bases), COUNT proofs each verified, metrics, peaks.
capped_daemon() {  # tag, memory_limit
  local tag=$1 limit=$2 sock=$WORK/cuzk-$1.sock
  local value="\"$limit\""
  [[ $limit == 0 ]] && value=0
  cat > "$WORK/cuzk-$tag.toml" <<TOML
[daemon]
listen = "unix://$sock"
[srs]
param_cache = "$WORK/params"
allow_insecure_params = true
$([[ -n ${HOST_POINTS:-} ]] && echo "host_points = \"$HOST_POINTS\"")
[pce]
cache_dir = "$WORK/pce"
[gpus]
backend = "${BACKEND:-gpu}"
memory_limit = $value
[synthesis]
workers = ${SYNTH_WORKERS:-2}
TOML
  local smi=
  if command -v nvidia-smi >/dev/null; then
    gpu_samples "$OUT/gpu-$tag.csv"
    smi=$SMI
  fi
  "${DAEMON:-$B/cuzk-daemon}" --config "$WORK/cuzk-$tag.toml" > "$OUT/daemon-$tag.log" 2>&1 &
  local daemon=$!
  # A caller's timeout must not leave the daemon holding the socket for the next one (session
  # 25's A/B lost its baseline so).
  trap 'kill $smi 2>/dev/null; kill -TERM $daemon 2>/dev/null' EXIT
  for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
  local bench=("$B/cuzk-bench" --addr "unix://$sock")
  run "preload-$tag" 150 "${bench[@]}" preload --circuit "porep-$SHORT"
  [[ $limit == 0 ]] && run "warmup-$tag" 150 "${bench[@]}" single --c1 "$C1" --out "$WORK/warm.bin"
  for i in $(seq "${COUNT:-1}"); do
    run "single-$tag-$i" 300 "${bench[@]}" single --c1 "$C1" --out "$WORK/proof-$tag-$i.bin" &&
      run "verify-$tag-$i" 60 "$B/cuzk" porep verify --c1 "$C1" --params "$WORK/params" \
        --proof "$WORK/proof-$tag-$i.bin" --allow-insecure-params
  done
  # Steady state: STEADY proofs, 2 in flight (each self-verified by the daemon).
  if [[ -n "${STEADY:-}" ]]; then
    run "steady-$tag" 300 "${bench[@]}" batch --c1 "$C1" -n "$STEADY" -j 2
    grep -hE "s/proof|throughput|failed" "$OUT/steady-$tag.log" | sed "s/^/$tag: /" |
      tee -a "$OUT/summary.txt"
  fi
  # One line per job: when it ended (the spacings), its GPU time, total and PCIe bytes (the log
  # writes key=value).
  grep -h "job_finished" "$OUT/daemon-$tag.log" |
    grep -oE '^ts=[^ ]+|(gpu_compute_ms|total_ms|pcie_[a-z0-9_]+)=[0-9]+' | tr '\n' ' ' |
    sed "s/ ts=/\nts=/g; s/^/$tag: /; s/\n/\n$tag: /g" | tee -a "$OUT/summary.txt"; echo | tee -a "$OUT/summary.txt"
  "${bench[@]}" metrics > "$OUT/metrics-$tag.txt" 2>&1
  grep -E "^cuzk_gpu_memory_limit_bytes|phase_seconds_sum|^cuzk_pcie" "$OUT/metrics-$tag.txt" | head -24 \
    | sed "s/^/$tag: /" | tee -a "$OUT/summary.txt"
  per_partition "$tag" "$OUT/metrics-$tag.txt"
  grep -E "VmHWM" "/proc/$daemon/status" | sed "s/^/$tag: /" | tee -a "$OUT/summary.txt"
  kill -TERM "$daemon"; wait "$daemon"
  trap - EXIT
  [[ -z $smi ]] && return 0
  kill "$smi" 2>/dev/null
  sort -t, -k2 -n "$OUT/gpu-$tag.csv" | tail -1 | sed "s/^/$tag: peak GPU memory sample: /" |
    tee -a "$OUT/summary.txt"
  busy_clocks "$tag" "$OUT/gpu-$tag.csv"
}

if [[ "${1:-}" == "capped" ]]; then
  machine
  run c1 120 "$B/cuzk" c1 synthetic --sector-size "$SIZE" --out "$C1" || exit 1
  [[ -n "${KEEP_PARAMS:-}" ]] || { rm -rf "$WORK/params" "$WORK/pce"
  run params-porep-$SHORT 330 "$B/cuzk" porep params --sector-size "$SIZE" --backend "${PARAMS_BACKEND:-gpu}" \
    --out "$WORK/params" --pce-dir "$WORK/pce" --seed "cuzk h200 $SHORT" || exit 1; }
  for limit in ${LIMITS:-0 24GiB 16GiB}; do
    tag=cap-$limit
    [[ $limit == 0 ]] && tag=uncapped
    capped_daemon "$tag" "$limit"
  done
  grep -H "^timings" "$OUT"/single-*.log | sed "s|^$OUT/||" | tee -a "$OUT/summary.txt"
  exit 0
fi
if [[ "${1:-}" == "msm-split" ]]; then
  machine
  bench=("$B/cuzk-bench" kernels --skip-checks --only msm-chunks --msm-chunks-log "${MSM_LOG:-27}")
  # ~50 s: 2^27 inputs made on the device, a CPU check, 5 rows of 1 + REPS runs of ~1 s (the
  # last two stream the bases from a 14 GB host copy, pageable then page-locked).
  run msm-chunks 200 "${bench[@]}" --reps "${REPS:-5}"
  rc=$?
  grep -E "^msm-chunks|^\| (H MSM|msm_split|MsmAccumulator|BaseStreamer)|^checks failed" \
    "$OUT/msm-chunks.log" |
    tee -a "$OUT/summary.txt"
  NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | sort -V | tail -1)
  if [[ -z $NCU ]]; then
    log "ncu: not on PATH nor under /opt/nvidia/nsight-compute: no profiles"
    exit $rc
  fi
  "$NCU" --version | tail -1 | tee -a "$OUT/summary.txt"
  # Clocks left alone (device/H200.md); LaunchStats and Occupancy need no extra passes.
  ncu_args=(--clock-control none --section SpeedOfLight --section WarpStateStats
    --section SchedulerStats --section LaunchStats --section Occupancy -f)
  # The second of 2 chunks of 2^24 (the first that adds to written buckets) and the reduction:
  # ~110 kernels (13 windows of radix sort), the bench's cudaProfilerStart/Stop around them.
  run ncu-msm-chunk 210 "$NCU" "${ncu_args[@]}" --profile-from-start off --launch-count 300 \
    -o "$WORK/ncu-msm-chunk" "${bench[@]}" --msm-chunk-logs 24 --msm-chunks-profile
  # The arith table's product chains, each launched twice (a warm-up, one timed) at --reps 1.
  run ncu-arith 120 "$NCU" "${ncu_args[@]}" --launch-count 40 \
    -k 'regex:field_chain|pair_chain|dfma_chain_kernel' -o "$WORK/ncu-arith" \
    "$B/cuzk-bench" kernels --skip-checks --only arith --reps 1
  for rep in ncu-msm-chunk ncu-arith; do
    [[ -f $WORK/$rep.ncu-rep ]] || { log "$rep: no report"; continue; }
    "$NCU" -i "$WORK/$rep.ncu-rep" --page details > "$OUT/$rep.txt" 2>&1
    "$NCU" -i "$WORK/$rep.ncu-rep" --page raw --csv 2>/dev/null | python3 tools/ncu_summary.py |
      sed "s/^/$rep: /" | tee -a "$OUT/summary.txt"
  done
  exit $rc
fi
echo "usage: $0 --pack | small | 32g | wpost | snap | winning-busy | capped | msm-split" >&2
exit 2
