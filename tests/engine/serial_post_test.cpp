// WinningPoSt and WindowPoSt end to end on the CPU at 2 KiB, from sectors sealed here, as
// `cuzk post prove` runs them: the vanilla prover's output encoded as Curio sends it, decoded and
// verified (post_request.hpp), the partition from the engine's PoSt handler proved by the serial
// driver with test parameters read back from their Filecoin-named files, and the proof verified
// against the public inputs a verifier computes from the sectors alone; a proof does not verify
// for other randomness, another sector's comm_r or another partition index (Window V1).
#include <gtest/gtest.h>

#include <cstdio>

#include "engine/handlers/post_handler.hpp"
#include "engine/serial_prover.hpp"
#include "groth16/backend.hpp"
#include "post/post_verifier.hpp"
#include "post/vanilla/post_request.hpp"
#include "post/vanilla/post_vanilla_prover.hpp"
#include "post_test_util.hpp"

namespace cuzk::post {
namespace {

using filecoin::Domain;
using filecoin::PoStKind;

struct Prepared {
  filecoin::PoStRequest request;
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<uint8_t> randomness;
};

// The vanilla proofs of `count` sealed sectors for `registered`, as Curio would send them.
void make_request(Prepared& p, PoStKind kind, uint64_t registered, size_t count,
                  const Domain& randomness) {
  const auto& sectors = test::sealed_2kib_sectors();
  const filecoin::PoStConfig config = filecoin::post_config(static_cast<uint32_t>(registered));
  std::vector<uint64_t> ids;
  for (size_t i = 0; i < count; ++i)
    ids.push_back(sectors[i].sector_id);
  const auto challenges = filecoin::fallback_sector_challenges(config, randomness, ids);
  p.bytes.clear();
  for (size_t i = 0; i < challenges.size(); ++i) {
    p.bytes.push_back(filecoin::encode_fallback_post_sector_proof(
        filecoin::prove_sealed_sector(config, ids[i], sectors[i].replica, challenges[i])));
  }
  p.randomness.assign(randomness.begin(), randomness.end());
  p.request.kind = kind;
  p.request.registered_proof = registered;
  p.request.vanilla_proofs = p.bytes;
  p.request.randomness = p.randomness;
  p.request.miner_id = 1000;
}

void prove_and_verify(PoStKind kind, uint64_t registered, size_t sectors) {
  const Domain randomness = filecoin::fr_to_domain(Fr::from_u64(1000 + registered));
  Prepared p;
  make_request(p, kind, registered, sectors, randomness);
  const filecoin::PoStJob job = filecoin::decode_post_request(p.request);
  ThreadPool pool(0);
  const test::TestParameters tp = test::cached_test_parameters(job.params, pool);
  groth16::CpuBackend backend(pool);
  const engine::SerialProveResult proved =
      engine::prove_serially(*engine::make_post_job(job), tp.params, backend, pool);
  ASSERT_EQ(proved.proof.size(), 192u);
  ASSERT_EQ(proved.partitions.size(), 1u);
  const std::vector<uint8_t>& proof = proved.proof;
  const engine::PartitionTiming& t = proved.partitions[0];
  std::printf(
      "%s 2 KiB (%zu sector(s)): parameters %s (%.1f s) | circuit %.3f | synthesis %.3f "
      "| prove %.3f | verify %.3f | total %.3f s\n",
      filecoin::post_kind_name(kind), sectors, tp.generated ? "generated" : "cached",
      tp.setup.setup_s, t.circuit_s, t.prover.synthesis_s, t.prover.total_s, t.verify_s, t.total_s);

  // The verifier's view: the sectors' ids and comm_rs (from the seal), the randomness.
  const groth16::VerifyingKey vk = filecoin::read_verifying_key_file(
      tp.dir, parameter_set(job.params), test::kTestParameterChecks);
  std::vector<PublicSector> pub;
  for (size_t i = 0; i < job.partition.real_slots; ++i)
    pub.push_back(
        {test::sealed_2kib_sectors()[i].sector_id, test::sealed_2kib_sectors()[i].comm_r});
  if (kind == PoStKind::kWinning) pub.assign(1, pub[0]);  // one sector, slots are implied
  const auto verify = [&](const Domain& r, const std::vector<PublicSector>& s, uint32_t k) {
    if (kind == PoStKind::kWinning) {
      // A Winning verifier repeats the sector in every slot (verify_winning_post).
      std::vector<PublicSector> slots(job.params.sector_count, s[0]);
      return verify_post_proof(job.params, vk, r, slots, k, proof);
    }
    return verify_post_proof(job.params, vk, r, s, k, proof);
  };
  EXPECT_TRUE(verify(randomness, pub, 0));
  Domain other = randomness;
  other[0] ^= 1;
  EXPECT_FALSE(verify(other, pub, 0));
  std::vector<PublicSector> wrong = pub;
  wrong[0].comm_r = test::sealed_2kib_sectors()[1].comm_r;
  wrong[0].sector_id = test::sealed_2kib_sectors()[1].sector_id + (kind == PoStKind::kWinning);
  EXPECT_FALSE(verify(randomness, wrong, 0));
  if (registered == 5) {
    EXPECT_FALSE(verify(randomness, pub, 1));  // V1: the position counts
  }
  EXPECT_THROW(verify_post_proof(job.params, vk, randomness, pub, 0, std::span(proof).first(191)),
               std::invalid_argument);
}

TEST(PoStProve, WindowPoStTwoKiBPartitionOfTwoSectors) {
  prove_and_verify(PoStKind::kWindow, 10, 2);  // StackedDrgWindow2KiBV1_2 (Go V1_1)
}

TEST(PoStProve, WindowPoStShortPartitionIsPaddedAndV1DependsOnThePosition) {
  prove_and_verify(PoStKind::kWindow, 5, 1);  // StackedDrgWindow2KiBV1, one sector of two
}

TEST(PoStProve, WinningPoStTwoKiB) {
  prove_and_verify(PoStKind::kWinning, 0, 1);  // StackedDrgWinning2KiBV1
}

}  // namespace
}  // namespace cuzk::post
