#!/usr/bin/env bash
# The real cuzk-daemon driven by our own client, cuzk-bench, over a unix socket: `single` proves
# the 2 KiB fixture C1 (the proof then verifies with `cuzk porep verify`, and fails verification
# for another seed), `status` shows the loaded SRS and the completed proof, `preload`/`evict` of
# the loaded circuit, `metrics` has the completed counter, an unknown circuit and an unreachable
# daemon give their exit codes (2, 3), and SIGTERM stops the daemon with exit 0 and no socket.
# Usage: bench_client_test.sh <cuzk-daemon> <cuzk-bench> <cuzk> <fixtures dir>
set -u
daemon="$1"; bench="$2"; cuzk="$3"; fixtures="$4"
dir="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; [ -f "$dir/daemon.log" ] && tail -20 "$dir/daemon.log"; exit 1; }
expect_rc() {  # expected rc, then the command
  local want="$1"; shift
  "$@" > "$dir/out" 2>&1
  local rc=$?
  [ "$rc" -eq "$want" ] || { cat "$dir/out"; fail "exit $rc (expected $want): $*"; }
}
c1="$fixtures/c1/s-t01000-1-c1.json"
params="$fixtures/params"
[ -f "$c1" ] && [ -d "$params" ] || fail "fixtures missing under $fixtures (server_fixtures)"
sock="$dir/cuzk.sock"
addr="unix://$sock"

expect_rc 3 "$bench" --addr "$addr" status
grep -q "cannot connect to $addr" "$dir/out" || { cat "$dir/out"; fail "unreachable message"; }

cat > "$dir/cuzk.toml" <<TOML
[daemon]
listen = "unix://$sock"
[srs]
param_cache = "$params"
allow_insecure_params = true  # INSECURE test parameters (marked), a benchmark
[gpus]
backend = "cpu"
TOML
"$daemon" --config "$dir/cuzk.toml" > "$dir/daemon.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || fail "daemon did not create $sock"

expect_rc 0 "$bench" --addr "$addr" single --c1 "$c1" --out "$dir/proof.bin"
grep -q 'COMPLETED' "$dir/out" || { cat "$dir/out"; fail "single: not COMPLETED"; }
grep -q 'timings (ms): queue' "$dir/out" || { cat "$dir/out"; fail "single: no timings line"; }
cat "$dir/out"
[ "$(stat -c %s "$dir/proof.bin")" -eq 192 ] || fail "proof is not 192 bytes"
hex=$(od -An -tx1 -v "$dir/proof.bin" | tr -d ' \n')
grep -q "$hex" "$dir/out" || fail "the printed proof hex differs from --out"
expect_rc 0 "$cuzk" porep verify --c1 "$c1" --params "$params" --allow-insecure-params \
  --proof "$dir/proof.bin"
grep -q '^OK' "$dir/out" || fail "verify: no OK line"

expect_rc 0 "$bench" --addr "$addr" status
grep -q 'porep-2k' "$dir/out" || { cat "$dir/out"; fail "status: no porep-2k SRS"; }
expect_rc 0 "$bench" --addr "$addr" status --json
/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["total_proofs_completed"] == 1, s
assert [x["circuit_id"] for x in s["loaded_srs"]] == ["porep-2k"], s
' "$dir/out" || { cat "$dir/out"; fail "status --json"; }
expect_rc 0 "$bench" --addr "$addr" preload --circuit porep-2k
grep -q 'already_loaded true' "$dir/out" || { cat "$dir/out"; fail "preload of a loaded SRS"; }
expect_rc 0 "$bench" --addr "$addr" metrics
grep -q 'cuzk_proofs_total{kind="porep",outcome="completed"} 1' "$dir/out" ||
  { cat "$dir/out"; fail "metrics: completed counter"; }
expect_rc 0 "$bench" --addr "$addr" evict --circuit porep-2k
grep -q 'was_loaded true' "$dir/out" || { cat "$dir/out"; fail "evict"; }
expect_rc 2 "$bench" --addr "$addr" preload --circuit porep-3k

kill -TERM "$pid"
wait "$pid"
rc=$?
pid=""
[ "$rc" -eq 0 ] || fail "daemon exit $rc after SIGTERM"
[ ! -e "$sock" ] || fail "socket left behind"
echo "OK"
