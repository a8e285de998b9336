// WinningPoSt and WindowPoSt through the engine on the CPU with the default handlers: vanilla
// proofs of two sealed 2 KiB sectors, sent as Curio sends them, give proofs that
// post::verify_post_proof accepts for the sectors' public inputs; bad vanilla proofs, wrong
// sector counts, randomness that is not a field element, partition indices out of range, a
// registered proof of the other kind and missing parameter files each fail their job with the
// reason, and the engine serves the next job. Status and metrics count both kinds. A WindowPoSt
// of more sectors than a 2 KiB partition holds is one job of several partitions, each proof
// verified for its own sectors and partition index.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/engine.hpp"
#include "groth16/proof_io.hpp"
#include "post/post_verifier.hpp"
#include "post/vanilla/post_vanilla_prover.hpp"
#include "post_test_util.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using filecoin::Domain;
using filecoin::PoStKind;

struct PoStInputs {
  std::vector<std::vector<uint8_t>> vanilla;
  std::vector<uint8_t> randomness;
};

// A sector of the proof: its id, and which sealed 2 KiB replica it is (a replica proved under
// another sector id is another sector to the PoSt: its challenges follow the id).
struct ProvedSector {
  uint64_t id = 0;
  size_t replica = 0;
};

PoStInputs post_inputs(uint64_t registered, const std::vector<ProvedSector>& sectors,
                       const Domain& randomness) {
  const auto& sealed = post::test::sealed_2kib_sectors();
  const filecoin::PoStConfig config = filecoin::post_config(static_cast<uint32_t>(registered));
  std::vector<uint64_t> ids;
  for (const ProvedSector& s : sectors)
    ids.push_back(s.id);
  PoStInputs in;
  const auto challenges = filecoin::fallback_sector_challenges(config, randomness, ids);
  for (size_t i = 0; i < challenges.size(); ++i) {
    in.vanilla.push_back(filecoin::encode_fallback_post_sector_proof(filecoin::prove_sealed_sector(
        config, ids[i], sealed[sectors[i].replica].replica, challenges[i])));
  }
  in.randomness.assign(randomness.begin(), randomness.end());
  return in;
}

// The first `n` sealed sectors as themselves.
PoStInputs post_inputs(uint64_t registered, size_t n, const Domain& randomness) {
  const auto& sealed = post::test::sealed_2kib_sectors();
  std::vector<ProvedSector> sectors;
  for (size_t i = 0; i < n; ++i)
    sectors.push_back({sealed[i].sector_id, i});
  return post_inputs(registered, sectors, randomness);
}

ProofRequest post_request(ProofKind kind, uint64_t registered, const PoStInputs& in,
                          Priority priority) {
  ProofRequest r;
  r.kind = kind;
  r.registered_proof = registered;
  r.sector_size = 2048;
  r.priority = priority;
  r.vanilla_proofs = in.vanilla;
  r.randomness = in.randomness;
  r.miner_id = 1000;
  return r;
}

// The 2 KiB test parameters of both kinds (made once, cached in the build tree) in one
// parameter directory, as /var/tmp/filecoin-proof-parameters would hold them, and an engine
// configuration on the CPU that reads them.
struct PoStSetup {
  ThreadPool pool{0};
  const filecoin::FallbackPoStParams winning_pp =
      filecoin::fallback_post_params(filecoin::post_config(PoStKind::kWinning, 2048));
  const filecoin::FallbackPoStParams window_pp =
      filecoin::fallback_post_params(filecoin::post_config(PoStKind::kWindow, 2048));
  const post::test::TestParameters winning_params =
      post::test::cached_test_parameters(winning_pp, pool);
  const post::test::TestParameters window_params =
      post::test::cached_test_parameters(window_pp, pool);
  post::test::TempDir params{"engine-post-params"};
  post::test::TempDir pce{"engine-post-pce"};
  EngineConfig config;

  PoStSetup() {
    for (const auto* tp : {&winning_params, &window_params}) {
      for (const auto& e : std::filesystem::directory_iterator(tp->dir))
        if (e.path().filename().string().starts_with("v28-"))
          std::filesystem::create_symlink(e.path(), params.path() / e.path().filename());
    }
    config.backend = "cpu";
    config.param_cache = params.path();
    config.allow_insecure_params = true;  // the test parameters are marked insecure
    config.pce_dir = pce.path();
  }
};

