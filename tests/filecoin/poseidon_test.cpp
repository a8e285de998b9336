// Poseidon (neptune, Strength::Standard) against the facts sheet 3.4 and the oracle file:
// round numbers, Grain constants, Cauchy MDS, domain tags, neptune/rust-fil-proofs hash vectors
// and the curio golden comm_r; the optimized permutation against the round-by-round twin.
#include "filecoin/hash/poseidon.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/commcid.hpp"
#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

using test::fr_from_int_hex;
using test::oracles;

std::vector<Fr> small_ints(const nlohmann::json& list) {
  std::vector<Fr> v;
  for (const auto& x : list)
    v.push_back(Fr::from_u64(x.get<uint64_t>()));
  return v;
}

TEST(Poseidon, RoundNumbersMatchTheFactsTableAndNeptuneTests) {
  // Facts sheet 3.4 / oracle round_numbers_by_arity.
  for (const auto& [arity_str, row] :
       oracles().at("poseidon").at("round_numbers_by_arity").items()) {
    const size_t arity = std::stoul(arity_str);
    const PoseidonRounds r = poseidon_round_numbers(arity);
    EXPECT_EQ(r.full, row.at("full_rounds").get<size_t>()) << "arity " << arity;
    EXPECT_EQ(r.partial, row.at("partial_rounds").get<size_t>()) << "arity " << arity;
    EXPECT_EQ(arity + 1, row.at("width").get<size_t>());
    EXPECT_EQ(poseidon_tag::merkle_tree(arity),
              Fr::from_u64(row.at("merkle_domain_tag_int").get<uint64_t>()));
  }
  // neptune round_numbers.rs test_round_numbers_against_known_values: (t, R_P), R_F = 8.
  const size_t known[][2] = {{2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},  {7, 56},  {8, 57},
                             {9, 57},  {10, 57}, {11, 57}, {12, 57}, {13, 57}, {14, 57}, {15, 57},
                             {16, 59}, {17, 59}, {25, 59}, {37, 60}, {65, 61}};
  for (const auto& [t, rp] : known)
    EXPECT_EQ(poseidon_calc_round_numbers(t, true), (PoseidonRounds{8, rp})) << "t " << t;
  // neptune lib.rs test_strengthened_round_numbers: (arity, R_P).
  const size_t strong[][2] = {{1, 69},  {2, 69},  {3, 70},  {4, 70},  {5, 70},
                              {6, 70},  {7, 72},  {8, 72},  {9, 72},  {10, 72},
                              {11, 72}, {16, 74}, {24, 74}, {36, 75}, {64, 77}};
  for (const auto& [arity, rp] : strong)
    EXPECT_EQ(poseidon_round_numbers(arity, PoseidonStrength::kStrengthened),
              (PoseidonRounds{8, rp}))
        << "arity " << arity;
}

TEST(Poseidon, GrainConstantsAndCauchyMdsMatchTheOracle) {
  for (const auto& [arity_str, row] : oracles().at("poseidon").at("derived_constants").items()) {
    const PoseidonConstants& c = PoseidonConstants::standard(std::stoul(arity_str));
    const auto rc = c.round_constants();
    ASSERT_EQ(rc.size(), (c.full_rounds() + c.partial_rounds()) * c.width());
    const auto& first = row.at("first_3_round_constants_int_hex");
    for (size_t i = 0; i < first.size(); ++i)
      EXPECT_EQ(rc[i], fr_from_int_hex(first.at(i).get<std::string>())) << arity_str << " " << i;
    EXPECT_EQ(rc.back(), fr_from_int_hex(row.at("last_round_constant_int_hex").get<std::string>()));
    const auto& mds = row.at("mds_row0_int_hex");
    ASSERT_EQ(mds.size(), c.width());
    for (size_t j = 0; j < mds.size(); ++j)
      EXPECT_EQ(c.mds(0, j), fr_from_int_hex(mds.at(j).get<std::string>())) << arity_str;
  }
  // Facts 3.4: neptune's t = 9 constants file starts with this value; MDS[0][0] = 1/9.
  const PoseidonConstants& c8 = PoseidonConstants::standard(8);
  EXPECT_EQ(c8.round_constants()[0],
            Fr::from_hex("0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9"));
  EXPECT_EQ(c8.mds(0, 0) * Fr::from_u64(9), Fr::one());
  for (size_t i = 0; i < c8.width(); ++i)
    for (size_t j = 0; j < c8.width(); ++j)
      EXPECT_EQ(c8.mds(i, j) * Fr::from_u64(i + 9 + j), Fr::one());
}

