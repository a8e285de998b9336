#!/usr/bin/env bash
# The Filecoin subcommands of `cuzk` end to end on a 2 KiB sector: seal -> c1 verify (exit 0),
# a tampered c1.json (exit 1), malformed input (exit 2), commd of the zero sector against the
# facts sheet table (5.7), parent-cache verify against the manifest, c1 synthetic -> c1 verify,
# and --help of every subcommand. Usage: cli_test.sh <cuzk binary>
set -u
cuzk="$1"
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

for sub in "seal" "parent-cache generate" "parent-cache verify" "commd" "c1 synthetic" "c1 verify"; do
  # shellcheck disable=SC2086
  expect_rc 0 "$cuzk" $sub --help
done

expect_rc 0 "$cuzk" seal --sector-size 2KiB --zero --actor-id 1000 --sector-id 1 --ticket "$ones" \
  --seed "$twos" --out "$dir/s" --parent-cache-dir "$dir/parents" --quiet
grep -q 'comm_r      77424390b36f74acd595c40d0e341f4fbff18623feaf8ad72fe73d7490d0d65c' "$dir/out" ||
  fail "seal: comm_r differs from the oracle example"
c1="$dir/s/s-t01000-1-c1.json"
[ -f "$dir/s/cache/s-t01000-1/sc-02-data-tree-r-last.dat" ] || fail "seal: no tree_r_last file"
[ -f "$dir/s/sealed/s-t01000-1" ] || fail "seal: no sealed file"
expect_rc 0 "$cuzk" c1 verify --c1 "$c1" --actor-id 1000
grep -q '^OK' "$dir/out" || fail "c1 verify: no OK line"
expect_rc 1 "$cuzk" c1 verify --c1 "$c1" --actor-id 1001

# Tamper with one byte of the inner JSON (first labeling proof parent) and re-wrap it.
python3 - "$c1" "$dir/bad.json" <<'PY' || fail "python3 tampering failed"
import base64, json, sys
w = json.load(open(sys.argv[1]))
inner = json.loads(base64.b64decode(w["Phase1Out"]))
inner["vanilla_proofs"]["StackedDrg2KiBV1"][0][0]["labeling_proofs"][0]["parents"][0][0] ^= 1
w["Phase1Out"] = base64.b64encode(json.dumps(inner, separators=(",", ":")).encode()).decode()
json.dump(w, open(sys.argv[2], "w"))
PY
expect_rc 1 "$cuzk" c1 verify --c1 "$dir/bad.json"
grep -q 'partition 0, challenge 0 (node 28): labeling proof of layer 1: parent 0' "$dir/out" ||
  { cat "$dir/out"; fail "c1 verify: the failure does not name the labeling proof"; }
echo '{"SectorNum":1,"Phase1Out":"not base64!","SectorSize":2048}' > "$dir/malformed.json"
expect_rc 2 "$cuzk" c1 verify --c1 "$dir/malformed.json"
grep -q 'Phase1Out' "$dir/out" || fail "malformed: the error does not name Phase1Out"

expect_rc 0 "$cuzk" commd --zero --sector-size 32GiB
grep -q '077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e' "$dir/out" ||
  fail "commd: 32 GiB zero comm_d"
head -c 2048 /dev/zero > "$dir/zeros"
expect_rc 0 "$cuzk" commd --data "$dir/zeros" --sector-size 2KiB
grep -q 'fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833' "$dir/out" ||
  fail "commd: 2 KiB zero file"
expect_rc 2 "$cuzk" commd --sector-size 2KiB

expect_rc 0 "$cuzk" parent-cache verify --sector-size 2KiB --dir "$dir/parents"
grep -q '(match)' "$dir/out" || fail "parent-cache verify: no manifest match"
expect_rc 0 "$cuzk" parent-cache generate --proof 0 --dir "$dir/parents" --quiet
grep -q '3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d' "$dir/out" ||
  fail "parent-cache generate: 2 KiB V1 digest"
head -c 100 /dev/zero >> "$dir/parents/"*494d91dc*.cache
expect_rc 1 "$cuzk" parent-cache verify --sector-size 2KiB --dir "$dir/parents"

expect_rc 0 "$cuzk" c1 synthetic --proof StackedDrg2KiBV1 --seed 9 --out "$dir/syn.json"
expect_rc 0 "$cuzk" c1 verify --c1 "$dir/syn.json" --actor-id 1000
expect_rc 2 "$cuzk" c1 synthetic --proof 13 --out "$dir/x.json"
expect_rc 2 "$cuzk" seal --sector-size 3KiB --zero --actor-id 1 --sector-id 1 --ticket "$ones" \
  --seed "$twos" --out "$dir/x"
echo "cuzk filecoin CLI: all checks passed"
