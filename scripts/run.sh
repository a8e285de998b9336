#!/usr/bin/env bash
# The main job on the bundled default, no GPU needed:
#   1. the BLS12-381 self-check against ../shared/vectors/bls12_381 and a timing table;
#   2. PoRep end to end for a 2 KiB zero sector: seal (PC1, PC2, C1) -> INSECURE test parameters
#      (made once, cached in build/demo/params, accepted by the daemon and `porep verify` only
#      because they are told so: allow_insecure_params) -> C2 through cuzk-daemon (default config: the
#      GPU if one is present, else the CPU) with `cuzk-bench single` as the client over the
#      cuzk.v1 gRPC API on a unix socket -> the daemon stopped with SIGTERM -> verify; every step
#      prints its phase timings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh cuzk cuzk-daemon cuzk-bench
cuzk=build/cuzk
work=build/demo
mkdir -p "$work"

"$cuzk" selfcheck "$@"

echo
echo "== PoRep 2 KiB: seal"
rm -rf "$work/sector"
"$cuzk" seal --sector-size 2KiB --zero --actor-id 1000 --sector-id 1 \
  --ticket 0101010101010101010101010101010101010101010101010101010101010101 \
  --seed 0202020202020202020202020202020202020202020202020202020202020202 \
  --out "$work/sector" --parent-cache-dir "$work/parents"
c1="$work/sector/s-t01000-1-c1.json"

echo
echo "== PoRep 2 KiB: test parameters (insecure; generated on the first run only, ~2-3 min on 2 cores)"
if ! ls "$work"/params/*stacked-proof-of-replication*.params >/dev/null 2>&1; then
  "$cuzk" porep params --sector-size 2KiB --out "$work/params"
fi

echo
echo "== PoRep 2 KiB: C2 through cuzk-daemon (default config + the test parameters) and cuzk-bench single"
sock="$PWD/$work/cuzk.sock"
# The defaults, except: our INSECURE test parameters, which the daemon refuses unless told.
cat > "$work/cuzk.toml" <<TOML
[srs]
param_cache = "$PWD/$work/params"
allow_insecure_params = true  # test parameters from a known seed: a demo, never production
TOML
build/cuzk-daemon --config "$work/cuzk.toml" --listen "unix://$sock" > "$work/daemon.log" 2>&1 &
daemon=$!
trap 'kill -TERM $daemon 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
build/cuzk-bench --addr "unix://$sock" single --c1 "$c1" --out "$work/proof.bin"
build/cuzk-bench --addr "unix://$sock" status
kill -TERM "$daemon"
wait "$daemon" && rc=0 || rc=$?
trap - EXIT
echo "cuzk-daemon stopped with SIGTERM (exit $rc); its log:"
cat "$work/daemon.log"
[ "$rc" -eq 0 ]

echo
echo "== PoRep 2 KiB: verify"
"$cuzk" porep verify --c1 "$c1" --params "$work/params" --allow-insecure-params \
  --proof "$work/proof.bin"
