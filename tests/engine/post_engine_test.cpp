// WinningPoSt and WindowPoSt through the engine on the CPU with the default handlers: vanilla
// proofs of two sealed 2 KiB sectors, sent as Curio sends them, give proofs that
// post::verify_post_proof accepts for the sectors' public inputs; bad vanilla proofs, wrong
// sector counts, randomness that is not a field element, partition indices out of range, a
// registered proof of the other kind and missing parameter files each fail their job with the
// reason, and the engine serves the next job. Status and metrics count both kinds.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/engine.hpp"
#include "filecoin/post/post_vanilla_prover.hpp"
#include "groth16/proof_io.hpp"
#include "post/post_verifier.hpp"
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

PoStInputs post_inputs(uint64_t registered, size_t sectors, const Domain& randomness) {
  const auto& sealed = post::test::sealed_2kib_sectors();
  const filecoin::PoStConfig config = filecoin::post_config(static_cast<uint32_t>(registered));
  std::vector<uint64_t> ids;
  for (size_t i = 0; i < sectors; ++i)
    ids.push_back(sealed[i].sector_id);
  PoStInputs in;
  const auto challenges = filecoin::fallback_sector_challenges(config, randomness, ids);
  for (size_t i = 0; i < challenges.size(); ++i) {
    in.vanilla.push_back(filecoin::encode_fallback_post_sector_proof(
        filecoin::prove_sealed_sector(config, ids[i], sealed[i].replica, challenges[i])));
  }
  in.randomness.assign(randomness.begin(), randomness.end());
  return in;
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

TEST(PoStEngine, TwoKiBWinningAndWindowProofsVerifyAndBadJobsFailWithTheirReason) {
  ThreadPool pool(0);
  const auto winning_pp =
      filecoin::fallback_post_params(filecoin::post_config(PoStKind::kWinning, 2048));
  const auto window_pp =
      filecoin::fallback_post_params(filecoin::post_config(PoStKind::kWindow, 2048));
  const post::test::TestParameters winning_params =
      post::test::cached_test_parameters(winning_pp, pool);
  const post::test::TestParameters window_params =
      post::test::cached_test_parameters(window_pp, pool);
  // One parameter directory holding both (as /var/tmp/filecoin-proof-parameters would).
  post::test::TempDir params("engine-post-params");
  for (const auto* tp : {&winning_params, &window_params}) {
    for (const auto& e : std::filesystem::directory_iterator(tp->dir))
      if (e.path().filename().string().starts_with("v28-"))
        std::filesystem::create_symlink(e.path(), params.path() / e.path().filename());
  }

  EngineConfig config;
  config.backend = "cpu";
  config.param_cache = params.path();
  config.allow_insecure_params = true;  // the test parameters are marked insecure
  post::test::TempDir pce("engine-post-pce");
  config.pce_dir = pce.path();
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
  PoStInputs three = window_in;
  three.vanilla.push_back(window_in.vanilla[0]);
  submit_bad(post_request(ProofKind::kWindowPostPartition, 10, three, Priority::kHigh),
             "3 vanilla proofs: a window PoSt partition takes 1 to 2");
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

}  // namespace
}  // namespace cuzk::engine
