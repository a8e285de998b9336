#include "server/daemon_metrics.hpp"

#include "backend/backend_factory.hpp"
#include "engine/metrics.hpp"

namespace cuzk::server {

std::string health_metrics_text(const Health& health) {
  std::string out =
      "# HELP cuzk_health The daemon's health: 1 for its state (serving, degraded: proving but "
      "not as configured, not_serving), 0 for the others\n# TYPE cuzk_health gauge\n";
  for (HealthState s : kHealthStates) {
    out += std::string("cuzk_health{state=\"") + health_state_name(s) + "\"} " +
           (s == health.state ? "1" : "0") + "\n";
  }
  return out;
}

std::string build_info_metrics_text() {
  return "# HELP cuzk_build_info The daemon's version and whether it was built with CUDA\n"
         "# TYPE cuzk_build_info gauge\n"
         "cuzk_build_info{version=\"" +
         engine::Metrics::escape(CUZK_VERSION) + "\",cuda=\"" +
         (groth16::gpu_backend_compiled() ? "true" : "false") + "\"} 1\n";
}

std::string daemon_metrics_text(const engine::Engine& engine) {
  return engine.metrics_text() + health_metrics_text(engine_health(engine)) +
         build_info_metrics_text();
}

}  // namespace cuzk::server
