#!/usr/bin/env bash
# Daemon throughput, the way a storage provider runs it: a C1 of the given size (a synthetic one:
# real shape, verifies, no sealing), INSECURE test parameters (made once in $WORK/params-<size>), then
# for each client concurrency J a fresh cuzk-daemon (parameters preloaded, so loading is not in
# the numbers) and `cuzk-bench batch -n COUNT -j J`; afterwards the daemon's Prometheus metrics,
# its peak RSS (VmHWM) and the prover busy fraction (prover busy seconds / batch wall).
#
#   tools/daemon-bench.sh --bin build --sector-size 2KiB --backend cpu --count 4 --jobs "1 2"
#
# Options: --bin DIR (cuzk, cuzk-daemon, cuzk-bench), --sector-size, --backend cpu|gpu|auto,
# --count N, --jobs "J1 J2 ...", --synthesis-workers W (default 2), --lookahead L (default 2),
# --threads T (default 0: all cores). Results: $OUT (default $WORK/out), summary.txt.
set -euo pipefail
BIN=build SIZE=2KiB BACKEND=auto COUNT=4 JOBS="1 2" WORKERS=2 LOOKAHEAD=2 THREADS=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --sector-size) SIZE=$2; shift 2 ;;
    --backend) BACKEND=$2; shift 2 ;;
    --count) COUNT=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --synthesis-workers) WORKERS=$2; shift 2 ;;
    --lookahead) LOOKAHEAD=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
WORK=${WORK:-/tmp/cuzk-daemon-bench}
OUT=${OUT:-$WORK/out}
mkdir -p "$WORK" "$OUT"
BIN=$(cd "$BIN" && pwd)
case "$SIZE" in
  2KiB) circuit=porep-2k ;; 8MiB) circuit=porep-8m ;; 512MiB) circuit=porep-512m ;;
  32GiB) circuit=porep-32g ;; 64GiB) circuit=porep-64g ;;
  *) echo "sector size $SIZE?" >&2; exit 2 ;;
esac
summary="$OUT/summary-$SIZE-$BACKEND.txt"
: > "$summary"
log() { echo "$*" | tee -a "$summary"; }

c1="$WORK/c1-$SIZE.json"
[[ -f "$c1" ]] || "$BIN/cuzk" c1 synthetic --sector-size "$SIZE" --out "$c1" >/dev/null
params="$WORK/params-$SIZE"
if ! ls "$params"/*.params >/dev/null 2>&1; then
  echo "== test parameters for $SIZE (insecure, once)"
  /usr/bin/time -f "params: %e s, peak %M KiB" "$BIN/cuzk" porep params --sector-size "$SIZE" \
    --out "$params" 2>&1 | tail -3 | tee -a "$summary"
fi
log "== $SIZE, backend $BACKEND, $COUNT proofs per run, synthesis workers $WORKERS, lookahead $LOOKAHEAD, $(nproc) cores"

pid=""
trap '[[ -n "$pid" ]] && kill -9 "$pid" 2>/dev/null; true' EXIT  # never leave a daemon behind
for J in $JOBS; do
  sock="$WORK/cuzk.sock"
  cfg="$WORK/cuzk-$J.toml"
  cat > "$cfg" <<TOML
[daemon]
listen = "unix://$sock"
[srs]
param_cache = "$params"
allow_insecure_params = true  # INSECURE test parameters (marked), a benchmark
[gpus]
backend = "$BACKEND"
[synthesis]
threads = $THREADS
workers = $WORKERS
[pipeline]
synthesis_lookahead = $LOOKAHEAD
[logging]
level = "warn"
TOML
  "$BIN/cuzk-daemon" --config "$cfg" > "$OUT/daemon-$SIZE-$BACKEND-j$J.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do [[ -S "$sock" ]] && break; sleep 0.1; done
  "$BIN/cuzk-bench" --addr "unix://$sock" preload --circuit "$circuit" | tee -a "$summary"
  t0=$(date +%s.%N)
  "$BIN/cuzk-bench" --addr "unix://$sock" batch --c1 "$c1" -n "$COUNT" -j "$J" \
    > "$OUT/batch-$SIZE-$BACKEND-j$J.txt" 2>&1 || true
  t1=$(date +%s.%N)
  "$BIN/cuzk-bench" --addr "unix://$sock" metrics > "$OUT/metrics-$SIZE-$BACKEND-j$J.txt"
  "$BIN/cuzk-bench" --addr "unix://$sock" status > "$OUT/status-$SIZE-$BACKEND-j$J.txt" || true
  hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
  kill -TERM "$pid"
  wait "$pid" && rc=0 || rc=$?
  pid=""
  busy=$(awk '/^cuzk_prover_busy_seconds_total/ {s += $2} END {print s + 0}' \
    "$OUT/metrics-$SIZE-$BACKEND-j$J.txt")
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')
  log "-- -j $J"
  grep -E 'throughput|s/proof|latency|mean|failed' "$OUT/batch-$SIZE-$BACKEND-j$J.txt" | tee -a "$summary" || true
  log "$(awk -v w="$wall" -v b="$busy" -v h="$hwm" -v rc="$rc" 'BEGIN {
    printf "wall %.1f s | prover busy %.1f s (%.0f%% of wall) | daemon peak RSS %.2f GiB | exit %s",
      w, b, 100 * b / w, h / 1048576, rc }')"
done
