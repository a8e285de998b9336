// MontField<Params>: a prime field in Montgomery form with N fixed 64-bit limbs.
//
// Params supplies kLimbs, kModulus (a BigInt) and kNonResidue (a small quadratic non-residue used
// by Tonelli-Shanks); every other constant (R, R^2, -p^-1 mod 2^64, exponents) is derived here at
// compile time. Elements are always fully reduced (< p), so equality is limb equality.
// Not constant time: the prover handles no secrets that timing could leak beyond a single proof's
// randomness, and none of the branches can fault.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "ff/bigint.hpp"
#include "ff/binary_inverse.hpp"
#include "ff/cpu_features.hpp"
#include "ff/mont_mul_x86_64.hpp"
#include "util/hd.hpp"

namespace cuzk {

namespace mont_detail {

// -p^-1 mod 2^64 by Newton iteration (each step doubles the number of correct low bits).
constexpr uint64_t neg_inv64(uint64_t p0) {
  uint64_t x = 1;
  for (int i = 0; i < 7; ++i)
    x *= 2 - p0 * x;
  return ~x + 1;
}

// 2^k mod p by repeated modular doubling (compile time only; p has a spare top bit).
template <size_t N>
constexpr BigInt<N> pow2_mod(const BigInt<N>& p, size_t k) {
  BigInt<N> x = BigInt<N>::from_u64(1);
  for (size_t i = 0; i < k; ++i) {
    BigInt<N> d;
    add_with_carry(d, x, x);
    BigInt<N> e;
    if (sub_with_borrow(e, d, p) == 0) d = e;
    x = d;
  }
  return x;
}

// Whether the mulx/adx kernels run (decided once at start-up, see cpu_features.hpp).
inline bool use_adx() {
#if CUZK_HAVE_X86_ASM
  return ff::kUseAdx;
#else
  return false;
#endif
}

}  // namespace mont_detail

template <class Params>
class MontField {
 public:
  static constexpr size_t kLimbs = Params::kLimbs;
  using Int = BigInt<kLimbs>;

  static constexpr Int kModulus = Params::kModulus;
  static constexpr size_t kBits = kModulus.num_bits();
  static constexpr size_t kBytes = (kBits + 7) / 8;
  static constexpr uint64_t kInv = mont_detail::neg_inv64(kModulus.w[0]);    // -p^-1 mod 2^64
  static constexpr Int kR = mont_detail::pow2_mod(kModulus, 64 * kLimbs);    // R = 2^(64N) mod p
  static constexpr Int kR2 = mont_detail::pow2_mod(kModulus, 128 * kLimbs);  // R^2 mod p
  static constexpr Int kR3 = mont_detail::pow2_mod(kModulus, 192 * kLimbs);  // R^3 mod p
  static constexpr Int kModulusMinus2 = sub_u64(kModulus, 2);                // Fermat inverse
  static constexpr Int kHalfModulus = shr1(kModulus);                        // (p - 1) / 2
  // p - 1 = 2^kTwoAdicity * kOddPart
  static constexpr size_t kTwoAdicity = [] {
    Int m = sub_u64(kModulus, 1);
    size_t s = 0;
    while (!m.is_odd()) {
      m = shr1(m);
      ++s;
    }
    return s;
  }();
  static constexpr Int kOddPart = [] {
    Int m = sub_u64(kModulus, 1);
    for (size_t i = 0; i < kTwoAdicity; ++i)
      m = shr1(m);
    return m;
  }();

  // The CIOS loop below drops the final carry word; that is exact only with a spare top bit.
  static_assert(kModulus.w[kLimbs - 1] < 0x7fffffffffffffffULL - 1, "modulus needs a spare bit");
  static_assert(kModulus.is_odd(), "Montgomery form needs an odd modulus");

  constexpr MontField() = default;  // zero

  static constexpr MontField zero() { return MontField(); }
  static constexpr MontField one() { return from_mont(kR); }

