// The SHA-256 tree hasher circuits of rust-fil-proofs filecoin-hashers/src/sha256.rs against
// the native trunc254 node: util.rs hash_leaf_bits_circuit (45 387 constraints with its 512
// boolean allocations), hash2_circuit and hash_multi_leaf_circuit (45 379: two 256-constraint
// decompositions whose constant top bits save 8 in the compression).
#include "circuits/tree_hash.hpp"

#include <gtest/gtest.h>

#include <random>

#include "circuit_test_util.hpp"
#include "circuits/bits.hpp"
#include "cs/test_cs.hpp"
#include "filecoin/hash/sha256.hpp"

namespace cuzk::circuits {
namespace {

using filecoin::Domain;
using gadgets::Name;
using gadgets::Ns;

TEST(Sha256TreeHash, LeafBitsCircuitMatchesUpstreamCountAndNode) {
  std::mt19937_64 rng(1);
  const Fr l = Fr::random(rng), r = Fr::random(rng);
  const Domain ld = filecoin::fr_to_domain(l), rd = filecoin::fr_to_domain(r);
  TestConstraintSystem cs;
  const std::vector<Boolean> left =
      bytes_into_boolean_vec(Ns(cs, Name{"left"}), std::span<const uint8_t>(ld), 256);
  const std::vector<Boolean> right =
      bytes_into_boolean_vec(Ns(cs, Name{"right"}), std::span<const uint8_t>(rd), 256);
  const AllocatedNum out =
      sha256_hash_leaf_bits_circuit(Ns(cs, Name{"hash_leaf_circuit"}), left, right);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 45387u);
  EXPECT_EQ(*out.value(), filecoin::domain_to_fr(filecoin::sha256_node(ld, rd)));
}

TEST(Sha256TreeHash, Hash2AndMultiLeafMatchTheNativeNode) {
  std::mt19937_64 rng(2);
  const std::vector<Fr> v = test::random_frs(rng, 8);
  const Domain a = filecoin::fr_to_domain(v[0]), b = filecoin::fr_to_domain(v[1]);
  TestConstraintSystem cs;
  const std::vector<AllocatedNum> nums = test::alloc_nums(cs, v, "leaf ");
  const AllocatedNum h2 = sha256_hash2_circuit(Ns(cs, Name{"hash2"}), nums[0], nums[1]);
  EXPECT_EQ(cs.num_constraints(), 45379u);
  const AllocatedNum m2 = hash_multi_leaf_circuit(Ns(cs, Name{"multi2"}), TreeHasher::kSha256,
                                                  std::span<const AllocatedNum>(nums).first(2));
  EXPECT_EQ(cs.num_constraints(), 2 * 45379u);
  const AllocatedNum m8 =
      hash_multi_leaf_circuit(Ns(cs, Name{"multi8"}), TreeHasher::kSha256, nums);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(*h2.value(), filecoin::domain_to_fr(filecoin::sha256_node(a, b)));
  EXPECT_EQ(*m2.value(), *h2.value());
  EXPECT_EQ(*m8.value(), test::native_node(TreeHasher::kSha256, v));
  EXPECT_NO_THROW(cs.get("multi8/7_num_into_bits/bit 254/boolean"));
  EXPECT_NO_THROW(cs.get("hash2/b_bits/bit 0/boolean"));
  cs.set("multi8/pack_le/input/num", Fr::one());
  EXPECT_EQ(cs.which_is_unsatisfied(), "multi8/pack_le/packing constraint");
}

}  // namespace
}  // namespace cuzk::circuits
