#!/usr/bin/env bash
# PoSt latency through the daemon, as Curio sends it: synthetic vanilla proofs of the real shape
# (`cuzk post vanilla --synthetic`: Winning 1 sector of 66 challenges, Window a full partition of
# 2349 / 2300 sectors at 32 / 64 GiB), a fresh cuzk-daemon with the circuit's parameters preloaded,
# then COUNT proofs one after another with `cuzk-bench single` (Winning at CRITICAL, Window at HIGH
# priority), each verified with `cuzk post verify`; optionally the same WinningPoSt while the GPU
# proves PoRep partitions (--busy-c1: BUSY PoRep jobs submitted first).
#
#   tools/post-bench.sh --bin build --kind winning --sector-size 2KiB --backend cpu --count 2
#   tools/post-bench.sh --bin build-gpu --kind winning --sector-size 32GiB --backend gpu
#   tools/post-bench.sh --bin build-gpu --kind window --sector-size 32GiB --backend gpu \
#     --params DIR   # DIR holds the wpost-32g parameters (GPU setup; the CPU one takes hours)
#
# Options: --bin DIR (cuzk, cuzk-daemon, cuzk-bench), --kind winning|window, --sector-size,
# --backend cpu|gpu|auto, --count N (default 3), --params DIR (default $WORK/params; WinningPoSt
# and test-size parameters are made there once with `cuzk post params` when missing),
# --busy-c1 FILE and --busy N (PoRep C1 and jobs in flight; its parameters must be in --params),
# --busy-samples K (default 1: that many proofs while the PoRep jobs prove, each 2.0-4.0 s after
# the previous one ended, the pause stepped by 0.73 s: a fixed pause after a switch met the same
# point of a front each time, 2026-12-06, so the pauses spread the arrivals over a ~1.5-2 s step),
# --threads T, --synthesis-workers W, --pce DIR (the daemon's [pce] cache_dir: recordings made
# there beforehand, e.g. by `params --backend gpu --pce-dir DIR`, are loaded, not recorded again),
# --no-subgroup-check ([srs] check_subgroups = false: for parameters this run just made),
# --memory-limit L ([gpus] memory_limit, e.g. 24GiB: a smaller card's plan; default the device's).
# Results: $OUT (default $WORK/out), summary-*.txt.
set -euo pipefail
BIN=build KIND=winning SIZE=2KiB BACKEND=auto COUNT=3 PARAMS="" BUSY_C1="" BUSY=2 BUSY_SAMPLES=1
THREADS=0
WORKERS=1 PCE="" CHECK_SUBGROUPS=true MEMORY_LIMIT=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --kind) KIND=$2; shift 2 ;;
    --sector-size) SIZE=$2; shift 2 ;;
    --backend) BACKEND=$2; shift 2 ;;
    --count) COUNT=$2; shift 2 ;;
    --params) PARAMS=$2; shift 2 ;;
    --busy-c1) BUSY_C1=$2; shift 2 ;;
    --busy) BUSY=$2; shift 2 ;;
    --busy-samples) BUSY_SAMPLES=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --synthesis-workers) WORKERS=$2; shift 2 ;;
    --pce) PCE=$2; shift 2 ;;
    --no-subgroup-check) CHECK_SUBGROUPS=false; shift ;;
    --memory-limit) MEMORY_LIMIT=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $BUSY_SAMPLES =~ ^[1-9][0-9]*$ ]] || { echo "--busy-samples: a positive count, not '$BUSY_SAMPLES'" >&2; exit 2; }
WORK=${WORK:-/tmp/cuzk-post-bench}
OUT=${OUT:-$WORK/out}
PARAMS=${PARAMS:-$WORK/params}
mkdir -p "$WORK" "$OUT" "$PARAMS"
BIN=$(cd "$BIN" && pwd)
case "$SIZE" in
  2KiB) suffix=2k ;; 8MiB) suffix=8m ;; 512MiB) suffix=512m ;; 32GiB) suffix=32g ;;
  64GiB) suffix=64g ;; *) echo "sector size $SIZE?" >&2; exit 2 ;;
esac
case "$KIND" in
  winning) circuit=winning-$suffix; type=winning; priority=critical; sectors=1 ;;
  window) circuit=wpost-$suffix; type=wpost; priority=high
    sectors=$("$BIN/cuzk" post info --proof window --sector-size "$SIZE" | sed -n 's/.*of \([0-9]*\) slot.*/\1/p') ;;
  *) echo "--kind winning|window" >&2; exit 2 ;;
esac
summary="$OUT/summary-$KIND-$SIZE-$BACKEND.txt"
: > "$summary"
log() { echo "$*" | tee -a "$summary"; }
rand=$(printf '2a%.0s' $(seq 31))00  # any field element: byte 31 < 0x40

vanilla="$WORK/$KIND-$SIZE.json" pub="$WORK/$KIND-$SIZE.pub.json"
if [[ ! -f "$vanilla" ]]; then
  /usr/bin/time -f "vanilla: %e s, peak %M KiB" "$BIN/cuzk" post vanilla --proof "$KIND" \
    --sector-size "$SIZE" --synthetic "$sectors" --randomness "$rand" --out "$vanilla" \
    --public "$pub" 2>&1 | tee -a "$summary"
