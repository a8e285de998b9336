// The Poseidon circuit against neptune 11 (src/circuit.rs test_poseidon_hash counts, standard and
// strengthened), the native hash of filecoin/poseidon.hpp for every arity and domain tag, the
// neptune / rust-fil-proofs vectors of the facts sheet 3.4, rfp's hash2 / hash_md circuits, and an
// independent copy of neptune's circuit constants; plus tampering and blank synthesis.
#include "circuits/poseidon_circuit.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "circuit_test_util.hpp"
#include "cs/key_assembly.hpp"
#include "cs/metric_cs.hpp"
#include "cs/proving_assignment.hpp"
#include "cs/test_cs.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256.hpp"

namespace cuzk::circuits {
namespace {

using filecoin::PoseidonConstants;
using filecoin::PoseidonStrength;
using test::alloc_nums;
using test::random_frs;

std::vector<Fr> small_ints(size_t n) {
  std::vector<Fr> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back(Fr::from_u64(i));
  return v;
}

// Synthesizes one hash over `values` in a TestConstraintSystem and checks satisfaction.
struct Hashed {
  TestConstraintSystem cs;
  AllocatedNum out;
};
void hash_in(Hashed& h, std::span<const Fr> values, const PoseidonCircuitConstants& c,
             const Fr& tag) {
  const std::vector<AllocatedNum> nums = alloc_nums(h.cs, values, "data ");
  h.out = poseidon_hash_circuit(h.cs, nums, c, tag);
}

TEST(PoseidonCircuitConstants, MatchAnIndependentGeneration) {
  // SHA-256 over the canonical little-endian encodings of compressed round constants | MDS |
  // pre-sparse matrix | per partial round (w_hat, v_rest): the layout of the constant arrays
  // ingonyama-zk/icicle ships for BLS12-381 (icicle/include/poseidon/constants/
  // bls12_381_poseidon.h, v3.1, generated in Python from neptune's spec), recomputed from that
  // file.
  const std::pair<size_t, const char*> expected[] = {
      {2, "fc71c797c2fd445f511fce65625312bbcfd6cd6efb8e6f81d36be0317ed44727"},
      {4, "cfb0245dfc2424697dc1038c47bfe6a9826e8777d380787b011ac38878110667"},
      {8, "4a7eacdb40d5de8deea941af668547a3b4ad261f47bc3886deba3a0ad0ae8621"},
      {11, "0ec8f8f08d5d2e4721134043c6506446ae75ab01b14bcf8b19898ec1d942b150"}};
  for (const auto& [arity, digest] : expected) {
    const PoseidonCircuitConstants& c = PoseidonCircuitConstants::standard(arity);
    const size_t t = c.width();
    filecoin::Sha256 h;
    const auto put = [&](const Fr& x) { h.update(x.to_bytes_le()); };
    for (const Fr& x : c.compressed_round_constants())
      put(x);
    for (size_t i = 0; i < t; ++i)
      for (size_t j = 0; j < t; ++j)
        put(c.mds(i, j));
    for (size_t i = 0; i < t; ++i)
      for (size_t j = 0; j < t; ++j)
        put(c.pre_sparse(i, j));
    for (size_t r = 0; r < c.partial_rounds(); ++r) {
      for (const Fr& x : c.sparse(r).w_hat)
        put(x);
      for (const Fr& x : c.sparse(r).v_rest)
        put(x);
    }
    EXPECT_EQ(filecoin::to_hex(h.finish()), digest) << "arity " << arity;
    EXPECT_EQ(c.compressed_round_constants().size(), t * 8 + c.partial_rounds());
  }
}

TEST(PoseidonCircuit, CountsAndOutputsMatchNeptuneForEveryArity) {
  // neptune circuit.rs test_poseidon_hash (standard), plus the arity-11 column hash (facts 7.2).
  const std::pair<size_t, size_t> standard[] = {{2, 311},  {4, 377},   {8, 505},  {11, 598},
                                                {16, 761}, {24, 1009}, {36, 1385}};
  std::mt19937_64 rng(7);
  for (const auto& [arity, count] : standard) {
    const PoseidonCircuitConstants& c = PoseidonCircuitConstants::standard(arity);
    const std::vector<Fr> vals = random_frs(rng, arity);
    Hashed h;
    hash_in(h, vals, c, c.base().merkle_tag());
    EXPECT_TRUE(h.cs.is_satisfied()) << arity << ": " << *h.cs.which_is_unsatisfied();
    EXPECT_EQ(h.cs.num_constraints(), count) << "arity " << arity;
    EXPECT_EQ(poseidon_circuit_constraints(c.base()), count);
    EXPECT_EQ(*h.out.value(), filecoin::poseidon_hash(c.base(), vals)) << "arity " << arity;
    // Inputs are the only aux variables not created by the circuit; one input (ONE).
    EXPECT_EQ(h.cs.num_inputs(), 1u);
  }
}

TEST(PoseidonCircuit, StrengthenedCountsMatchNeptune) {
  const std::pair<size_t, size_t> strengthened[] = {{2, 367},  {4, 433},   {8, 565},
                                                    {16, 821}, {24, 1069}, {36, 1445}};
  std::mt19937_64 rng(8);
  for (const auto& [arity, count] : strengthened) {
    const PoseidonConstants base(arity, PoseidonStrength::kStrengthened);
    const PoseidonCircuitConstants c(base);
    const std::vector<Fr> vals = random_frs(rng, arity);
    Hashed h;
    hash_in(h, vals, c, base.merkle_tag());
    EXPECT_TRUE(h.cs.is_satisfied());
    EXPECT_EQ(h.cs.num_constraints(), count) << "arity " << arity;
    EXPECT_EQ(*h.out.value(),
              filecoin::poseidon_hash_reference_with_tag(base, base.merkle_tag(), vals));
  }
}

TEST(PoseidonCircuit, MatchesTheUpstreamVectors) {
  // Facts sheet 3.4: neptune hash_values (MerkleTree) and ConstantLength(4) with arity 4.
  const std::pair<size_t, const char*> merkle[] = {
      {2, "0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff"},
      {8, "0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6"},
      {11, "0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163"}};
  for (const auto& [arity, hex] : merkle) {
    const PoseidonCircuitConstants& c = PoseidonCircuitConstants::standard(arity);
    Hashed h;
    hash_in(h, small_ints(arity), c, c.base().merkle_tag());
    EXPECT_TRUE(h.cs.is_satisfied());
    EXPECT_EQ(*h.out.value(), Fr::from_hex(hex)) << "arity " << arity;
  }
  const PoseidonCircuitConstants& c4 = PoseidonCircuitConstants::standard(4);
  Hashed h;
  hash_in(h, small_ints(4), c4, filecoin::poseidon_tag::constant_length(4));
  EXPECT_TRUE(h.cs.is_satisfied());
  EXPECT_EQ(*h.out.value(),
            Fr::from_hex("0x3a21a6ae86754a2939443980077d75934984de08542c99778935b00a07909d45"));
  EXPECT_EQ(h.cs.num_constraints(), 377u);
}

TEST(PoseidonCircuit, EveryDomainTagMatchesTheNativeHash) {
  std::mt19937_64 rng(9);
  for (size_t arity : {2, 8, 11}) {
    const PoseidonCircuitConstants& c = PoseidonCircuitConstants::standard(arity);
    const std::vector<Fr> vals = random_frs(rng, arity);
    const Fr tags[] = {c.base().merkle_tag(), filecoin::poseidon_tag::constant_length(arity),
                       filecoin::poseidon_tag::custom(1), filecoin::poseidon_tag::encryption(),
                       filecoin::poseidon_tag::sponge()};
    for (const Fr& tag : tags) {
      Hashed h;
      hash_in(h, vals, c, tag);
      EXPECT_TRUE(h.cs.is_satisfied());
      EXPECT_EQ(h.cs.num_constraints(), poseidon_circuit_constraints(c.base()));
      EXPECT_EQ(*h.out.value(), filecoin::poseidon_hash_with_tag(c.base(), tag, vals))
          << "arity " << arity << " tag " << tag.to_hex();
    }
  }
}

TEST(PoseidonCircuit, RejectsAPreimageOfTheWrongLength) {
  TestConstraintSystem cs;
  const std::vector<Fr> vals = small_ints(3);
  const std::vector<AllocatedNum> nums = alloc_nums(cs, vals, "data ");
  EXPECT_THROW(
      poseidon_hash_circuit(cs, nums, PoseidonCircuitConstants::standard(4), Fr::from_u64(15)),
      std::invalid_argument);
}

TEST(PoseidonCircuit, Hash2IsTheCommRHashOf311Constraints) {
  // rfp stacked/circuit/hash.rs test_hash2_circuit; filecoin-hashers test_poseidon_hasher node.
  TestConstraintSystem cs;
  const AllocatedNum a = AllocatedNum::alloc(gadgets::Ns(cs, gadgets::Name{"a"}), Fr::from_u64(1));
  const AllocatedNum b = AllocatedNum::alloc(gadgets::Ns(cs, gadgets::Name{"b"}), Fr::zero());
  const AllocatedNum out = poseidon_hash2_circuit(gadgets::Ns(cs, gadgets::Name{"hash2"}), a, b);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 311u);
  EXPECT_EQ(*out.value(),
            Fr::from_hex("0x042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e"));
}

TEST(PoseidonCircuit, HashMdOver71ElementsCosts2770Constraints) {
  // Facts 7.2 (rfp filecoin-hashers poseidon.rs) and test_hash_md's vector: 71 x Fr(1).
  TestConstraintSystem cs;
  const std::vector<Fr> ones(71, Fr::one());
  const std::vector<AllocatedNum> nums = alloc_nums(cs, ones, "element ");
  const AllocatedNum out = poseidon_hash_md_circuit(cs, nums);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 2770u);
  EXPECT_EQ(*out.value(),
            Fr::from_hex("0x59f42220e09ff6f75fd9623643ed9622c26f6d625f4e8195351c54133b332c90"));
  // A short last chunk is zero padded (allocated "padding i").
  std::mt19937_64 rng(10);
  const std::vector<Fr> vals = random_frs(rng, 40);
  TestConstraintSystem cs2;
  const AllocatedNum out2 = poseidon_hash_md_circuit(cs2, alloc_nums(cs2, vals, "element "));
  EXPECT_TRUE(cs2.is_satisfied());
  EXPECT_EQ(*out2.value(), filecoin::poseidon_hash_md(vals));
  EXPECT_EQ(
      cs2.num_aux(),
      40 + 31 + 2 * (poseidon_circuit_constraints(PoseidonCircuitConstants::standard(36).base())));
}

