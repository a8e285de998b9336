#!/usr/bin/env python3
"""Static throughput bounds of a kernel's main loop from its SASS (`cuobjdump -sass` on stdin):
the longest backward-branch loop of each kernel whose mangled name contains one of the given
substrings, its instructions by pipe, and the clocks per warp-iteration on one SM that each pipe
and the issue rate allow. The largest is the bound; a measured rate below it is latency,
dependency or memory, not the pipe.

  cuobjdump -sass build-gpu/cuzk-bench | tools/sass_bounds.py field_chain pair_chain

Per-SM rates in warp-instructions per clock (H200, sm_90), with the measurement that set each:
  issue 4     (4 schedulers, one instruction each a clock)
  fp64  2     (64 DFMA/DADD lanes: the H200's 33.5 TFLOPS FP64 at 1.98 GHz over 132 SMs)
  imad  1     for IMAD.WIDE and IMAD.HI (a 64-bit product: 7.75e12 32x32->64 products/s,
              ../shared/reference/gpu-anchors.md; Mont32's Fp product, 288 of them and 12 IMAD,
              runs at 2.67e10 products/s, 93% of this bound), 2 for IMAD and IMAD.X (Mont32's
              Fr product, 63 wide and 96 others, runs at 5.43e10/s: above a bound of 1 for all)
  alu   2     (IADD3, LOP3, SHF, SEL, ISETP, IMAD.MOV/.IADD: 64 INT32 lanes)
"""
import collections
import re
import sys

RATES = {"issue": 4.0, "fp64": 2.0, "imad": 2.0, "alu": 2.0}
ALU = {"IADD3", "LOP3", "SHF", "SEL", "ISETP", "LEA", "PLOP3", "P2R", "R2P", "MOV", "PRMT"}
INSTR = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?);")


def pipe_of(op):
    """The pipe `op` issues to, and how many of that pipe's slots it takes."""
    base = op.split(".")[0]
    if base in ("DFMA", "DADD", "DMUL"):
        return "fp64", 1
    if base == "IMAD":
        if op.startswith(("IMAD.MOV", "IMAD.IADD", "IMAD.SHL")):
            return "alu", 1
        return "imad", 2 if op.startswith(("IMAD.WIDE", "IMAD.HI")) else 1
    if base in ALU:
        return "alu", 1
    return "other", 1


def main_loop(body):
    """The instructions of the longest backward branch's range (the kernel's main loop)."""
    ins = [(int(m.group(1), 16), m.group(2), m.group(3)) for m in map(INSTR.match, body) if m]
    loops = []
    for addr, op, args in ins:
        target = re.search(r"0x([0-9a-f]+)", args) if op.startswith("BRA") else None
        if target and int(target.group(1), 16) < addr:
            loops.append((int(target.group(1), 16), addr))
    if not loops:
        return []
    lo, hi = max(loops, key=lambda r: r[1] - r[0])
    return [op for addr, op, _ in ins if lo <= addr <= hi]


def main(patterns):
    kernels = re.split(r"\n\s*Function : ", sys.stdin.read())[1:]
    for k in kernels:
        name, _, rest = k.partition("\n")
        if patterns and not any(p in name for p in patterns):
            continue
        ops = main_loop(rest.split("\n"))
        if not ops:
            continue
        by_pipe, slots = collections.Counter(), collections.Counter()
        for op in ops:
            pipe, n = pipe_of(op)
            by_pipe[pipe] += 1
            slots[pipe] += n
        clocks = {"issue": len(ops) / RATES["issue"]}
        clocks.update({p: slots[p] / RATES[p] for p in ("fp64", "imad", "alu")})
        bound = max(clocks, key=clocks.get)
        print(f"{name.strip()}\n  loop {len(ops)} instructions: "
              + ", ".join(f"{p} {by_pipe[p]}" for p in ("fp64", "imad", "alu", "other"))
              + "; clocks a warp-iteration: "
              + ", ".join(f"{p} {c:.0f}" for p, c in clocks.items())
              + f"; bound: {bound}")


if __name__ == "__main__":
    main(sys.argv[1:])
