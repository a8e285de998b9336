// What /metrics and the GetMetrics rpc serve: the engine's families (engine/metrics.hpp), then
// the daemon's own: cuzk_health{state} (1 for the current state, 0 for the others: an alert on
// cuzk_health{state!="serving"} == 1 catches a GPU-less daemon proving on the CPU) and
// cuzk_build_info{version,cuda} 1.
#pragma once

#include <string>

#include "engine/engine.hpp"
#include "server/health.hpp"

namespace cuzk::server {

std::string health_metrics_text(const Health& health);
std::string build_info_metrics_text();
std::string daemon_metrics_text(const engine::Engine& engine);

}  // namespace cuzk::server
