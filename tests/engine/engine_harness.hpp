// An engine over the fake proof kind (fake_handler.hpp) with one worker of each sort, for the
// engine's scheduling tests: submit by tag and payload, await, and the order partitions began.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "fake_handler.hpp"

namespace cuzk::engine::test {

struct Harness {
  cuzk::testing::TempDir dir;
  SynthesisLog log;
  Gates gates;
  std::unique_ptr<Engine> engine;

  explicit Harness(EngineConfig config = base_config()) {
    std::vector<std::shared_ptr<const CircuitHandler>> handlers{
        std::make_shared<FakeHandler>(dir.path(), &log, ProofKind::kWinningPost, &gates)};
    if (config.pce_dir.empty()) config.pce_dir = dir.path() / "pce";
    engine = std::make_unique<Engine>(std::move(config), std::move(handlers));
  }
  ~Harness() {
    gates.open_all();  // a worker held at a gate would keep the engine from stopping
    engine.reset();
  }
  static EngineConfig base_config() {
    EngineConfig c;
    c.backend = "cpu";
    c.threads = 1;
    c.cpu_workers = 1;
    c.synthesis_workers = 1;
    c.synthesis_lookahead = 1;
    return c;
  }
  SubmitResult submit(const std::string& tag, const std::string& payload,
                      Priority priority = Priority::kNormal, uint64_t circuit = 1) {
    ProofRequest r;
    r.request_id = tag;
    r.kind = ProofKind::kWinningPost;
    r.sector_size = circuit;
    r.priority = priority;
    r.vanilla_proof.assign(payload.begin(), payload.end());
    return engine->submit(std::move(r));
  }
  JobResult wait(const std::string& id) {
    auto r = engine->await(id, std::chrono::seconds(60));
    EXPECT_TRUE(r.has_value()) << id << " did not finish in 60 s";
    return r.value_or(JobResult{});
  }
  // Order in which jobs (by tag) started their first partition.
  std::vector<std::string> first_partitions() const {
    std::vector<std::string> out;
    for (const auto& e : log.entries())
      if (e.ends_with("/0")) out.push_back(e.substr(0, e.size() - 2));
    return out;
  }
  void wait_for_log(const std::string& entry) const {
    for (int i = 0; i < 12000; ++i) {
      const auto e = log.entries();
      if (std::find(e.begin(), e.end(), entry) != e.end()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    FAIL() << entry << " never synthesized";
  }
};

// Polls `done` until it holds (false after a minute: the test fails instead of hanging). For
// states the engine reaches on its own after an event the test caused (memory returned once a
// cancelled job's worker let go); the polling interval decides nothing.
template <class Pred>
bool wait_until(Pred done) {
  for (int i = 0; i < 12000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return done();
}

// The phases of a finished job add up to its total (engine/phase_clock.hpp).
inline void expect_phases_add_up(const JobResult& r) {
  const JobTimings& t = r.timings;
  EXPECT_EQ(t.queue_wait_ms + t.srs_load_ms + t.synthesis_ms + t.gpu_compute_ms, t.total_ms)
      << r.job_id << ": queue " << t.queue_wait_ms << " | srs " << t.srs_load_ms << " | synthesis "
      << t.synthesis_ms << " | gpu " << t.gpu_compute_ms << " | total " << t.total_ms;
}

}  // namespace cuzk::engine::test
