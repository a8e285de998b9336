#!/usr/bin/env bash
# Inputs of the SnapDeals CLI and daemon tests, made once per build tree into <out>:
#   params/        2 KiB INSECURE update test parameters: the set update_parameter_tests keeps in its
#                  digest-keyed cache (made there first when missing, ~1-3 min on 2 cores), linked;
#   sector/        a sealed 2 KiB zero sector (`cuzk seal`): the sector key and its cache;
#   update/        a random 2032-byte piece encoded into it (`cuzk update encode --unpadded`);
#   vanilla.json   its vanilla partition proofs (`cuzk update prove-vanilla`), the form the daemon
#                  test submits.
# Usage: update_fixtures.sh <cuzk> <update_parameter_tests binary> <test parameter cache> <out>
set -euo pipefail
cuzk="$1"; tests="$2"; cache="$3"; out="$4"
mkdir -p "$out"

# The gtest that owns the cache makes (or just reads) the set, keyed by the circuit's digest.
"$tests" --gtest_filter='UpdateTestParameters.TwoKiBSetIsMadeOrReadBackWithFilecoinNames' \
  > "$out/parameters.log" 2>&1 || { cat "$out/parameters.log"; exit 1; }
grep '2 KiB update test parameters' "$out/parameters.log" || true
newest=""
for d in "$cache"/2KiB-*; do
  [ -f "$d/complete" ] || continue
  if [ -z "$newest" ] || [ "$d/complete" -nt "$newest/complete" ]; then newest="$d"; fi
done
[ -n "$newest" ] || { echo "no complete 2 KiB update test parameters under $cache"; exit 1; }
if [ "$(readlink -f "$out/params" 2>/dev/null || true)" != "$(readlink -f "$newest")" ]; then
  rm -rf "$out/params"
  ln -s "$newest" "$out/params"
fi
echo "parameters: $out/params -> $newest"

# The sector and its update: remade when the cuzk binary is newer than them.
if [ ! -f "$out/vanilla.json" ] || [ "$cuzk" -nt "$out/vanilla.json" ]; then
  rm -rf "$out/sector" "$out/update" "$out/vanilla.json" "$out/piece"
  ones=$(printf '01%.0s' $(seq 32)); twos=$(printf '02%.0s' $(seq 32))
  "$cuzk" seal --sector-size 2KiB --zero --actor-id 1000 --sector-id 2 --ticket "$ones" \
    --seed "$twos" --out "$out/sector" --parent-cache-dir "$out/parents" --quiet > /dev/null
  head -c 2032 /dev/urandom > "$out/piece"
  "$cuzk" update encode --sector-key "$out/sector/sealed/s-t01000-2" \
    --sector-key-cache "$out/sector/cache/s-t01000-2" --data "$out/piece" --unpadded \
    --replica "$out/update/replica" --replica-cache "$out/update/cache"
  "$cuzk" update prove-vanilla --sector-key "$out/sector/sealed/s-t01000-2" \
    --sector-key-cache "$out/sector/cache/s-t01000-2" --replica "$out/update/replica" \
    --replica-cache "$out/update/cache" --out "$out/vanilla.json.tmp"
  mv "$out/vanilla.json.tmp" "$out/vanilla.json"
fi
echo "vanilla: $out/vanilla.json ($(stat -c %s "$out/vanilla.json") bytes)"
