#!/usr/bin/env python3
"""Generates src/ff/mont_mul_x86_64.S: Montgomery multiplication with BMI2 mulx and ADX adcx/adox.

Usage: python3 tools/gen_mont_asm.py > src/ff/mont_mul_x86_64.S
       python3 tools/gen_mont_asm.py --inline > src/ff/mont_mul_inline_x86_64.hpp
A CTest test (ff_mont_asm_is_generated) regenerates both and diffs, so they never drift.

Algorithm: CIOS (Koc, Acar, Kaliski 1996) with the "no final carry" shortcut, valid when the top
limb of the modulus is below 2^63 - 1 (true for BLS12-381 Fp and Fr; the C++ side static_asserts
it). Each outer iteration adds a*b[i] with two interleaved carry chains (lo words through OF/adox,
hi words through CF/adcx), then adds m*p with m = t0 * (-p^-1 mod 2^64) and drops the zero low
word by renaming registers instead of moving them.

ABI (System V): void cuzk_mont_mul_adx_N(uint64_t r[N], const uint64_t a[N],
                                          const uint64_t b[N], const uint64_t p[N], uint64_t inv)
r may alias a or b (it is written only at the end). Inputs must be < p; output is < p.

For lazy reduction (Fp2 products with two reductions instead of three) it also emits the 6-limb
double-width product cuzk_mul_wide_adx_6 and the Montgomery reduction cuzk_mont_redc_adx_6 of a
double-width value below p * 2^384 (docstrings of gen_mul_wide and gen_redc), the dedicated
squares cuzk_mont_sqr_adx_4 / _6 and the wide square cuzk_sqr_wide_adx_6 (gen_sqr).

--inline writes the 4-limb product and square as always-inline C++ functions around extended
asm (gen_inline): the same instructions, with the result limbs left in registers.
"""

import sys

# Accumulator registers t0..t{N-1}, plus one spare that holds word N; they rotate every iteration.
ACC_REGS = ["%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15"]
R_OUT, R_A, R_B, R_P, R_INV = "%rdi", "%rsi", "%rbx", "%rcx", "%r8"
R_LO, R_HI = "%rax", "%rbp"
SAVED = ["%rbx", "%rbp", "%r12", "%r13", "%r14", "%r15"]


def r32(reg):
    """32-bit name of a 64-bit register (writing it zero-extends)."""
    named = {"%rax": "%eax", "%rbx": "%ebx", "%rcx": "%ecx", "%rdx": "%edx",
             "%rsi": "%esi", "%rdi": "%edi", "%rbp": "%ebp"}
    return named.get(reg, reg + "d")


def emit_reduce_round(emit, t, top, n):
    """One Montgomery round: t = (t + m p) / 2^64 with m = t0 inv mod 2^64 (t0 becomes 0; its
    carry still counts). Returns the renamed (t, top): the zeroed low word is the next spare."""
    emit(f"    movq {t[0]}, %rdx")
    emit(f"    imulq {R_INV}, %rdx")
    emit(f"    xorl {r32(R_LO)}, {r32(R_LO)}")  # CF = OF = 0
    for j in range(n):
        hi_dst = t[j + 1] if j + 1 < n else top
        emit(f"    mulxq {8 * j}({R_P}), {R_LO}, {R_HI}")
        emit(f"    adcxq {R_LO}, {t[j]}")
        emit(f"    adoxq {R_HI}, {hi_dst}")
    emit(f"    movl $0, {r32(R_LO)}")
    emit(f"    adcxq {R_LO}, {top}")
    return t[1:] + [top], t[0]


