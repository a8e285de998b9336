#!/usr/bin/env bash
# The SnapDeals subcommands of `cuzk` on the fixtures of update_fixtures.sh (a sealed 2 KiB zero
# sector updated with a random piece): --help of each; `update info` prints rfp's 2 KiB counts;
# the encoding's comm_d_new equals `cuzk commd` of the piece; the vanilla file verifies and a
# tampered one is refused by verify-vanilla and by prove before the parameters are read (exit 1,
# no proof file); prove -> verify OK, verify against other commitments -> exit 1, a truncated proof
# -> exit 2; the fixtures' parameters (marked INSECURE) are refused by prove and verify without
# --allow-insecure-params (exit 2 naming the flag, no proof file); outputs are not replaced without
# --force; `update params` refuses to run without --out, to replace files, and 32 GiB without
# --allow-large; `update synthetic` of 32 GiB verifies.
# Usage: cli_test.sh <cuzk binary> <fixtures dir>
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

for sub in info params encode prove-vanilla verify-vanilla prove verify; do
  expect_rc 0 "$cuzk" update $sub --help
done

expect_rc 0 "$cuzk" update info --sector-size 2KiB
for line in 'partitions 1' 'constraints 1705039' 'inputs 5'; do
  grep -qx "$line" "$dir/out" || { cat "$dir/out"; fail "info 2KiB: no line '$line'"; }
done
expect_rc 0 "$cuzk" update info --sector-size 8MiB
grep -qx 'partitions 4' "$dir/out" || { cat "$dir/out"; fail "info 8MiB: partitions"; }
expect_rc 0 "$cuzk" update info --sector-size 1KiB --poseidon
grep -qx 'constraints 32164' "$dir/out" || { cat "$dir/out"; fail "info 1KiB --poseidon"; }
expect_rc 2 "$cuzk" update info --sector-size 64KiB

# comm_d_new of the encoding is the piece's comm_d (one piece filling the sector).
commd=$("$cuzk" commd --sector-size 2KiB --data "$fx/piece" --unpadded | awk '{print $2}')
vanilla_commd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["comm_d_new"])' \
  "$fx/vanilla.json")
[ "$commd" = "$vanilla_commd" ] || fail "comm_d_new $vanilla_commd is not commd $commd"

expect_rc 0 "$cuzk" update verify-vanilla --vanilla "$fx/vanilla.json"
grep -q '^OK: 1 2KiB SnapDeals vanilla partition proof(s) verify' "$dir/out" ||
  { cat "$dir/out"; fail "verify-vanilla"; }

python3 - "$fx/vanilla.json" "$dir/bad.json" <<'PY' || fail "python3 tampering failed"
import base64, json, sys
v = json.load(open(sys.argv[1]))
p = bytearray(base64.b64decode(v["vanilla_proofs"][0]))
p[0] ^= 1  # comm_c
v["vanilla_proofs"][0] = base64.b64encode(bytes(p)).decode()
json.dump(v, open(sys.argv[2], "w"))
PY
expect_rc 1 "$cuzk" update verify-vanilla --vanilla "$dir/bad.json"
grep -q 'INVALID: vanilla proofs refused before proving: update partition 0: comm_r_old != H(comm_c' \
  "$dir/out" || { cat "$dir/out"; fail "verify-vanilla of a tampered file"; }
expect_rc 1 "$cuzk" update prove --vanilla "$dir/bad.json" --params "$dir/none" --out "$dir/bad.bin"
[ ! -e "$dir/bad.bin" ] || fail "prove: a proof file was written for refused vanilla proofs"
expect_rc 2 "$cuzk" update prove --vanilla "$fx/vanilla.json" --params "$dir/none" --out "$dir/p.bin"
grep -q 'v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.params is missing' \
  "$dir/out" || { cat "$dir/out"; fail "prove: missing parameter file not named"; }

# The test parameters are marked insecure: refused unless allowed, with the way to allow them.
expect_rc 2 "$cuzk" update prove --vanilla "$fx/vanilla.json" --params "$fx/params" \
  --out "$dir/proof.bin"
grep -q 'INSECURE.*refused.*--allow-insecure-params' "$dir/out" ||
  { cat "$dir/out"; fail "prove: insecure parameters not refused for being insecure"; }
[ ! -e "$dir/proof.bin" ] || fail "prove: a proof file was written with refused parameters"

# Our own setup made these points: --trusted-params skips their subgroup checks.
expect_rc 0 "$cuzk" update prove --vanilla "$fx/vanilla.json" --params "$fx/params" \
  --allow-insecure-params --trusted-params --out "$dir/proof.bin"
cat "$dir/out"
grep -q 'warning: INSECURE test parameters (seed "cuzk update tests")' "$dir/out" ||
  fail "prove: no warning that the parameters are insecure"
[ "$(stat -c %s "$dir/proof.bin")" -eq 192 ] || fail "prove: not one 192-byte partition proof"
expect_rc 2 "$cuzk" update verify --vanilla "$fx/vanilla.json" --params "$fx/params" \
  --proof "$dir/proof.bin"
grep -q 'INSECURE.*refused.*--allow-insecure-params' "$dir/out" ||
  { cat "$dir/out"; fail "verify: an insecure verifying key not refused for being insecure"; }
