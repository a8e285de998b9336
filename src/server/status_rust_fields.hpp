// The fields of the Rust cuzk daemon's GET /status (cuzk-core status.rs StatusSnapshot), which
// existing dashboards read, filled from our engine: uptime_secs, memory, synthesis, pipelines,
// gpu_workers, allocations, counters, buffers, with its field names and JSON types. Our
// /status is a superset: these beside our own fields (status_page.hpp). Where the engine keeps no
// such figure the Rust internals read 0 (README, "The status page").
#pragma once

#include <nlohmann/json.hpp>

#include "engine/engine.hpp"

namespace cuzk::server {

// The Rust daemon's proof kind names ("porep-c2", "snap-update", "window-post",
// "winning-post") for our kind labels ("porep", "snap", "wpost", "winning").
std::string rust_proof_kind(const std::string& kind_label);

// The object of the Rust daemon's fields (merged into status_json's object).
nlohmann::json rust_status_fields(const engine::EngineStatus& status,
                                  const engine::EngineActivity& activity);

}  // namespace cuzk::server