TEST(Poseidon, DomainTagsFollowNeptuneHashType) {
  const Fr two64 = Fr::from_hex("0x10000000000000000");
  EXPECT_EQ(poseidon_tag::merkle_tree(8), Fr::from_u64(255));
  EXPECT_EQ(poseidon_tag::merkle_tree(36), Fr::from_u64(68719476735));
  EXPECT_EQ(poseidon_tag::constant_length(4), Fr::from_u64(4) * two64);
  EXPECT_EQ(poseidon_tag::custom(1), Fr::from_u64(uint64_t{1} << 40));
  EXPECT_EQ(poseidon_tag::encryption(), Fr::from_u64(uint64_t{1} << 32));
  EXPECT_THROW(poseidon_tag::custom(0), std::invalid_argument);
  EXPECT_THROW(poseidon_tag::custom(257), std::invalid_argument);
}

TEST(Poseidon, HashVectorsOfNeptuneAndRustFilProofsMatch) {
  int checked = 0;
  for (const auto& v : oracles().at("poseidon").at("test_vectors")) {
    const std::string source = v.at("source").get<std::string>();
    if (v.contains("inputs_int")) {
      const size_t arity = v.at("arity").get<size_t>();
      const std::vector<Fr> in = small_ints(v.at("inputs_int"));
      const Fr expected = fr_from_int_hex(v.at("output_int_hex").get<std::string>());
      const PoseidonConstants& c = PoseidonConstants::standard(arity);
      if (source.find("ConstantLength") != std::string::npos) {
        if (in.size() > arity) continue;  // multi-permutation sponge, not implemented
        EXPECT_EQ(poseidon_hash_constant_length(c, in), expected) << source << " arity " << arity;
        EXPECT_EQ(poseidon_hash_reference_with_tag(c, poseidon_tag::constant_length(in.size()), in),
                  expected);
      } else {
        EXPECT_EQ(poseidon_hash(c, in), expected) << source << " arity " << arity;
        EXPECT_EQ(poseidon_hash_reference_with_tag(c, c.merkle_tag(), in), expected);
        // The stored 32-byte domain is the little-endian encoding.
        EXPECT_EQ(fr_to_domain(expected), test::domain_hex(v.at("output_le_hex")));
      }
      ++checked;
    } else if (v.contains("node_1_0_int_hex")) {
      // filecoin-hashers poseidon.rs test_poseidon_hasher: binary tree over [1, 0, 0, 1].
      const PoseidonConstants& c2 = PoseidonConstants::standard(2);
      const std::vector<Fr> n10 = {Fr::one(), Fr::zero()}, n01 = {Fr::zero(), Fr::one()};
      const Fr a = poseidon_hash(c2, n10), b = poseidon_hash(c2, n01);
      EXPECT_EQ(a, fr_from_int_hex(v.at("node_1_0_int_hex").get<std::string>()));
      const std::vector<Fr> ab = {a, b};
      EXPECT_EQ(poseidon_hash(c2, ab), fr_from_int_hex(v.at("root_int_hex").get<std::string>()));
      EXPECT_EQ(poseidon_hash2(fr_to_domain(a), fr_to_domain(b)),
                test::domain_hex(v.at("root_le_hex")));
      ++checked;
    } else {
      // filecoin-hashers poseidon.rs test_hash_md: 71 copies of Fr(1).
      const std::vector<Fr> ones(71, Fr::one());
      EXPECT_EQ(poseidon_hash_md(ones), fr_from_int_hex(v.at("output_int_hex").get<std::string>()));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 15);  // 16 vectors less the arity-2 ConstantLength(4) sponge one
}

TEST(Poseidon, DerivedOracleVectorsMatch) {
  const auto& d = oracles().at("poseidon").at("derived_vectors");
  const PoseidonConstants& c2 = PoseidonConstants::standard(2);
  const std::vector<Fr> in01 = {Fr::zero(), Fr::one()}, in12 = {Fr::one(), Fr::from_u64(2)};
  EXPECT_EQ(poseidon_hash_custom(c2, 1, in01),
            fr_from_int_hex(d.at(0).at("output_int_hex").get<std::string>()));
  EXPECT_EQ(poseidon_hash_custom(c2, 1, in12),
            fr_from_int_hex(d.at(1).at("output_int_hex").get<std::string>()));
  std::vector<Fr> one_to_11;
  for (uint64_t i = 1; i <= 11; ++i)
    one_to_11.push_back(Fr::from_u64(i));
  EXPECT_EQ(poseidon_hash(PoseidonConstants::standard(11), one_to_11),
            fr_from_int_hex(d.at(2).at("output_int_hex").get<std::string>()));
  EXPECT_EQ(poseidon_hash(PoseidonConstants::standard(8), std::vector<Fr>(8)),
            fr_from_int_hex(d.at(3).at("output_int_hex").get<std::string>()));
}

TEST(Poseidon, CurioGoldenCommRIsTheBinaryHashOfCommCAndCommRLast) {
  // comm_r = Poseidon_2(comm_c, comm_r_last) on a real 32 GiB sector (facts 5.6, 10).
  const auto& g = oracles().at("curio_golden_window_post_32GiB");
  const Domain comm_r = poseidon_hash2(test::domain_hex(g.at("comm_c_le_hex")),
                                       test::domain_hex(g.at("comm_r_last_le_hex")));
  EXPECT_EQ(comm_r, test::domain_hex(g.at("comm_r_le_hex")));
  EXPECT_EQ(commitment_to_cid(comm_r, CommitmentKind::kSealed),
            g.at("sealed_cid").get<std::string>());
}

TEST(Poseidon, OptimizedPermutationEqualsTheReferenceOnRandomStates) {
  std::mt19937_64 rng(42);
  for (size_t arity : {1, 2, 3, 4, 8, 11, 16, 24, 36}) {
    for (PoseidonStrength strength :
         {PoseidonStrength::kStandard, PoseidonStrength::kStrengthened}) {
      const PoseidonConstants c(arity, strength);
      for (int trial = 0; trial < 3; ++trial) {
        std::vector<Fr> a(c.width()), b;
        for (Fr& x : a)
          x = Fr::random(rng);
        b = a;
        poseidon_permute_reference(c, a);
        poseidon_permute(c, b);
        ASSERT_EQ(a, b) << "arity " << arity << " trial " << trial;
      }
    }
  }
}

TEST(Poseidon, WrongInputCountsAndNonCanonicalDomainsAreRejected) {
  const PoseidonConstants& c2 = PoseidonConstants::standard(2);
  EXPECT_THROW(poseidon_hash(c2, std::vector<Fr>(1)), std::invalid_argument);
  EXPECT_THROW(poseidon_hash(c2, std::vector<Fr>(3)), std::invalid_argument);
  EXPECT_THROW(poseidon_hash_with_tag(c2, Fr::zero(), std::vector<Fr>(3)), std::invalid_argument);
  std::vector<Fr> state(2);
  EXPECT_THROW(poseidon_permute(c2, state), std::invalid_argument);
  Domain big;
  big.fill(0xff);
  EXPECT_THROW(poseidon_hash2(big, Domain{}), std::invalid_argument);
  EXPECT_THROW(poseidon_hash_md(std::vector<Fr>(1)), std::invalid_argument);
  EXPECT_THROW(PoseidonConstants(0), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
