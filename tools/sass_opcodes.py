#!/usr/bin/env python3
"""Counts SASS opcodes per kernel in `cuobjdump --dump-sass` output (stdin), for kernels whose
mangled name contains any of the given substrings: explains a kernel's speed by what it issues
(IMAD vs IADD3 vs moves vs local-memory spills).

  cuobjdump --dump-sass build/cuzk-bench | tools/sass_opcodes.py accumulate_kernel field_chain
  ... | tools/sass_opcodes.py --dump 400 field_chain   (the first matching kernel's first lines)
"""
import collections
import re
import sys

args = sys.argv[1:]
dump = 0
if args[:1] == ["--dump"]:
    dump, args = int(args[1]), args[2:]
pats = args
cur, counts = None, {}
for line in sys.stdin:
    m = re.search(r"Function : (\S+)", line)
    if dump and counts and m:
        break
    if dump and counts and cur and dump > 0:
        print(line.rstrip())
        dump -= 1
    if m:
        name = m.group(1)
        cur = name if not pats or any(p in name for p in pats) else None
        if cur:
            counts[cur] = collections.Counter()
        continue
    if cur is None:
        continue
    m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)", line)
    if m:
        op = m.group(1)
        base = op.split(".")[0]
        key = op if base in ("IMAD", "IADD3", "LDG", "STL", "LDL") else base
        counts[cur][key] += 1
for name, c in counts.items() if not dump else []:
    total = sum(c.values())
    print(f"{name}: {total} instructions")
    for op, k in c.most_common(14):
        print(f"    {op:24s} {k:6d} {100.0 * k / total:5.1f}%")