  // From a canonical (non-Montgomery) value; nullopt when value >= p.
  static constexpr std::optional<MontField> from_canonical(const Int& value) {
    if (cmp(value, kModulus) >= 0) return std::nullopt;
    return from_mont(value) * from_mont(kR2);
  }
  static constexpr MontField from_u64(uint64_t v) { return *from_canonical(Int::from_u64(v)); }
  // For constants written in source: a compile error (or a throw at run time) if v >= p.
  static constexpr MontField from_hex(std::string_view hex) {
    const auto f = from_canonical(Int::from_hex(hex));
    if (!f) throw std::invalid_argument("MontField::from_hex: value >= modulus");
    return *f;
  }
  // Raw Montgomery limbs (value * R mod p), e.g. for kernels and bulk storage.
  CUZK_HD static constexpr MontField from_mont(const Int& mont) {
    MontField f;
    f.m_ = mont;
    return f;
  }
  CUZK_HD constexpr const Int& mont() const { return m_; }

  // The top bit of the top limb, never set in an element (elements are < p, and the modulus has a
  // spare bit: asserted above). Affine marks the point at infinity there, so a point is its two
  // coordinates and nothing else.
  CUZK_HD static constexpr MontField with_spare_bit() {
    MontField f;
    f.m_.w[kLimbs - 1] = uint64_t{1} << 63;
    return f;
  }
  CUZK_HD constexpr bool spare_bit() const { return (m_.w[kLimbs - 1] >> 63) != 0; }

  // Canonical value (leaves Montgomery form).
  constexpr Int to_canonical() const { return mul(m_, Int::from_u64(1)); }

  // ---- byte encodings of the canonical value (kBytes bytes) ----
  // Big-endian, as zcash/blst encode Fp coordinates.
  constexpr std::array<uint8_t, kBytes> to_bytes_be() const {
    const Int v = to_canonical();
    std::array<uint8_t, kBytes> out{};
    for (size_t i = 0; i < kBytes; ++i)
      out[kBytes - 1 - i] = static_cast<uint8_t>(v.w[i / 8] >> (8 * (i % 8)));
    return out;
  }
  // Little-endian, as Filecoin and bellperson encode Fr (commitments, Fr32).
  constexpr std::array<uint8_t, kBytes> to_bytes_le() const {
    const Int v = to_canonical();
    std::array<uint8_t, kBytes> out{};
    for (size_t i = 0; i < kBytes; ++i)
      out[i] = static_cast<uint8_t>(v.w[i / 8] >> (8 * (i % 8)));
    return out;
  }
  // Decoding rejects non-canonical values (>= p) instead of reducing them.
  static constexpr std::optional<MontField> from_bytes_be(std::span<const uint8_t, kBytes> b) {
    Int v;
    for (size_t i = 0; i < kBytes; ++i)
      v.w[i / 8] |= static_cast<uint64_t>(b[kBytes - 1 - i]) << (8 * (i % 8));
    return from_canonical(v);
  }
  static constexpr std::optional<MontField> from_bytes_le(std::span<const uint8_t, kBytes> b) {
    Int v;
    for (size_t i = 0; i < kBytes; ++i)
      v.w[i / 8] |= static_cast<uint64_t>(b[i]) << (8 * (i % 8));
    return from_canonical(v);
  }
  // "0x" + big-endian hex of the canonical value, fixed width (2 * kBytes digits).
  std::string to_hex() const {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s = "0x";
    for (uint8_t byte : to_bytes_be()) {
      s += kDigits[byte >> 4];
      s += kDigits[byte & 15];
    }
    return s;
  }

  // Uniform in [0, p), by rejection sampling from any 64-bit capable bit generator.
  template <class Rng>
  static MontField random(Rng& rng) {
    std::uniform_int_distribution<uint64_t> dist;
    const uint64_t top_mask = kBits % 64 == 0 ? ~0ULL : (1ULL << (kBits % 64)) - 1;
    for (;;) {
      Int v;
      for (size_t i = 0; i < kLimbs; ++i)
        v.w[i] = dist(rng);
      v.w[kLimbs - 1] &= top_mask;
      if (cmp(v, kModulus) < 0) return from_mont(v);  // uniform raw limbs are uniform in any form
    }
  }