def gen(n, inline=False):
    name = f"cuzk_mont_mul_adx_{n}"
    out = []
    emit = out.append
    emit(f"    .globl {name}")
    emit(f"    .type {name}, @function")
    emit("    .p2align 5")
    emit(f"{name}:")
    emit("    .cfi_startproc")
    for reg in SAVED:
        emit(f"    pushq {reg}")
        emit("    .cfi_adjust_cfa_offset 8")
    emit(f"    movq %rdx, {R_B}")

    acc = ACC_REGS[: n + 1]
    t, top = acc[:n], acc[n]

    # Iteration 0: t = a * b[0] (one carry chain suffices, t starts empty).
    emit(f"    movq 0({R_B}), %rdx")
    emit(f"    mulxq 0({R_A}), {t[0]}, {t[1] if n > 1 else top}")
    for j in range(1, n):
        hi = t[j + 1] if j + 1 < n else top
        emit(f"    mulxq {8 * j}({R_A}), {R_LO}, {hi}")
        emit(f"    {'addq' if j == 1 else 'adcq'} {R_LO}, {t[j]}")
    emit(f"    adcq $0, {top}")

    for i in range(n):
        if i > 0:
            # t[0..n] = t[0..n-1] + a * b[i]; lo words via OF, hi words via CF.
            emit(f"    movq {8 * i}({R_B}), %rdx")
            emit(f"    xorl {r32(top)}, {r32(top)}")  # top = 0, CF = OF = 0
            for j in range(n):
                hi_dst = t[j + 1] if j + 1 < n else top
                emit(f"    mulxq {8 * j}({R_A}), {R_LO}, {R_HI}")
                emit(f"    adoxq {R_LO}, {t[j]}")
                emit(f"    adcxq {R_HI}, {hi_dst}")
            emit(f"    movl $0, {r32(R_LO)}")  # mov leaves the flags alone
            emit(f"    adoxq {R_LO}, {top}")
        t, top = emit_reduce_round(emit, t, top, n)

    # Conditional subtraction: r = t >= p ? t - p : t. Inline, the pointers stay unwritten.
    spare = ["%rax", "%rbx", "%rdx", "%rsi", "%r8", "%rbp", top][:n]
    if inline:
        spare = ["%rax", "%rbp", "%rdx", top]
    for j in range(n):
        emit(f"    movq {t[j]}, {spare[j]}")
    for j in range(n):
        emit(f"    {'subq' if j == 0 else 'sbbq'} {8 * j}({R_P}), {spare[j]}")
    for j in range(n):
        emit(f"    cmovcq {t[j]}, {spare[j]}")
    for j in range(n):
        emit(f"    movq {spare[j]}, {8 * j}({R_OUT})")

    for reg in reversed(SAVED):
        emit(f"    popq {reg}")
        emit("    .cfi_adjust_cfa_offset -8")
    emit("    ret")
    emit("    .cfi_endproc")
    emit(f"    .size {name}, .-{name}")
    return "\n".join(out)


def prologue(name, emit):
    emit(f"    .globl {name}")
    emit(f"    .type {name}, @function")
    emit("    .p2align 5")
    emit(f"{name}:")
    emit("    .cfi_startproc")
    for reg in SAVED:
        emit(f"    pushq {reg}")
        emit("    .cfi_adjust_cfa_offset 8")


def epilogue(name, emit):
    for reg in reversed(SAVED):
        emit(f"    popq {reg}")
        emit("    .cfi_adjust_cfa_offset -8")
    emit("    ret")
    emit("    .cfi_endproc")
    emit(f"    .size {name}, .-{name}")