fi
registered=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['Proofs'][0]['PoStProof'])" "$pub")
param_file=$("$BIN/cuzk" post info --proof "$KIND" --sector-size "$SIZE" --params "$PARAMS" |
  sed -n 's/^parameters //p')
if [[ ! -f "$param_file" ]]; then
  log "== test parameters for $circuit (insecure, once, CPU)"
  /usr/bin/time -f "params: %e s, peak %M KiB" "$BIN/cuzk" post params --proof "$KIND" \
    --sector-size "$SIZE" --out "$PARAMS" 2>&1 | tail -4 | tee -a "$summary"
fi
log "== $KIND $SIZE ($sectors sector(s)), backend $BACKEND, memory_limit $MEMORY_LIMIT, $COUNT proofs, $(nproc) cores"

pid=""
trap '[[ -n "$pid" ]] && kill -9 "$pid" 2>/dev/null; true' EXIT  # never leave a daemon behind
sock="$WORK/cuzk.sock"
cfg="$WORK/cuzk-post.toml"
cat > "$cfg" <<TOML
[daemon]
listen = "unix://$sock"
[srs]
param_cache = "$PARAMS"
allow_insecure_params = true
check_subgroups = $CHECK_SUBGROUPS
$([[ -n "$PCE" ]] && printf '[pce]\ncache_dir = "%s"' "$PCE" || true)
[gpus]
backend = "$BACKEND"
memory_limit = $([[ $MEMORY_LIMIT == 0 ]] && echo 0 || echo "\"$MEMORY_LIMIT\"")
[synthesis]
threads = $THREADS
workers = $WORKERS
[logging]
level = "info"
TOML
"$BIN/cuzk-daemon" --config "$cfg" > "$OUT/daemon-$KIND-$SIZE-$BACKEND.log" 2>&1 &
pid=$!
for _ in $(seq 300); do [[ -S "$sock" ]] && break; sleep 0.1; done
bench() { "$BIN/cuzk-bench" --addr "unix://$sock" "$@"; }
bench preload --circuit "$circuit" | tee -a "$summary"

prove_one() {  # label
  local label=$1
  local t0 t1
  t0=$(date +%s.%N)
  bench single -t "$type" --vanilla "$vanilla" --registered-proof "$registered" \
    --randomness "$rand" --priority "$priority" --request-id "$label" \
    --out "$OUT/$label.proof" > "$OUT/$label.txt" 2>&1 || { cat "$OUT/$label.txt"; return 1; }
  t1=$(date +%s.%N)
  "$BIN/cuzk" post verify --public "$pub" --proof-file "$OUT/$label.proof" --params "$PARAMS" \
    --allow-insecure-params \
    > "$OUT/$label.verify" 2>&1 || { cat "$OUT/$label.verify"; return 1; }
  log "$label: $(grep '^timings' "$OUT/$label.txt") | client $(awk "BEGIN{print $t1 - $t0}") s | $(head -1 "$OUT/$label.verify")"
}
for i in $(seq "$COUNT"); do
  prove_one "$KIND-$SIZE-$i"
done

if [[ -n "$BUSY_C1" ]]; then
  log "== the same $KIND proof with $BUSY PoRep job(s) in flight"
  for i in $(seq "$BUSY"); do
    bench submit --c1 "$BUSY_C1" --request-id "busy-$i" | tee -a "$summary"
  done
  porep_done() { grep -c "event=job_finished .*kind=porep" "$OUT/daemon-$KIND-$SIZE-$BACKEND.log" || true; }
  # Until the first PoRep job has started proving (its parameters loaded: the daemon logs
  # job_started then), and 3 s more, so that a partition is on the GPU (the status line's
  # "pending, N ..." also counts jobs still loading, and matched before any partition ran); or
  # until they all ended (small jobs on the CPU can end between two status sweeps and never log
  # job_started). A sample that starts after the last PoRep job ended is not a busy one: its
  # line says so.
  for _ in $(seq 1200); do
    grep -q "event=job_started .*kind=porep" "$OUT/daemon-$KIND-$SIZE-$BACKEND.log" && break
    (( $(porep_done) >= BUSY )) && break
    sleep 0.25
  done
  sleep 3
  busy_one() {  # label
    if (( $(porep_done) >= BUSY )); then log "$1: the PoRep jobs had ended: not a busy sample"; fi
    prove_one "$1"
  }
  busy_one "$KIND-$SIZE-busy"
  for i in $(seq 2 "$BUSY_SAMPLES"); do
    sleep "$(awk -v i="$i" 'BEGIN { printf "%.2f", 2 + (i * 0.73) % 2 }')"
    busy_one "$KIND-$SIZE-busy-$i"
  done
  bench metrics > "$OUT/metrics-busy.txt"
fi
bench metrics > "$OUT/metrics-$KIND-$SIZE-$BACKEND.txt"
bench status > "$OUT/status-$KIND-$SIZE-$BACKEND.txt" || true
log "peak daemon RSS: $(grep VmHWM "/proc/$pid/status" | awk '{print $2, $3}')"
kill -TERM "$pid"
wait "$pid" || true
pid=""
log "results in $OUT"
