#!/usr/bin/env bash
# The PoSt subcommands of `cuzk`: --help of each; `post info` of the 32 GiB WindowPoSt partition
# and WinningPoSt (facts sheet 7.4 counts); `post satisfy` of curio's golden 32 GiB vanilla proof
# (satisfied) and of a copy with one path element changed (exit 1 naming the constraint); test
# parameters only with --out, never over an existing file; then two 2 KiB sectors sealed with
# `cuzk seal` -> `post vanilla` -> `post prove` -> `post verify` OK for WindowPoSt (both sectors,
# and a short partition) and WinningPoSt, and a changed proof or randomness -> exit 1.
# Usage: cli_test.sh <cuzk binary> <golden data directory>
set -u
cuzk="$1"
golden="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect_rc() {  # expected rc, then the command
  local want="$1"; shift
  "$@" > "$dir/out" 2>&1
  local rc=$?
  [ "$rc" -eq "$want" ] || { cat "$dir/out"; fail "exit $rc (expected $want): $*"; }
}
expect_out() { grep -q -- "$1" "$dir/out" || { cat "$dir/out"; fail "output lacks: $1"; }; }

for sub in info params vanilla satisfy prove verify; do
  expect_rc 0 "$cuzk" post $sub --help
done

expect_rc 0 "$cuzk" post info --proof window --sector-size 32GiB
expect_out '^constraints 125279217$'
expect_out '^inputs 25840$'
expect_rc 0 "$cuzk" post info --proof winning --proof-type StackedDrgWinning32GiBV1
expect_out '^constraints 370590$'
expect_out '^inputs 133$'
expect_rc 2 "$cuzk" post info --proof winning --proof-type 13

vproof="$golden/window-post-32g-sector1.vproof"
pub="$golden/window-post-32g-sector1.pub.json"
expect_rc 0 "$cuzk" post satisfy --proof window --vanilla "$vproof" --public "$pub"
expect_out '^satisfied: 1 slot(s) of 53333 constraints'
python3 - "$vproof" "$dir/bad.vproof" <<'PY' || fail "python3 tampering failed"
import sys
b = bytearray(open(sys.argv[1], "rb").read())
element = 8 + 7 * 32 + 8
proof = 4 + (8 + 9 * element) + (8 + element) + 64
b[56 + 6 * proof + 4 + 8 + 7 * element + 8] ^= 1  # a sibling of challenge 6, base level 7
open(sys.argv[2], "wb").write(b)
PY
expect_rc 1 "$cuzk" post satisfy --proof window --vanilla "$dir/bad.vproof" --public "$pub"
expect_out 'first unsatisfied constraint outer namespace/sector_0/challenge_inclusion_6/enforce root is correct'

# Parameters: --out required, nothing written; an existing file is kept.
expect_rc 2 "$cuzk" post params --proof window --sector-size 2KiB
expect_out 'needs --out'
expect_rc 2 "$cuzk" post params --proof window --sector-size 32GiB --out "$dir/p32"
[ ! -e "$dir/p32" ] || fail "params: a 32 GiB directory was made without --large"
expect_rc 0 "$cuzk" post params --proof window --sector-size 2KiB --out "$dir/params"
meta=$(ls "$dir"/params/v28-proof-of-spacetime-fallback-*-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.meta) ||
  fail "params: not under Filecoin's WindowPoSt 2 KiB name"