def gen_mul_wide(n):
    """r[0..2n) = a * b, the full double-width product (any a, b < 2^(64n)); no reduction.

    ABI: void cuzk_mul_wide_adx_N(uint64_t r[2N], const uint64_t a[N], const uint64_t b[N]).
    r must not alias a or b (it is written row by row)."""
    name = f"cuzk_mul_wide_adx_{n}"
    out = []
    emit = out.append
    prologue(name, emit)
    emit(f"    movq %rdx, {R_B}")
    acc = ACC_REGS[: n + 1]
    t, top = acc[:n], acc[n]
    # Row 0: t = a * b[0].
    emit(f"    movq 0({R_B}), %rdx")
    emit(f"    mulxq 0({R_A}), {t[0]}, {t[1] if n > 1 else top}")
    for j in range(1, n):
        hi = t[j + 1] if j + 1 < n else top
        emit(f"    mulxq {8 * j}({R_A}), {R_LO}, {hi}")
        emit(f"    {'addq' if j == 1 else 'adcq'} {R_LO}, {t[j]}")
    emit(f"    adcq $0, {top}")
    for i in range(1, n):
        # Word i - 1 is final: store it; the rest shifts down one word.
        emit(f"    movq {t[0]}, {8 * (i - 1)}({R_OUT})")
        t, top = t[1:] + [top], t[0]
        # t[0..n] = t[0..n-1] + a * b[i]; lo words via OF, hi words via CF.
        emit(f"    movq {8 * i}({R_B}), %rdx")
        emit(f"    xorl {r32(top)}, {r32(top)}")
        for j in range(n):
            hi_dst = t[j + 1] if j + 1 < n else top
            emit(f"    mulxq {8 * j}({R_A}), {R_LO}, {R_HI}")
            emit(f"    adoxq {R_LO}, {t[j]}")
            emit(f"    adcxq {R_HI}, {hi_dst}")
        emit(f"    movl $0, {r32(R_LO)}")
        emit(f"    adoxq {R_LO}, {top}")
    for j, reg in enumerate(t + [top]):
        emit(f"    movq {reg}, {8 * (n - 1 + j)}({R_OUT})")
    epilogue(name, emit)
    return "\n".join(out)


def gen_redc(n):
    """r = t / 2^(64n) mod p for a double-width t < p 2^(64n); r < p.

    ABI: void cuzk_mont_redc_adx_N(uint64_t r[N], const uint64_t t[2N], const uint64_t p[N],
                                   uint64_t inv)    (r may alias t).
    Montgomery reduction is linear in t: with t = h 2^(64n) + l, REDC(t) = h + (l + M p) / 2^(64n)
    where M depends on l alone. So the n reduction steps run on the low half only (exactly the
    reduction of the CIOS kernel, giving s = (l + M p) / 2^(64n) <= p), then h < p is added and
    one conditional subtraction brings s + h < 2p below p."""
    name = f"cuzk_mont_redc_adx_{n}"
    out = []
    emit = out.append
    prologue(name, emit)
    # Inputs: rdi = r, rsi = t, rdx = p, rcx = inv; moved to the mul kernel's register roles.
    emit(f"    movq %rcx, {R_INV}")
    emit(f"    movq %rdx, {R_P}")
    acc = ACC_REGS[: n + 1]
    t, top = acc[:n], acc[n]
    for j in range(n):
        emit(f"    movq {8 * j}({R_A}), {t[j]}")
    emit(f"    xorl {r32(top)}, {r32(top)}")
    for i in range(n):
        t, top = emit_reduce_round(emit, t, top, n)  # the zeroed low word is the next top
    # s = t[0..n-1] (s <= p); add the high half h of the input.
    for j in range(n):
        emit(f"    {'addq' if j == 0 else 'adcq'} {8 * (n + j)}({R_A}), {t[j]}")
    # s + h < 2p < 2^(64n): no carry out. Conditional subtraction as in the mul kernel.
    spare = ["%rax", "%rbx", "%rdx", "%rsi", "%r8", "%rbp", top][:n]
    for j in range(n):
        emit(f"    movq {t[j]}, {spare[j]}")
    for j in range(n):
        emit(f"    {'subq' if j == 0 else 'sbbq'} {8 * j}({R_P}), {spare[j]}")
    for j in range(n):
        emit(f"    cmovcq {t[j]}, {spare[j]}")
    for j in range(n):
        emit(f"    movq {spare[j]}, {8 * j}({R_OUT})")
    epilogue(name, emit)
    return "\n".join(out)


