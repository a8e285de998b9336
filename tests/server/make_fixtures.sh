#!/usr/bin/env bash
# Inputs of the daemon tests, made once into the build tree:
#   params/  2 KiB INSECURE test parameters: links to a porep_tests cache of this or a sibling
#            build tree when one is complete (the newest), else `cuzk porep params` (~2-3 min on
#            2 cores). Delete the folder after a circuit change to remake them. A set whose .meta
#            lacks the insecure marker (made before the marker existed) is remade: the daemon
#            would check it against the published digests and refuse it.
#   c1/      the C1 output of a sealed 2 KiB zero sector (as tests/porep/cli_test.sh seals it).
# Usage: make_fixtures.sh <cuzk binary> <out dir> <source dir> <build dir>
set -euo pipefail
cuzk="$1"; out="$2"; src="$3"; build="$4"
params="$out/params"

marked() {  # dir: its .meta marks the set insecure
  grep -qs '"insecure":true' "$1"/v28-*.meta
}

params_ok() {
  [ -f "$params/complete" ] || return 1
  marked "$params" || return 1
  for f in "$params"/v28-*; do [ -r "$f" ] || return 1; done  # links may point at a removed tree
  ls "$params"/v28-*.params > /dev/null 2>&1
}

if ! params_ok; then
  rm -rf "$params" "$params.tmp"
  mkdir -p "$params.tmp"
  reuse=""
  for d in "$build"/tests/porep/test-parameters/2KiB-* \
           "$src"/build*/tests/porep/test-parameters/2KiB-*; do
    [ -f "$d/complete" ] && marked "$d" || continue
    if [ -z "$reuse" ] || [ "$d/complete" -nt "$reuse/complete" ]; then reuse="$d"; fi
  done
  if [ -n "$reuse" ]; then
    for f in "$reuse"/v28-*; do ln -s "$(readlink -f "$f")" "$params.tmp/"; done
    echo "parameters: linked from $reuse"
  else
    echo "parameters: making 2 KiB test parameters (a few minutes)"
    "$cuzk" porep params --sector-size 2KiB --out "$params.tmp"
  fi
  echo "${reuse:-made}" > "$params.tmp/complete"
  mv "$params.tmp" "$params"
fi
echo "parameters: $params ($(cat "$params/complete"))"

c1="$out/c1/s-t01000-1-c1.json"
if [ ! -f "$c1" ]; then
  rm -rf "$out/c1.tmp"
  ones=$(printf '01%.0s' $(seq 32)); twos=$(printf '02%.0s' $(seq 32))
  "$cuzk" seal --sector-size 2KiB --zero --actor-id 1000 --sector-id 1 --ticket "$ones" \
    --seed "$twos" --out "$out/c1.tmp" --parent-cache-dir "$out/parents" --quiet
  rm -rf "$out/c1"
  mv "$out/c1.tmp" "$out/c1"
fi
echo "c1: $c1 ($(stat -c %s "$c1") bytes)"
