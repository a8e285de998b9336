// multipack against bellperson 0.27 multipack.rs: bit orders of bytes, 254-bit chunks packed
// into public inputs in the circuit and natively, and pack_bits' single constraint.
#include "gadgets/multipack.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cs/test_cs.hpp"
#include "gadget_test_util.hpp"
#include "gadgets/scope.hpp"
#include "gadgets/sha256.hpp"

namespace cuzk::gadgets {
namespace {

TEST(Multipack, BytesToBitsIsMsbFirstAndTheLeVariantLsbFirst) {
  const std::vector<uint8_t> bytes = {0x01, 0x80};
  const std::vector<bool> be = bytes_to_bits(bytes);
  const std::vector<bool> le = bytes_to_bits_le(bytes);
  ASSERT_EQ(be.size(), 16u);
  EXPECT_TRUE(be[7] && be[8]);
  EXPECT_TRUE(le[0] && le[15]);
  EXPECT_EQ(std::count(be.begin(), be.end(), true), 2);
  EXPECT_EQ(std::count(le.begin(), le.end(), true), 2);
}

TEST(Multipack, PackIntoInputsMatchesTheNativePackingForEveryChunkBoundary) {
  std::mt19937_64 rng(9);
  for (size_t n : {0, 1, 2, 253, 254, 255, 507, 508, 509, 1000, 1499}) {
    TestConstraintSystem cs;
    std::vector<bool> bits(n);
    std::vector<Boolean> circuit_bits;
    for (size_t i = 0; i < n; ++i) {
      bits[i] = (rng() & 1) != 0;
      circuit_bits.emplace_back(AllocatedBit::alloc(Ns(cs, NameN{"bit ", i}), bits[i]));
    }
    pack_into_inputs(Ns(cs, Name{"pack"}), circuit_bits);
    const std::vector<Fr> expected = compute_multipacking(bits);
    EXPECT_EQ(expected.size(), (n + 253) / 254);
    EXPECT_TRUE(cs.is_satisfied()) << n;
    EXPECT_TRUE(cs.verify_inputs(expected)) << n;
    EXPECT_EQ(cs.num_constraints(), n + expected.size());
  }
}

TEST(Multipack, ChunkValuesAreLittleEndianSums) {
  std::vector<bool> bits(254 + 3, false);
  bits[0] = bits[2] = true;  // 5
  bits[254 + 1] = true;      // second chunk: 2
  const std::vector<Fr> packed = compute_multipacking(bits);
  ASSERT_EQ(packed.size(), 2u);
  EXPECT_EQ(packed[0], Fr::from_u64(5));
  EXPECT_EQ(packed[1], Fr::from_u64(2));
}

TEST(Multipack, TamperedInputFailsItsPackingConstraint) {
  TestConstraintSystem cs;
  std::vector<Boolean> bits;
  for (size_t i = 0; i < 300; ++i)
    bits.emplace_back(AllocatedBit::alloc(Ns(cs, NameN{"bit ", i}), i % 3 == 0));
  pack_into_inputs(Ns(cs, Name{"pack"}), bits);
  ASSERT_TRUE(cs.is_satisfied());
  cs.set("pack/input 1", Fr::from_u64(1));
  EXPECT_EQ(cs.which_is_unsatisfied(), "pack/packing constraint 1");
}

TEST(Multipack, PackBitsKeepsTheFirst254BitsInOneAuxNumber) {
  TestConstraintSystem cs;
  std::vector<Boolean> bits(256, Boolean::constant(false));
  bits[0] = AllocatedBit::alloc(Ns(cs, Name{"b0"}), true);
  bits[3] = Boolean::constant(true);
  bits[255] = AllocatedBit::alloc(Ns(cs, Name{"b255"}), true);  // beyond the capacity: ignored
  const AllocatedNum n = pack_bits(Ns(cs, Name{"pack"}), bits);
  EXPECT_EQ(n.value(), Fr::from_u64(9));
  EXPECT_EQ(cs.get("pack/input/num"), Fr::from_u64(9));
  EXPECT_EQ(cs.num_constraints(), 3u);
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("pack/input/num", Fr::from_u64(8));
  EXPECT_EQ(cs.which_is_unsatisfied(), "pack/packing constraint");
}

TEST(Multipack, Sha256OfTwoAllocatedDigestsPackedCosts45387Constraints) {
  // The tree_d node shape of rust-fil-proofs: 512 allocated bits, sha256, one packing.
  auto rng = test::rng_for(10);
  const auto msg = test::random_bytes(rng, 64);
  TestConstraintSystem cs;
  const std::vector<Boolean> bits = test::alloc_message_bits(cs, msg);
  const std::vector<Boolean> digest = sha256(Ns(cs, Name{"sha256"}), bits);
  pack_bits(Ns(cs, Name{"pack"}), digest);
  EXPECT_EQ(cs.num_constraints(), 45387u);
  EXPECT_TRUE(cs.is_satisfied());
}

}  // namespace
}  // namespace cuzk::gadgets
