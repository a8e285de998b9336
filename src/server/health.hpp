// The standard grpc.health.v1.Health service (gRPC's built-in implementation) kept in step with
// the engine: SERVING while the daemon can take proofs; NOT_SERVING while it drains (the daemon
// calls Shutdown() on the health service when the signal arrives, which also freezes it) or when
// its provers are GPUs and none of them is usable. Load balancers (Envoy, Kubernetes, gRPC
// clients with health checking) take a NOT_SERVING daemon out of rotation.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "engine/engine.hpp"

namespace grpc {
class HealthCheckServiceInterface;
}

namespace cuzk::server {

// The service names the health service answers for: "" (the whole server) and the proving API.
inline constexpr const char* kHealthServiceNames[] = {"", "cuzk.v1.ProvingEngine"};

// Why the daemon should not be given proofs now, or "" when it should. `backend` is the
// configured one (cpu | gpu | auto); a GPU is usable while the device is listed (its total
// memory known). A backend that ran on GPUs and has lost all of them cannot prove either.
std::string not_serving_reason(const std::string& backend, const engine::EngineStatus& status,
                               bool accepting);

class HealthReporter {
 public:
  // Sets every name of kHealthServiceNames from `problem()` ("" = SERVING) now and then every
  // `period`; `on_change(serving, reason)` (may be empty) hears each change, the first included.
  HealthReporter(grpc::HealthCheckServiceInterface& health, std::function<std::string()> problem,
                 std::function<void(bool, const std::string&)> on_change,
                 std::chrono::milliseconds period = std::chrono::seconds(1));
  ~HealthReporter();
  HealthReporter(const HealthReporter&) = delete;
  HealthReporter& operator=(const HealthReporter&) = delete;

  void refresh();  // one update now
  void stop();

 private:
  grpc::HealthCheckServiceInterface& health_;
  std::function<std::string()> problem_;
  std::function<void(bool, const std::string&)> on_change_;
  std::chrono::milliseconds period_;
  std::mutex refresh_mu_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool known_ = false;
  std::string last_;  // the last reason reported ("" = SERVING)
  std::thread thread_;
};

}  // namespace cuzk::server
