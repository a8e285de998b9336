// A flood: 1,000 submissions of 32 GiB-shaped PoRep jobs under a small memory budget. The engine
// must hold its memory (RSS) under the budget plus a stated margin while ~30x the budget in
// payloads is offered, end every job exactly once (completed, failed or cancelled, checked by
// request id, with duplicate submissions answered by the same job) and answer status() (what
// GetStatus calls) throughout.
//
// The shape, and why it is real but cheap. A 32 GiB C2 job is a C1 payload of ~51 MB (measured,
// src/engine/pipeline.cpp) proved as 10 partitions (facts sheet §2.2: 10 x 18 challenges, 1920
// proof bytes). Here every job is a 32 GiB request (sector size, registered proof 8) whose
// payload is 512 KiB, the C1 scaled by 1/100 together with the budget (64 MiB instead of the
// ~6 GiB that holds the same number of payloads in its 1/16 share), so what admission sees keeps
// its proportions: 8 payloads fit in memory, the other ~990 must wait on disk, and 500 MiB
// offered against a 64 MiB budget fails the RSS check at once if payloads are kept. Each job has
// the 10 partitions of the 32 GiB circuit, each a real (tiny) Groth16 proof, self-verified: the
// pipeline, the prover queue and the completion are the production ones; only the circuit is a
// stand-in (proving 47 GB-parameter partitions 10,000 times is the H200's job, not CI's). A
// partition costs ~10 ms here (prove and pairing check), so a quarter of the jobs complete (2,500
// partitions), a quarter carry a garbage payload (fail in preparation), a quarter are cancelled
// right after submission and a quarter once all are submitted (queued, spooled or running by
// then); a few are submitted twice. About 30 s on this 2-core machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "common/temp_dir.hpp"
#include "engine/engine.hpp"
#include "engine/handlers/circuit_handler.hpp"
#include "groth16/setup.hpp"
#include "random_circuit.hpp"

namespace cuzk::engine::test {
namespace {

using namespace std::chrono_literals;
using cuzk::testing::TempDir;

constexpr uint64_t kSector32GiB = uint64_t{32} << 30;
constexpr uint64_t kRegisteredProof32GiBV1_1 = 8;
constexpr unsigned kPartitions32GiB = 10;
constexpr size_t kPayloadBytes = 512 << 10;  // the 51 MB C1 / 100
constexpr uint64_t kBudget = uint64_t{64} << 20;
// What the process holds outside the budget's ledger: the engine's thread stacks (each touched
// a little), malloc's arenas keeping freed payload buffers for reuse, the spool's file buffers.
constexpr uint64_t kMargin = uint64_t{32} << 20;
constexpr int kJobs = 1000;
constexpr size_t kConstraints = 16;
constexpr uint64_t kSeed = 11;

class FloodJob final : public PreparedJob {
 public:
  explicit FloodJob(uint64_t bytes) : bytes_(bytes) {}
  unsigned partitions() const override { return kPartitions32GiB; }
  uint64_t resident_bytes() const override { return bytes_; }  // a parsed C1 ~ its payload
  PartitionCircuit partition(unsigned) const override {
    auto c = std::make_unique<testing::RandomCircuit>(kConstraints, 1, kSeed);
    PartitionCircuit out;
    out.public_inputs = c->public_inputs();
    out.circuit = std::move(c);
    return out;
  }