TEST(PoseidonCircuit, RowShapesFollowNeptune) {
  // First round, element 1 of an arity-2 hash over inputs a0, a1 (circuit.rs
  // quintic_s_box_pre_add): (l + pre)^2, l^4, l4 * (l + pre) + post with the compressed
  // constants pre = crc[1], post = crc[t + 1]; the terminal round's mul_sum has no post-add.
  const PoseidonCircuitConstants& c = PoseidonCircuitConstants::standard(2);
  KeyAssembly ka;
  const AllocatedNum in[2] = {AllocatedNum::alloc(ka, std::nullopt),
                              AllocatedNum::alloc(ka, std::nullopt)};
  poseidon_hash_circuit(ka, in);
  const R1cs r1cs = ka.finish();
  const std::vector<Fr>& crc = c.compressed_round_constants();
  const std::string pre = crc[1].to_hex() + "*ONE";
  const std::string neg_post = (-crc[3 + 1]).to_hex() + "*ONE";
  EXPECT_EQ(test::row_shape(r1cs, 0), pre + " + a0 | " + pre + " + a0 | a2");
  EXPECT_EQ(test::row_shape(r1cs, 1), "a2 | a2 | a3");
  EXPECT_EQ(test::row_shape(r1cs, 2), pre + " + a0 | a3 | " + neg_post + " + a4");
  // Second full round, element 0: its input is allocated first ("S-box input"), B = ONE.
  EXPECT_TRUE(test::row_shape(r1cs, 6).ends_with(" | ONE | a8")) << test::row_shape(r1cs, 6);
  // The last S-box's l^5 (row 309) is a plain product; the result row is lc * 1 = result.
  const size_t n = r1cs.num_constraints - r1cs.num_inputs;
  ASSERT_EQ(n, 311u);
  EXPECT_EQ(test::row_shape(r1cs, 309), "a" + std::to_string(r1cs.num_aux - 5) + " | a" +
                                            std::to_string(r1cs.num_aux - 3) + " | a" +
                                            std::to_string(r1cs.num_aux - 2));
}

