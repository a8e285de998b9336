// The engine's event history (bounded rings, open and failed spans, busy share, the prover's
// phases laid end to end) and the /status JSON made from it, read back with nlohmann-json: ours,
// the health, and the Rust cuzk daemon's fields with the JSON types of its serde structs (Curio
// e0294b0, extern/cuzk/cuzk-core/src/status.rs). The page itself is tested in a browser
// (status_page_test.py).
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

// A job of 4 partitions at t = 10 s: partition 0 synthesized (1-3 s witness, then queued) and
// proved on gpu:0 (4-5 s), 1 synthesizing since 5 s, 2 synthesized and proving since 8 s, 3
// not started.
engine::EngineActivity rust_shape_activity() {
  engine::EngineActivity a;
  a.now_s = 10;
  a.window_s = 300;
  a.lanes = {{"synth:0", "synthesis", 0.5, "job-1"},
             {"synth:1", "synthesis", 0.2, ""},
             {"gpu:0", "prover", 0.3, "job-1"},
             {"prepare", "preparer", 0.1, ""}};
  const auto span = [](std::string lane, int k, double t0, double t1, bool open,
                       std::vector<engine::PhaseSpan> phases) {
    engine::LaneSpan s;
    s.lane = std::move(lane);
    s.job_id = "job-1";
    s.kind = "porep";
    s.partition = k;
    s.start_s = t0;
    s.end_s = t1;
    s.open = open;
    s.phases = std::move(phases);
    return s;
  };
  a.spans = {span("synth:0", 0, 1, 4, false, {{"witness", 1, 3}, {"queued", 3, 4}}),
             span("gpu:0", 0, 4, 5, false, {{"msm", 4, 5}}),
             span("synth:1", 2, 5, 7.5, false, {{"witness", 5, 7}, {"queued", 7, 7.5}}),
             span("synth:0", 1, 5, 10, true, {{"witness", 5, 10}}),
             span("gpu:0", 2, 8, 10, true, {{"msm", 8, 10}})};
  a.active_jobs = {{"job-1", "porep", 2048, 2, "running", 4, 1, 0.5}};
  a.prover_queue_partitions = 0;
  a.host.budget_bytes = 1000;
  a.host.reserved_bytes = 400;
  return a;
}

// Every field of the Rust daemon's StatusSnapshot, with its type: u64/u32/usize an unsigned
// integer, f64 a float, Option<T> null or T, HashMap an object.
TEST(StatusJson, IsASupersetOfTheRustDaemonsShape) {
  engine::EngineStatus st;
  st.completed = 2;
  st.failed = 1;
  st.completed_by_kind = {{"porep", 2}};
  st.failed_by_kind = {{"winning", 1}};
  st.queues = {{"porep", 3, 1}, {"wpost", 2, 0}};
  st.srs = {{"porep-2k", engine::SrsTier::kWarm, 4096, 1},
            {"winning-2k", engine::SrsTier::kHot, 512, 0},
            {"wpost-2k", engine::SrsTier::kCold, 0, 0}};
  const auto v = nlohmann::json::parse(
      status_json(st, rust_shape_activity(), {HealthState::kDegraded, "no GPU"}));
  const auto is_u = [](const nlohmann::json& j) { return j.is_number_unsigned(); };
  const auto is_f = [](const nlohmann::json& j) { return j.is_number_float(); };
  ASSERT_TRUE(is_f(v["uptime_secs"])) << v["uptime_secs"];
  EXPECT_EQ(v["uptime_secs"], 10.0);
  for (const char* k : {"total_bytes", "used_bytes", "available_bytes"})
    EXPECT_TRUE(is_u(v["memory"][k])) << k;
  EXPECT_EQ(v["memory"]["available_bytes"], 600);
  EXPECT_EQ(v["synthesis"], (nlohmann::json{{"max_concurrent", 2}, {"active", 1}}));

  ASSERT_EQ(v["pipelines"].size(), 1u);
  const auto& p = v["pipelines"][0];
  EXPECT_EQ(p["job_id"], "job-1");
  EXPECT_EQ(p["proof_kind"], "porep-c2");  // the Rust daemon's ProofKind Display
  EXPECT_TRUE(is_f(p["started_secs_ago"]));
  EXPECT_EQ(p["started_secs_ago"], 9.5);
  EXPECT_EQ(p["total_partitions"], 4);
  EXPECT_EQ(p["partitions_done"], 1);
  const nlohmann::json want_partitions = nlohmann::json::parse(R"([
    {"index": 0, "state": "done", "synth_ms": 2000, "gpu_ms": 1000},
    {"index": 1, "state": "synthesizing", "synth_ms": 5000, "gpu_ms": null},
    {"index": 2, "state": "gpu", "synth_ms": 2000, "gpu_ms": 2000},
    {"index": 3, "state": "pending", "synth_ms": null, "gpu_ms": null}])");
  EXPECT_EQ(p["partitions"], want_partitions) << p["partitions"].dump();

  // GPU workers only (cpu:N provers are none of the Rust daemon's).
  ASSERT_EQ(v["gpu_workers"].size(), 1u);
  const auto& w = v["gpu_workers"][0];
  EXPECT_EQ(w["worker_id"], 0);
  EXPECT_EQ(w["gpu_ordinal"], 0);
  EXPECT_EQ(w["state"], "proving");
  EXPECT_EQ(w["current_job"], "job-1");
  EXPECT_EQ(w["current_partition"], 2);
  EXPECT_TRUE(is_f(w["busy_secs"]));
  EXPECT_EQ(w["busy_secs"], 2.0);

  ASSERT_EQ(v["allocations"]["srs"].size(), 2u);  // the cold one is not loaded
  const auto& srs = v["allocations"]["srs"][0];
  EXPECT_EQ(srs["circuit_id"], "porep-2k");
  EXPECT_TRUE(is_u(srs["bytes"]));
  EXPECT_TRUE(is_f(srs["last_used_secs_ago"]));
  EXPECT_EQ(srs["evictable"], false);  // in use
  EXPECT_EQ(v["allocations"]["srs"][1]["evictable"], true);
  EXPECT_TRUE(v["allocations"]["pce"].is_array());

  const auto& c = v["counters"];
  EXPECT_EQ(c["total_completed"], 2);
  EXPECT_EQ(c["total_failed"], 1);
  EXPECT_EQ(c["completed_by_kind"], (nlohmann::json{{"porep-c2", 2}}));
  EXPECT_EQ(c["failed_by_kind"], (nlohmann::json{{"winning-post", 1}}));
  EXPECT_EQ(c["queue_depth"], 5);
  for (const char* k : {"synth_in_flight", "provers_in_flight", "aux_in_flight", "shells_in_flight",
                        "pending_handles"})
    EXPECT_TRUE(is_u(v["buffers"][k])) << k;
  EXPECT_EQ(v["buffers"]["synth_in_flight"], 1);
  EXPECT_EQ(v["buffers"]["provers_in_flight"], 1);

  // Ours beside them.
  EXPECT_EQ(v["health"], (nlohmann::json{{"state", "degraded"}, {"reason", "no GPU"}}));
  EXPECT_TRUE(v["version"].is_string());
  EXPECT_TRUE(v["lanes"].is_array() && v["spans"].is_array() && v["totals"].is_object());
}

}  // namespace
}  // namespace cuzk::server
