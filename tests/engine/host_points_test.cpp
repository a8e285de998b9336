// [srs] host_points through the engine, with fake devices that keep a whole set resident and
// fill it from the .params file by warm steps (FakeDevice::source_store): with "auto" the set is
// opened without its points and the proofs verify with no host copy (the budget never holds the
// points, every read piece stays within the step, the SRS is HOT); with "always", with a CPU
// prover, or with one device that cannot prove from the file, the host copy is loaded as before;
// a device fault's CPU fallback and a device whose forecast was wrong load the host copy once,
// on demand; a host copy the budget cannot admit fails the partition with the reason. The oracle
// of every proof is the verifier under the fake circuit's own key.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "fake_device.hpp"
#include "fake_handler.hpp"
#include "fake_source_store.hpp"
#include "groth16/params_file.hpp"
#include "groth16/point_source.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;
using cuzk::testing::TempDir;
using HostPoints = EngineConfig::HostPoints;

constexpr uint64_t kStepBytes = 1000;  // the most one warm step reads (10 G1 or 5 G2 points)

struct Options {
  HostPoints host_points = HostPoints::kAuto;
  // Fake devices and whether each proves from the file; none: the CPU backend proves.
  std::vector<bool> from_source = {true, true};
  bool broken = false;          // every device prove fails (the CPU fallback takes over)
  bool forecast_wrong = false;  // the devices throw HostPointsNeeded at prove
  uint64_t budget = 0;
};

struct HostTier {
  TempDir dir{"engine-host-points"};
  SynthesisLog synthesis;
  DeviceLog devices;
  std::atomic<bool> broken{false};
  std::vector<std::unique_ptr<SourceStore>> stores;
  std::shared_ptr<FakeHandler> handler;
  std::mutex mu;
  std::vector<std::pair<std::string, std::string>> events;
  std::unique_ptr<Engine> engine;

  explicit HostTier(const Options& o) {
    broken = o.broken;
    EngineConfig c;
    c.threads = 1;
    c.synthesis_workers = 1;
    c.synthesis_lookahead = 2;
    c.memory_budget_bytes = o.budget;
    c.srs_host_points = o.host_points;
    c.pce_dir = dir.path() / "pce";
    if (o.from_source.empty()) {
      c.backend = "cpu";
      c.cpu_workers = 1;
    }
    for (size_t i = 0; i < o.from_source.size(); ++i) {
      c.fake_devices.names.push_back("gpu:" + std::to_string(i));
      stores.push_back(std::make_unique<SourceStore>(kStepBytes));
    }
    c.fake_devices.make = [this, o](const std::string& name, ThreadPool& pool) {
      const size_t i = std::stoul(name.substr(4));
      auto d = std::make_unique<FakeDevice>(name, pool, &devices, 0ms, &broken);
      if (o.from_source[i]) d->source_store = stores[i].get();
      d->source_forecast_wrong = o.forecast_wrong;
      return d;
    };
    c.on_event = [this](const std::string& e, const std::string& m) {
      std::lock_guard lock(mu);
      events.emplace_back(e, m);
    };
    handler = std::make_shared<FakeHandler>(dir.path(), &synthesis);
    engine = std::make_unique<Engine>(std::move(c),
                                      std::vector<std::shared_ptr<const CircuitHandler>>{handler});
  }
  JobResult prove(unsigned partitions) {
    ProofRequest r;
    r.kind = ProofKind::kWinningPost;
    r.sector_size = 1;
    const std::string payload = std::to_string(partitions) + ",0";
    r.vanilla_proof.assign(payload.begin(), payload.end());
    return engine->await(engine->submit(std::move(r)).job_id, 120s).value_or(JobResult{});
  }
  // The set's points bytes, from its file's counts (what a host copy holds).
  uint64_t points_bytes() const {
    const groth16::Parameters meta =
        groth16::open_parameters(dir.path() / "fake-1.params", SubgroupCheck::kCheck);
    return groth16::points_bytes(groth16::section_counts(meta));
  }
  SrsInfo srs() const {
    const std::vector<SrsInfo> all = engine->status().srs;
    EXPECT_EQ(all.size(), 1u);
    return all.empty() ? SrsInfo{} : all[0];
  }
  int events_named(const std::string& name) {
    std::lock_guard lock(mu);
    int n = 0;
    for (const auto& [e, m] : events)
      n += e == name ? 1 : 0;
    return n;
  }
};

TEST(EngineHostPoints, DevicesThatProveFromTheFileNeedNoHostCopy) {
  HostTier t({});
  const JobResult r = t.prove(4);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 4u);
  EXPECT_EQ(t.handler->opens(), 1);
  EXPECT_EQ(t.handler->loads(), 0);  // never with its points
  const uint64_t points = t.points_bytes();
  const SrsInfo s = t.srs();
  EXPECT_EQ(s.tier, SrsTier::kHot);
  EXPECT_LT(s.host_bytes, points);
  EXPECT_EQ(s.size_bytes, s.host_bytes);
  const EngineStatus st = t.engine->status();
  EXPECT_LT(st.memory_peak_bytes, points) << "the budget held the points";
  uint64_t read = 0;
  for (const auto& store : t.stores) {
    EXPECT_LE(store->largest_piece_bytes(), kStepBytes);
    EXPECT_TRUE(store->bytes_read() == 0 || store->bytes_read() == points)
        << store->bytes_read() << " of " << points;
    read += store->bytes_read();
  }
  EXPECT_GE(read, points);  // a device filled itself from the file
  // The host meter counts what the host holds, not the points on the devices.
  EXPECT_EQ(t.engine->activity(60).host.srs_bytes, s.host_bytes);
}

