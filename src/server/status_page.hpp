// The daemon's status page on status_listen: GET /status (JSON: the engine's status and its
// recent activity, see status_json) and GET / (one self-contained HTML page, status_page.html,
// that redraws itself from /status every 1.5 s). Beside /metrics (metrics_http.hpp).
#pragma once

#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "server/health.hpp"
#include "server/metrics_http.hpp"

namespace cuzk::server {

// The timeline's span: the last five minutes.
inline constexpr double kStatusWindowSeconds = 300;

// /status: {version, health {state, reason}, now_s, window_s, uptime_s, totals, lanes, spans,
// active_jobs, recent_jobs, queue, devices, host, srs} and the Rust daemon's fields
// (status_rust_fields.hpp); times are seconds since the engine started, sizes bytes.
std::string status_json(const engine::EngineStatus& status, const engine::EngineActivity& activity,
                        const Health& health = {});

// The page's HTML (status_page.html, embedded at build time).
const std::string& status_page_html();

// GET /, GET /status (with Access-Control-Allow-Origin: *, as the Rust daemon sends it) and
// GET /healthz (200 "serving" or "degraded: <reason>", 503 "not_serving: <reason>") over
// `engine` (which must outlive the routes).
std::vector<HttpRoute> status_page_routes(const engine::Engine& engine,
                                          double window_s = kStatusWindowSeconds);

}  // namespace cuzk::server