expect_rc 0 "$cuzk" update verify --vanilla "$fx/vanilla.json" --params "$fx/params" \
  --allow-insecure-params --proof "$dir/proof.bin"
grep -q '^OK: update proof verifies' "$dir/out" || { cat "$dir/out"; fail "verify"; }
old=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["comm_r_old"])' "$fx/vanilla.json")
new=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["comm_r_new"])' "$fx/vanilla.json")
expect_rc 0 "$cuzk" update verify --sector-size 2KiB --comm-r-old "$old" --comm-r-new "$new" \
  --comm-d-new "$commd" --params "$fx/params" --allow-insecure-params --proof "$dir/proof.bin"
expect_rc 1 "$cuzk" update verify --sector-size 2KiB --comm-r-old "$new" --comm-r-new "$new" \
  --comm-d-new "$commd" --params "$fx/params" --allow-insecure-params --proof "$dir/proof.bin"
grep -q '^partition 0: INVALID' "$dir/out" || { cat "$dir/out"; fail "verify: wrong comm_r_old"; }
head -c 191 "$dir/proof.bin" > "$dir/short.bin"
expect_rc 2 "$cuzk" update verify --vanilla "$fx/vanilla.json" --params "$fx/params" \
  --allow-insecure-params --proof "$dir/short.bin"
grep -q 'short.bin: update verify: 191 proof bytes' "$dir/out" ||
  { cat "$dir/out"; fail "verify: a truncated proof not refused for its length"; }

# Outputs are never replaced without --force (a replica or a proof may be someone's data).
echo keep > "$dir/existing"
expect_rc 2 "$cuzk" update prove --vanilla "$fx/vanilla.json" --params "$fx/params" \
  --allow-insecure-params --out "$dir/existing"
grep -q 'existing exists (not overwritten; pass --force' "$dir/out" || { cat "$dir/out"; fail "prove over a file"; }
expect_rc 2 "$cuzk" update encode --sector-key "$fx/sector/sealed/s-t01000-2" \
  --sector-key-cache "$fx/sector/cache/s-t01000-2" --data "$fx/piece" --unpadded \
  --replica "$dir/existing" --replica-cache "$dir/rc"
expect_rc 2 "$cuzk" update synthetic --sector-size 2KiB --out "$dir/existing"
[ "$(cat "$dir/existing")" = keep ] || fail "an existing file was replaced"
[ ! -e "$dir/rc" ] || fail "encode created the cache of a refused replica"

# Parameter-file safety.
expect_rc 2 "$cuzk" update params --sector-size 2KiB
grep -q 'give --out DIR' "$dir/out" || { cat "$dir/out"; fail "params without --out"; }
mkdir -p "$dir/p"
stem=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194
echo keep > "$dir/p/$stem.meta"
expect_rc 2 "$cuzk" update params --sector-size 2KiB --out "$dir/p"
grep -q "$stem.meta exists (not overwritten; pass --force" "$dir/out" || { cat "$dir/out"; fail "params over a file"; }
[ "$(cat "$dir/p/$stem.meta")" = keep ] || fail "params replaced an existing file"
[ ! -e "$dir/p/$stem.params" ] || fail "params wrote part of a set"
expect_rc 2 "$cuzk" update params --sector-size 32GiB --out "$dir/p32"
grep -q 'pass --backend gpu, or --allow-large' "$dir/out" || { cat "$dir/out"; fail "params 32GiB"; }
# On the GPU: never the Poseidon variant (the daemon records only the SHA-256 one); a 32 GiB set
# without a device (or CUDA) is refused before anything is recorded or written.
expect_rc 2 "$cuzk" update params --sector-size 2KiB --poseidon --backend gpu --out "$dir/pg"
grep -q 'Poseidon variant' "$dir/out" || { cat "$dir/out"; fail "params --poseidon --backend gpu"; }
if ! nvidia-smi -L > /dev/null 2>&1; then  # no device here: the refusal (with one: the H200 run)
  expect_rc 2 "$cuzk" update params --sector-size 32GiB --backend gpu --out "$dir/pg"
  grep -q 'no CUDA device\|built without CUDA' "$dir/out" || { cat "$dir/out"; fail "params gpu"; }
  [ -z "$(ls "$dir/pg" 2>/dev/null)" ] || fail "params --backend gpu wrote files without a device"
fi
# A 32 GiB update without a sector (what the H200 runs use): 16 partition proofs that verify.
expect_rc 0 "$cuzk" update synthetic --sector-size 32GiB --seed 5 --out "$dir/s32.json" \
  --vanilla-proofs-out "$dir/s32-vanilla.json"
expect_rc 0 "$cuzk" update verify-vanilla --vanilla "$dir/s32.json"
grep -q '^OK: 16 32GiB SnapDeals vanilla partition proof(s) verify' "$dir/out" ||
  { cat "$dir/out"; fail "synthetic 32 GiB"; }
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["vanilla_proofs"] == json.load(open(sys.argv[2]))' \
  "$dir/s32.json" "$dir/s32-vanilla.json" || fail "--vanilla-proofs-out is not the file's vanilla_proofs"
echo "PASS"
