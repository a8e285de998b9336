// C2 end to end on the CPU, as `cuzk porep c2` runs it: a 2 KiB sector sealed with the sealing
// code -> C1 -> insecure test parameters (written under Filecoin's names and read back; kept
// between runs, see porep_test_util.hpp) -> the partitions from the engine's PoRep handler,
// proved by the serial driver -> the proof verifies; a wrong comm_r, comm_d, replica_id or seed
// does not; where a GPU backend exists it gives the CPU's bytes for the same r, s. Parameter
// generation and proving dominate (a 2.7 M-constraint partition), so everything that needs the
// parameters is one test.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "backend/backend_factory.hpp"
#include "engine/handlers/porep_handler.hpp"
#include "engine/serial_prover.hpp"
#include "groth16/proof_io.hpp"
#include "porep/parameter_cache.hpp"
#include "porep/seal_commit_phase2.hpp"
#include "porep_test_util.hpp"

namespace cuzk::porep {
namespace {

TEST(SealCommitPhase2, TwoKiBSealedSectorProvesAndVerifiesOnlyWithItsOwnInputs) {
  const test::SealedSector& s = test::sealed_2kib();
  const PublicParams pp = PublicParams::from_config(s.config);
  ThreadPool pool(0);

  const test::TestParameters tp = test::cached_test_parameters(pp, pool);
  const groth16::Parameters& params = tp.params;
  const groth16::VerifyingKey vk =
      filecoin::read_verifying_key_file(tp.dir, parameter_set(pp), test::kTestParameterChecks);
  EXPECT_EQ(vk, params.vk);
  EXPECT_EQ(tp.setup.inputs, 40u);
  EXPECT_EQ(parameter_metadata_json(pp), "{\"sector_size\":2048}");
  std::printf(
      "2 KiB test parameters (%zu rows, %zu aux): %s; synthesis %.1f s, setup %.1f s, "
      "write %.1f s, read %.1f s\n",
      tp.setup.constraints, tp.setup.aux, tp.generated ? "generated" : "from an earlier run",
      tp.setup.synthesis_s, tp.setup.setup_s, tp.write_s, tp.read_s);

  // The C1 checked as `cuzk porep c2` checks it, its partitions from the engine's PoRep handler.
  const auto t0 = std::chrono::steady_clock::now();
  check_c1(s.c1, pp, &pool);
  const double vanilla_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::unique_ptr<engine::PreparedJob> job = engine::make_porep_job(s.c1, pp, 0);
  engine::SerialProveOptions o;
  o.randomness = [](unsigned) {  // injected r, s (the GPU backend must give the same bytes)
    return groth16::ProofRandomness{Fr::from_u64(11), Fr::from_u64(12)};
  };
  groth16::CpuBackend cpu(pool);
  const engine::SerialProveResult r = engine::prove_serially(*job, params, cpu, pool, o);
  ASSERT_EQ(r.proof.size(), 192u);
  ASSERT_EQ(r.partitions.size(), 1u);
  const engine::PartitionTiming& t = r.partitions[0];
  std::printf(
      "2 KiB C2 (CPU, %u threads): vanilla %.3f s | circuit %.3f, inputs %.3f, synthesis %.2f, "
      "quotient %.2f, msm h %.2f l %.2f a %.2f b_g1 %.2f b_g2 %.2f, verify %.3f, total %.2f s\n",
      pool.size(), vanilla_s, t.circuit_s, t.inputs_s, t.prover.synthesis_s, t.prover.quotient_s,
      t.prover.msm_h_s, t.prover.msm_l_s, t.prover.msm_a_s, t.prover.msm_b_g1_s,
      t.prover.msm_b_g2_s, t.verify_s, t.total_s);

  const PorepPublicInputs good = PorepPublicInputs::from_c1(s.c1);
  std::vector<bool> per;
  EXPECT_TRUE(verify_seal_proof(pp, vk, good, r.proof, &per));
  EXPECT_EQ(per, std::vector<bool>{true});

  const auto expect_rejected = [&](PorepPublicInputs in, const char* what) {
    EXPECT_FALSE(verify_seal_proof(pp, vk, in, r.proof)) << what;
  };
  PorepPublicInputs bad = good;
  bad.comm_r[0] ^= 1;
  expect_rejected(bad, "comm_r");
  bad = good;
  (*bad.seed)[5] ^= 1;  // other challenges
  expect_rejected(bad, "seed");
  bad = good;
  bad.comm_d[3] ^= 1;
  expect_rejected(bad, "comm_d");
  bad = good;
  bad.replica_id[0] ^= 1;
  expect_rejected(bad, "replica_id");

  // Where a GPU backend exists (builds with the gpu layer, a device present), it must give the
  // CPU backend's bytes for the same r, s.
  std::string note;
  const std::unique_ptr<groth16::ProverBackend> gpu = groth16::make_backend("auto", pool, &note);
  if (gpu->name() != "cpu") {
    const engine::SerialProveResult g = engine::prove_serially(*job, params, *gpu, pool, o);
    EXPECT_EQ(g.proof, r.proof) << note;
    std::printf("%s: synthesis %.2f, quotient %.2f, msm h %.2f l %.2f a %.2f b_g1 %.2f b_g2 %.2f\n",
                note.c_str(), g.partitions[0].prover.synthesis_s, g.partitions[0].prover.quotient_s,
                g.partitions[0].prover.msm_h_s, g.partitions[0].prover.msm_l_s,
                g.partitions[0].prover.msm_a_s, g.partitions[0].prover.msm_b_g1_s,
                g.partitions[0].prover.msm_b_g2_s);
  }

  // Malformed proof bytes are errors, not failed verifications.
  std::vector<uint8_t> truncated(r.proof.begin(), r.proof.end() - 1);
  EXPECT_THROW(verify_seal_proof(pp, vk, good, truncated), std::invalid_argument);
  std::vector<uint8_t> garbage(192, 0x11);
  EXPECT_THROW(verify_seal_proof(pp, vk, good, garbage), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::porep