  // ---- arithmetic ----
  CUZK_HD constexpr bool is_zero() const { return m_.is_zero(); }
  constexpr bool is_one() const { return m_ == kR; }
  CUZK_HD constexpr bool operator==(const MontField& o) const { return m_ == o.m_; }

  CUZK_HD constexpr MontField operator+(const MontField& o) const {
    MontField r;
    add_with_carry(r.m_, m_, o.m_);  // no carry out: both < p < 2^(64N-1)
    Int t;
    if (sub_with_borrow(t, r.m_, kModulus) == 0) r.m_ = t;
    return r;
  }
  CUZK_HD constexpr MontField operator-(const MontField& o) const {
    MontField r;
    if (sub_with_borrow(r.m_, m_, o.m_) != 0) add_with_carry(r.m_, r.m_, kModulus);
    return r;
  }
  CUZK_HD constexpr MontField operator-() const {
    if (is_zero()) return *this;
    MontField r;
    sub_with_borrow(r.m_, kModulus, m_);
    return r;
  }
  constexpr MontField operator*(const MontField& o) const { return from_mont(mul(m_, o.m_)); }
  constexpr MontField& operator+=(const MontField& o) { return *this = *this + o; }
  constexpr MontField& operator-=(const MontField& o) { return *this = *this - o; }
  // In place: the kernel writes straight into this element. Through `*this = *this * o` the
  // product lands in a temporary that gcc copies with 16-byte SSE moves right after the
  // kernel's 8-byte stores, ~6 ns a product on this CPU (measured in a latency chain: Fr 20.7 ->
  // 13.8 ns, Fp 30.1 -> 23.6 ns; docs/perf-log.md 2026-12-01).
  constexpr MontField& operator*=(const MontField& o) {
    if (std::is_constant_evaluated() || !mont_detail::use_adx()) return *this = *this * o;
    mul_in_place(o);
    return *this;
  }

  constexpr MontField dbl() const { return *this + *this; }
  constexpr MontField sqr() const { return from_mont(sqr_raw(m_)); }
  // this = this^2 with the kernel writing straight into this element (see operator*=).
  constexpr MontField& sqr_in_place() {
    if (std::is_constant_evaluated() || !mont_detail::use_adx()) return *this = sqr();
#if CUZK_HAVE_X86_ASM
    sqr_adx_into(m_.w, m_.w);
#endif
    return *this;
  }

  // this^e for an exponent of any width, 4-bit fixed window.
  template <size_t M>
  constexpr MontField pow(const BigInt<M>& e) const {
    MontField table[16];
    table[0] = one();
    for (int i = 1; i < 16; ++i)
      table[i] = table[i - 1] * *this;
    MontField r = one();
    const size_t bits = e.num_bits();
    const size_t windows = (bits + 3) / 4;
    for (size_t wi = windows; wi-- > 0;) {
      if (wi + 1 != windows) {
        for (int k = 0; k < 4; ++k)
          r.sqr_in_place();
      }
      unsigned nib = 0;
      for (int b = 3; b >= 0; --b)
        nib = (nib << 1) | (4 * wi + b < bits ? e.bit(4 * wi + b) : 0);
      if (nib != 0) r *= table[nib];
    }
    return r;
  }
  constexpr MontField pow(uint64_t e) const {
    return pow(BigInt<1>::from_u64(e));
  }

  // Multiplicative inverse; the inverse of zero is defined as zero. At run time a variable-time
  // binary GCD (binary_inverse.hpp; measured Fp 14.2 -> 1.4 us, Fr 6.5 -> 0.95 us, against
  // blst's 1.85 / 1.07 us, docs/perf-log.md 2026-12-01); in constant evaluation, and as the
  // tests' reference, Fermat's a^(p-2).
  constexpr MontField inv() const {
    if (std::is_constant_evaluated() || is_zero()) return inv_fermat();
    // m_ = a R, so binary_inverse gives a^-1 R^-1; a Montgomery product with R^3 makes a^-1 R.
    Int r;
    if (!binary_inverse(r, m_, kModulus, kInv)) return inv_fermat();  // unreachable for prime p
    return from_mont(mul(r, kR3));
  }
  constexpr MontField inv_fermat() const {
    return pow(kModulusMinus2);
  }

