// The GPU fault hooks through the engine, for the H200 (skips without a CUDA device): a sealed
// 2 KiB sector's C2 on the GPU backend with one fault plan at a time, a failed CUDA allocation,
// kernel launch or copy (each once, and the allocation for good), a corrupted proof, a prove that
// fails for good. One line per plan: what the engine did (retried on the GPU, fell back to the
// CPU, failed with its reason), whether the fault fired, and whether the final proof passes
// porep::verify_seal_proof (the oracle: the vanilla-checked public inputs and the parameters' vk).
//
//   build/tests/engine/engine_gpu_fault_tests
#include <gtest/gtest.h>

#include <cstdio>

#include "backend/backend_factory.hpp"
#include "engine/engine.hpp"
#include "porep/seal_commit_phase2.hpp"
#include "porep/vanilla/c1_json.hpp"
#include "porep_test_util.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

double metric(const std::string& text, const std::string& series) {
  const size_t at = text.find("\n" + series + " ");
  return at == std::string::npos ? 0 : std::stod(text.substr(at + series.size() + 2));
}

struct Case {
  const char* plan;
  const char* expect;  // "gpu" (retried there), "cpu" (fell back), "failed"
};

TEST(EngineGpuFaults, EachFaultIsRetriedOnTheGpuFallsBackToTheCpuOrFailsWithItsReason) {
  if (groth16::plan_provers("auto", {}).front() == "cpu") GTEST_SKIP() << "no CUDA device";
  const porep::test::SealedSector& s = porep::test::sealed_2kib();
  const porep::PublicParams pp = porep::PublicParams::from_config(s.config);
  ThreadPool pool(0);
  const porep::test::TestParameters tp = porep::test::cached_test_parameters(pp, pool);
  const porep::PorepPublicInputs inputs = porep::PorepPublicInputs::from_c1(s.c1);
  const std::string c1 = filecoin::seal_commit_phase1_to_json(s.c1);

  const Case cases[] = {
      {"gpu-alloc:1", "gpu"},          {"gpu-launch:1", "gpu"},   {"gpu-copy:1", "gpu"},
      {"gpu-launch:5", "gpu"},         {"gpu-copy:3", "gpu"},     {"corrupt-proof:1", "gpu"},
      {"gpu-alloc:1+", "cpu"},         {"gpu-launch:1-2", "cpu"}, {"prove:1-3", "failed"},
      {"corrupt-proof:1-3", "failed"},
  };
  for (const Case& c : cases) {
    EngineConfig config;
    config.backend = "gpu";
    config.param_cache = tp.dir;
    config.allow_insecure_params = true;  // the test parameters are marked insecure
    config.faults = c.plan;
    Engine engine(config);
    ProofRequest r;
    r.kind = ProofKind::kPorepSealCommit;
    r.registered_proof = static_cast<uint64_t>(s.c1.registered_proof);
    r.sector_size = 2048;
    r.vanilla_proof.assign(c1.begin(), c1.end());
    const auto result = engine.await(engine.submit(std::move(r)).job_id, 600s);
    ASSERT_TRUE(result) << c.plan;
    const std::string m = engine.metrics_text();
    const auto retries = [&](const char* target) {
      double n = 0;
      for (const char* reason : {"prove_error", "verify_failed"})
        n += metric(m, std::string("cuzk_partition_retries_total{kind=\"porep\",reason=\"") +
                           reason + "\",target=\"" + target + "\"}");
      return n;
    };
    double fired = 0;
    for (const char* site : {"gpu-alloc", "gpu-launch", "gpu-copy", "prove", "corrupt-proof"})
      fired += metric(m, std::string("cuzk_faults_injected_total{site=\"") + site + "\"}");
    const bool completed = result->state == JobState::kCompleted;
    const bool verified =
        completed && porep::verify_seal_proof(pp, tp.params.vk, inputs, result->proof);
    const char* outcome = !completed            ? "failed"
                          : retries("cpu") > 0  ? "fell back to CPU"
                          : retries("same") > 0 ? "retried on GPU"
                                                : "no retry";
    std::printf(
        "gpu-fault %-18s fired=%.0f outcome=%s verified=%s retries(same=%.0f cpu=%.0f)%s%s\n",
        c.plan, fired, outcome, verified ? "yes" : "no", retries("same"), retries("cpu"),
        completed ? "" : " reason=", completed ? "" : result->error_message.c_str());
    EXPECT_GE(fired, 1) << c.plan << ": the fault never fired";
    if (std::string(c.expect) == "failed") {
      EXPECT_FALSE(completed) << c.plan;
      EXPECT_NE(result->error_message.find("partition 0 failed 3 times"), std::string::npos)
          << result->error_message;
    } else {
      EXPECT_TRUE(verified) << c.plan << ": " << result->error_message;
      EXPECT_EQ(std::string(outcome), c.expect[0] == 'g' ? "retried on GPU" : "fell back to CPU")
          << c.plan;
    }
  }
}

}  // namespace
}  // namespace cuzk::engine
