// The engine's event history (bounded rings, open and failed spans, busy share, the prover's
// phases laid end to end) and the /status JSON made from it, read back with nlohmann-json.
// The page itself is tested in a browser (status_page_test.py).
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "engine/event_history.hpp"
#include "server/status_page.hpp"

namespace cuzk::server {
namespace {

using engine::Clock;
using engine::EventHistory;
using namespace std::chrono_literals;

engine::Job job(const std::string& id) {
  engine::Job j;
  j.id = id;
  j.kind_label = "porep";
  j.sector_size = 2048;
  j.priority = 2;
  return j;
}

TEST(EventHistory, KeepsTheLastSpansOfEachLaneAndTheLastFinishedJobs) {
  EventHistory h(Clock::now());
  h.declare_lane("cpu:0", "prover");
  const engine::Job j = job("job-1");
  for (size_t i = 0; i < EventHistory::kSpansPerLane + 10; ++i) {
    auto s = h.open("cpu:0", j, static_cast<int>(i), "prove");
    s.succeeded();
  }
  for (size_t i = 0; i < EventHistory::kFinishedJobs + 5; ++i) {
    engine::Job f = job("job-" + std::to_string(i));
    f.state = engine::JobState::kCompleted;
    f.submitted = f.finished = Clock::now();
    h.job_finished(f);
  }
  engine::EngineActivity a;
  h.snapshot(Clock::now(), 3600, &a);
  ASSERT_EQ(a.spans.size(), EventHistory::kSpansPerLane);
  EXPECT_EQ(a.spans.front().partition, 10);  // the oldest ten dropped
  EXPECT_EQ(a.spans.back().partition, static_cast<int>(EventHistory::kSpansPerLane + 9));
  ASSERT_EQ(a.recent_jobs.size(), EventHistory::kFinishedJobs);
  EXPECT_EQ(a.recent_jobs.front().job_id, "job-" + std::to_string(EventHistory::kFinishedJobs + 4));
}

TEST(EventHistory, OpenFailedAndBusySpans) {
  const auto origin = Clock::now() - 10s;  // the engine has been up 10 s
  EventHistory h(origin);
  h.declare_lane("synth:0", "synthesis");
  h.declare_lane("cpu:0", "prover");
  const engine::Job j = job("job-7");
  // The span lies within [before, after] and lasts at least the 200 ms slept: bounds that hold
  // however slowly this runs (fixed ones failed beside heavy tests under ctest -j).
  const auto before = Clock::now();
  {
    auto s = h.open("synth:0", j, 0, "witness");
    std::this_thread::sleep_for(200ms);
    // not succeeded: recorded as failed
  }
  const auto after = Clock::now();
  auto running = h.open("cpu:0", j, 0, "prove");
  std::this_thread::sleep_for(100ms);
  engine::EngineActivity a;
  const auto now = Clock::now();
  h.snapshot(now, 300, &a);
  ASSERT_EQ(a.lanes.size(), 2u);
  EXPECT_EQ(a.lanes[0].name, "synth:0");
  EXPECT_EQ(a.lanes[1].current_job, "job-7");
  const double slept = 0.2 - 1e-9;  // (seconds as doubles: a rounding's worth of slack)
  const double lasted_max = std::chrono::duration<double>(after - before).count();
  const double up = std::chrono::duration<double>(now - origin).count();
  // The window (300 s) is longer than the uptime: busy over the time up.
  EXPECT_GE(a.lanes[0].busy_ratio, slept / up);
  EXPECT_LE(a.lanes[0].busy_ratio, (lasted_max + 1e-9) / up);
  ASSERT_EQ(a.spans.size(), 2u);
  EXPECT_TRUE(a.spans[0].failed);
  EXPECT_FALSE(a.spans[0].open);
  ASSERT_EQ(a.spans[0].phases.size(), 1u);
  EXPECT_EQ(a.spans[0].phases[0].phase, "witness");
  const double lasted = a.spans[0].phases[0].end_s - a.spans[0].phases[0].start_s;
  EXPECT_GE(lasted, slept);
  EXPECT_LE(lasted, lasted_max + 1e-9);
  EXPECT_TRUE(a.spans[1].open);
  EXPECT_DOUBLE_EQ(a.spans[1].end_s, a.now_s);
  EXPECT_EQ(a.spans[1].sector_size, 2048u);

  // A window that ends before the failed span: it is left out.
  engine::EngineActivity later;
  h.snapshot(Clock::now() + 600s, 60, &later);
  for (const auto& s : later.spans)
    EXPECT_NE(s.lane, "synth:0");
}

TEST(EventHistory, ProverPhasesAreLaidEndToEnd) {
  const auto origin = Clock::now();
  EventHistory h(origin);
  groth16::ProverTiming t;
  t.spmv_s = 0.5;
  t.quotient_s = 0.25;
  t.msm_a_s = 1;
  t.msm_h_s = 0.5;
  {
    auto s = h.open("cpu:0", job("job-2"), 3, "prove");
    s.prover_phases(origin + 1s, t);
    s.succeeded();
  }
  engine::EngineActivity a;
  h.snapshot(Clock::now(), 60, &a);
  ASSERT_EQ(a.spans.size(), 1u);
  const auto& p = a.spans[0].phases;
  ASSERT_EQ(p.size(), 3u);  // no upload (0 s): spmv, h_chain, msm
  EXPECT_EQ(p[0].phase, "spmv");
  EXPECT_NEAR(p[0].start_s, 1.0, 1e-6);
  EXPECT_NEAR(p[1].start_s, 1.5, 1e-6);
  EXPECT_EQ(p[2].phase, "msm");
  EXPECT_NEAR(p[2].end_s, 3.25, 1e-6);
}

TEST(StatusJson, CarriesTheActivityAndStatus) {
  EventHistory h(Clock::now());
  h.declare_lane("cpu:0", "prover");
  engine::Job j = job("job-\xff");  // an id with a byte that is not UTF-8
  j.state = engine::JobState::kFailed;
  j.result.error_message = "partition 0 on cpu:0: boom";
  j.result.timings.total_ms = 42;
  j.submitted = j.finished = Clock::now();
  h.job_finished(j);
  engine::EngineActivity a;
  h.snapshot(Clock::now(), 300, &a);
  a.queue_by_priority = {{2, 3, 1}};
  a.host.budget_bytes = 8ull << 30;
  engine::EngineStatus st;
  st.completed = 5;
  st.failed = 1;
  const auto v = nlohmann::json::parse(status_json(st, a));
  EXPECT_EQ(v["totals"]["completed"], 5);
  EXPECT_EQ(v["window_s"], 300.0);
  EXPECT_EQ(v["lanes"][0]["name"], "cpu:0");
  EXPECT_EQ(v["recent_jobs"][0]["state"], "failed");
  EXPECT_EQ(v["recent_jobs"][0]["error"], "partition 0 on cpu:0: boom");
  EXPECT_EQ(v["recent_jobs"][0]["timings"]["total_ms"], 42);
  EXPECT_EQ(v["recent_jobs"][0]["sector_size"], 2048);
  EXPECT_EQ(v["queue"]["by_priority"][0]["pending"], 3);
  EXPECT_EQ(v["host"]["budget_bytes"], 8ull << 30);
  EXPECT_NE(status_page_html().find("fetch(\"/status\""), std::string::npos);
}

}  // namespace
}  // namespace cuzk::server
