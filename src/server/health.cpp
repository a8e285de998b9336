#include "server/health.hpp"

#include <grpcpp/health_check_service_interface.h>

#include <algorithm>
#include <utility>

namespace cuzk::server {

// A switch with no default: -Wswitch (an error here) names an enumerator added without a name.
const char* health_state_name(HealthState state) {
  switch (state) {
    case HealthState::kServing:
      return "serving";
    case HealthState::kDegraded:
      return "degraded";
    case HealthState::kNotServing:
      return "not_serving";
  }
  return "?";
}

Health health_of(const engine::EngineStatus& status, bool accepting) {
  if (!accepting) return {HealthState::kNotServing, "draining: the engine accepts no new jobs"};
  if (!status.no_prover_reason.empty()) return {HealthState::kNotServing, status.no_prover_reason};
  const auto usable = [](const engine::GpuInfo& g) {
    return g.vram_total_bytes > 0 && g.out_of_rotation.empty();
  };
  const size_t n =
      static_cast<size_t>(std::count_if(status.gpus.begin(), status.gpus.end(), usable));
  if (n == 0 && (status.backend == "gpu" || !status.gpus.empty())) {
    return {HealthState::kNotServing, "backend " + status.backend + " needs a GPU and none of " +
                                          std::to_string(status.gpus.size()) + " is usable"};
  }
  if (!status.cpu_fallback_reason.empty()) {
    return {HealthState::kDegraded, status.cpu_fallback_reason};
  }
  std::string lost;
  for (const engine::GpuInfo& g : status.gpus) {
    if (usable(g)) continue;
    lost += (lost.empty() ? "" : "; ") + ("gpu:" + std::to_string(g.ordinal)) + " " +
            (g.out_of_rotation.empty() ? "not listed by the driver"
                                       : "out of rotation: " + g.out_of_rotation);
  }
  if (!lost.empty()) {
    return {
        HealthState::kDegraded,
        std::to_string(n) + " of " + std::to_string(status.gpus.size()) + " GPUs prove; " + lost};
  }
  return {};
}

Health engine_health(const engine::Engine& engine) {
  return health_of(engine.status(), engine.accepting());
}

std::string describe(const Health& health) {
  std::string s = health_state_name(health.state);
  if (!health.reason.empty()) s += ": " + health.reason;
  return s;
}

HealthReporter::HealthReporter(grpc::HealthCheckServiceInterface& service,
                               std::function<Health()> health,
                               std::function<void(const Health&)> on_change,
                               std::chrono::milliseconds period)
    : service_(service),
      health_(std::move(health)),
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
  const Health now = health_();
  bool serving_changed = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (known_ && now == last_) return;
    // Every Set reaches the Watch streams: only changes of SERVING / NOT_SERVING.
    serving_changed = !known_ || (now.state == HealthState::kNotServing) !=
                                     (last_.state == HealthState::kNotServing);
    known_ = true;
    last_ = now;
  }
  if (serving_changed) {
    for (const char* name : kHealthServiceNames)
      service_.SetServingStatus(name, now.state != HealthState::kNotServing);
  }
  if (on_change_) on_change_(now);
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
