#!/usr/bin/env python3
"""Generates src/ff/mont_mul_x86_64.S: Montgomery multiplication with BMI2 mulx and ADX adcx/adox.

Usage: python3 tools/gen_mont_asm.py > src/ff/mont_mul_x86_64.S
A CTest test (ff_asm_generated_is_current) regenerates and diffs, so the file never drifts.

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
double-width value below p * 2^384 (docstrings of gen_mul_wide and gen_redc).
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


def gen(n):
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
        # Reduction: t = (t + m * p) / 2^64 with m = t0 * inv mod 2^64.
        emit(f"    movq {t[0]}, %rdx")
        emit(f"    imulq {R_INV}, %rdx")
        emit(f"    xorl {r32(R_LO)}, {r32(R_LO)}")  # CF = OF = 0
        for j in range(n):
            hi_dst = t[j + 1] if j + 1 < n else top
            emit(f"    mulxq {8 * j}({R_P}), {R_LO}, {R_HI}")
            emit(f"    adcxq {R_LO}, {t[j]}")  # t0 becomes 0 here; its carry still counts
            emit(f"    adoxq {R_HI}, {hi_dst}")
        emit(f"    movl $0, {r32(R_LO)}")
        emit(f"    adcxq {R_LO}, {top}")
        # Rename: the zeroed low word becomes the next spare.
        t, top = t[1:] + [top], t[0]

    # Conditional subtraction: r = t >= p ? t - p : t.
    spare = ["%rax", "%rbx", "%rdx", "%rsi", "%r8", "%rbp", top][:n]
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
        t, top = t[1:] + [top], t[0]  # the zeroed low word is the next (zero) top word
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


def main():
    print("// Generated by tools/gen_mont_asm.py; do not edit. Regenerate with:")
    print("//   python3 tools/gen_mont_asm.py > src/ff/mont_mul_x86_64.S")
    print("    .text")
    for n in (4, 6):
        print(gen(n))
        print()
    print(gen_mul_wide(6))
    print()
    print(gen_redc(6))
    print()
    print('    .section .note.GNU-stack,"",@progbits')


if __name__ == "__main__":
    sys.exit(main())
