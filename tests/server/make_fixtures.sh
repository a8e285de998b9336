#!/usr/bin/env bash
# Inputs of the daemon tests, made once into the build tree:
#   params/  2 KiB INSECURE test parameters: links to a porep_tests cache of this or a sibling
#            build tree when one is complete (the newest), else `cuzk porep params` (~2-3 min on
#            2 cores). Delete the folder after a circuit change to remake them. A set whose .meta
#            lacks the insecure marker (made before the marker existed) is remade: the daemon
#            would check it against the published digests and refuse it.
#   c1/      the C1 output of a sealed 2 KiB zero sector (as tests/porep/cli_test.sh seals it).
#   post-params/  2 KiB WinningPoSt and WindowPoSt INSECURE test parameters: links to post_tests'
#            cache when it is complete, else `cuzk post params` (~30 s on 2 cores).
#   post/    two sealed 2 KiB zero sectors (seal/), their WindowPoSt vanilla proofs and verify
#            info (window.json, window.pub.json) and sector 1's WinningPoSt ones (winning.*).
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

post_params="$out/post-params"
if [ ! -f "$post_params/complete" ]; then
  rm -rf "$post_params" "$post_params.tmp"
  mkdir -p "$post_params.tmp"
  for shape in 66x1:winning 2x10:window; do
    reuse=""
    for d in "$build"/tests/post/test-parameters/post-2048-"${shape%%:*}"-* \
             "$src"/build*/tests/post/test-parameters/post-2048-"${shape%%:*}"-*; do
      [ -f "$d/complete" ] || continue
      if [ -z "$reuse" ] || [ "$d/complete" -nt "$reuse/complete" ]; then reuse="$d"; fi
    done
    if [ -n "$reuse" ]; then
      for f in "$reuse"/v28-*; do ln -s "$(readlink -f "$f")" "$post_params.tmp/"; done
      echo "post parameters (${shape#*:}): linked from $reuse"
    else
      echo "post parameters (${shape#*:}): making 2 KiB test parameters"
      "$cuzk" post params --proof "${shape#*:}" --sector-size 2KiB --out "$post_params.tmp"
    fi
  done
  echo ok > "$post_params.tmp/complete"
  mv "$post_params.tmp" "$post_params"
fi
echo "post parameters: $post_params"

if [ ! -f "$out/post/window.json" ]; then
  rm -rf "$out/post.tmp"
  threes=$(printf '03%.0s' $(seq 32)); fours=$(printf '04%.0s' $(seq 32))
  for n in 1 2; do
    "$cuzk" seal --sector-size 2KiB --zero --actor-id 1000 --sector-id $n --ticket "$threes" \
      --seed "$fours" --out "$out/post.tmp/seal" --parent-cache-dir "$out/parents" --quiet
  done
  rand=$(printf '05%.0s' $(seq 31))00
  "$cuzk" post vanilla --proof window --sector-size 2KiB --randomness "$rand" \
    --seal-dir "$out/post.tmp/seal" --sector-id 1 --sector-id 2 \
    --out "$out/post.tmp/window.json" --public "$out/post.tmp/window.pub.json"
  "$cuzk" post vanilla --proof winning --sector-size 2KiB --randomness "$rand" \
    --seal-dir "$out/post.tmp/seal" --sector-id 1 \
    --out "$out/post.tmp/winning.json" --public "$out/post.tmp/winning.pub.json"
  rm -rf "$out/post"
  mv "$out/post.tmp" "$out/post"
fi
echo "post: $out/post"
