// rand 0.8.5 gen_range (uniform.rs UniformInt::sample_single_inclusive) against uniform.rs
// value_stability, driven by rand's own test generator (PCG32).
#include "filecoin/rand_compat.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <stdexcept>

#include "filecoin/chacha.hpp"

namespace cuzk::filecoin {
namespace {

// rand's test generator (rand 0.8.5 src/lib.rs test::rng): rand_pcg Pcg32 = Lcg64Xsh32.
class Pcg32 {
 public:
  Pcg32(uint64_t state, uint64_t stream) : inc_(stream << 1 | 1) {
    state_ = state + inc_;
    step();
  }
  uint32_t next_u32() {
    const uint64_t s = state_;
    step();
    const uint32_t rot = static_cast<uint32_t>(s >> 59);
    const uint32_t xsh = static_cast<uint32_t>(((s >> 18) ^ s) >> 27);
    return std::rotr(xsh, static_cast<int>(rot));
  }
  uint64_t next_u64() {
    const uint64_t lo = next_u32();
    return uint64_t{next_u32()} << 32 | lo;
  }

 private:
  void step() { state_ = state_ * 6364136223846793005ULL + inc_; }
  uint64_t state_;
  uint64_t inc_;
};

TEST(RandCompat, GenRangeReproducesRandValueStability) {
  // uniform.rs value_stability: sample_single(11u32, 219) three times -> 17, 66, 214.
  Pcg32 rng(897, 11634580027462260723ULL);
  EXPECT_EQ(rand08_gen_range<uint32_t>(rng, 11, 219), 17u);
  EXPECT_EQ(rand08_gen_range<uint32_t>(rng, 11, 219), 66u);
  EXPECT_EQ(rand08_gen_range<uint32_t>(rng, 11, 219), 214u);
  EXPECT_THROW(rand08_gen_range<uint64_t>(rng, 5, 5), std::invalid_argument);
  // A power-of-two range never rejects: the result is the top bits of one draw.
  ChaCha8Rng a(ChaChaKey{}), b(ChaChaKey{});
  EXPECT_EQ(rand08_gen_range<uint64_t>(a, 0, uint64_t{1} << 10), b.next_u64() >> 54);
}

}  // namespace
}  // namespace cuzk::filecoin
