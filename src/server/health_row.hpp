// GetStatus carries the daemon's health (server/health.hpp) as one more QueueStatus row, whose
// pending and in_progress are 0 (Curio sums those to decide whether to send more work):
// proof_kind = kHealthRowPrefix + "serving" | "degraded: <reason>" | "not_serving: <reason>".
// Header-only: clients (cuzk-bench status) include it alone.
#pragma once

#include <string_view>

namespace cuzk::server {

inline constexpr std::string_view kHealthRowPrefix = "health: ";

}  // namespace cuzk::server
