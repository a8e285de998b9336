#!/usr/bin/env bash
# `cuzk selfcheck` checks the arithmetic against ../shared/vectors/bls12_381 (exit 0, every file
# counted), then prints a timing table of this run's measurements only: one number per operation,
# no reference column of constants from another machine and no ratio against them (issue 29:
# "blst ns" constants made cuzk look 0.51-0.71x of blst where same-run comparisons say 0.9-1.4x).
# Usage: selfcheck_test.sh <cuzk binary> <vector directory>
set -u
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
fail() { cat "$out"; echo "FAIL: $*"; exit 1; }
"$1" selfcheck --vectors "$2" > "$out" 2>&1 || fail "selfcheck exited $?"
grep -q '^all vector checks passed$' "$out" || fail "no vector verdict"
grep -qiw 'blst\|ratio' "$out" && fail "a reference column or ratio is printed"
# The timing table: its header, then one row per operation: a name and one positive number.
header=$(grep -n '^operation ' "$out" | cut -d: -f1)
[ -n "$header" ] || fail "no timing table"
rows=$(tail -n +"$((header + 1))" "$out" | grep -v '^(' )
[ "$(echo "$rows" | wc -l)" -ge 8 ] || fail "fewer than 8 timed operations"
echo "$rows" | awk '{ if (NF < 2 || $NF !~ /^[0-9]+\.[0-9]$/ || $NF + 0 <= 0 || $(NF-1) ~ /^[0-9.]+$/) bad = 1 }
  END { exit bad }' || fail "a row is not '<operation> <ns>'"
echo "selfcheck: vectors pass, timing table holds this run's numbers only"