TEST(PoStEngine, TwoKiBWinningAndWindowProofsVerifyAndBadJobsFailWithTheirReason) {
  PoStSetup setup;
  const auto& winning_pp = setup.winning_pp;
  const auto& window_pp = setup.window_pp;
  const auto& winning_params = setup.winning_params;
  const auto& window_params = setup.window_params;
  EngineConfig& config = setup.config;
  Engine engine(config);

  const Domain randomness = filecoin::fr_to_domain(Fr::from_u64(20260));
  const PoStInputs winning_in = post_inputs(0, 1, randomness);  // StackedDrgWinning2KiBV1
  const PoStInputs window_in = post_inputs(10, 2, randomness);  // StackedDrgWindow2KiBV1_2
  const std::string winning =
      engine.submit(post_request(ProofKind::kWinningPost, 0, winning_in, Priority::kCritical))
          .job_id;
  ProofRequest wreq = post_request(ProofKind::kWindowPostPartition, 10, window_in, Priority::kHigh);
  wreq.request_id = "wdpost-1000-0-[12 34 56 78 9 10 11 12]";  // as Curio spells it
  const std::string window = engine.submit(wreq).job_id;

  // Bad jobs.
  std::vector<std::pair<std::string, std::string>> bad;
  const auto submit_bad = [&](ProofRequest r, const std::string& why) {
    bad.emplace_back(engine.submit(std::move(r)).job_id, why);
  };
  PoStInputs tampered = window_in;
  tampered.vanilla[1][100] ^= 1;  // inside sector 8's first path
  submit_bad(post_request(ProofKind::kWindowPostPartition, 10, tampered, Priority::kHigh),
             "vanilla proof refused: slot 1: PoSt sector 8");
  // Three sectors from the last partition of a deadline: the second partition would be 3000.
  PoStInputs three = window_in;
  three.vanilla.push_back(window_in.vanilla[0]);
  ProofRequest past_last =
      post_request(ProofKind::kWindowPostPartition, 10, three, Priority::kHigh);
  past_last.partition_index = 2999;
  submit_bad(past_last, "sectors 2-2 (partition 3000): partition_index 3000 out of range");
  submit_bad(post_request(ProofKind::kWinningPost, 0, window_in, Priority::kCritical),
             "2 vanilla proofs: a winning PoSt takes exactly 1");
  PoStInputs not_fr = window_in;
  not_fr.randomness.assign(32, 0xff);
  submit_bad(post_request(ProofKind::kWindowPostPartition, 10, not_fr, Priority::kHigh),
             "is not a valid field element");
  ProofRequest far = post_request(ProofKind::kWindowPostPartition, 10, window_in, Priority::kHigh);
  far.partition_index = 3000;
  submit_bad(far, "partition_index 3000 out of range");
  submit_bad(post_request(ProofKind::kWindowPostPartition, 0, window_in, Priority::kHigh),
             "registered proof 0 (StackedDrgWinning2KiBV1) is not a window PoSt proof");
  PoStInputs garbage = winning_in;
  garbage.vanilla[0].resize(10);
  submit_bad(post_request(ProofKind::kWinningPost, 0, garbage, Priority::kCritical),
             "vanilla proof 0 is malformed");

  const auto check_proof = [&](const std::string& id, const filecoin::FallbackPoStParams& pp,
                               const groth16::VerifyingKey& vk, size_t sectors) {
    const auto r = engine.await(id, 600s);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->state, JobState::kCompleted) << r->error_message;
    EXPECT_EQ(r->proof.size(), 192u);
    const auto& sealed = post::test::sealed_2kib_sectors();
    std::vector<post::PublicSector> pub;
    for (size_t i = 0; i < sectors; ++i)
      pub.push_back({sealed[i].sector_id, sealed[i].comm_r});
    if (sectors == 1) pub.assign(pp.sector_count, pub[0]);  // Winning: the sector in every slot
    EXPECT_TRUE(post::verify_post_proof(pp, vk, randomness, pub, 0, r->proof));
    std::printf(
        "%s via the engine: queue %llu | srs %llu | synthesis %llu | prove %llu | total "
        "%llu ms\n",
        id.c_str(), static_cast<unsigned long long>(r->timings.queue_wait_ms),
        static_cast<unsigned long long>(r->timings.srs_load_ms),
        static_cast<unsigned long long>(r->timings.synthesis_ms),
        static_cast<unsigned long long>(r->timings.gpu_compute_ms),
        static_cast<unsigned long long>(r->timings.total_ms));
  };
  check_proof(winning, winning_pp, winning_params.params.vk, 1);
  check_proof(window, window_pp, window_params.params.vk, 2);
  for (const auto& [id, why] : bad) {
    const auto r = engine.await(id, 600s);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->state, JobState::kFailed) << why;
    EXPECT_NE(r->error_message.find(why), std::string::npos) << r->error_message;
  }
  // Still serving: a short (padded) window partition after the failures.
  const PoStInputs one = post_inputs(10, 1, randomness);
  const auto again = engine.await(
      engine.submit(post_request(ProofKind::kWindowPostPartition, 10, one, Priority::kHigh)).job_id,
      600s);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->state, JobState::kCompleted) << again->error_message;

  const EngineStatus st = engine.status();
  EXPECT_EQ(st.completed, 3u);
  EXPECT_EQ(st.failed, bad.size());
  bool winning_srs = false, window_srs = false;
  for (const SrsInfo& s : st.srs) {
    winning_srs = winning_srs || s.circuit_id == "winning-2k";
    window_srs = window_srs || s.circuit_id == "wpost-2k";
  }
  EXPECT_TRUE(winning_srs && window_srs);
  const std::string m = engine.metrics_text();
  EXPECT_NE(m.find("cuzk_proofs_total{kind=\"winning\",outcome=\"completed\"} 1"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("cuzk_proofs_total{kind=\"wpost\",outcome=\"completed\"} 2"), std::string::npos);
  EXPECT_NE(m.find("cuzk_proofs_total{kind=\"wpost\",outcome=\"failed\"}"), std::string::npos);
  EXPECT_NE(m.find("cuzk_queue_jobs{kind=\"winning\",state=\"pending\"} 0"), std::string::npos);

  // Missing parameter files: the job names the file.
  post::test::TempDir empty("engine-post-empty");
  EngineConfig no_params = config;
  no_params.param_cache = empty.path();
  Engine second(no_params);
  const auto r = second.await(
      second.submit(post_request(ProofKind::kWinningPost, 0, winning_in, Priority::kCritical))
          .job_id,
      60s);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->state, JobState::kFailed);
  EXPECT_NE(r->error_message.find(".params is missing"), std::string::npos) << r->error_message;
}

