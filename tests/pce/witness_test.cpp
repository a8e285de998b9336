// WitnessCS and CompactWitness: the witness of a concurrent synthesis over nested pieces equals
// the sequential one of the test system (values and order), bits are stored as bits, and errors
// inside a piece reach the caller.
#include "pce/witness_cs.hpp"

#include <gtest/gtest.h>

#include <random>

#include "cs/cs_test_circuits.hpp"
#include "cs/test_cs.hpp"
#include "gadgets/scope.hpp"
#include "gadgets/sha256.hpp"
#include "gadgets/uint32.hpp"
#include "piece_circuit.hpp"

namespace cuzk::pce {
namespace {

TEST(WitnessCS, ConcurrentPiecesGiveTheSequentialWitness) {
  for (uint64_t seed : {1, 2, 3, 4}) {
    const test::PieceCircuit circuit(seed, 5 + seed, 3);
    TestConstraintSystem tcs;
    circuit.synthesize(tcs);
    ASSERT_TRUE(tcs.is_satisfied());
    for (unsigned threads : {1u, 2u, 5u}) {
      ThreadPool pool(threads);
      WitnessCS wcs(&pool);
      circuit.synthesize(wcs);
      const CompactWitness w = std::move(wcs).finish();
      ASSERT_EQ(w.inputs, std::vector<Fr>(tcs.input_values().begin(), tcs.input_values().end()))
          << "seed " << seed << ", " << threads << " threads";
      ASSERT_EQ(w.expand_aux(), std::vector<Fr>(tcs.aux_values().begin(), tcs.aux_values().end()))
          << "seed " << seed << ", " << threads << " threads";
    }
  }
}

TEST(WitnessCS, BitsAreStoredAsBitsAndOtherValuesAsFieldElements) {
  const test::Sha256Circuit circuit(test::sample_message());
  TestConstraintSystem tcs;
  circuit.synthesize(tcs);
  WitnessCS wcs;
  circuit.synthesize(wcs);
  const CompactWitness w = std::move(wcs).finish();
  size_t zeros = 0, ones = 0;
  for (const Fr& v : tcs.aux_values()) {
    zeros += v.is_zero();
    ones += v.is_one();
  }
  EXPECT_EQ(w.num_ones(), ones);
  EXPECT_EQ(w.aux_values.size(), tcs.num_aux() - zeros - ones);
  for (size_t j = 0; j < w.num_aux; ++j)
    ASSERT_EQ(w.aux(j), tcs.aux_values()[j]) << j;
  // SHA-256's variables are bits: the compact form is far below an Fr per variable.
  EXPECT_LT(w.bytes() * 20, tcs.num_aux() * sizeof(Fr));
}

TEST(CompactWitness, AppendingAtAnyBitOffsetEqualsPushingInOrder) {
  std::mt19937_64 rng(11);
  std::vector<Fr> values;
  AuxWriter whole;
  AuxWriter joined;
  for (int part = 0; part < 40; ++part) {
    AuxWriter piece;
    const size_t n = rng() % 150;
    for (size_t i = 0; i < n; ++i) {
      const unsigned k = static_cast<unsigned>(rng() % 3);
      const Fr v = k == 0 ? Fr::zero() : k == 1 ? Fr::one() : Fr::random(rng);
      values.push_back(v);
      whole.push(v);
      piece.push(v);
    }
    joined.append(std::move(piece));
  }
  CompactWitness a, b;
  std::move(whole).move_into(a);
  std::move(joined).move_into(b);
  EXPECT_EQ(a.num_aux, values.size());
  EXPECT_EQ(a.aux_ones, b.aux_ones);
  EXPECT_EQ(a.aux_dense, b.aux_dense);
  EXPECT_EQ(a.aux_values, b.aux_values);
  EXPECT_EQ(b.expand_aux(), values);
  const CompactWitness c = CompactWitness::from_assignment(std::vector<Fr>{Fr::one()}, values);
  EXPECT_EQ(c.aux_dense, a.aux_dense);
  EXPECT_EQ(c.expand_aux(), values);
}

TEST(WitnessCS, AnErrorInsideAPieceReachesTheCaller) {
  class Failing final : public Circuit {
   public:
    void synthesize(ConstraintSystem& cs) const override {
      cs.pieces(8, [](size_t i, ConstraintSystem& pcs) {
        pcs.alloc([] { return std::string("v"); },
                  [i]() -> Fr {
                    if (i == 5) throw SynthesisError(SynthesisError::Kind::kDivisionByZero, "x/0");
                    return Fr::one();
                  });
      });
    }
  };
  ThreadPool pool(3);
  WitnessCS wcs(&pool);
  try {
    Failing().synthesize(wcs);
    FAIL() << "no error";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.kind(), SynthesisError::Kind::kDivisionByZero);
  }
}

}  // namespace
}  // namespace cuzk::pce

namespace cuzk::pce {
namespace {

// A SHA-256 compression whose 512 input bits and chaining words mix constants, allocated bits and
// negated bits at random: the word-level witness path allocates exactly what the gadget does.
class MixedSha256 final : public Circuit {
 public:
  explicit MixedSha256(uint64_t seed) : seed_(seed) {}
  void synthesize(ConstraintSystem& cs) const override {
    using namespace gadgets;
    std::mt19937_64 rng(seed_);
    const unsigned style = static_cast<unsigned>(rng() % 4);  // how many constants
    const auto bit = [&](size_t i) -> Boolean {
      const bool v = (rng() & 1) != 0;
      const unsigned r = static_cast<unsigned>(rng() % 8);
      if (r < style) return Boolean::constant(v);
      const Boolean b = AllocatedBit::alloc(Ns(cs, NameN{"in ", i}), r == 7 ? !v : v);
      return r == 7 ? b.not_() : b;  // a negated variable now and then
    };
    std::vector<Boolean> input;
    for (size_t i = 0; i < 512; ++i)
      input.push_back(bit(i));
    std::vector<UInt32> state;
    if (rng() % 2 == 0) {
      state = sha256_iv();
    } else {
      for (size_t w = 0; w < 8; ++w) {
        std::vector<Boolean> bits;
        for (size_t i = 0; i < 32; ++i)
          bits.push_back(bit(1000 + 32 * w + i));
        state.push_back(UInt32::from_bits(bits));
      }
    }
    const std::vector<UInt32> out =
        sha256_compression_function(Ns(cs, Name{"compression"}), input, state);
    // The output's values feed a packing the way callers use them.
    Fr acc;
    for (const UInt32& w : out)
      acc = acc * Fr::from_u64(1ull << 32) + Fr::from_u64(*w.value());
    cs.alloc([] { return std::string("digest"); }, [acc] { return acc; });
  }

 private:
  uint64_t seed_;
};

TEST(WitnessCS, Sha256WordPathAllocatesWhatTheGadgetAllocates) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const MixedSha256 circuit(seed);
    TestConstraintSystem tcs;
    circuit.synthesize(tcs);
    ASSERT_TRUE(tcs.is_satisfied()) << seed;
    WitnessCS wcs;
    circuit.synthesize(wcs);
    const CompactWitness w = std::move(wcs).finish();
    ASSERT_EQ(w.num_aux, tcs.num_aux()) << "seed " << seed;
    ASSERT_EQ(w.expand_aux(), std::vector<Fr>(tcs.aux_values().begin(), tcs.aux_values().end()))
        << "seed " << seed;
  }
}

}  // namespace
}  // namespace cuzk::pce
