#!/usr/bin/env bash
# The PoRep subcommands of `cuzk`: --help of each; `porep info` of the 2 KiB blank circuit and of
# a sealed sector's C1 (same counts); a tampered C1 refused by `porep c2` before the parameters are
# even read (exit 1, message, no proof file); missing parameters named (exit 2); a 32 GiB setup
# refused without --allow-large; `porep params` without --out refused (exit 2, no file anywhere)
# and never replacing a file without --force; then, with the 2 KiB test parameters the
# server_fixtures test made (marked insecure): c2 refused without --allow-insecure-params, c2 ->
# verify OK, verify with a wrong seed / comm_r -> exit 1, a truncated proof -> exit 2, and a .vk
# under its published name with one byte changed (no insecure marker) refused naming Filecoin's
# digest; progress lines on a pipe (parameter loading, partitions); --backend gpu without a GPU
# refused before the C1 is read. Usage: cli_test.sh <cuzk binary> <test parameter directory>.
# Exit 77 (skip) when that directory is missing: only a build without the daemon lacks it.
set -u
cuzk="$1"
params="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect_rc() {  # expected rc, then the command
  local want="$1"; shift
  "$@" > "$dir/out" 2>&1
  local rc=$?
  [ "$rc" -eq "$want" ] || { cat "$dir/out"; fail "exit $rc (expected $want): $*"; }
}
ones=$(printf '01%.0s' $(seq 32)); twos=$(printf '02%.0s' $(seq 32))

for sub in params c2 verify info; do
  expect_rc 0 "$cuzk" porep $sub --help
done

expect_rc 0 "$cuzk" porep info --sector-size 2KiB
grep -q 'constraints       2687921 (circuit) + 40 (input \* 0 = 0) = 2687961 rows' "$dir/out" ||
  { cat "$dir/out"; fail "info: 2 KiB counts"; }
grep -q 'density B input   1$' "$dir/out" || fail "info: B input density"

expect_rc 0 "$cuzk" seal --sector-size 2KiB --zero --actor-id 1000 --sector-id 1 --ticket "$ones" \
  --seed "$twos" --out "$dir/s" --parent-cache-dir "$dir/parents" --quiet
c1="$dir/s/s-t01000-1-c1.json"
expect_rc 0 "$cuzk" porep info --c1 "$c1" --no-density
grep -q 'aux               2685673$' "$dir/out" || fail "info --c1: aux count"

