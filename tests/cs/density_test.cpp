// DensityTracker's popcount (count_set_bits: the POPCNT clone or the portable one, whichever the
// loader picked) against the bits read back one at a time with get().
#include "cs/density.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace cuzk {
namespace {

size_t bits_by_get(const DensityTracker& d) {
  size_t n = 0;
  for (size_t i = 0; i < d.size(); ++i)
    n += d.get(i) ? 1 : 0;
  return n;
}

TEST(DensityTracker, PopcountIsTheNumberOfBitsGetReadsSet) {
  EXPECT_EQ(DensityTracker().popcount(), 0u);
  std::mt19937_64 rng(7);
  for (const size_t n : {1, 63, 64, 65, 1000, 4096 + 17}) {
    std::vector<uint64_t> words((n + 63) / 64);
    for (uint64_t& w : words)
      w = rng() & rng();                                             // about a quarter of the bits
    if (n % 64 != 0) words.back() &= (uint64_t{1} << (n % 64)) - 1;  // bits past n clear
    const DensityTracker d = DensityTracker::from_words(words, n);
    EXPECT_EQ(d.popcount(), bits_by_get(d)) << n << " bits";
  }
  DensityTracker all;
  for (size_t i = 0; i < 200; ++i) {
    all.add_element();
    all.set(i);
  }
  EXPECT_EQ(all.popcount(), 200u);
}

}  // namespace
}  // namespace cuzk
