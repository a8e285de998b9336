// Shared fixtures of the PoRep tests: a temporary directory, a 2 KiB sector sealed once per
// process with the sealing code (random data, so data leaves are not zero), synthetic C1s of the
// test shapes, the prover's row-by-row satisfaction check, and test parameters kept on disk
// between runs (the setup of a 2.7 M-constraint partition takes minutes on two cores).
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "common/r1cs_digest.hpp"
#include "common/temp_dir.hpp"
#include "common/test_parameter_cache.hpp"
#include "cs/key_assembly.hpp"
#include "cs/proving_assignment.hpp"
#include "filecoin/hash/sha256.hpp"
#include "groth16/setup.hpp"
#include "porep/parameter_cache.hpp"
#include "porep/public_params.hpp"
#include "porep/stacked_circuit.hpp"
#include "porep/vanilla/porep_config.hpp"
#include "porep/vanilla/seal_commit.hpp"
#include "porep/vanilla/seal_precommit.hpp"
#include "porep/vanilla/synthetic_c1.hpp"
#include "util/text.hpp"

namespace cuzk::porep::test {

using cuzk::testing::r1cs_digest;
using cuzk::testing::TempDir;

struct SealedSector {
  filecoin::PorepConfig config;
  filecoin::Domain prover_id{};
  uint64_t sector_id = 0;
  filecoin::SealCommitPhase1Output c1;
};

// A 2 KiB V1_1 sector of random (Fr32-valid) data sealed through PC1, PC2 and C1, once per
// process.
inline const SealedSector& sealed_2kib() {
  static const SealedSector s = [] {
    TempDir dir("seal");
    SealedSector out;
    out.config = filecoin::porep_config(filecoin::RegisteredSealProof::kStackedDrg2KiBV1_1);
    out.prover_id = filecoin::prover_id_from_actor_id(1000);
    out.sector_id = 7;
    std::mt19937_64 rng(2026);
    std::vector<uint8_t> data(out.config.sector_size);
    for (size_t i = 0; i < data.size(); ++i) {
      data[i] = static_cast<uint8_t>(rng());
      if (i % 32 == 31) data[i] &= 0x3f;  // each node a canonical field element
    }
    const std::filesystem::path staged = dir.path() / "staged";
    std::ofstream(staged, std::ios::binary)
        .write(reinterpret_cast<const char*>(data.data()),
               static_cast<std::streamsize>(data.size()));
    filecoin::Ticket ticket{}, seed{};
    for (size_t i = 0; i < 32; ++i) {
      ticket[i] = static_cast<uint8_t>(rng());
      seed[i] = static_cast<uint8_t>(rng());
    }
    ticket[31] &= 0x3f;
    filecoin::SealOptions o;
    o.parent_cache_dir = dir.path() / "parents";
    const std::filesystem::path cache = dir.path() / "cache", sealed = dir.path() / "sealed";
    const filecoin::PreCommit1Output pc1 = filecoin::seal_pre_commit_phase1(
        out.config, cache, staged, sealed, out.prover_id, out.sector_id, ticket, o);
    const filecoin::PreCommit2Output pc2 =
        filecoin::seal_pre_commit_phase2(out.config, pc1, cache, sealed, o);
    const filecoin::SealCommitInputs in{cache,  sealed, out.prover_id, out.sector_id,
                                        ticket, seed,   pc2.comm_d,    pc2.comm_r};
    out.c1 = filecoin::seal_commit_phase1(out.config, in);
    return out;
  }();
  return s;
}

// The V1_1 config of a registered size; for the test-only sizes 4 KiB (8-2-0), 16 KiB (8-8-0) and
// 32 KiB (8-8-2), 2 KiB's porep_id with no registered proof.
inline filecoin::PorepConfig config_for(uint64_t sector_size) {
  try {
    return filecoin::porep_config(filecoin::seal_proof_for(sector_size, std::nullopt));
  } catch (const std::invalid_argument&) {
  }
  filecoin::PorepConfig cfg =
      filecoin::porep_config(filecoin::RegisteredSealProof::kStackedDrg2KiBV1_1);
  cfg.sector_size = sector_size;
  cfg.registered.reset();
  return cfg;
}

// A synthetic (vanilla-verifying, zero-data) C1 of config_for(sector_size).
inline filecoin::SyntheticC1 synthetic_c1(uint64_t sector_size, uint64_t seed = 1) {
  filecoin::SyntheticC1Params p;
  p.seed = seed;
  return filecoin::make_synthetic_c1(config_for(sector_size), p);
}

// The prover's view of satisfaction: every row has a * b = c; the index of the first bad row.
inline std::optional<size_t> first_unsatisfied_row(const ProvingAssignment& pa) {
  for (size_t i = 0; i < pa.a.size(); ++i) {
    if (pa.a[i] * pa.b[i] != pa.c[i]) return i;
  }
  return std::nullopt;
}

using cuzk::testing::TestParameters;

inline constexpr const char* kTestParameterSeed = "cuzk porep tests";
// The tests read their own (marked insecure) parameters, whose points our setup made.
inline const filecoin::ParameterChecks kTestParameterChecks{
    .allow_insecure = true, .verify_params_digest = false, .check_bulk_points = false};

// Test parameters of `pp` under $CUZK_POREP_TEST_CACHE (default: the build tree), in a directory
// named by the sector size and the blank circuit's digest (common/test_parameter_cache.hpp). The
// key covers the file format too: sets written before the .meta carried the insecure marker are
// made again rather than read.
inline TestParameters cached_test_parameters(const PublicParams& pp, ThreadPool& pool) {
  return cuzk::testing::cached_test_parameters(
      StackedCircuit::blank(pp),
      {"CUZK_POREP_TEST_CACHE", CUZK_POREP_TEST_CACHE, binary_size_name(pp.sector_size()) + "-",
       kTestParameterSeed, std::string(kTestParameterSeed) + " marked .meta",
       [&](const std::filesystem::path& dir, const groth16::Parameters& params) {
         filecoin::write_test_parameter_files(dir, parameter_set(pp), params, kTestParameterSeed,
                                              Overwrite::kRefuse);
       },
       [&](const std::filesystem::path& dir, ThreadPool& p) {
         return filecoin::read_parameter_file(dir, parameter_set(pp), kTestParameterChecks, p);
       }},
      pool);
}

}  // namespace cuzk::porep::test
