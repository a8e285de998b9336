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
#include <type_traits>

namespace cuzk::filecoin {

// UInt is uint32_t or uint64_t; each draw is next_u32 or next_u64 to match, as in rand.
template <class UInt, class Rng>
UInt rand08_gen_range(Rng& rng, UInt low, UInt high) {
  static_assert(std::is_same_v<UInt, uint32_t> || std::is_same_v<UInt, uint64_t>);
  constexpr int kBits = 8 * sizeof(UInt);
  using Wide = std::conditional_t<kBits == 64, unsigned __int128, uint64_t>;
  if (low >= high) {
    throw std::invalid_argument("gen_range: empty range [" + std::to_string(low) + ", " +
                                std::to_string(high) + ")");
  }
  const UInt range = high - low;
  const UInt zone = (range << std::countl_zero(range)) - 1;
  for (;;) {
    UInt draw;
    if constexpr (kBits == 64) {
      draw = rng.next_u64();
    } else {
      draw = rng.next_u32();
    }
    const Wide wide = static_cast<Wide>(draw) * range;
    if (static_cast<UInt>(wide) <= zone) return low + static_cast<UInt>(wide >> kBits);
  }
}

}  // namespace cuzk::filecoin