python3 - "$c1" "$dir/bad.json" <<'PY' || fail "python3 tampering failed"
import base64, json, sys
w = json.load(open(sys.argv[1]))
inner = json.loads(base64.b64decode(w["Phase1Out"]))
p = inner["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]
p["replica_column_proofs"]["exp_parents"][3]["column"]["rows"][1][0] ^= 1
w["Phase1Out"] = base64.b64encode(json.dumps(inner).encode()).decode()
json.dump(w, open(sys.argv[2], "w"))
PY
expect_rc 1 "$cuzk" porep c2 --c1 "$dir/bad.json" --params "$dir/none" --out "$dir/bad.bin"
grep -q 'C1 refused before proving: partition 0, challenge 1' "$dir/out" ||
  { cat "$dir/out"; fail "c2: refusal message"; }
[ ! -e "$dir/bad.bin" ] || fail "c2: a proof file was written for a refused C1"
if ! nvidia-smi -L > /dev/null 2>&1; then
  # --backend gpu without a GPU fails before anything is read: not the C1's refusal (exit 1).
  expect_rc 2 "$cuzk" porep c2 --c1 "$dir/bad.json" --params "$dir/none" --out "$dir/bad.bin" \
    --backend gpu
  grep -qE 'backend gpu: (no CUDA device|.*built without CUDA)' "$dir/out" &&
    ! grep -q 'C1 refused' "$dir/out" || { cat "$dir/out"; fail "c2 --backend gpu: not refused first"; }
fi
expect_rc 2 "$cuzk" porep c2 --c1 "$c1" --params "$dir/none" --out "$dir/p.bin"
grep -q 'v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params is missing' "$dir/out" ||
  { cat "$dir/out"; fail "c2: missing parameter file not named"; }
[ ! -e "$dir/p.bin" ] || fail "c2: a proof file was written without parameters"
expect_rc 2 "$cuzk" porep params --sector-size 32GiB --out "$dir/p32"
grep -q 'allow-large' "$dir/out" || { cat "$dir/out"; fail "params 32GiB: no --allow-large hint"; }

expect_rc 2 "$cuzk" porep params --sector-size 2KiB --backend tpu --out "$dir/ptpu"
grep -q 'on the cpu or the gpu' "$dir/out" || { cat "$dir/out"; fail "params: bad backend not named"; }
if ! nvidia-smi -L > /dev/null 2>&1; then  # the device setup, where no device is
  expect_rc 2 "$cuzk" porep params --sector-size 2KiB --backend gpu --out "$dir/pgpu"
  grep -qE 'no CUDA device|without CUDA' "$dir/out" || { cat "$dir/out"; fail "params gpu: no reason"; }
  [ ! -e "$dir/pgpu" ] || [ -z "$(ls -A "$dir/pgpu")" ] || fail "params gpu: files without a device"
fi

# Test parameters carry the production names: never written without --out (not even into
# $FIL_PROOFS_PARAMETER_CACHE), never over an existing file without --force.
FIL_PROOFS_PARAMETER_CACHE="$dir/real-cache" expect_rc 2 "$cuzk" porep params --sector-size 2KiB
grep -q 'give --out' "$dir/out" || { cat "$dir/out"; fail "params without --out: no message"; }
[ ! -e "$dir/real-cache" ] || fail "params without --out wrote into the parameter cache"
stem=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
mkdir "$dir/taken"
echo "a real key" > "$dir/taken/$stem.vk"
expect_rc 2 "$cuzk" porep params --sector-size 2KiB --out "$dir/taken"
grep -q "$stem.vk exists" "$dir/out" || { cat "$dir/out"; fail "params: existing file not named"; }
[ "$(cat "$dir/taken/$stem.vk")" = "a real key" ] || fail "params replaced an existing file"
[ "$(ls "$dir/taken")" = "$stem.vk" ] || fail "params wrote beside an existing file"

if [ ! -f "$params/$stem.params" ]; then
  echo "SKIP: no 2 KiB test parameters in $params (server_fixtures makes them); c2 not run"
  [ "${CI:-}" = true ] && fail "CI=true: c2 and verify must run"
  exit 77
fi
grep -q '"insecure":true' "$params/$stem.meta" || fail "test parameters are not marked insecure"
expect_rc 2 "$cuzk" porep c2 --c1 "$c1" --params "$params" --out "$dir/proof.bin"
grep -q 'INSECURE' "$dir/out" && grep -q -- '--allow-insecure-params' "$dir/out" ||
  { cat "$dir/out"; fail "c2: marked parameters not refused with the flag named"; }
[ ! -e "$dir/proof.bin" ] || fail "c2: a proof was written with refused parameters"
# Our own setup made these points: --trusted-params skips their subgroup checks (minutes here).
# Through a pipe, with a progress line on every update (CUZK_PROGRESS_SECONDS=0): the parameter
# vectors as they load and the partitions as they are proved.
CUZK_PROGRESS_SECONDS=0 expect_rc 0 "$cuzk" porep c2 --c1 "$c1" --params "$params" \
  --allow-insecure-params --trusted-params --out "$dir/proof.bin"
grep -q '^partition 0/1: circuit' "$dir/out" || fail "c2: no partition timing line"
for phase in h l a b_g1 b_g2; do
  grep -qE "^$phase: [0-9.]+ [kM]? ?/ [0-9.]+ [kM]? ?points \(100%\)" "$dir/out" ||
    { cat "$dir/out"; fail "c2: no progress line for loading $phase"; }
done
grep -q '^prove: 1 / 1 partitions (100%)' "$dir/out" || { cat "$dir/out"; fail "c2: no prove progress"; }
[ "$(stat -c %s "$dir/proof.bin")" -eq 192 ] || fail "c2: proof is not 192 bytes"
expect_rc 0 "$cuzk" porep verify --c1 "$c1" --params "$params" --allow-insecure-params \
  --proof "$dir/proof.bin"
grep -q '^OK' "$dir/out" || fail "verify: no OK line"
vals=$(python3 - "$c1" <<'PY'
import base64, json, sys
c = json.loads(base64.b64decode(json.load(open(sys.argv[1]))["Phase1Out"]))
print(bytes(c["comm_r"]).hex(), bytes(c["comm_d"]).hex(), bytes(c["replica_id"]).hex(),
      bytes(c["seed"]).hex())
PY
)
read -r comm_r comm_d replica_id seed <<< "$vals"
expect_rc 0 "$cuzk" porep verify --sector-size 2KiB --comm-r "$comm_r" --comm-d "$comm_d" \
  --replica-id "$replica_id" --seed "$seed" --params "$params" --allow-insecure-params \
  --proof "$dir/proof.bin"
expect_rc 1 "$cuzk" porep verify --sector-size 2KiB --comm-r "$comm_r" --comm-d "$comm_d" \
  --replica-id "$replica_id" --seed "$ones" --params "$params" --allow-insecure-params \
  --proof "$dir/proof.bin"
bad_r="0${comm_r:1}"; [ "$bad_r" != "$comm_r" ] || bad_r="1${comm_r:1}"
expect_rc 1 "$cuzk" porep verify --sector-size 2KiB --comm-r "$bad_r" --comm-d "$comm_d" \
  --replica-id "$replica_id" --seed "$seed" --params "$params" --allow-insecure-params \
  --proof "$dir/proof.bin"
head -c 100 "$dir/proof.bin" > "$dir/short.bin"
expect_rc 2 "$cuzk" porep verify --c1 "$c1" --params "$params" --allow-insecure-params \
  --proof "$dir/short.bin"

# A .vk under its published name and without the insecure marker is Filecoin's or nothing: one
# byte changed is refused naming both digests (parameters.json's dc1ade99...).
mkdir "$dir/published"
cp "$params/$stem.vk" "$dir/published/"
python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[500] ^= 1; open(p, "wb").write(b)' "$dir/published/$stem.vk"
expect_rc 2 "$cuzk" porep verify --c1 "$c1" --params "$dir/published" --proof "$dir/proof.bin"
grep -q 'differs from the published dc1ade9929ade1708238f155343044ac' "$dir/out" ||
  { cat "$dir/out"; fail "verify: a changed published .vk was not refused with its digests"; }
echo "OK"