TEST(PoseidonCircuit, NamesFollowNeptune) {
  const PoseidonCircuitConstants& c = PoseidonCircuitConstants::standard(2);
  Hashed h;
  hash_in(h, small_ints(2), c, c.base().merkle_tag());
  // Paths exist exactly where neptune puts them (get throws otherwise).
  EXPECT_NO_THROW(h.cs.get("first round/quintic s-box 1/(l+rk)^2/squared sum/num"));
  EXPECT_NO_THROW(h.cs.get("first round/quintic s-box 2/l4 * (l + rk)/mul_sum/num"));
  EXPECT_NO_THROW(
      h.cs.get("initial full round 1/quintic s-box 0/S-box input/"
               "allocate for Elt::Num/num"));
  EXPECT_NO_THROW(h.cs.get("partial round 54/solitary quintic s-box/l^4/squared num"));
  EXPECT_NO_THROW(h.cs.get("final full round 2/quintic s-box 2/(l4 * l) + rk)/mul_sum/num"));
  EXPECT_NO_THROW(h.cs.get("terminal full round/quintic s-box 0/l^2/squared num"));
  EXPECT_EQ(h.cs.get("hash result/allocate for Elt::Num/num"), *h.out.value());
  EXPECT_THROW(h.cs.get("first round/quintic s-box 0/l^2/squared num"), std::out_of_range);
}