  // Legendre symbol: 0 for zero, 1 for a non-zero square, -1 otherwise.
  constexpr int legendre() const {
    if (is_zero()) return 0;
    return pow(kHalfModulus).is_one() ? 1 : -1;
  }

  // A square root, or nullopt for a non-square. p = 3 mod 4 uses a^((p+1)/4); otherwise
  // Tonelli-Shanks with the non-residue from Params. Which of the two roots comes back is
  // unspecified (compare with the negation too).
  constexpr std::optional<MontField> sqrt() const {
    if (is_zero()) return zero();
    if constexpr (kTwoAdicity == 1) {
      const MontField r = pow(div_exact_u64(add_u64(kModulus, 1), 4));
      if (r.sqr() == *this) return r;
      return std::nullopt;
    } else {
      if (legendre() != 1) return std::nullopt;
      MontField z = from_u64(Params::kNonResidue).pow(kOddPart);  // generator of the 2-Sylow
      MontField x = pow(shr1(add_u64(kOddPart, 1)));              // a^((t+1)/2)
      MontField b = pow(kOddPart);                                // a^t
      size_t m = kTwoAdicity;
      while (!b.is_one()) {
        size_t i = 0;
        MontField b2 = b;
        while (!b2.is_one()) {
          b2.sqr_in_place();
          ++i;
          if (i == m) return std::nullopt;  // unreachable after the Legendre check
        }
        MontField w = z;
        for (size_t k = 0; k + i + 1 < m; ++k)
          w.sqr_in_place();
        x *= w;
        z = w.sqr();
        b *= z;
        m = i;
      }
      return x;
    }
  }

  // True when the canonical value is > (p-1)/2 (the zcash "sort" flag for y coordinates).
  constexpr bool is_lexicographically_largest() const {
    return cmp(to_canonical(), kHalfModulus) > 0;
  }

  // Montgomery product of raw limbs, dispatched to the mulx/adx kernel when the CPU has it.
  static constexpr Int mul(const Int& a, const Int& b) {
    if (std::is_constant_evaluated()) return mul_portable(a, b);
#if CUZK_HAVE_X86_ASM
    if (ff::kUseAdx) return mul_adx(a, b);
#endif
    return mul_portable_outlined(a, b);
  }

  // Montgomery square of raw limbs: the dedicated squaring kernel when the CPU has mulx/adx.
  static constexpr Int sqr_raw(const Int& a) {
    if (std::is_constant_evaluated()) return mul_portable(a, a);
#if CUZK_HAVE_X86_ASM
    if (ff::kUseAdx) return sqr_adx(a);
#endif
    return mul_portable_outlined(a, a);
  }

  // Portable CIOS with 128-bit products; the reference twin of the assembly kernels.
  CUZK_HD static constexpr Int mul_portable(const Int& a, const Int& b) {
    constexpr size_t N = kLimbs;
    uint64_t t[N] = {};
    for (size_t i = 0; i < N; ++i) {
      u128 c = static_cast<u128>(a.w[0]) * b.w[i] + t[0];
      uint64_t carry_ab = static_cast<uint64_t>(c >> 64);
      const uint64_t t0 = static_cast<uint64_t>(c);
      const uint64_t m = t0 * kInv;
      u128 d = static_cast<u128>(m) * kModulus.w[0] + t0;
      uint64_t carry_mp = static_cast<uint64_t>(d >> 64);
      for (size_t j = 1; j < N; ++j) {
        c = static_cast<u128>(a.w[j]) * b.w[i] + t[j] + carry_ab;
        carry_ab = static_cast<uint64_t>(c >> 64);
        d = static_cast<u128>(m) * kModulus.w[j] + static_cast<uint64_t>(c) + carry_mp;
        carry_mp = static_cast<uint64_t>(d >> 64);
        t[j - 1] = static_cast<uint64_t>(d);
      }
      t[N - 1] = carry_ab + carry_mp;
    }
    Int r;
    for (size_t i = 0; i < N; ++i)
      r.w[i] = t[i];
    Int s;
    if (sub_with_borrow(s, r, kModulus) == 0) r = s;
    return r;
  }