 private:
  uint64_t bytes_;
};

// PoRep 32 GiB requests; a payload is "FLOOD" then filler, anything else is bad input.
class FloodHandler final : public CircuitHandler {
 public:
  explicit FloodHandler(std::filesystem::path dir) : dir_(std::move(dir)) {}
  ProofKind kind() const override { return ProofKind::kPorepSealCommit; }
  std::string circuit_id(const ProofRequest& r) const override {
    if (r.sector_size != kSector32GiB || r.registered_proof != kRegisteredProof32GiBV1_1)
      throw std::invalid_argument("flood: not a 32 GiB V1_1 request");
    return "flood-32g";
  }
  std::unique_ptr<PreparedJob> prepare(const ProofRequest& r, ThreadPool&) const override {
    static constexpr char kMagic[] = "FLOOD";
    if (r.vanilla_proof.size() < 5 || !std::equal(kMagic, kMagic + 5, r.vanilla_proof.begin()))
      throw std::invalid_argument("flood: the payload is not a C1 envelope");
    return std::make_unique<FloodJob>(r.vanilla_proof.size());
  }
  std::optional<SrsSpec> srs_spec(const std::string& id, const ParameterSource&) const override {
    if (id != "flood-32g") return std::nullopt;
    SrsSpec spec;
    spec.circuit_id = id;
    spec.file = dir_ / "flood-32g.params";
    std::ofstream(spec.file) << std::string(4096, 'x');
    spec.load = [](ThreadPool& pool) {
      return groth16::generate_parameters_insecure(testing::RandomCircuit(kConstraints, 1, kSeed),
                                                   groth16::ToxicWaste::insecure_from_seed("flood"),
                                                   pool);
    };
    return spec;
  }
  std::optional<BlankCircuit> blank_circuit(const std::string& id) const override {
    if (id != "flood-32g") return std::nullopt;
    return BlankCircuit{std::make_unique<testing::RandomCircuit>(kConstraints, 1, kSeed),
                        {"flood", kSector32GiB, "any", 1}};
  }

 private:
  std::filesystem::path dir_;
};

uint64_t status_kib(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) return std::stoull(line.substr(std::strlen(field)));
  }
  return 0;
}

ProofRequest flood_request(int i) {
  ProofRequest r;
  r.request_id = "flood-" + std::to_string(i);
  r.kind = ProofKind::kPorepSealCommit;
  r.sector_size = kSector32GiB;
  r.registered_proof = kRegisteredProof32GiBV1_1;
  r.priority = i % 50 == 0 ? Priority::kHigh : Priority::kNormal;
  r.vanilla_proof.assign(kPayloadBytes, static_cast<uint8_t>(i));
  const char* head = i % 4 == 1 ? "GARBAGE" : "FLOOD";
  std::copy(head, head + std::strlen(head), r.vanilla_proof.begin());
  return r;
}