TEST(PoseidonCircuit, TamperingIsCaughtAtTheRightConstraint) {
  const PoseidonCircuitConstants& c = PoseidonCircuitConstants::standard(8);
  Hashed h;
  hash_in(h, small_ints(8), c, c.base().merkle_tag());
  ASSERT_TRUE(h.cs.is_satisfied());
  h.cs.set("partial round 7/solitary quintic s-box/l^2/squared num", Fr::from_u64(5));
  EXPECT_EQ(h.cs.which_is_unsatisfied(),
            "partial round 7/solitary quintic s-box/l^2/squaring constraint");

  Hashed h2;
  hash_in(h2, small_ints(8), c, c.base().merkle_tag());
  h2.cs.set("hash result/allocate for Elt::Num/num", Fr::from_u64(5));
  EXPECT_EQ(h2.cs.which_is_unsatisfied(), "hash result/enforce num allocation preserves lc");
}

TEST(PoseidonCircuit, MetricAndProvingSystemsAgreeWithTheTestSystem) {
  std::mt19937_64 rng(11);
  for (size_t arity : {2, 4, 8, 11}) {
    const std::vector<Fr> vals = random_frs(rng, arity);
    TestConstraintSystem tcs;
    poseidon_hash_circuit(tcs, alloc_nums(tcs, vals, "data "));
    // Blank synthesis (no witness), as for parameter generation.
    MetricCS mcs(true);
    std::vector<AllocatedNum> blank;
    for (size_t i = 0; i < arity; ++i)
      blank.push_back(AllocatedNum::alloc(mcs, std::nullopt));
    poseidon_hash_circuit(mcs, blank);
    EXPECT_EQ(mcs.num_constraints(), tcs.num_constraints());
    EXPECT_EQ(mcs.num_aux(), tcs.num_aux());
    EXPECT_EQ(mcs.num_inputs(), tcs.num_inputs());
    ProvingAssignment pa;
    const AllocatedNum out = poseidon_hash_circuit(pa, alloc_nums(pa, vals, "data "));
    EXPECT_EQ(pa.a.size(), tcs.num_constraints());
    EXPECT_TRUE(test::rows_satisfied(pa));
    EXPECT_EQ(pa.aux_assignment.back(), *out.value());
  }
}

// A system that reads no combinations (as the metric CS without densities and witness-only
// synthesis): it records values and counts, and calls no linear-combination callback.
class ValuesOnlyCS final : public ConstraintSystem {
 public:
  Variable alloc(NameFn, ValueFn value) override {
    aux.push_back(value());
    return Variable::aux(static_cast<uint32_t>(aux.size() - 1));
  }
  Variable alloc_input(NameFn, ValueFn) override { return Variable::input(++inputs); }
  void enforce(NameFn, LcFn, LcFn, LcFn) override { ++constraints; }
  bool wants_linear_combinations() const override { return false; }
  std::vector<Fr> aux;
  uint32_t inputs = 0;
  size_t constraints = 0;
};

TEST(PoseidonCircuit, ASystemThatReadsNoCombinationsGetsTheSameValuesAndCounts) {
  std::mt19937_64 rng(12);
  for (size_t arity : {2, 8, 11}) {
    const std::vector<Fr> vals = random_frs(rng, arity);
    TestConstraintSystem tcs;
    poseidon_hash_circuit(tcs, alloc_nums(tcs, vals, "data "));
    ValuesOnlyCS vcs;
    const AllocatedNum out = poseidon_hash_circuit(vcs, alloc_nums(vcs, vals, "data "));
    EXPECT_EQ(vcs.constraints, tcs.num_constraints()) << arity;
    ASSERT_EQ(vcs.aux.size(), tcs.num_aux()) << arity;
    EXPECT_TRUE(std::equal(vcs.aux.begin(), vcs.aux.end(), tcs.aux_values().begin())) << arity;
    EXPECT_EQ(*out.value(),
              filecoin::poseidon_hash(PoseidonCircuitConstants::standard(arity).base(), vals));
    MetricCS counted(false);
    std::vector<AllocatedNum> blank;
    for (size_t i = 0; i < arity; ++i)
      blank.push_back(AllocatedNum::alloc(counted, std::nullopt));
    poseidon_hash_circuit(counted, blank);
    EXPECT_EQ(counted.num_constraints(), tcs.num_constraints());
  }
}

}  // namespace
}  // namespace cuzk::circuits