def gen_sqr(n, inline=False, wide=False):
    """r = a^2 / 2^(64n) mod p for a < p (r < p): a dedicated Montgomery square.

    ABI: void cuzk_mont_sqr_adx_N(uint64_t r[N], const uint64_t a[N], const uint64_t p[N],
                                  uint64_t inv)    (r may alias a; it is written only at the end).
    The n(n-1)/2 products a_i a_j (i < j) are summed once by rows (two carry chains, as in the
    product), doubled (a CF chain of adcx x, x) while the n diagonal squares a_i^2 are added (an
    OF chain), then the 2n-word square t < p^2 < p 2^(64n) is reduced as in gen_redc: n steps on
    the low half, plus the high half, one conditional subtraction. 4 limbs: 26 mulx instead of the
    product's 32, all in registers; 6 limbs: 57 instead of 72, the finished words of the rows and
    the high half kept in the red zone (a leaf function may use the 128 bytes below %rsp).

    wide=True: cuzk_sqr_wide_adx_N(uint64_t r[2N], const uint64_t a[N]), the 2N-word square of
    any a < 2^(64N) with no reduction (21 mulx instead of mul_wide's 36 for 6 limbs); r must not
    alias a (the rows' finished words go straight to r)."""
    name = f"cuzk_sqr_wide_adx_{n}" if wide else f"cuzk_mont_sqr_adx_{n}"
    out = []
    emit = out.append
    prologue(name, emit)
    if not wide:
        emit(f"    movq %rcx, {R_INV}")
        emit(f"    movq %rdx, {R_P}")
    spill = n > 4  # 2n words and the pointers do not fit in registers for 6 limbs
    free = ACC_REGS + ["%rbx"]
    where = {}  # position -> register, for the words held in registers

    def slot(pos):  # the wide square keeps its words in its output instead of the red zone
        return f"{8 * pos}({R_OUT})" if wide else f"{-8 * (2 * n - pos)}(%rsp)"

    def take(pos):
        where[pos] = free.pop(0)
        return where[pos]

    def release(pos):
        reg = where.pop(pos)
        emit(f"    movq {reg}, {slot(pos)}")
        free.append(reg)

    # Off-diagonal row 0: words 1..n = a0 * a[1..n-1] (one carry chain, the words start empty).
    emit(f"    movq 0({R_A}), %rdx")
    for pos in range(1, n + 1):
        take(pos)
    emit(f"    mulxq 8({R_A}), {where[1]}, {where[2]}")
    for j in range(2, n):
        emit(f"    mulxq {8 * j}({R_A}), {R_LO}, {where[j + 1]}")
        emit(f"    {'addq' if j == 2 else 'adcq'} {R_LO}, {where[j]}")
    if n > 2:
        emit(f"    adcq $0, {where[n]}")
    # Rows i >= 1: words 2i+1..i+n += a_i * a[i+1..n-1]; word i+n starts at zero.
    for i in range(1, n - 1):
        if spill:
            release(2 * i - 1)
            release(2 * i)
        top = take(i + n)
        emit(f"    movq {8 * i}({R_A}), %rdx")
        emit(f"    xorl {r32(top)}, {r32(top)}")  # CF = OF = 0
        for j in range(i + 1, n):
            emit(f"    mulxq {8 * j}({R_A}), {R_LO}, {R_HI}")
            emit(f"    adoxq {R_LO}, {where[i + j]}")
            emit(f"    adcxq {R_HI}, {where[i + j + 1]}")
        emit(f"    movl $0, {r32(R_LO)}")
        emit(f"    adoxq {R_LO}, {top}")
    # Double (CF chain) and add the diagonal (OF chain), word by word. Word 2n-1 starts at zero;
    # its xor clears both flags. Finished words from n up go to the red zone when spilling.
    if spill:
        for pos in sorted(where):
            release(pos)
        emit(f"    xorl {r32(R_LO)}, {r32(R_LO)}")  # CF = OF = 0
    else:
        last = take(2 * n - 1)
        emit(f"    xorl {r32(last)}, {r32(last)}")
    for k in range(n):
        emit(f"    movq {8 * k}({R_A}), %rdx")
        if k == 0:
            lo = take(0)
            emit(f"    mulxq %rdx, {lo}, {R_HI}")
        else:
            emit(f"    mulxq %rdx, {R_LO}, {R_HI}")
        for pos, part in ((2 * k, R_LO), (2 * k + 1, R_HI)):
            if pos == 0:
                continue
            if pos not in where and pos == 2 * n - 1:
                emit(f"    movl $0, {r32(take(pos))}")  # mov keeps the flags
            elif pos not in where:
                emit(f"    movq {slot(pos)}, {take(pos)}")
            emit(f"    adcxq {where[pos]}, {where[pos]}")
            emit(f"    adoxq {part}, {where[pos]}")
            if spill and pos >= n:
                release(pos)
    if wide:
        for pos in sorted(where):
            release(pos)
        epilogue(name, emit)
        return "\n".join(out)
    # Reduction of the low half (R_A is free now), then the high half added.
    free.append(R_A)
    t = [where[pos] for pos in range(n)]
    top = free.pop(0)
    emit(f"    xorl {r32(top)}, {r32(top)}")
    for i in range(n):
        t, top = emit_reduce_round(emit, t, top, n)
    for j in range(n):
        src = slot(n + j) if spill else where[n + j]
        emit(f"    {'addq' if j == 0 else 'adcq'} {src}, {t[j]}")
    # s + h < 2p: no carry out. Conditional subtraction into registers no longer needed.
    spare = [R_LO, R_HI, "%rdx", top] + ([] if spill else [where[n + j] for j in range(n)])
    spare += [r for r in free if r not in spare and r not in t]
    spare = spare[:n]
    for j in range(n):
        emit(f"    movq {t[j]}, {spare[j]}")
    for j in range(n):
        emit(f"    {'subq' if j == 0 else 'sbbq'} {8 * j}({R_P}), {spare[j]}")
    for j in range(n):
        emit(f"    cmovcq {t[j]}, {spare[j]}")
    for j in range(n):
        emit(f"    movq {spare[j]}, {8 * j}({R_OUT})")
    epilogue(name, emit)
    return "\n".join(out)


