// Synthetic C1 and its sparse trees: a sparse tree equals the dense tree (merkle_tree.hpp) with the
// same leaves, roots and proofs, for single, sub and top shapes; synthetic outputs of 2 KiB,
// 32 GiB and 64 GiB (and the 8-2-0 / 8-8-0 / 8-8-2 test shapes) pass the vanilla verifier with the
// real shape (partitions x challenges, path lengths, 11-row columns), have the real zero comm_d
// (facts sheet 5.7) and the interactive challenges of their replica_id and seed, are deterministic
// from the seed, and survive the JSON round trip; synthetic / NI configs are refused.
#include "porep/vanilla/synthetic_c1.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "filecoin/merkle/merkle_tree.hpp"
#include "filecoin/merkle/sparse_merkle_tree.hpp"
#include "filecoin/pieces.hpp"
#include "filecoin/replica_id.hpp"
#include "oracle_file.hpp"
#include "porep/vanilla/c1_json.hpp"
#include "porep/vanilla/porep_verify.hpp"

namespace cuzk::filecoin {
namespace {

SyntheticC1Params seeded(uint64_t seed) {
  SyntheticC1Params p;
  p.seed = seed;
  return p;
}

TEST(SparseMerkleTree, EqualsTheDenseTreeWithTheSameLeavesForEveryShapeKind) {
  std::mt19937_64 rng(5);
  const auto rand_domain = [&] {
    Domain d;
    for (auto& b : d)
      b = static_cast<uint8_t>(rng());
    return trim_to_fr32(d);
  };
  for (const auto& [shape, leaves] :
       {std::pair{TreeShape{8, 0, 0}, 512u}, std::pair{TreeShape{8, 2, 0}, 128u},
        std::pair{TreeShape{8, 8, 2}, 1024u}}) {
    const Domain filler = rand_domain();
    SparseMerkleTree sparse(shape, leaves, TreeHasher::kPoseidon, filler);
    std::vector<uint8_t> dense(leaves * 32);
    for (uint64_t i = 0; i < leaves; ++i)
      std::copy(filler.begin(), filler.end(), dense.begin() + static_cast<ptrdiff_t>(i * 32));
    std::vector<uint64_t> set;
    for (int k = 0; k < 9; ++k) {
      const uint64_t i = rng() % leaves;
      const Domain v = rand_domain();
      sparse.set_leaf(i, v);
      std::copy(v.begin(), v.end(), dense.begin() + static_cast<ptrdiff_t>(i * 32));
      set.push_back(i);
    }
    sparse.build();
    const MerkleTree tree = MerkleTree::build(dense, shape, TreeHasher::kPoseidon);
    EXPECT_EQ(sparse.root(), tree.root()) << shape.to_string();
    set.push_back(0);
    set.push_back(leaves - 1);
    for (uint64_t i : set)
      EXPECT_EQ(sparse.gen_proof(i), tree.gen_proof(i)) << shape.to_string() << " leaf " << i;
  }
  SparseMerkleTree zero({2, 0, 0}, 1024, TreeHasher::kSha256, Domain{});
  zero.build();
  EXPECT_EQ(zero.root(), empty_comm_d(1024 * 32));
}

void expect_real_shape(const SyntheticC1& s, const PorepConfig& cfg) {
  const SealCommitPhase1Output& c1 = s.c1;
  ASSERT_EQ(c1.vanilla_proofs.size(), cfg.partitions());
  EXPECT_EQ(c1.comm_d, empty_comm_d(cfg.sector_size));
  EXPECT_EQ(c1.replica_id,
            generate_replica_id(s.prover_id, s.sector_id, c1.ticket, c1.comm_d, cfg.porep_id));
  const unsigned tree_levels = cfg.shape().tree.path_length(cfg.nodes());
  for (unsigned k = 0; k < cfg.partitions(); ++k) {
    ASSERT_EQ(c1.vanilla_proofs[k].size(), cfg.challenges_per_partition());
    const auto challenges =
        porep_partition_challenges(cfg.challenge_params(), c1.replica_id, std::nullopt, c1.seed, k);
    for (size_t i = 0; i < challenges.size(); ++i) {
      const PorepChallengeProof& p = c1.vanilla_proofs[k][i];
      EXPECT_EQ(p.replica_column_proofs.c_x.column.index, challenges[i]);
      EXPECT_EQ(p.replica_column_proofs.c_x.column.rows.size(), cfg.layers());
      EXPECT_EQ(p.comm_r_last_proof.path_length(), tree_levels);
      EXPECT_EQ(p.comm_d_proofs.path_length(), static_cast<size_t>(std::countr_zero(cfg.nodes())));
    }
  }
}

TEST(SyntheticC1, TwoKiBOutputVerifiesAndRoundTripsThroughJson) {
  const PorepConfig cfg = porep_config(RegisteredSealProof::kStackedDrg2KiBV1_1);
  const SyntheticC1 s = make_synthetic_c1(cfg, seeded(7));
  expect_real_shape(s, cfg);
  PorepVerifyOptions o;
  o.prover_id = s.prover_id;
  o.sector_id = s.sector_id;
  EXPECT_NO_THROW(verify_seal_commit_phase1(s.c1, o));
  EXPECT_EQ(seal_commit_phase1_from_json(seal_commit_phase1_to_json(s.c1)), s.c1);
}

TEST(SyntheticC1, IsDeterministicFromItsSeed) {
  const PorepConfig cfg = porep_config(RegisteredSealProof::kStackedDrg2KiBV1);
  const SyntheticC1 a = make_synthetic_c1(cfg, seeded(3));
  EXPECT_EQ(make_synthetic_c1(cfg, seeded(3)).c1, a.c1);
  const SyntheticC1 b = make_synthetic_c1(cfg, seeded(4));
  EXPECT_NE(b.c1.comm_r, a.c1.comm_r);
  EXPECT_NE(b.c1.seed, a.c1.seed);
  EXPECT_NO_THROW(verify_seal_commit_phase1(b.c1));
}

TEST(SyntheticC1, ThirtyTwoGiBOutputHasTheRealShapeAndVerifiesInSeconds) {
  ThreadPool pool(2);
  const PorepConfig cfg = porep_config(RegisteredSealProof::kStackedDrg32GiBV1_1);
  const auto t0 = std::chrono::steady_clock::now();
  const SyntheticC1 s = make_synthetic_c1(cfg, seeded(1), &pool);
  const auto t1 = std::chrono::steady_clock::now();
  expect_real_shape(s, cfg);
  EXPECT_EQ(cfg.partitions(), 10u);
  EXPECT_EQ(cfg.challenges_per_partition(), 18u);
  EXPECT_TRUE(std::holds_alternative<SubProof>(s.c1.vanilla_proofs[9][17].comm_r_last_proof.data));
  PorepVerifyOptions o;
  o.prover_id = s.prover_id;
  o.sector_id = s.sector_id;
  o.pool = &pool;
  EXPECT_NO_THROW(verify_seal_commit_phase1(s.c1, o));
  const auto t2 = std::chrono::steady_clock::now();
  std::printf("32 GiB synthetic C1: generate %.2f s, verify %.2f s\n",
              std::chrono::duration<double>(t1 - t0).count(),
              std::chrono::duration<double>(t2 - t1).count());
}

TEST(SyntheticC1, SixtyFourGiBOutputUsesTopProofsAndVerifies) {
  ThreadPool pool(2);
  const PorepConfig cfg = porep_config(RegisteredSealProof::kStackedDrg64GiBV1_1);
  const SyntheticC1 s = make_synthetic_c1(cfg, seeded(2), &pool);
  expect_real_shape(s, cfg);
  EXPECT_TRUE(std::holds_alternative<TopProof>(s.c1.vanilla_proofs[0][0].comm_r_last_proof.data));
  PorepVerifyOptions o;
  o.pool = &pool;
  EXPECT_NO_THROW(verify_seal_commit_phase1(s.c1, o));
}

TEST(SyntheticC1, TestShapesWithSubAndTopLevelsVerify) {
  for (uint64_t size : {uint64_t{4} << 10, uint64_t{16} << 10, uint64_t{32} << 10}) {
    PorepConfig cfg = porep_config(RegisteredSealProof::kStackedDrg2KiBV1_1);
    cfg.sector_size = size;  // test-only shapes 8-2-0, 8-8-0, 8-8-2 (constants.rs)
    cfg.registered.reset();
    const SyntheticC1 s = make_synthetic_c1(cfg, seeded(size));
    expect_real_shape(s, cfg);
    EXPECT_NO_THROW(verify_seal_commit_phase1(s.c1, cfg)) << size;
  }
}

TEST(SyntheticC1, RefusesProofTypesWhoseChallengesDependOnCommR) {
  for (RegisteredSealProof p :
       {RegisteredSealProof::kStackedDrg32GiBV1_1_Feat_SyntheticPoRep,
        RegisteredSealProof::kStackedDrg32GiBV1_2_Feat_NonInteractivePoRep}) {
    EXPECT_THROW(make_synthetic_c1(porep_config(p), {}), std::invalid_argument);
  }
}

}  // namespace
}  // namespace cuzk::filecoin
