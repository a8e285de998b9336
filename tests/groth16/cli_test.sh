#!/usr/bin/env bash
# `cuzk groth16` end to end on the circom/snarkjs fixture (shared/fixtures/circom-bls12381):
# prove from snarkjs's .zkey (every point checked) -> verify under snarkjs's own
# verification_key.json; a witness that does not satisfy the circuit (one private wire changed)
# writes no proof and exits 1 (before: an invalid proof, exit 0); setup never replaces its outputs
# without --force. Usage: cli_test.sh <cuzk binary> <fixture directory>
set -u
cuzk="$1"
fx="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect_rc() {  # expected rc, then the command
  local want="$1"; shift
  "$@" > "$dir/out" 2>&1
  local rc=$?
  [ "$rc" -eq "$want" ] || { cat "$dir/out"; fail "exit $rc (expected $want): $*"; }
}

expect_rc 0 "$cuzk" groth16 prove --zkey "$fx/circuit_final.zkey" --wtns "$fx/witness.wtns" \
  --proof "$dir/proof.json" --public "$dir/public.json" --threads 2
grep -q 'every point checked' "$dir/out" || { cat "$dir/out"; fail "prove: bulk points not checked"; }
grep -q '^self-verified' "$dir/out" || { cat "$dir/out"; fail "prove: no self-verification line"; }
grep -q '^backend cpu: requested' "$dir/out" || { cat "$dir/out"; fail "prove: no backend line"; }
expect_rc 0 "$cuzk" groth16 verify --vk "$fx/verification_key.json" --proof "$dir/proof.json" \
  --public "$dir/public.json"
cmp -s "$dir/public.json" "$fx/public.json" ||
  python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))' \
    "$dir/public.json" "$fx/public.json" || fail "public signals differ from snarkjs's"

# --backend (the one choice of groth16::make_backend, as `cuzk porep c2`): cpu was the default
# above; auto names what it chose; gpu proves (and snarkjs's key verifies it) where a device is,
# and is refused with the reason, before the key is read, where none is.
expect_rc 0 "$cuzk" groth16 prove --zkey "$fx/circuit_final.zkey" --wtns "$fx/witness.wtns" \
  --proof "$dir/proof-auto.json" --threads 2 --backend auto
if grep -q '^backend cpu: auto' "$dir/out"; then
  expect_rc 2 "$cuzk" groth16 prove --zkey "$fx/circuit_final.zkey" --wtns "$fx/witness.wtns" \
    --proof "$dir/proof-gpu.json" --backend gpu
  grep -Eq '^error: (GpuBackend: no CUDA device|backend: this build has no CUDA support)' "$dir/out" \
    || { cat "$dir/out"; fail "prove --backend gpu without a device: no reason given"; }
  ! grep -q '^load' "$dir/out" || fail "prove --backend gpu read the key before refusing"
  [ ! -e "$dir/proof-gpu.json" ] || fail "prove --backend gpu wrote a proof without a device"
  echo "no CUDA device: --backend gpu refused ($(grep '^error' "$dir/out"))"
else
  grep -q '^backend gpu' "$dir/out" || { cat "$dir/out"; fail "prove --backend auto: no choice"; }
  expect_rc 0 "$cuzk" groth16 prove --zkey "$fx/circuit_final.zkey" --wtns "$fx/witness.wtns" \
    --proof "$dir/proof-gpu.json" --public "$dir/public-gpu.json" --backend gpu
  expect_rc 0 "$cuzk" groth16 verify --vk "$fx/verification_key.json" \
    --proof "$dir/proof-gpu.json" --public "$fx/public.json"
fi
expect_rc 2 "$cuzk" groth16 prove --zkey "$fx/circuit_final.zkey" --wtns "$fx/witness.wtns" \
  --proof "$dir/proof-x.json" --backend fpga
grep -q "^error: backend: 'fpga' (want cpu, gpu\[:N\], auto)" "$dir/out" \
  || { cat "$dir/out"; fail "prove --backend fpga: no reason"; }

# The last wire (private) plus one: the witness no longer satisfies the circuit.
python3 - "$fx/witness.wtns" "$dir/bad.wtns" <<'PY' || fail "python3 could not edit the witness"
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
assert b[:4] == b"wtns"
at, sections = 12, {}
for _ in range(struct.unpack_from("<I", b, 8)[0]):
    sid, size = struct.unpack_from("<IQ", b, at)
    sections[sid] = (at + 12, size)
    at += 12 + size
begin, size = sections[2]
b[begin + size - 32] ^= 1
open(sys.argv[2], "wb").write(b)
PY
expect_rc 1 "$cuzk" groth16 prove --zkey "$fx/circuit_final.zkey" --wtns "$dir/bad.wtns" \
  --proof "$dir/bad.json" --threads 2
grep -q 'does not verify' "$dir/out" || { cat "$dir/out"; fail "prove: no reason for the refusal"; }
[ ! -e "$dir/bad.json" ] || fail "prove wrote a proof that does not verify"

expect_rc 0 "$cuzk" groth16 setup --r1cs "$fx/circuit.r1cs" --params "$dir/p.params" \
  --vk "$dir/p.vk" --seed one --threads 2
sum=$(md5sum < "$dir/p.params")
expect_rc 2 "$cuzk" groth16 setup --r1cs "$fx/circuit.r1cs" --params "$dir/p.params" --seed two
grep -q 'p.params exists' "$dir/out" || { cat "$dir/out"; fail "setup: existing file not named"; }
[ "$(md5sum < "$dir/p.params")" = "$sum" ] || fail "setup replaced a file without --force"
expect_rc 0 "$cuzk" groth16 setup --r1cs "$fx/circuit.r1cs" --params "$dir/p.params" --seed two \
  --force --threads 2
[ "$(md5sum < "$dir/p.params")" != "$sum" ] || fail "setup --force did not replace the file"
echo "OK"