TEST(EngineHostPoints, AlwaysLoadsTheHostCopyAsBefore) {
  HostTier t({.host_points = HostPoints::kAlways});
  const JobResult r = t.prove(2);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 2u);
  EXPECT_EQ(t.handler->loads(), 1);
  EXPECT_EQ(t.handler->opens(), 0);
  const uint64_t points = t.points_bytes();
  EXPECT_GE(t.srs().host_bytes, points);
  EXPECT_GE(t.engine->status().memory_peak_bytes, points);
  for (const auto& store : t.stores)
    EXPECT_EQ(store->bytes_read(), 0u);  // proved from host points
}

// Every prover is asked: a CPU prover, or one device that cannot prove from the file, means
// the host copy at load.
TEST(EngineHostPoints, AutoLoadsTheHostCopyWhenAProverCannotProveFromTheFile) {
  for (const std::vector<bool>& from_source :
       {std::vector<bool>{}, std::vector<bool>{true, false}}) {
    SCOPED_TRACE(from_source.empty() ? "cpu" : "one device without");
    HostTier t({.from_source = from_source});
    const JobResult r = t.prove(2);
    ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
    EXPECT_EQ(verifying_proofs(r), 2u);
    EXPECT_EQ(t.handler->opens(), 1);  // asked with the set opened, its points read through it
    EXPECT_EQ(t.handler->loads(), 0);
    EXPECT_GE(t.srs().host_bytes, t.points_bytes());
    EXPECT_NE(t.srs().tier, SrsTier::kCold);
  }
}

// A broken device: every partition falls back to the CPU, which proves with the host copy,
// loaded once for all of them and kept with the set.
TEST(EngineHostPoints, TheCpuFallbackLoadsTheHostCopyOnce) {
  HostTier t({.from_source = {true}, .broken = true});
  const JobResult r = t.prove(3);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 3u);
  EXPECT_EQ(t.handler->opens(), 1);
  EXPECT_EQ(t.handler->loads(), 0);  // the host copy read through the opened file
  const uint64_t points = t.points_bytes();
  const SrsInfo s = t.srs();
  EXPECT_EQ(s.tier, SrsTier::kWarm);  // the host copy is there, no device holds the set
  EXPECT_GE(s.host_bytes, points);
  EXPECT_LT(s.host_bytes, 2 * points);        // one copy
  EXPECT_EQ(t.devices.attempts("gpu:0"), 6);  // each partition: the device twice, then the CPU
}

// The device said it proves from the file, then needs host points at prove: the partition is
// proved there again with the host copy, not failed and not counted as a fault.
TEST(EngineHostPoints, ADeviceThatNeedsHostPointsAtProveGetsTheHostCopy) {
  HostTier t({.from_source = {true}, .forecast_wrong = true});
  const JobResult r = t.prove(2);
  ASSERT_EQ(r.state, JobState::kCompleted) << r.error_message;
  EXPECT_EQ(verifying_proofs(r), 2u);
  EXPECT_EQ(t.handler->loads(), 0);  // the host copy read through the opened file
  EXPECT_GE(t.srs().host_bytes, t.points_bytes());
  EXPECT_EQ(t.events_named("host_points_needed"), 2);
  EXPECT_EQ(t.devices.attempts("gpu:0"), 4);  // each: from the source, then with the copy
  EXPECT_EQ(t.engine->metrics_text().find("cuzk_partition_retries_total{"), std::string::npos)
      << "counted as a fault";
}

// The host copy does not fit the budget beside what the job holds: the partition fails at once
// with the reason (the prover never waits for memory).
TEST(EngineHostPoints, AHostCopyTheBudgetCannotAdmitFailsThePartitionWithTheReason) {
  uint64_t peak = 0, points = 0;
  {
    HostTier probe({.from_source = {true}});
    ASSERT_EQ(probe.prove(1).state, JobState::kCompleted);
    peak = probe.engine->status().memory_peak_bytes;
    points = probe.points_bytes();
  }
  // Room for what the job held without a host copy, and for half the points beside it (1/16
  // of a limit is pinned for payloads).
  const uint64_t capacity = peak + points / 2;
  HostTier t({.from_source = {true}, .forecast_wrong = true, .budget = capacity * 16 / 15 + 16});
  const JobResult r = t.prove(1);
  ASSERT_EQ(r.state, JobState::kFailed);
  EXPECT_NE(r.error_message.find("no memory for the host copy of fake-1"), std::string::npos)
      << r.error_message;
  EXPECT_EQ(t.handler->loads(), 0);
}

// A point of the file that does not decode surfaces at the device's read (the set was opened
// without reading its points): the partition fails with the file's error, not retried.
TEST(EngineHostPoints, ABadPointReadFromTheFileFailsThePartitionWithoutRetries) {
  HostTier t({.from_source = {true}});
  t.engine->preload_srs("fake-1");  // opened: the vk and the layout read, no point
  const std::filesystem::path file = t.dir.path() / "fake-1.params";
  {
    // The middle of the last b_g2 point, overwritten in place (the opened file sees it).
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(std::filesystem::file_size(file) - 100));
    const std::string junk(64, '\x5a');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  const JobResult r = t.prove(1);
  ASSERT_EQ(r.state, JobState::kFailed);
  EXPECT_NE(r.error_message.find("failed 1 times"), std::string::npos) << r.error_message;
  EXPECT_NE(r.error_message.find(file.string()), std::string::npos) << r.error_message;
  EXPECT_EQ(t.devices.attempts("gpu:0"), 1);
  EXPECT_EQ(t.handler->loads(), 0);
}

}  // namespace
}  // namespace cuzk::engine::test