def inline_body(asm, pointers):
    """The kernel text of one generated function as the pieces of a GCC extended-asm statement.

    Registers become operands the compiler allocates (%rdx stays %rdx for mulx, through a "d"
    operand), the modulus limbs memory operands %[pJ], inv an "rm" operand; the saves, the
    argument moves and the final stores go. Returns the instruction lines, the operand names in
    order of first use, the ones written, and the operands holding the result limbs."""
    lines, results = [], []
    for line in asm.split("\n"):
        s = line.strip()
        if not s or s.startswith((".", "push", "pop", "ret")) or s.endswith(":"):
            continue
        if s in ("movq %rcx, %r8", "movq %rdx, %rcx", "movq %rdx, %rbx"):
            continue  # arguments: operands here
        if s.startswith("movq") and s.endswith(f"({R_OUT})"):
            results.append(s.split()[1].rstrip(","))
            continue
        lines.append(s)
    regs32 = {v: k for k, v in [(r, r32(r)) for r in ACC_REGS + ["%rax", "%rbx", "%rdx", "%rsi",
                                                                    "%rbp", "%r8"]]}
    names, written, out = {}, set(), []

    def name(reg):
        if reg == "%rdx":
            return "dx"
        if reg in pointers:
            return pointers[reg]
        if reg not in names:
            names[reg] = f"x{len(names)}"
        return names[reg]

    for s in lines:
        op, _, rest = s.partition(" ")
        args = [a.strip() for a in rest.split(",")]
        dests = args[-2:] if op == "mulxq" else args[-1:]
        conv = []
        for a in args:
            if a.endswith(f"({R_P})"):
                conv.append(f"%[p{int(a[: -len(R_P) - 2] or 0) // 8}]")
            elif a == R_INV:
                conv.append("%[inv]")
            elif "(" in a:
                off, base = a.split("(")
                conv.append(f"{off}(%[{name(base.rstrip(')'))}])")
            elif a in regs32:
                conv.append(f"%k[{name(regs32[a])}]")
            elif a.startswith("%"):
                conv.append(f"%[{name(a)}]")
            else:
                conv.append(a)
        for d in dests:
            if d == R_INV or d.endswith(f"({R_P})"):
                raise ValueError(f"inline kernel writes {d}: {s}")
            reg = regs32.get(d, d)
            if reg.startswith("%") and "(" not in reg:
                written.add(name(reg))
        out.append(f"{op} {', '.join(conv)}")
    return out, list(names.values()), written, [name(r) for r in results]


