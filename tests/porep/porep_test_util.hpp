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
#include "cs/key_assembly.hpp"
#include "cs/proving_assignment.hpp"
#include "filecoin/porep_config.hpp"
#include "filecoin/seal_commit.hpp"
#include "filecoin/seal_precommit.hpp"
#include "filecoin/sha256.hpp"
#include "filecoin/synthetic_c1.hpp"
#include "groth16/setup.hpp"
#include "porep/parameter_cache.hpp"
#include "porep/public_params.hpp"
#include "porep/stacked_circuit.hpp"

namespace cuzk::porep::test {

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

using cuzk::testing::r1cs_digest;

struct TestParameters {
  groth16::Parameters params;
  std::filesystem::path dir;  // holds the Filecoin-named files
  bool generated = false;     // false: read from an earlier run
  SetupTiming setup;
  double write_s = 0, read_s = 0;
};

inline constexpr const char* kTestParameterSeed = "cuzk porep tests";
// The tests read their own (marked insecure) parameters, whose points our setup made.
inline constexpr filecoin::ParameterChecks kTestParameterChecks{
    .allow_insecure = true, .verify_params_digest = false, .check_bulk_points = false};

// Test parameters of `pp`, kept under $CUZK_POREP_TEST_CACHE (default: the build tree) in a
// directory named by the sector size and the digest of the blank circuit's R1CS, so they are
// regenerated exactly when the circuit changes. The files are written with
// write_test_parameter_files and always read back with read_parameter_file.
inline TestParameters cached_test_parameters(const PublicParams& pp, ThreadPool& pool) {
  const char* env = std::getenv("CUZK_POREP_TEST_CACHE");
  const std::filesystem::path root = env != nullptr && *env != 0 ? env : CUZK_POREP_TEST_CACHE;
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  TestParameters out;
  auto t0 = Clock::now();
  KeyAssembly assembly;
  StackedCircuit::blank(pp).synthesize(assembly);
  R1cs r1cs = assembly.finish();
  out.setup.synthesis_s = since(t0);
  out.setup.constraints = r1cs.num_constraints;
  out.setup.inputs = r1cs.num_inputs;
  out.setup.aux = r1cs.num_aux;
  const std::string prefix = sector_size_name(pp.sector_size()) + "-";
  // The key covers the file format too: sets written before the .meta carried the insecure
  // marker are made again rather than read.
  out.dir =
      root /
      (prefix + r1cs_digest(r1cs, std::string(kTestParameterSeed) + " marked .meta").substr(0, 16));
  const std::filesystem::path complete = out.dir / "complete";
  if (!std::filesystem::exists(complete)) {
    out.generated = true;
    std::error_code ec;
    if (std::filesystem::exists(root)) {
      for (const auto& e : std::filesystem::directory_iterator(root)) {
        if (e.path().filename().string().starts_with(prefix))
          std::filesystem::remove_all(e.path(), ec);
      }
    }
    t0 = Clock::now();
    const groth16::Parameters generated = groth16::generate_parameters_insecure(
        r1cs, groth16::ToxicWaste::insecure_from_seed(kTestParameterSeed), pool);
    out.setup.setup_s = since(t0);
    r1cs = {};
    t0 = Clock::now();
    write_test_parameter_files(out.dir, pp, generated, kTestParameterSeed, Overwrite::kRefuse);
    std::ofstream(complete) << "ok\n";
    out.write_s = since(t0);
  }
  t0 = Clock::now();
  out.params = read_parameter_file(out.dir, pp, kTestParameterChecks, pool);
  out.read_s = since(t0);
  return out;
}

}  // namespace cuzk::porep::test
