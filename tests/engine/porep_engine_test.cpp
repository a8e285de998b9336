// PoRep C2 through the engine on the CPU: a sealed 2 KiB sector's C1 (wrapper and bare JSON)
// gives a proof that `porep::verify_seal_proof` accepts for the sector's public inputs; a C1 the
// vanilla verifier refuses, a registered proof that does not match the C1, a sector size that
// does not match the registered proof, and missing parameter files each fail their job with the
// reason, and the engine serves the next job.
#include <gtest/gtest.h>

#include "engine/engine.hpp"
#include "porep/seal_commit_phase2.hpp"
#include "porep/vanilla/c1_json.hpp"
#include "porep/vanilla/c1_wrapper.hpp"
#include "porep_test_util.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

std::vector<uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

ProofRequest porep_request(std::vector<uint8_t> c1_json, uint64_t registered) {
  ProofRequest r;
  r.kind = ProofKind::kPorepSealCommit;
  r.registered_proof = registered;
  r.sector_size = 2048;
  r.vanilla_proof = std::move(c1_json);
  return r;
}

TEST(PorepEngine, TwoKiBProofsVerifyAndBadJobsFailWithTheirReason) {
  const porep::test::SealedSector& s = porep::test::sealed_2kib();
  const porep::PublicParams pp = porep::PublicParams::from_config(s.config);
  ThreadPool pool(0);
  const porep::test::TestParameters tp = porep::test::cached_test_parameters(pp, pool);
  const uint64_t registered = static_cast<uint64_t>(s.c1.registered_proof);

  porep::test::TempDir wrapper_dir("engine-c1");
  const auto wrapper_file = wrapper_dir.path() / "c1.json";
  filecoin::write_c1_file(wrapper_file, s.c1, 7);
  std::ifstream in(wrapper_file, std::ios::binary);
  const std::vector<uint8_t> wrapper{std::istreambuf_iterator<char>(in),
                                     std::istreambuf_iterator<char>()};
  const std::vector<uint8_t> bare = bytes_of(filecoin::seal_commit_phase1_to_json(s.c1));

  EngineConfig config;
  config.backend = "cpu";
  config.param_cache = tp.dir;
  config.allow_insecure_params = true;  // the test parameters are marked insecure
  Engine engine(config);

  ProofRequest from_wrapper = porep_request(wrapper, registered);
  from_wrapper.sector_number = 7;
  const std::string ok1 = engine.submit(from_wrapper).job_id;
  const std::string ok2 = engine.submit(porep_request(bare, registered)).job_id;

  filecoin::SealCommitPhase1Output tampered = s.c1;
  tampered.seed[0] ^= 1;  // the challenges no longer match the proofs
  const std::string bad_c1 =
      engine
          .submit(
              porep_request(bytes_of(filecoin::seal_commit_phase1_to_json(tampered)), registered))
          .job_id;
  const std::string malformed =
      engine.submit(porep_request(bytes_of("{\"x\":"), registered)).job_id;
  const std::string wrong_proof =
      engine.submit(porep_request(bare, registered == 5 ? 0 : 5)).job_id;
  ProofRequest wrong_size = porep_request(bare, registered);
  wrong_size.sector_size = 8 << 20;
  const std::string size_mismatch = engine.submit(wrong_size).job_id;
  const std::string unknown_proof = engine.submit(porep_request(bare, 99)).job_id;
  ProofRequest wrong_sector = porep_request(wrapper, registered);
  wrong_sector.sector_number = 8;
  const std::string sector_mismatch = engine.submit(wrong_sector).job_id;

  const porep::PorepPublicInputs inputs = porep::PorepPublicInputs::from_c1(s.c1);
  for (const std::string& id : {ok1, ok2}) {
    const auto r = engine.await(id, 600s);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->state, JobState::kCompleted) << r->error_message;
    EXPECT_EQ(r->proof.size(), 192u);
    EXPECT_TRUE(porep::verify_seal_proof(pp, tp.params.vk, inputs, r->proof));
    std::printf(
        "2 KiB PoRep via the engine: queue %llu | srs %llu | synthesis %llu | prove %llu | "
        "total %llu ms\n",
        static_cast<unsigned long long>(r->timings.queue_wait_ms),
        static_cast<unsigned long long>(r->timings.srs_load_ms),
        static_cast<unsigned long long>(r->timings.synthesis_ms),
        static_cast<unsigned long long>(r->timings.gpu_compute_ms),
        static_cast<unsigned long long>(r->timings.total_ms));
  }
  const auto expect_failed = [&](const std::string& id, const std::string& why) {
    const auto r = engine.await(id, 600s);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->state, JobState::kFailed);
    EXPECT_NE(r->error_message.find(why), std::string::npos) << r->error_message;
  };
  expect_failed(bad_c1, "C1 refused before proving");
  expect_failed(malformed, "malformed C1 output");
  expect_failed(wrong_proof, "the request names");
  expect_failed(size_mismatch, "does not match registered proof");
  expect_failed(unknown_proof, "unknown registered seal proof id 99");
  expect_failed(sector_mismatch, "does not match the C1 wrapper's SectorNum 7");

  // Another parameter directory without the files: the job names the missing file.
  porep::test::TempDir empty("engine-empty");
  EngineConfig no_params = config;
  no_params.param_cache = empty.path();
  Engine second(no_params);
  const auto r = second.await(second.submit(porep_request(bare, registered)).job_id, 60s);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->state, JobState::kFailed);
  EXPECT_NE(r->error_message.find(".params is missing"), std::string::npos) << r->error_message;
}

TEST(PorepEngine, MarkedTestParametersAreRefusedUnlessAllowed) {
  const porep::test::SealedSector& s = porep::test::sealed_2kib();
  const porep::PublicParams pp = porep::PublicParams::from_config(s.config);
  ThreadPool pool(0);
  const porep::test::TestParameters tp = porep::test::cached_test_parameters(pp, pool);
  EngineConfig config;
  config.backend = "cpu";
  config.param_cache = tp.dir;  // allow_insecure_params left at its default, false
  Engine engine(config);
  try {
    engine.preload_srs("porep-2k");
    FAIL() << "marked parameters were loaded";
  } catch (const filecoin::ParameterFileError& e) {
    EXPECT_NE(std::string(e.what()).find("INSECURE"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("allow_insecure_params"), std::string::npos) << e.what();
  }
  const auto r =
      engine.await(engine
                       .submit(porep_request(bytes_of(filecoin::seal_commit_phase1_to_json(s.c1)),
                                             static_cast<uint64_t>(s.c1.registered_proof)))
                       .job_id,
                   600s);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->state, JobState::kFailed);
  EXPECT_NE(r->error_message.find("INSECURE"), std::string::npos) << r->error_message;
  EXPECT_TRUE(r->proof.empty());
  EXPECT_TRUE(engine.status().srs.empty() || engine.status().srs[0].tier == SrsTier::kCold);
}

}  // namespace
}  // namespace cuzk::engine
