#!/usr/bin/env bash
# Daemon throughput, the way a storage provider runs it: a C1 of the given size (a synthetic one:
# real shape, verifies, no sealing), INSECURE test parameters (made once in $WORK/params-<size>), then
# for each client concurrency J a fresh cuzk-daemon (parameters preloaded, so loading is not in
# the numbers) and `cuzk-bench batch -n COUNT -j J`; afterwards the daemon's Prometheus metrics,
# its peak RSS (VmHWM) and the prover busy fraction (prover busy seconds / batch wall).
#
#   tools/daemon-bench.sh --bin build --sector-size 2KiB --backend cpu --count 4 --jobs "1 2"
#
# Options: --bin DIR (cuzk, cuzk-daemon, cuzk-bench), --kind porep|snap (default porep; snap: a
# synthetic SnapDeals update from `cuzk update synthetic` and `cuzk update params`), --sector-size,
# --backend cpu|gpu|auto, --count N, --jobs "J1 J2 ...", --synthesis-workers W (default 2),
# --lookahead L (default 2), --threads T (default 0: all cores). Results: $OUT (default
# $WORK/out), summary.txt.
set -euo pipefail
BIN=build KIND=porep SIZE=2KiB BACKEND=auto COUNT=4 JOBS="1 2" WORKERS=2 LOOKAHEAD=2 THREADS=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --kind) KIND=$2; shift 2 ;;
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
  2KiB) suffix=2k ;; 8MiB) suffix=8m ;; 512MiB) suffix=512m ;; 32GiB) suffix=32g ;; 64GiB) suffix=64g ;;
  *) echo "sector size $SIZE?" >&2; exit 2 ;;
esac
[[ "$KIND" == porep || "$KIND" == snap ]] || { echo "kind $KIND? (porep, snap)" >&2; exit 2; }
circuit=$KIND-$suffix
summary="$OUT/summary-$KIND-$SIZE-$BACKEND.txt"
: > "$summary"
log() { echo "$*" | tee -a "$summary"; }

params="$WORK/params-$KIND-$SIZE"
large=()
[[ "$KIND" == snap ]] && case "$SIZE" in 512MiB|32GiB|64GiB) large=(--allow-large) ;; esac
if [[ "$KIND" == porep ]]; then
  c1="$WORK/c1-$SIZE.json"
  [[ -f "$c1" ]] || "$BIN/cuzk" c1 synthetic --sector-size "$SIZE" --out "$c1" >/dev/null
  input=(--c1 "$c1")
  make_params=("$BIN/cuzk" porep params)
else
  update="$WORK/snap-$SIZE.json"
  [[ -f "$update" ]] || "$BIN/cuzk" update synthetic --sector-size "$SIZE" --out "$update" \
    --vanilla-proofs-out "$WORK/snap-$SIZE-vanilla.json" >/dev/null
  field() { sed -n "s/.*\"$1\": \"*\([0-9a-f]*\)\"*,*$/\1/p" "$update"; }
  input=(-t snap --vanilla "$WORK/snap-$SIZE-vanilla.json" --registered-proof "$(field registered_proof)"
         --comm-r-old "$(field comm_r_old)" --comm-r-new "$(field comm_r_new)"
         --comm-d-new "$(field comm_d_new)")
  make_params=("$BIN/cuzk" update params)
fi
if ! ls "$params"/*.params >/dev/null 2>&1; then
  echo "== $KIND test parameters for $SIZE (insecure, once)"
  /usr/bin/time -f "params: %e s, peak %M KiB" "${make_params[@]}" --sector-size "$SIZE" \
    ${large[@]+"${large[@]}"} --out "$params" 2>&1 | tail -3 | tee -a "$summary"
fi
log "== $KIND $SIZE, backend $BACKEND, $COUNT proofs per run, synthesis workers $WORKERS, lookahead $LOOKAHEAD, $(nproc) cores"

pid=""
trap '[[ -n "$pid" ]] && kill -9 "$pid" 2>/dev/null; true' EXIT  # never leave a daemon behind
for J in $JOBS; do
  sock="$WORK/cuzk.sock"
  cfg="$WORK/cuzk-$KIND-$J.toml"
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
  "$BIN/cuzk-daemon" --config "$cfg" > "$OUT/daemon-$KIND-$SIZE-$BACKEND-j$J.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do [[ -S "$sock" ]] && break; sleep 0.1; done
  "$BIN/cuzk-bench" --addr "unix://$sock" preload --circuit "$circuit" | tee -a "$summary"
  t0=$(date +%s.%N)
  "$BIN/cuzk-bench" --addr "unix://$sock" batch "${input[@]}" -n "$COUNT" -j "$J" \
    > "$OUT/batch-$KIND-$SIZE-$BACKEND-j$J.txt" 2>&1 || true
  t1=$(date +%s.%N)
  "$BIN/cuzk-bench" --addr "unix://$sock" metrics > "$OUT/metrics-$KIND-$SIZE-$BACKEND-j$J.txt"
  "$BIN/cuzk-bench" --addr "unix://$sock" status > "$OUT/status-$KIND-$SIZE-$BACKEND-j$J.txt" || true
  hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
  kill -TERM "$pid"
  wait "$pid" && rc=0 || rc=$?
  pid=""
  busy=$(awk '/^cuzk_prover_busy_seconds_total/ {s += $2} END {print s + 0}' \
    "$OUT/metrics-$KIND-$SIZE-$BACKEND-j$J.txt")
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')
  log "-- -j $J"
  grep -E 'throughput|s/proof|latency|mean|failed' "$OUT/batch-$KIND-$SIZE-$BACKEND-j$J.txt" | tee -a "$summary" || true
  log "$(awk -v w="$wall" -v b="$busy" -v h="$hwm" -v rc="$rc" 'BEGIN {
    printf "wall %.1f s | prover busy %.1f s (%.0f%% of wall) | daemon peak RSS %.2f GiB | exit %s",
      w, b, 100 * b / w, h / 1048576, rc }')"
done