TEST(EngineFlood, AThousand32GiBJobsEndOnceEachWithinTheBudgetAndStatusAnswers) {
  TempDir dir("engine-flood");
  EngineConfig c;
  c.backend = "cpu";
  c.threads = 2;
  c.cpu_workers = 1;
  c.synthesis_workers = 2;
  c.memory_budget_bytes = kBudget;
  c.spool_dir = dir.path() / "spool";
  c.pce_dir = dir.path() / "pce";
  const uint64_t rss_before = status_kib("VmRSS:") << 10;
  Engine engine(c, {std::make_shared<FloodHandler>(dir.path())});

  std::atomic<bool> done{false};
  std::atomic<uint64_t> rss_peak{0}, status_calls{0}, status_slowest_us{0};
  std::thread watcher([&] {
    while (!done) {
      const auto t0 = std::chrono::steady_clock::now();
      const EngineStatus st = engine.status();
      const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - t0)
                          .count();
      ++status_calls;
      status_slowest_us = std::max<uint64_t>(status_slowest_us, us);
      EXPECT_LE(st.memory_in_use_bytes, kBudget);
      rss_peak = std::max<uint64_t>(rss_peak, status_kib("VmRSS:") << 10);
      std::this_thread::sleep_for(5ms);
    }
  });

  const auto t0 = std::chrono::steady_clock::now();
  std::map<std::string, std::string> job_of;  // request id -> job id
  for (int i = 0; i < kJobs; ++i) {
    const SubmitResult s = engine.submit(flood_request(i));
    ASSERT_FALSE(s.duplicate) << i;
    ASSERT_TRUE(job_of.emplace("flood-" + std::to_string(i), s.job_id).second);
    if (i % 4 == 2) {
      EXPECT_TRUE(engine.cancel(s.job_id).found);
    }
    if (i % 100 == 99) {  // a client retrying an earlier request: the same job, not a new one
      const SubmitResult again = engine.submit(flood_request(i - 50));
      EXPECT_TRUE(again.duplicate);
      EXPECT_EQ(again.job_id, job_of.at("flood-" + std::to_string(i - 50)));
    }
  }
  for (int i = 3; i < kJobs; i += 4)
    EXPECT_TRUE(engine.cancel(job_of.at("flood-" + std::to_string(i))).found);
  const double submit_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::set<std::string> job_ids;
  std::map<JobState, int> outcomes;
  for (const auto& [request_id, job_id] : job_of) {
    EXPECT_TRUE(job_ids.insert(job_id).second) << "two requests share " << job_id;
    const auto r = engine.await(job_id, 120s);
    ASSERT_TRUE(r.has_value()) << request_id << " (" << job_id << ") never ended";
    ++outcomes[r->state];
    const int i = std::stoi(request_id.substr(6));
    const bool late_cancel = i % 4 == 3;  // it may have completed before its cancel
    if (i % 4 == 1) {
      EXPECT_EQ(r->state, JobState::kFailed) << request_id;
      EXPECT_NE(r->error_message.find("not a C1 envelope"), std::string::npos) << r->error_message;
    } else if (i % 4 == 2 || (late_cancel && r->state != JobState::kCompleted)) {
      EXPECT_EQ(r->state, JobState::kCancelled) << request_id;
      EXPECT_TRUE(r->proof.empty());
    } else {
      EXPECT_EQ(r->state, JobState::kCompleted) << request_id << ": " << r->error_message;
      EXPECT_EQ(r->proof.size(), kPartitions32GiB * 192u);
    }
  }
  const double total_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  done = true;
  watcher.join();

  const uint64_t hwm = status_kib("VmHWM:") << 10;
  const uint64_t growth = std::max(rss_peak.load(), hwm) - rss_before;
  EXPECT_LE(growth, kBudget + kMargin);
  const EngineStatus st = engine.status();
  // Each job counted once: the counters add up to the submissions, no more.
  EXPECT_EQ(st.completed + st.failed + st.cancelled, static_cast<uint64_t>(kJobs));
  EXPECT_EQ(st.failed, static_cast<uint64_t>(kJobs / 4));
  EXPECT_EQ(st.cancelled, static_cast<uint64_t>(outcomes[JobState::kCancelled]));
  EXPECT_GE(outcomes[JobState::kCancelled], kJobs / 4);
  EXPECT_EQ(st.spooled_jobs, 0u);
  // Nothing is left in the spool but its lock.
  for (const auto& e : std::filesystem::directory_iterator(c.spool_dir))
    EXPECT_EQ(e.path().filename(), "cuzk-spool.lock");
  EXPECT_LE(st.memory_peak_bytes, kBudget);
  EXPECT_GT(status_calls.load(), 20u);
  EXPECT_LT(status_slowest_us.load(), 500'000u);  // never stuck behind the work
  // For docs/perf-log.md.
  std::printf(
      "flood: %d jobs (%d completed, %d failed, %d cancelled) of %zu KiB payload x %u partitions; "
      "submitted in %.2f s, all ended in %.1f s; RSS before %.1f MiB, peak growth %.1f MiB "
      "(budget %llu MiB + margin %llu MiB); ledger peak %.1f MiB; status() %llu calls, slowest "
      "%.1f ms\n",
      kJobs, outcomes[JobState::kCompleted], outcomes[JobState::kFailed],
      outcomes[JobState::kCancelled], kPayloadBytes >> 10, kPartitions32GiB, submit_s, total_s,
      rss_before / 1048576.0, growth / 1048576.0, static_cast<unsigned long long>(kBudget >> 20),
      static_cast<unsigned long long>(kMargin >> 20), st.memory_peak_bytes / 1048576.0,
      static_cast<unsigned long long>(status_calls.load()), status_slowest_us.load() / 1e3);
}

}  // namespace
}  // namespace cuzk::engine::test
