// rand 0.8 `Rng::gen_range(low..high)` for unsigned integers over any generator with
// next_u32/next_u64 (rand 0.8.5 src/distributions/uniform.rs, UniformInt::sample_single_inclusive):
// range = high - low; zone = (range << leading_zeros(range)) - 1; draw v (next_u32 for u32,
// next_u64 for u64), take the widening product v * range = (hi, lo), accept when lo <= zone and
// return low + hi. rust-fil-proofs' DRG uses `rng.gen::<u64>() % n` instead (= next_u64 % n); this
// is here for code that calls gen_range.
#pragma once

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

template <class Rng>
uint64_t rand08_gen_range_u64(Rng& rng, uint64_t low, uint64_t high) {
  if (low >= high) {
    throw std::invalid_argument("gen_range: empty range [" + std::to_string(low) + ", " +
                                std::to_string(high) + ")");
  }
  const uint64_t range = high - low;
  const uint64_t zone = (range << std::countl_zero(range)) - 1;
  for (;;) {
    const unsigned __int128 wide = static_cast<unsigned __int128>(rng.next_u64()) * range;
    if (static_cast<uint64_t>(wide) <= zone) return low + static_cast<uint64_t>(wide >> 64);
  }
}

template <class Rng>
uint32_t rand08_gen_range_u32(Rng& rng, uint32_t low, uint32_t high) {
  if (low >= high) {
    throw std::invalid_argument("gen_range: empty range [" + std::to_string(low) + ", " +
                                std::to_string(high) + ")");
  }
  const uint32_t range = high - low;
  const uint32_t zone = (range << std::countl_zero(range)) - 1;
  for (;;) {
    const uint64_t wide = static_cast<uint64_t>(rng.next_u32()) * range;
    if (static_cast<uint32_t>(wide) <= zone) return low + static_cast<uint32_t>(wide >> 32);
  }
}

}  // namespace cuzk::filecoin