grep -q '"insecure":true' "$meta" || fail "params: .meta not marked insecure"
before=$(sha256sum "$dir"/params/*.params)
expect_rc 2 "$cuzk" post params --proof window --sector-size 2KiB --out "$dir/params" --seed other
expect_out 'exists (not overwritten'
[ "$before" = "$(sha256sum "$dir"/params/*.params)" ] || fail "params: an existing file changed"
expect_rc 0 "$cuzk" post params --proof winning --sector-size 2KiB --out "$dir/params"
# On the GPU (from the circuit's recording): the CPU's bytes where there is a device; without
# one, exit 2 saying so, and nothing written.
expect_rc 2 "$cuzk" post params --proof window --sector-size 2KiB --backend tpu --out "$dir/pg"
expect_out 'params are made on the cpu or the gpu'
"$cuzk" post params --proof window --sector-size 2KiB --backend gpu --out "$dir/pg" > "$dir/out" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
  for f in "$dir"/params/*0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.*; do
    cmp "$f" "$dir/pg/$(basename "$f")" || fail "params: GPU and CPU files differ: $f"
  done
else
  [ "$rc" -eq 2 ] || { cat "$dir/out"; fail "params --backend gpu: exit $rc"; }
  expect_out 'no CUDA device\|built without CUDA'
  [ -z "$(ls "$dir/pg" 2>/dev/null)" ] || fail "params --backend gpu: files written without a device"
fi

ones=$(printf '01%.0s' $(seq 32)); twos=$(printf '02%.0s' $(seq 32))
for n in 1 2; do
  expect_rc 0 "$cuzk" seal --sector-size 2KiB --zero --actor-id 1000 --sector-id $n \
    --ticket "$ones" --seed "$twos" --out "$dir/s" --parent-cache-dir "$dir/parents" --quiet
done
rand=$(printf '05%.0s' $(seq 31))00

prove_verify() {  # label, then the vanilla options
  local label="$1"; shift
  expect_rc 0 "$cuzk" post vanilla --randomness "$rand" --seal-dir "$dir/s" \
    --out "$dir/$label.json" --public "$dir/$label.pub.json" "$@"
  expect_rc 0 "$cuzk" post prove --vanilla "$dir/$label.json" --public "$dir/$label.pub.json" \
    --params "$dir/params" --allow-insecure-params --out "$dir/$label.proof"
  expect_out 'proof (192 bytes, verified)'
  expect_rc 0 "$cuzk" post verify --public "$dir/$label.pub.json" --proof-file "$dir/$label.proof" \
    --params "$dir/params" --allow-insecure-params
  expect_out 'OK: PoSt proof verifies'
  python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[150]^=1; open(sys.argv[2],'wb').write(b)" \
    "$dir/$label.proof" "$dir/$label.bad" || fail "python3"
  "$cuzk" post verify --public "$dir/$label.pub.json" --proof-file "$dir/$label.bad" \
    --params "$dir/params" --allow-insecure-params > "$dir/out" 2>&1
  local rc=$?
  [ "$rc" -ne 0 ] || { cat "$dir/out"; fail "$label: a changed proof verified"; }
  # The same proof for other randomness: the verifier's challenges differ.
  python3 - "$dir/$label.pub.json" "$dir/$label.other.json" <<'PY' || fail "python3"
import base64, json, sys
j = json.load(open(sys.argv[1]))
r = bytearray(base64.b64decode(j["Randomness"])); r[0] ^= 1
j["Randomness"] = base64.b64encode(bytes(r)).decode()
json.dump(j, open(sys.argv[2], "w"))
PY
  expect_rc 1 "$cuzk" post verify --public "$dir/$label.other.json" \
    --proof-file "$dir/$label.proof" --params "$dir/params" --allow-insecure-params
  expect_out 'INVALID'
}
prove_verify window --proof window --sector-size 2KiB --sector-id 1 --sector-id 2
prove_verify short --proof-type StackedDrgWindow2KiBV1 --sector-id 2
prove_verify winning --proof winning --sector-size 2KiB --sector-id 1

# A vanilla proof against another sector's verify info is refused before proving.
expect_rc 1 "$cuzk" post prove --vanilla "$dir/window.json" --public "$dir/window.other.json" \
  --params "$dir/params" --allow-insecure-params --out "$dir/x.proof"
expect_out 'vanilla proof refused'
[ ! -e "$dir/x.proof" ] || fail "prove: a proof was written for refused vanilla proofs"
expect_rc 2 "$cuzk" post vanilla --proof window --sector-size 2KiB --randomness "$rand" \
  --synthetic 3 --out "$dir/syn.json"
expect_out 'proves at most 2'
echo "PASS"
