// SnapDeals (SNAP_DEALS_UPDATE) through the engine on the CPU, with requests shaped as Curio sends
// them (one bincode PartitionProof per partition, raw 32-byte commitments, sector_size 0):
// commitments of the wrong length (a CID), too many partition proofs, a partition proof of another
// sector size, undecodable bytes, a sector size or registered proof that does not fit, and vanilla
// proofs the verifier refuses each fail their job with the reason before anything is proved; the
// test parameters (marked insecure) are refused unless allow_insecure_params. (A proof through
// the engine is made by the daemon test's snap scenario, which then verifies it.)
#include <gtest/gtest.h>

#include "common/synthetic_update.hpp"
#include "engine/engine.hpp"
#include "update/update_test_util.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

ProofRequest update_request(const testing::SyntheticUpdate& u,
                            const std::vector<filecoin::UpdatePartitionProof>& proofs) {
  ProofRequest r;
  r.kind = ProofKind::kSnapDealsUpdate;
  r.registered_proof = 0;  // StackedDrg2KiBV1
  r.sector_size = 0;       // as tasks/proofshare sends it
  for (const auto& p : proofs)
    r.vanilla_proofs.push_back(filecoin::encode_update_partition_proof(p));
  r.comm_r_old.assign(u.in.comm_r_old.begin(), u.in.comm_r_old.end());
  r.comm_r_new.assign(u.in.comm_r_new.begin(), u.in.comm_r_new.end());
  r.comm_d_new.assign(u.in.comm_d_new.begin(), u.in.comm_d_new.end());
  return r;
}

TEST(UpdateEngine, BadJobsFailWithTheirReasonBeforeProving) {
  ThreadPool pool(0);
  const testing::SyntheticUpdate u = testing::make_synthetic_update(2048, 61);
  const update::test::TestParameters tp = update::test::cached_test_parameters(u.pp, pool);
  EngineConfig config;
  config.backend = "cpu";
  config.param_cache = tp.dir;
  config.allow_insecure_params = true;  // the test parameters are marked insecure
  Engine engine(config);

  std::vector<std::pair<std::string, std::string>> bad;  // job id, expected reason
  const auto submit_bad = [&](ProofRequest r, const std::string& why) {
    bad.emplace_back(engine.submit(std::move(r)).job_id, why);
  };
  ProofRequest r = update_request(u, u.proofs);
  r.comm_r_old.insert(r.comm_r_old.begin(), {1, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20});
  submit_bad(r, "comm_r_old is 40 bytes (a raw 32-byte commitment is expected, not a CID)");
  r = update_request(u, u.proofs);
  r.comm_d_new.clear();
  submit_bad(r, "comm_d_new is 0 bytes");
  submit_bad(update_request(u, {u.proofs[0], u.proofs[0]}),
             "2 vanilla_proofs, a StackedDrg2KiBV1 update has 1 partitions");
  // A partition proof of a 16 KiB update (128 apex leafs, 9-level tree_d paths) as the 2 KiB one.
  const testing::SyntheticUpdate other = testing::make_synthetic_update(16 << 10, 62);
  submit_bad(
      update_request(u, {other.proofs[0]}),
      "vanilla_proofs[0] is not a StackedDrg2KiBV1 partition proof (128 apex leafs, want 8)");
  r = update_request(u, u.proofs);
  r.vanilla_proofs[0].resize(100);
  submit_bad(r, "vanilla_proofs[0] is not a bincode PartitionProof: bincode:");
  r = update_request(u, u.proofs);
  r.sector_size = 8 << 20;
  submit_bad(r, "sector_size 8388608 does not match registered update proof StackedDrg2KiBV1");
  r = update_request(u, u.proofs);
  r.registered_proof = 7;
  submit_bad(r, "unknown registered update proof id 7");
  std::vector<filecoin::UpdatePartitionProof> tampered = u.proofs;
  tampered[0].comm_c[0] ^= 1;
  submit_bad(update_request(u, tampered),
             "vanilla proofs refused before proving: update partition 0: comm_r_old != H(comm_c");
  r = update_request(u, u.proofs);
  r.comm_r_new[0] ^= 1;  // other challenges: the proofs open the wrong nodes
  submit_bad(r, "vanilla proofs refused before proving");

  for (const auto& [id, why] : bad) {
    const auto res = engine.await(id, 120s);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->state, JobState::kFailed) << why;
    EXPECT_NE(res->error_message.find(why), std::string::npos) << res->error_message;
    EXPECT_TRUE(res->proof.empty());
    EXPECT_EQ(res->timings.gpu_compute_ms, 0u) << "nothing proved for " << why;
  }
  const EngineStatus st = engine.status();
  EXPECT_EQ(st.completed, 0u);
  EXPECT_EQ(st.failed, bad.size());
}

TEST(UpdateEngine, MarkedTestParametersAreRefusedUnlessAllowed) {
  ThreadPool pool(0);
  const testing::SyntheticUpdate u = testing::make_synthetic_update(2048, 63);
  const update::test::TestParameters tp = update::test::cached_test_parameters(u.pp, pool);
  EngineConfig config;
  config.backend = "cpu";
  config.param_cache = tp.dir;  // allow_insecure_params left at its default, false
  Engine engine(config);
  try {
    engine.preload_srs("snap-2k");
    FAIL() << "marked parameters were loaded";
  } catch (const filecoin::ParameterFileError& e) {
    EXPECT_NE(std::string(e.what()).find("INSECURE"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("allow_insecure_params"), std::string::npos) << e.what();
  }
  // A good request (its vanilla proofs verify) fails for its parameters alone.
  const auto r = engine.await(engine.submit(update_request(u, u.proofs)).job_id, 600s);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->state, JobState::kFailed);
  EXPECT_NE(r->error_message.find("INSECURE"), std::string::npos) << r->error_message;
  EXPECT_TRUE(r->proof.empty());
  EXPECT_EQ(r->timings.gpu_compute_ms, 0u);
}

}  // namespace
}  // namespace cuzk::engine