def gen_inline(fn, n, args):
    """One always-inline C++ function around the kernel text of fn (gen or gen_sqr)."""
    pointers = {R_A: "a"} if fn is gen_sqr else {R_A: "a", R_B: "b"}
    body, temps, written, results = inline_body(fn(n, inline=True), pointers)
    kind = "sqr" if fn is gen_sqr else "mul"
    o = []
    o.append(f"[[gnu::always_inline]] inline void cuzk_mont_{kind}_inline_{n}({args}) {{")
    for ptr in pointers.values():
        o.append(f"  const uint64_t* {ptr}_reg = {ptr};")
    o.append(f"  uint64_t {', '.join(temps)}, dx;")
    o.append("  asm(")
    for i, s in enumerate(body):
        o.append(f'      "{s}\\n\\t"' if i + 1 < len(body) else f'      "{s}"')
    outs = [f'[{t}] "=&r"({t})' for t in temps] + ['[dx] "=&d"(dx)']
    outs += [f'[{p}] "{"+" if p in written else ""}r"({p}_reg)' for p in pointers.values()
             if p in written]
    ins = [f'[{p}] "r"({p}_reg)' for p in pointers.values() if p not in written]
    ins += [f'[p{j}] "m"(p[{j}])' for j in range(n)] + ['[inv] "rm"(inv)']
    ins += [f'"m"(*reinterpret_cast<const uint64_t(*)[{n}]>({p}))' for p in pointers.values()]
    o.append("      : " + ",\n        ".join(outs))
    o.append("      : " + ",\n        ".join(ins))
    o.append('      : "cc");')
    for j, r in enumerate(results):
        if r in pointers.values():
            raise ValueError(f"inline kernel leaves a result limb in pointer {r}")
        o.append(f"  r[{j}] = {r};")
    o.append("}")
    return "\n".join(o)


def main_inline():
    print("// Generated by tools/gen_mont_asm.py --inline; do not edit. Regenerate with:")
    print("//   python3 tools/gen_mont_asm.py --inline > src/ff/mont_mul_inline_x86_64.hpp")
    print("// The 4-limb kernels of mont_mul_x86_64.S as always-inline extended asm: the result")
    print("// limbs come back in registers, so `x = x * y` stores them straight into x instead of")
    print("// copying the out-of-line kernel's 8-byte stores with 16-byte loads. Unrolled as the")
    print("// kernels are, so the product's and the square's rounds repeat line for line.")
    print("#pragma once")
    print()
    print("#include <cstdint>")
    print()
    print("#if defined(__x86_64__) && !defined(__CUDA_ARCH__)")
    print("// clang-format off")
    print(gen_inline(gen, 4, "uint64_t r[4], const uint64_t* a, const uint64_t* b, "
                              "const uint64_t* p, uint64_t inv"))
    print()
    print(gen_inline(gen_sqr, 4, "uint64_t r[4], const uint64_t* a, const uint64_t* p, "
                                  "uint64_t inv"))
    print("// clang-format on")
    print("#endif")


def main():
    print("// Generated by tools/gen_mont_asm.py; do not edit. Regenerate with:")
    print("//   python3 tools/gen_mont_asm.py > src/ff/mont_mul_x86_64.S")
    print("// Straight-line on purpose: each function (4 limbs for Fr, 6 for Fp; product, square,")
    print("// wide product, reduction) writes every limb product and Montgomery round out, with no")
    print("// loop or counter, so its runs repeat within and across functions. Against the portable")
    print("// CIOS loops it measured Fp 57.8 -> 29.1 ns, Fr 28.8 -> 20.0 ns (docs/perf-log.md,")
    print("// 2026-11-30).")
    print("    .text")
    for n in (4, 6):
        print(gen(n))
        print()
    print(gen_mul_wide(6))
    print()
    print(gen_redc(6))
    print()
    for n in (4, 6):
        print(gen_sqr(n))
        print()
    print(gen_sqr(6, wide=True))
    print()
    print('    .section .note.GNU-stack,"",@progbits')


if __name__ == "__main__":
    sys.exit(main_inline() if sys.argv[1:] == ["--inline"] else main())
