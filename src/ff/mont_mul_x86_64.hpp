// Declarations of the generated mulx/adx Montgomery kernels (src/ff/mont_mul_x86_64.S).
#pragma once

#include <cstdint>

#include "ff/mont_mul_inline_x86_64.hpp"

#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
#define CUZK_HAVE_X86_ASM 1
extern "C" {
// r = a * b * 2^(-64N) mod p, for a, b < p and p[N-1] < 2^63 - 1; r may alias a or b. For the
// 6-limb Fp (p < 2^381) also a, b < 2p: every CIOS step then stays below 2^(64N+63) and the
// result before the final subtraction below (4p^2 + pR) / R < 1.5p (MontField::from_product).
void cuzk_mont_mul_adx_4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                         const uint64_t p[4], uint64_t inv);
void cuzk_mont_mul_adx_6(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                         const uint64_t p[6], uint64_t inv);
// r = a * b, the 12-limb product of any a, b < 2^384 (no reduction); r must not alias a or b.
void cuzk_mul_wide_adx_6(uint64_t r[12], const uint64_t a[6], const uint64_t b[6]);
// r = t * 2^(-384) mod p for t < p * 2^384, fully reduced; p[5] < 2^63 - 1; r may alias t.
void cuzk_mont_redc_adx_6(uint64_t r[6], const uint64_t t[12], const uint64_t p[6], uint64_t inv);
// r = a^2 * 2^(-64N) mod p for a < p: the off-diagonal products once, doubled, plus the
// diagonal (26 mulx instead of 32 for 4 limbs, 57 instead of 72 for 6); r may alias a.
void cuzk_mont_sqr_adx_4(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t inv);
void cuzk_mont_sqr_adx_6(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t inv);
// r = a^2, the 12-limb square of any a < 2^384 (no reduction); r must not alias a.
void cuzk_sqr_wide_adx_6(uint64_t r[12], const uint64_t a[6]);
}
#else
#define CUZK_HAVE_X86_ASM 0
#endif
