// SnapDeals vanilla side against rust-fil-proofs storage-proofs-update:
//   * shapes (partitions, challenges, apex leafs, hs, tree_r shape) against facts sheet 2.3 and
//     the oracle file's sector shapes;
//   * the partition challenges against the hard-coded vectors of challenges.rs
//     `test_challenges_against_hardcoded` (comm_r_new from XorShiftRng(TEST_SEED)), and its
//     bucketing property for every allowed size;
//   * the encoding inverts as decode_from does it; vanilla proofs of a random update verify and
//     survive the bincode round trip, and every check of the verifier fails, named, when the
//     proof or the inputs are corrupted; the decoder refuses truncated and oversized input.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/synthetic_update.hpp"
#include "common/xorshift.hpp"
#include "filecoin/merkle/merkle_proof_codec.hpp"
#include "filecoin/registered_proof.hpp"
#include "oracle_file.hpp"
#include "update/vanilla/update_challenges.hpp"
#include "update/vanilla/update_encoding.hpp"
#include "update/vanilla/update_proof.hpp"
#include "update/vanilla/update_synthetic.hpp"
#include "update/vanilla/update_vanilla.hpp"

namespace cuzk::filecoin {
namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

struct ShapeRow {
  uint64_t bytes;
  unsigned partitions, challenges, apex_leafs;
  TreeShape tree;
  unsigned h;
};

TEST(UpdateParams, EveryAllowedSizeHasTheShapeOfFactsSheet23) {
  const ShapeRow rows[] = {
      {1 * KiB, 1, 10, 8, {8, 4, 0}, 1},       {2 * KiB, 1, 10, 8, {8, 0, 0}, 1},
      {4 * KiB, 1, 10, 8, {8, 2, 0}, 1},       {8 * KiB, 1, 10, 8, {8, 4, 0}, 1},
      {16 * KiB, 2, 10, 128, {8, 8, 0}, 1},    {32 * KiB, 2, 10, 128, {8, 8, 2}, 1},
      {8 * MiB, 4, 10, 128, {8, 0, 0}, 10},    {16 * MiB, 4, 10, 128, {8, 2, 0}, 10},
      {512 * MiB, 16, 86, 128, {8, 0, 0}, 10}, {32 * GiB, 16, 86, 128, {8, 8, 0}, 10},
      {64 * GiB, 16, 86, 128, {8, 8, 2}, 10},
  };
  for (const ShapeRow& r : rows) {
    const UpdateParams pp = UpdateParams::for_sector_size(r.bytes);
    EXPECT_EQ(pp.partition_count, r.partitions) << r.bytes;
    EXPECT_EQ(pp.challenge_count, r.challenges) << r.bytes;
    EXPECT_EQ(pp.apex_leaf_count, r.apex_leafs) << r.bytes;
    EXPECT_EQ(pp.tree_r_shape(), r.tree) << r.bytes;
    EXPECT_EQ(pp.h_default(), r.h) << r.bytes;
    EXPECT_EQ(uint64_t{1} << pp.challenge_bit_len, r.bytes / 32);
    const UpdateParams pos = UpdateParams::poseidon_for_sector_size(r.bytes);
    EXPECT_EQ(pos.partition_count, 1u);
    EXPECT_EQ(pos.challenge_count, r.partitions * r.challenges);
    EXPECT_EQ(pos.apex_leaf_count, 0u);
  }
  // Production h = 10 is hs[3]: h_select 8 (facts 6.9); small sizes' h = 1 is hs[0].
  EXPECT_EQ(UpdateParams::for_sector_size(32 * GiB).h_select(10), 8u);
  EXPECT_EQ(UpdateParams::for_sector_size(2 * KiB).h_select(1), 1u);
  EXPECT_THROW(UpdateParams::for_sector_size(32 * GiB).h_select(6), std::invalid_argument);
  EXPECT_EQ(UpdateParams::poseidon_for_sector_size(32 * GiB).challenge_count, 1376u);
  EXPECT_THROW(UpdateParams::for_sector_size(64 * KiB), std::invalid_argument);
  EXPECT_THROW(UpdateParams::for_sector_size(2 * KiB + 1), std::invalid_argument);
}

TEST(UpdateParams, RegisteredUpdateProofsMatchTheOracle) {
  const auto& ids = test::oracles().at("registered_proof_ids");
  for (const auto& [name, id] : ids.at("update").items()) {
    const UpdateProofInfo& info = update_proof_info(id.get<uint32_t>());
    EXPECT_EQ(info.name, name);
    EXPECT_EQ(update_proof_for_sector_size(info.sector_size), id.get<uint32_t>());
    EXPECT_EQ(ids.at("update_api_version").at(name).get<std::string>(), "1.1.0");
    EXPECT_EQ(info.api_version, ApiVersion::kV1_1_0);
  }
  EXPECT_THROW(update_proof_info(5), std::invalid_argument);
  EXPECT_THROW(update_proof_for_sector_size(4 * KiB), std::invalid_argument);
  // Partition and challenge counts of the registered sizes (the oracle's sector shapes). Its
  // 2 KiB h values and apex leaf count are those of production sizes, which constants.rs does not
  // give a 64-node sector (hs = [1; 6], 8 apex leafs): those two are checked above instead.
  for (const auto& [size_name, s] : test::oracles().at("sector_shapes").at("sizes").items()) {
    const UpdateParams pp = UpdateParams::for_sector_size(s.at("sector_size").get<uint64_t>());
    const auto& snap = s.at("snapdeals");
    EXPECT_EQ(pp.partition_count, snap.at("partitions").get<unsigned>()) << size_name;
    EXPECT_EQ(pp.challenge_count, snap.at("challenges_per_partition").get<unsigned>()) << size_name;
    EXPECT_EQ(UpdateParams::poseidon_for_sector_size(pp.sector_size()).challenge_count,
              s.at("snapdeals_poseidon").at("challenges").get<unsigned>())
        << size_name;
    if (pp.sector_nodes > 1024) {
      EXPECT_EQ(pp.h_default(), snap.at("h_default").get<unsigned>()) << size_name;
      EXPECT_EQ(pp.apex_leaf_count, snap.at("apex_leafs_per_partition").get<unsigned>());
    }
  }
}

// challenges.rs test_challenges_against_hardcoded.
TEST(UpdateChallenges, MatchRustFilProofsHardcodedVectors) {
  testing::XorShiftRng rng(testing::kRfpTestSeed);
  const Domain comm_r_new = fr_to_domain(testing::blstrs_random_fr(rng));
  struct Row {
    uint64_t nodes;
    unsigned k;
    uint32_t first[5];
  };
  const Row rows[] = {
      {1 << 5, 0, {21, 7, 3, 31, 0}},
      {1 << 6, 0, {53, 51, 56, 3, 0}},
      {1 << 7, 0, {117, 25, 62, 0, 72}},
      {1 << 8, 0, {245, 140, 15, 128, 28}},
      {1 << 9, 0, {245, 140, 15, 128, 28}},
      {1 << 9, 1, {286, 308, 493, 510, 508}},
      {1 << 10, 0, {245, 454, 3, 400, 193}},
      {1 << 10, 1, {542, 666, 955, 927, 911}},
      {1 << 18, 0, {36085, 32783, 44060, 10950, 3731}},
      {1 << 18, 1, {78878, 130797, 112892, 93994, 78379}},
      {1 << 19, 0, {101621, 16391, 109319, 25944, 41193}},
      {1 << 19, 1, {209950, 163702, 175679, 224741, 197410}},
      {1 << 24, 0, {1019125, 116736, 706220, 59698, 799498}},
      {1 << 24, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
      {1 << 24, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
      {1 << 24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {uint64_t{1} << 30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {uint64_t{1} << 30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
      {uint64_t{1} << 30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
      {uint64_t{1} << 30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
      {uint64_t{1} << 31, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
      {uint64_t{1} << 31, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
      {uint64_t{1} << 31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
      {uint64_t{1} << 31, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
  };
  for (const Row& r : rows) {
    const UpdateParams pp = UpdateParams::for_sector_size(r.nodes * 32);
    const std::vector<uint32_t> c = update_challenges(pp, comm_r_new, r.k);
    ASSERT_EQ(c.size(), pp.challenge_count);
    EXPECT_EQ(std::vector<uint32_t>(c.begin(), c.begin() + 5),
              std::vector<uint32_t>(std::begin(r.first), std::end(r.first)))
        << r.nodes << " nodes, k = " << r.k;
  }
}

// challenges.rs test_challenge_bucketing.
TEST(UpdateChallenges, EveryPartitionsChallengesLieInItsShareOfTheNodes) {
  testing::XorShiftRng rng(testing::kRfpTestSeed);
  for (const uint64_t kib : {1, 2, 4, 8, 16, 32, 8 << 10, 16 << 10, 512 << 10}) {
    const UpdateParams pp = UpdateParams::for_sector_size(kib * KiB);
    const Domain comm_r_new = fr_to_domain(testing::blstrs_random_fr(rng));
    const uint64_t share = pp.sector_nodes / pp.partition_count;
    for (unsigned k = 0; k < pp.partition_count; ++k) {
      for (const uint32_t c : update_challenges(pp, comm_r_new, k)) {
        EXPECT_GE(c, k * share);
        EXPECT_LT(c, (k + 1) * share);
      }
    }
    EXPECT_THROW(update_challenges(pp, comm_r_new, pp.partition_count), std::invalid_argument);
  }
  Domain not_fr{};
  not_fr.fill(0xff);
  EXPECT_THROW(update_challenges(UpdateParams::for_sector_size(2 * KiB), not_fr, 0),
               std::invalid_argument);
}

TEST(UpdateEncoding, DecodingWithTheInverseRhoGivesTheDataBack) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(8 * KiB, 3);
  const Domain phi = update_phi(u.in.comm_d_new, u.in.comm_r_old);
  for (uint64_t v = 0; v < u.pp.sector_nodes; ++v) {
    Domain key, data, rep;
    std::copy_n(u.sector_key.begin() + v * 32, 32, key.begin());
    std::copy_n(u.data.begin() + v * 32, 32, data.begin());
    std::copy_n(u.replica.begin() + v * 32, 32, rep.begin());
    const Fr rho = update_rho(phi, static_cast<uint32_t>(v >> (u.pp.challenge_bit_len - u.in.h)));
    // decode_from: data = (replica - key) * rho^-1
    EXPECT_EQ(fr_to_domain((domain_to_fr(rep) - domain_to_fr(key)) * rho.inv()), data) << v;
  }
  // h = 1: two rho values, split at the middle node.
  const UpdateRhos rhos(u.pp, phi, 1);
  EXPECT_EQ(rhos.shift(), u.pp.challenge_bit_len - 1);
  EXPECT_EQ(rhos.of_node(0), update_rho(phi, 0));
  EXPECT_EQ(rhos.of_node(u.pp.sector_nodes - 1), update_rho(phi, 1));
  EXPECT_THROW(UpdateRhos(u.pp, phi, 7), std::invalid_argument);
  // A data node >= r is refused, naming it.
  std::vector<uint8_t> bad = u.data, out(bad.size());
  bad[5 * 32 + 31] = 0xff;
  try {
    update_encode_nodes(u.sector_key, bad, out, 0, rhos);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("data node 5"), std::string::npos) << e.what();
  }
}

class UpdateVanillaShapes : public ::testing::TestWithParam<uint64_t> {};

TEST_P(UpdateVanillaShapes, ProofsOfARandomUpdateVerifyAndRoundTripThroughBincode) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(GetParam(), 5);
  ASSERT_EQ(u.proofs.size(), u.pp.partition_count);
  EXPECT_NO_THROW(verify_update_partitions(u.pp, u.in, u.proofs));
  for (const UpdatePartitionProof& p : u.proofs) {
    EXPECT_EQ(p.apex_leafs.size(), u.pp.apex_leaf_count);
    EXPECT_EQ(p.challenge_proofs.size(), u.pp.challenge_count);
    const std::vector<uint8_t> bytes = encode_update_partition_proof(p);
    EXPECT_EQ(decode_update_partition_proof(bytes), p);
  }
  // Partitions are not interchangeable.
  if (u.pp.partition_count > 1) {
    EXPECT_THROW(verify_update_partition(u.pp, u.in, 1, u.proofs[0]), UpdateVerifyError);
  }
}

INSTANTIATE_TEST_SUITE_P(TestShapes, UpdateVanillaShapes,
                         ::testing::Values(1 * KiB, 2 * KiB, 4 * KiB, 16 * KiB, 32 * KiB),
                         [](const auto& info) { return std::to_string(info.param / KiB) + "KiB"; });

// The bincode layout: comm_c, then u64 lengths before the apex leafs and the challenge proofs.
TEST(UpdateProofCodec, LayoutIsBincodeOfThePartitionProofStruct) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(2 * KiB, 7);
  const UpdatePartitionProof& p = u.proofs[0];
  const std::vector<uint8_t> bytes = encode_update_partition_proof(p);
  EXPECT_TRUE(std::equal(p.comm_c.begin(), p.comm_c.end(), bytes.begin()));
  EXPECT_EQ(bytes[32], 8);  // 8 apex leafs, u64 little-endian
  EXPECT_TRUE(std::all_of(bytes.begin() + 33, bytes.begin() + 40, [](uint8_t b) { return !b; }));
  const size_t at = 40 + 8 * 32;
  EXPECT_EQ(bytes[at], 10);  // 10 challenge proofs
  const std::vector<uint8_t> first = merkle_proof_to_bincode(p.challenge_proofs[0].proof_r_old);
  EXPECT_TRUE(std::equal(first.begin(), first.end(), bytes.begin() + at + 8));
  size_t size = at + 8;
  for (const UpdateChallengeProof& c : p.challenge_proofs)
    size += merkle_proof_to_bincode(c.proof_r_old).size() +
            merkle_proof_to_bincode(c.proof_d_new).size() +
            merkle_proof_to_bincode(c.proof_r_new).size();
  EXPECT_EQ(bytes.size(), size);
}

TEST(UpdateProofCodec, TruncatedOversizedAndTrailingInputIsRefused) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(2 * KiB, 7);
  const std::vector<uint8_t> bytes = encode_update_partition_proof(u.proofs[0]);
  for (const size_t cut : {size_t{0}, size_t{31}, size_t{39}, size_t{100}, bytes.size() - 1}) {
    EXPECT_THROW(decode_update_partition_proof(std::span(bytes).first(cut)), std::invalid_argument)
        << cut;
  }
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  EXPECT_THROW(decode_update_partition_proof(longer), std::invalid_argument);
  // A huge apex leaf count is refused before anything is allocated.
  std::vector<uint8_t> huge = bytes;
  std::fill(huge.begin() + 32, huge.begin() + 40, 0xff);
  try {
    decode_update_partition_proof(huge);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("apex_leafs length"), std::string::npos) << e.what();
  }
}

std::string verify_error(const UpdateParams& pp, const UpdatePublicInputs& in, unsigned k,
                         const UpdatePartitionProof& p) {
  try {
    verify_update_partition(pp, in, k, p);
  } catch (const UpdateVerifyError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const char* part) {
  return s.find(part) != std::string::npos;
}

TEST(UpdateVanilla, EveryCorruptionIsRefusedNamingTheCheck) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(16 * KiB, 11);
  const UpdatePartitionProof& good = u.proofs[1];
  ASSERT_EQ(verify_error(u.pp, u.in, 1, good), "");
  const auto with = [&](auto&& change) {
    UpdatePartitionProof p = good;
    change(p);
    return verify_error(u.pp, u.in, 1, p);
  };
  const auto leaf_of = [](MerkleProof& m) -> Domain& {
    return std::visit([](auto& d) -> Domain& { return d.leaf; }, m.data);
  };

  EXPECT_TRUE(contains(with([](auto& p) { p.apex_leafs.pop_back(); }), "number of apex-leafs"));
  EXPECT_TRUE(
      contains(with([](auto& p) { p.challenge_proofs.pop_back(); }), "number of challenge proofs"));
  EXPECT_TRUE(contains(with([](auto& p) { p.comm_c[0] ^= 1; }), "comm_r_old != H(comm_c"));
  // The sector key's leaf: its tree_r_old proof no longer verifies.
  EXPECT_TRUE(contains(with([&](auto& p) { leaf_of(p.challenge_proofs[3].proof_r_old)[0] ^= 1; }),
                       "challenge 3"));
  // Swapped challenge proofs open the wrong nodes.
  EXPECT_TRUE(
      contains(with([](auto& p) { std::swap(p.challenge_proofs[0], p.challenge_proofs[1]); }),
               "challenge 0"));
  // An apex leaf changed: the path no longer meets it.
  const std::string apex = with([](auto& p) {
    for (Domain& d : p.apex_leafs)
      d[0] ^= 1;
  });
  EXPECT_TRUE(contains(apex, "apex leaf")) << apex;

  // Inputs: another h, another comm_d_new or comm_r_new, another partition.
  UpdatePublicInputs in = u.in;
  in.h = 2;
  EXPECT_TRUE(contains(verify_error(u.pp, in, 1, good), "invalid h"));
  in = u.in;
  in.comm_d_new[0] ^= 1;
  EXPECT_TRUE(contains(verify_error(u.pp, in, 1, good), "tree_d_new proof"));
  in = u.in;
  in.comm_r_new[0] ^= 1;
  EXPECT_TRUE(contains(verify_error(u.pp, in, 1, good), "comm_r_new != H(comm_c"));
  EXPECT_TRUE(contains(verify_error(u.pp, u.in, 2, good), "partition-index exceeds"));
  EXPECT_THROW(verify_update_partitions(u.pp, u.in, std::span(u.proofs).first(1)),
               UpdateVerifyError);
}

// A replica node encoded with the wrong value, with tree_r_new rebuilt so every Merkle proof is
// valid: only the encoding check can catch it. The corrupted node must be challenged, and the
// challenges follow comm_r_new: the first node that is among its own update's challenges is used.
TEST(UpdateVanilla, AWronglyEncodedNodeIsRefusedByTheEncodingCheck) {
  const testing::SyntheticUpdate u = testing::make_synthetic_update(2 * KiB, 13);
  for (uint32_t v = 0; v < u.pp.sector_nodes; ++v) {
    std::vector<uint8_t> replica = u.replica;
    replica[v * 32] ^= 1;  // still canonical
    const MerkleTree tree_r_new =
        MerkleTree::build(replica, u.pp.tree_r_shape(), TreeHasher::kPoseidon);
    UpdatePublicInputs in = u.in;
    in.comm_r_new = poseidon_hash2(u.comm_c, tree_r_new.root());
    const std::vector<uint32_t> c = update_challenges(u.pp, in.comm_r_new, 0);
    const auto at = std::find(c.begin(), c.end(), v);
    if (at == c.end()) continue;
    const UpdatePartitionProof p =
        prove_update_partition(u.pp, in, u.comm_c, {*u.tree_r_old, *u.tree_d_new, tree_r_new}, 0);
    const std::string e = verify_error(u.pp, in, 0, p);
    EXPECT_TRUE(contains(e, "replica encoding")) << e;
    EXPECT_TRUE(contains(e, ("challenge " + std::to_string(at - c.begin())).c_str())) << e;
    return;
  }
  FAIL() << "no node of the sector was among its update's challenges";
}

// Synthetic updates (sparse trees, no sector) of every registered size verify, partition by
// partition, and differ by seed; comm_d_new of the nearly-zero data is not the zero comm_d.
TEST(UpdateSynthetic, RegisteredSizesVerifyWithoutASector) {
  ThreadPool pool;
  for (const uint64_t size : {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB, 64 * GiB}) {
    const UpdateParams pp = UpdateParams::for_sector_size(size);
    const SyntheticUpdate s = make_synthetic_update(pp, 3, 64, &pool);
    ASSERT_EQ(s.proofs.size(), pp.partition_count) << size;
    EXPECT_NO_THROW(verify_update_partitions(pp, s.in, s.proofs, &pool)) << size;
    EXPECT_EQ(s.proofs.back().challenge_proofs.size(), pp.challenge_count);
    EXPECT_EQ(s.proofs.back().challenge_proofs[0].proof_d_new.path_length(), pp.challenge_bit_len);
    EXPECT_NE(s.in.comm_r_old, s.in.comm_r_new) << size;
  }
  const UpdateParams pp = UpdateParams::for_sector_size(8 * MiB);
  const SyntheticUpdate a = make_synthetic_update(pp, 1), b = make_synthetic_update(pp, 2);
  EXPECT_NE(a.in.comm_r_new, b.in.comm_r_new);
  EXPECT_THROW(verify_update_partition(pp, b.in, 0, a.proofs[0]), UpdateVerifyError);
  EXPECT_THROW(make_synthetic_update(UpdateParams::poseidon_for_sector_size(2 * KiB), 1),
               std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
