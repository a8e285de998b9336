#include "server/health.hpp"

#include <grpcpp/health_check_service_interface.h>

#include <algorithm>
#include <utility>

namespace cuzk::server {

std::string not_serving_reason(const std::string& backend, const engine::EngineStatus& status,
                               bool accepting) {
  if (!accepting) return "draining: the engine accepts no new jobs";
  if (!status.no_prover_reason.empty()) return status.no_prover_reason;
  const bool usable = std::any_of(
      status.gpus.begin(), status.gpus.end(),
      [](const engine::GpuInfo& g) { return g.vram_total_bytes > 0 && g.out_of_rotation.empty(); });
  if (!usable && (backend == "gpu" || !status.gpus.empty())) {
    return "backend " + backend + " needs a GPU and none of " + std::to_string(status.gpus.size()) +
           " is usable";
  }
  return "";
}

HealthReporter::HealthReporter(grpc::HealthCheckServiceInterface& health,
                               std::function<std::string()> problem,
                               std::function<void(bool, const std::string&)> on_change,
                               std::chrono::milliseconds period)
    : health_(health),
      problem_(std::move(problem)),
      on_change_(std::move(on_change)),
      period_(period) {
  refresh();
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mu_);
    while (!wake_.wait_for(lock, period_, [this] { return stopping_; })) {
      lock.unlock();
      refresh();
      lock.lock();
    }
  });
}

HealthReporter::~HealthReporter() {
  stop();
}

void HealthReporter::refresh() {
  std::lock_guard<std::mutex> one(refresh_mu_);  // changes are reported in the order they happen
  const std::string reason = problem_();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (known_ && reason == last_) return;  // every Set reaches the Watch streams: only changes
    known_ = true;
    last_ = reason;
  }
  for (const char* name : kHealthServiceNames)
    health_.SetServingStatus(name, reason.empty());
  if (on_change_) on_change_(reason.empty(), reason);
}

void HealthReporter::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace cuzk::server
