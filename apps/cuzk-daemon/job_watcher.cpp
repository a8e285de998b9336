#include "job_watcher.hpp"

#include <chrono>
#include <vector>

namespace cuzk::daemon {
namespace {

// A finished job is logged at most this late; a sweep costs about 1 ms per job in flight.
constexpr std::chrono::milliseconds kSweepInterval{250};
constexpr std::chrono::milliseconds kPeek{1};  // engine.await's shortest non-blocking look

}  // namespace

JobWatcher::JobWatcher(engine::Engine& engine, EventLog& log)
    : engine_(engine), log_(log), thread_([this] { run(); }) {}

JobWatcher::~JobWatcher() {
  stop();
}

void JobWatcher::watch(const server::SubmitEvent& event) {
  std::lock_guard<std::mutex> lock(mu_);
  jobs_.try_emplace(event.result.job_id, Watched{engine::proof_kind_label(event.kind)});
}

size_t JobWatcher::cancel_all() {
  std::vector<std::string> ids;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [id, w] : jobs_)
      ids.push_back(id);
  }
  size_t cancelled = 0;
  for (const std::string& id : ids) {
    const engine::CancelResult r = engine_.cancel(id);
    if (r.found) ++cancelled;
  }
  return cancelled;
}

void JobWatcher::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  sweep();
}

void JobWatcher::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    lock.unlock();
    sweep();
    lock.lock();
    wake_.wait_for(lock, kSweepInterval, [this] { return stopping_; });
  }
}

void JobWatcher::sweep() {
  std::lock_guard<std::mutex> one_at_a_time(sweep_mu_);
  std::vector<std::string> ids;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (jobs_.empty()) return;
    for (const auto& [id, w] : jobs_)
      ids.push_back(id);
  }
  for (const engine::GpuInfo& g : engine_.status().gpus) {
    if (g.current_job_id.empty()) continue;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(g.current_job_id);
    if (it == jobs_.end() || it->second.started_logged) continue;
    it->second.started_logged = true;
    log_.info("job_started",
              {{"job_id", g.current_job_id}, {"kind", it->second.kind}, {"gpu", g.ordinal}});
  }
  for (const std::string& id : ids) {
    const std::optional<engine::JobResult> r = engine_.await(id, kPeek);
    if (!r) continue;
    std::string kind;
    {
      std::lock_guard<std::mutex> lock(mu_);
      kind = jobs_[id].kind;
      jobs_.erase(id);
    }
    const engine::JobTimings& t = r->timings;
    log_.log(r->state == engine::JobState::kCompleted ? spdlog::level::info : spdlog::level::warn,
             "job_finished",
             {{"job_id", id},
              {"kind", kind},
              {"state", engine::job_state_name(r->state)},
              {"queue_wait_ms", t.queue_wait_ms},
              {"srs_load_ms", t.srs_load_ms},
              {"synthesis_ms", t.synthesis_ms},
              {"gpu_compute_ms", t.gpu_compute_ms},
              {"total_ms", t.total_ms},
              {"batch_size", r->batch_size},
              // Capped devices: the bytes over PCIe, the floor at this link's measured pinned
              // bandwidth, and the same bytes over a PCIe 4.0 x16 card's ~25 GB/s.
              {"pcie_h2d_bytes", t.pcie_h2d_bytes},
              {"pcie_d2h_bytes", t.pcie_d2h_bytes},
              {"pcie_floor_ms", t.pcie_floor_ms},
              {"pcie4_x16_ms", (t.pcie_h2d_bytes + t.pcie_d2h_bytes) / 25'000'000},
              {"proof_bytes", r->proof.size()},
              {"error", r->error_message}});
  }
}

}  // namespace cuzk::daemon
