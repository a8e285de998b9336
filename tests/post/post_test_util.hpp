// Shared fixtures of the PoSt tests: the upstream test shapes (fallback_circuit.rs: 64 leaves
// per base tree, 5 challenges, V1_1), 2 KiB sectors sealed once per process with the sealing code
// (random data), synthetic sector proofs of a partition, and test parameters kept on disk between
// runs, keyed by the blank circuit's R1CS digest (regenerated exactly when the circuit changes).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/temp_dir.hpp"
#include "common/test_parameter_cache.hpp"
#include "cs/key_assembly.hpp"
#include "filecoin/replica_id.hpp"
#include "groth16/setup.hpp"
#include "porep/vanilla/porep_config.hpp"
#include "porep/vanilla/seal_precommit.hpp"
#include "post/fallback_circuit.hpp"
#include "post/parameter_cache.hpp"
#include "post/vanilla/post_config.hpp"
#include "post/vanilla/post_vanilla_prover.hpp"

namespace cuzk::post::test {

using cuzk::testing::TempDir;

inline filecoin::FallbackPoStParams upstream_test_shape(const filecoin::TreeShape& tree,
                                                        unsigned sectors_per_partition) {
  filecoin::FallbackPoStParams pp;
  pp.sector_size = 64 * tree.base_tree_count() * 32;
  pp.challenge_count = 5;
  pp.sector_count = sectors_per_partition;
  pp.api_version = filecoin::ApiVersion::kV1_1_0;
  pp.tree = tree;
  return pp;
}

// PoStConfig of an upstream test shape whose tree is its size's own (2 KiB: 8-0-0), for the
// vanilla prover.
inline filecoin::PoStConfig config_of(const filecoin::FallbackPoStParams& pp) {
  filecoin::PoStConfig c;
  c.kind = filecoin::PoStKind::kWindow;
  c.sector_size = pp.sector_size;
  c.challenge_count = pp.challenge_count;
  c.sector_count = pp.sector_count;
  c.api_version = pp.api_version;
  return c;
}

// Synthetic vanilla proofs of `ids`, challenged as `config` derives it.
inline std::vector<filecoin::FallbackPoStSectorProof> synthetic_proofs(
    const filecoin::PoStConfig& config, const filecoin::Domain& randomness,
    const std::vector<uint64_t>& ids, uint64_t seed = 1) {
  const auto challenges = filecoin::fallback_sector_challenges(config, randomness, ids);
  std::vector<filecoin::FallbackPoStSectorProof> out;
  for (size_t i = 0; i < challenges.size(); ++i)
    out.push_back(filecoin::synthetic_sector_proof(config, ids[i], seed, challenges[i]));
  return out;
}

struct SealedSector {
  uint64_t sector_id = 0;
  filecoin::SealedReplica replica;
  filecoin::Domain comm_r{};
};

// Two 2 KiB V1_1 sectors (ids 7 and 8) of random data for actor 1000, sealed through PC1 and
// PC2 once per process; their files live until the process ends.
inline const std::vector<SealedSector>& sealed_2kib_sectors() {
  static TempDir dir("post-seal");
  static const std::vector<SealedSector> sectors = [] {
    const filecoin::PorepConfig config =
        filecoin::porep_config(filecoin::RegisteredSealProof::kStackedDrg2KiBV1_1);
    const filecoin::Domain prover = filecoin::prover_id_from_actor_id(1000);
    std::mt19937_64 rng(2027);
    std::vector<SealedSector> out;
    for (uint64_t id : {7, 8}) {
      const std::filesystem::path root = dir.path() / std::to_string(id);
      std::filesystem::create_directories(root);
      std::vector<uint8_t> data(config.sector_size);
      for (size_t i = 0; i < data.size(); ++i) {
        data[i] = static_cast<uint8_t>(rng());
        if (i % 32 == 31) data[i] &= 0x3f;  // each node a canonical field element
      }
      const std::filesystem::path staged = root / "staged";
      std::ofstream(staged, std::ios::binary)
          .write(reinterpret_cast<const char*>(data.data()),
                 static_cast<std::streamsize>(data.size()));
      filecoin::Ticket ticket{};
      for (auto& b : ticket)
        b = static_cast<uint8_t>(rng());
      ticket[31] &= 0x3f;
      filecoin::SealOptions o;
      o.parent_cache_dir = dir.path() / "parents";
      SealedSector s;
      s.sector_id = id;
      s.replica = {root / "cache", root / "sealed"};
      const filecoin::PreCommit1Output pc1 = filecoin::seal_pre_commit_phase1(
          config, s.replica.cache_dir, staged, s.replica.sealed_path, prover, id, ticket, o);
      s.comm_r = filecoin::seal_pre_commit_phase2(config, pc1, s.replica.cache_dir,
                                                  s.replica.sealed_path, o)
                     .comm_r;
      out.push_back(s);
    }
    return out;
  }();
  return sectors;
}

using cuzk::testing::TestParameters;

inline constexpr const char* kTestParameterSeed = "cuzk post tests";
// The tests read their own (marked insecure) parameters, whose points our setup made.
inline const filecoin::ParameterChecks kTestParameterChecks{
    .allow_insecure = true, .verify_params_digest = false, .check_bulk_points = false};

// Test parameters of `pp` under $CUZK_POST_TEST_CACHE (default: the build tree), in a directory
// named by the partition's shape and the blank circuit's digest (common/test_parameter_cache.hpp).
inline TestParameters cached_test_parameters(const filecoin::FallbackPoStParams& pp,
                                             ThreadPool& pool) {
  return cuzk::testing::cached_test_parameters(
      FallbackPoStCircuit::blank(pp),
      {"CUZK_POST_TEST_CACHE", CUZK_POST_TEST_CACHE,
       "post-" + std::to_string(pp.sector_size) + "-" + std::to_string(pp.sector_count) + "x" +
           std::to_string(pp.challenge_count) + "-",
       kTestParameterSeed, kTestParameterSeed,
       [&](const std::filesystem::path& dir, const groth16::Parameters& params) {
         filecoin::write_test_parameter_files(dir, parameter_set(pp), params, kTestParameterSeed,
                                              Overwrite::kRefuse);
       },
       [&](const std::filesystem::path& dir, ThreadPool& p) {
         return filecoin::read_parameter_file(dir, parameter_set(pp), kTestParameterChecks, p);
       }},
      pool);
}

}  // namespace cuzk::post::test