  // Kept out of line so that call sites stay small when the assembly path is taken.
  [[gnu::noinline]] static Int mul_portable_outlined(const Int& a, const Int& b) {
    return mul_portable(a, b);
  }

#if CUZK_HAVE_X86_ASM
  // 4 limbs inline: the limbs come back in registers, so `x = x * y` skips the copy of the out-of-
  // line kernel's stores (Fr 22.2 -> 17.5 ns, 1.24 -> 1.00 of blst in one run); 6 limbs out of
  // line.
  static Int mul_adx(const Int& a, const Int& b) {
    Int r;
    if constexpr (kLimbs == 4) {
      cuzk_mont_mul_inline_4(r.w, a.w, b.w, kModulus.w, kInv);
    } else {
      mul_adx_into(r.w, a.w, b.w);
    }
    return r;
  }
  static Int sqr_adx(const Int& a) {
    Int r;
    if constexpr (kLimbs == 4) {
      cuzk_mont_sqr_inline_4(r.w, a.w, kModulus.w, kInv);
    } else {
      sqr_adx_into(r.w, a.w);
    }
    return r;
  }
  // r = a^2 / R; r may alias a.
  static void sqr_adx_into(uint64_t* r, const uint64_t* a) {
    if constexpr (kLimbs == 4) {
      cuzk_mont_sqr_adx_4(r, a, kModulus.w, kInv);
    } else if constexpr (kLimbs == 6) {
      cuzk_mont_sqr_adx_6(r, a, kModulus.w, kInv);
    } else {
      mul_adx_into(r, a, a);
    }
  }
  // r = a * b / R; r may alias a or b.
  static void mul_adx_into(uint64_t* r, const uint64_t* a, const uint64_t* b) {
    if constexpr (kLimbs == 4) {
      cuzk_mont_mul_adx_4(r, a, b, kModulus.w, kInv);
    } else if constexpr (kLimbs == 6) {
      cuzk_mont_mul_adx_6(r, a, b, kModulus.w, kInv);
    } else {
      Int x, y;
      for (size_t i = 0; i < kLimbs; ++i) {
        x.w[i] = a[i];
        y.w[i] = b[i];
      }
      const Int z = mul_portable(x, y);
      for (size_t i = 0; i < kLimbs; ++i)
        r[i] = z.w[i];
    }
  }
#endif

