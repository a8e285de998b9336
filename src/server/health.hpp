// The daemon's health: serving, degraded (it proves, but not as configured: backend "auto" found
// no usable GPU and proves on the CPU, or a GPU is out of rotation) or not serving (draining, or
// no prover at all), with the reason. One decision (health_of), shown everywhere: the standard
// grpc.health.v1.Health service (SERVING unless not serving; gRPC's built-in implementation, the
// daemon calls Shutdown() on it when the signal arrives, which also freezes it), the log,
// GetStatus (a "health" queue row), /metrics (cuzk_health{state}), /healthz, /status and the
// status page. Load balancers (Envoy, Kubernetes, gRPC clients with health checking) take a
// NOT_SERVING daemon out of rotation.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "engine/engine.hpp"
#include "server/health_row.hpp"

namespace grpc {
class HealthCheckServiceInterface;
}

namespace cuzk::server {

// The service names the health service answers for: "" (the whole server) and the proving API.
inline constexpr const char* kHealthServiceNames[] = {"", "cuzk.v1.ProvingEngine"};

enum class HealthState { kServing, kDegraded, kNotServing };

struct Health {
  HealthState state = HealthState::kServing;
  std::string reason;  // "" when serving
  bool operator==(const Health&) const = default;
};

// "serving", "degraded", "not_serving" (metric labels, JSON).
const char* health_state_name(HealthState state);
// Every state, in that order (a metric family lists them all).
inline constexpr HealthState kHealthStates[] = {HealthState::kServing, HealthState::kDegraded,
                                                HealthState::kNotServing};

// A GPU is usable while the device is listed (its total memory known) and in rotation. Not
// serving: draining, no prover, or GPU provers of which none is usable (backend gpu, or
// auto that found devices: a backend that ran on GPUs and lost all of them cannot prove).
Health health_of(const engine::EngineStatus& status, bool accepting);

// The health of `engine` now.
Health engine_health(const engine::Engine& engine);

// "serving", or "degraded: <reason>": the health in one line (logs, the GetStatus row).
std::string describe(const Health& health);

// GetStatus's health row is kHealthRowPrefix + describe(health) (health_row.hpp).

class HealthReporter {
 public:
  // Sets every name of kHealthServiceNames from `health()` now and then every `period`;
  // `on_change(health)` (may be empty) hears each change of state or reason, the first included.
  HealthReporter(grpc::HealthCheckServiceInterface& service, std::function<Health()> health,
                 std::function<void(const Health&)> on_change,
                 std::chrono::milliseconds period = std::chrono::seconds(1));
  ~HealthReporter();
  HealthReporter(const HealthReporter&) = delete;
  HealthReporter& operator=(const HealthReporter&) = delete;

  void refresh();  // one update now
  void stop();

 private:
  grpc::HealthCheckServiceInterface& service_;
  std::function<Health()> health_;
  std::function<void(const Health&)> on_change_;
  std::chrono::milliseconds period_;
  std::mutex refresh_mu_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool known_ = false;
  Health last_;
  std::thread thread_;
};

}  // namespace cuzk::server