// More sectors than a 2 KiB WindowPoSt partition holds (2): one job of consecutive partitions
// from partition_index, its proof their 192-byte proofs in order, each verified by the PoSt
// verifier for its own sectors and partition index (the last partition short, padded).
TEST(PoStEngine, AWindowPoStOfMoreSectorsThanAPartitionHoldsIsOneJobOfSeveralPartitions) {
  PoStSetup setup;
  ASSERT_EQ(setup.window_pp.sector_count, 2u);
  Engine engine(setup.config);
  const Domain randomness = filecoin::fr_to_domain(Fr::from_u64(4242));
  const auto& sealed = post::test::sealed_2kib_sectors();
  // Five sectors: the two sealed ones, then their replicas under three more ids.
  const std::vector<ProvedSector> sectors = {
      {sealed[0].sector_id, 0}, {sealed[1].sector_id, 1}, {21, 0}, {22, 1}, {23, 0}};
  // Window 2 KiB V1_2 from partition 4, and V1 (whose challenges follow each sector's index in
  // the whole PoSt, so the vanilla proofs made for sectors 0-4 are partitions 0-2).
  const std::pair<uint64_t, uint32_t> cases[] = {{10, 4}, {5, 0}};
  for (const auto& [registered, first] : cases) {
    const PoStInputs in = post_inputs(registered, sectors, randomness);
    ProofRequest r = post_request(ProofKind::kWindowPostPartition, registered, in, Priority::kHigh);
    r.partition_index = first;
    // Its API version's challenges (one circuit and key for both).
    const filecoin::FallbackPoStParams pp =
        filecoin::fallback_post_params(filecoin::post_config(static_cast<uint32_t>(registered)));
    const auto result = engine.await(engine.submit(r).job_id, 600s);
    ASSERT_TRUE(result);
    ASSERT_EQ(result->state, JobState::kCompleted) << result->error_message;
    ASSERT_EQ(result->proof.size(), 3 * groth16::kProofBytes);
    const JobTimings& t = result->timings;
    EXPECT_EQ(t.queue_wait_ms + t.srs_load_ms + t.synthesis_ms + t.gpu_compute_ms, t.total_ms);
    const std::span<const uint8_t> proof(result->proof);
    for (unsigned k = 0; k < 3; ++k) {
      std::vector<post::PublicSector> pub;
      for (size_t i = 2 * k; i < std::min<size_t>(2 * k + 2, sectors.size()); ++i)
        pub.push_back({sectors[i].id, sealed[sectors[i].replica].comm_r});
      const auto part = proof.subspan(k * groth16::kProofBytes, groth16::kProofBytes);
      EXPECT_TRUE(post::verify_post_proof(pp, setup.window_params.params.vk, randomness, pub,
                                          first + k, part))
          << "registered " << registered << " partition " << k;
      // Under another partition's sectors it does not verify.
      std::vector<post::PublicSector> other = {
          {sectors[(2 * k + 2) % 5].id, sealed[sectors[(2 * k + 2) % 5].replica].comm_r}};
      EXPECT_FALSE(post::verify_post_proof(pp, setup.window_params.params.vk, randomness, other,
                                           first + k, part))
          << "registered " << registered << " partition " << k;
    }
  }
  const std::string m = engine.metrics_text();
  EXPECT_NE(m.find("cuzk_partitions_total{kind=\"wpost\"} 6"), std::string::npos) << m;
}

}  // namespace
}  // namespace cuzk::engine