  // ---- double-width values, for lazy reduction (several products, one reduction) ----
  // mul_wide: the full 2N-limb product of any a, b < 2^(64N). from_redc: t / R mod p for
  // t < p R (a sum of products that stays below p R), fully reduced.
  static void mul_wide(uint64_t r[2 * kLimbs], const uint64_t a[kLimbs], const uint64_t b[kLimbs]) {
#if CUZK_HAVE_X86_ASM
    if constexpr (kLimbs == 6) {
      if (ff::kUseAdx) return cuzk_mul_wide_adx_6(r, a, b);
    }
#endif
    mul_wide_portable(r, a, b);
  }
  // r = a^2, double-width: the squaring kernel's products (21 mulx instead of 36 for 6 limbs).
  static void sqr_wide(uint64_t r[2 * kLimbs], const uint64_t a[kLimbs]) {
#if CUZK_HAVE_X86_ASM
    if constexpr (kLimbs == 6) {
      if (ff::kUseAdx) return cuzk_sqr_wide_adx_6(r, a);
    }
#endif
    mul_wide_portable(r, a, a);
  }
  static MontField from_redc(const uint64_t t[2 * kLimbs]) {
    MontField f;
#if CUZK_HAVE_X86_ASM
    if constexpr (kLimbs == 6) {
      if (ff::kUseAdx) {
        cuzk_mont_redc_adx_6(f.m_.w, t, kModulus.w, kInv);
        return f;
      }
    }
#endif
    f.m_ = redc_portable(t);
    return f;
  }
  // a * b / R mod p, fully reduced, for operands below 2p (unreduced sums of two elements): the
  // product stays below 4p^2 < p R, so the fused kernel's result before its final subtraction is
  // below 1.5p; with the mulx/adx kernel when it runs, otherwise the wide product and reduction.
  // Written straight into the returned element (no copy of a temporary).
  static MontField from_product(const uint64_t a[kLimbs], const uint64_t b[kLimbs]) {
    MontField f;
#if CUZK_HAVE_X86_ASM
    if (ff::kUseAdx) {
      mul_adx_into(f.m_.w, a, b);
      return f;
    }
#endif
    uint64_t t[2 * kLimbs];
    mul_wide_portable(t, a, b);
    f.m_ = redc_portable(t);
    return f;
  }
  // Reference twins of the two kernels.
  static void mul_wide_portable(uint64_t r[2 * kLimbs], const uint64_t a[kLimbs],
                                const uint64_t b[kLimbs]) {
    for (size_t i = 0; i < 2 * kLimbs; ++i)
      r[i] = 0;
    for (size_t i = 0; i < kLimbs; ++i) {
      uint64_t carry = 0;
      for (size_t j = 0; j < kLimbs; ++j) {
        const u128 c = static_cast<u128>(a[j]) * b[i] + r[i + j] + carry;
        r[i + j] = static_cast<uint64_t>(c);
        carry = static_cast<uint64_t>(c >> 64);
      }
      r[i + kLimbs] = carry;
    }
  }
  static Int redc_portable(const uint64_t t[2 * kLimbs]) {
    uint64_t w[2 * kLimbs + 1];
    for (size_t i = 0; i < 2 * kLimbs; ++i)
      w[i] = t[i];
    w[2 * kLimbs] = 0;
    for (size_t i = 0; i < kLimbs; ++i) {
      const uint64_t m = w[i] * kInv;
      uint64_t carry = 0;
      for (size_t j = 0; j < kLimbs; ++j) {
        const u128 c = static_cast<u128>(m) * kModulus.w[j] + w[i + j] + carry;
        w[i + j] = static_cast<uint64_t>(c);
        carry = static_cast<uint64_t>(c >> 64);
      }
      for (size_t k = i + kLimbs; carry != 0 && k <= 2 * kLimbs; ++k) {
        const u128 c = static_cast<u128>(w[k]) + carry;
        w[k] = static_cast<uint64_t>(c);
        carry = static_cast<uint64_t>(c >> 64);
      }
    }
    Int r;  // (t + M p) / R < 2p < 2^(64N): w[2N] is zero
    for (size_t i = 0; i < kLimbs; ++i)
      r.w[i] = w[kLimbs + i];
    Int s;
    if (sub_with_borrow(s, r, kModulus) == 0) r = s;
    return r;
  }

  // this = this * o through the kernel, written in place (see operator*=).
  void mul_in_place(const MontField& o) {
#if CUZK_HAVE_X86_ASM
    mul_adx_into(m_.w, m_.w, o.m_.w);
#else
    m_ = mul(m_, o.m_);
#endif
  }

 private:
  Int m_;  // Montgomery form: value * R mod p, always < p
};

// Montgomery's trick: inverts every element with one field inversion and 3(n-1) products.
// Zeros are left as zero (the same convention as inv()).
template <class F>
void batch_invert(std::span<F> v) {
  std::vector<F> prefix(v.size());
  F acc = F::one();
  for (size_t i = 0; i < v.size(); ++i) {
    prefix[i] = acc;
    if (!v[i].is_zero()) acc *= v[i];
  }
  F inv = acc.inv();
  for (size_t i = v.size(); i-- > 0;) {
    if (v[i].is_zero()) continue;
    const F vi = v[i];
    v[i] = inv * prefix[i];
    inv *= vi;
  }
}

}  // namespace cuzk
