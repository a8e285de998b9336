// The random values of rust-fil-proofs' unit tests, so their hard-coded vectors can be checked:
// rand_xorshift 0.3 `XorShiftRng::from_seed(TEST_SEED)` (storage-proofs-core/src/lib.rs) and
// blstrs 0.7 `Scalar::random` (4 x next_u64 as little-endian limbs, the top bit cleared, redrawn
// while >= r), which `PoseidonDomain::random` / `Sha256Domain::random` use.
#pragma once

#include <array>
#include <cstdint>

#include "ff/fr.hpp"

namespace cuzk::testing {

// storage-proofs-core TEST_SEED.
inline constexpr std::array<uint8_t, 16> kRfpTestSeed = {
    0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d, 0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};

class XorShiftRng {
 public:
  explicit XorShiftRng(const std::array<uint8_t, 16>& seed) {
    uint32_t* s[4] = {&x_, &y_, &z_, &w_};
    for (int i = 0; i < 4; ++i)
      *s[i] = uint32_t{seed[4 * i]} | uint32_t{seed[4 * i + 1]} << 8 |
              uint32_t{seed[4 * i + 2]} << 16 | uint32_t{seed[4 * i + 3]} << 24;
  }
  uint32_t next_u32() {
    const uint32_t t = x_ ^ (x_ << 11);
    x_ = y_;
    y_ = z_;
    z_ = w_;
    w_ = w_ ^ (w_ >> 19) ^ (t ^ (t >> 8));
    return w_;
  }
  // rand_core next_u64_via_u32: low word first.
  uint64_t next_u64() {
    const uint64_t lo = next_u32();
    return uint64_t{next_u32()} << 32 | lo;
  }

 private:
  uint32_t x_, y_, z_, w_;
};

inline Fr blstrs_random_fr(XorShiftRng& rng) {
  for (;;) {
    Fr::Int v;
    for (int i = 0; i < 4; ++i)
      v.w[i] = rng.next_u64();
    v.w[3] &= ~(uint64_t{1} << 63);
    if (auto f = Fr::from_canonical(v)) return *f;
  }
}

}  // namespace cuzk::testing
