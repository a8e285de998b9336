// The effective configuration written back as TOML (cuzk-daemon --print-config, and the
// round trip that fuzz_daemon_config checks).
#include <toml++/toml.h>
#include <sstream>

#include "server/daemon_config.hpp"

namespace cuzk::server {
std::string to_toml(const DaemonConfig& c) {
  const engine::EngineConfig& e = c.engine;
  const auto i64 = [](uint64_t v) { return static_cast<int64_t>(v); };
  toml::array devices;
  for (int d : e.gpus)
    devices.push_back(d);
  const toml::table root{
      {"daemon",
       toml::table{
           {"listen", c.listen.grpc_uri()},
           {"status_listen", c.status_listen ? c.status_listen->host_port : ""},
           {"shutdown", c.shutdown == ShutdownMode::kCancel ? "cancel" : "finish"},
           {"shutdown_timeout_s", i64(c.shutdown_timeout_s)},
           {"result_ttl_s", i64(e.finished_job_ttl_s)},
           {"socket_mode", format_mode(c.socket_mode)},
           {"socket_group", c.socket_group},
           {"tls_cert", c.tls_cert.string()},
           {"tls_key", c.tls_key.string()},
           {"client_ca", c.client_ca.string()},
       }},
      {"srs",
       toml::table{
           {"param_cache", e.param_cache.string()},
           {"allow_insecure_params", e.allow_insecure_params},
           {"verify_digests", e.verify_param_digests},
           {"check_subgroups", e.check_param_subgroups},
           {"host_points",
            e.srs_host_points == engine::EngineConfig::HostPoints::kAuto ? "auto" : "always"},
       }},
      {"memory", toml::table{{"total_budget", i64(e.memory_budget_bytes)}}},
      {"gpus",
       toml::table{
           {"devices", devices},
           {"gpu_workers_per_device", i64(e.cpu_workers)},
           {"backend", e.backend},
           {"memory_limit", i64(e.gpu_memory_limit)},
           {"cpu_fallback_max_sector_size", i64(e.cpu_fallback_max_sector_size)},
       }},
      {"scheduler",
       toml::table{
           {"max_batch_size", i64(e.max_batch_size)},
           {"max_batch_wait_ms", i64(e.max_batch_wait_ms)},
           {"sort_by_type", e.sort_by_type},
       }},
      {"synthesis",
       toml::table{{"threads", i64(e.threads)}, {"workers", i64(e.synthesis_workers)}}},
      {"pipeline",
       toml::table{
           {"enabled", c.pipeline_enabled},
           {"synthesis_lookahead", i64(e.synthesis_lookahead)},
           {"verify_proofs", e.verify_proofs},
       }},
      {"pce", toml::table{{"enabled", e.pce_enabled}, {"cache_dir", e.pce_dir.string()}}},
      {"spool", toml::table{{"dir", e.spool_dir.string()}, {"max_size", i64(e.spool_max_bytes)}}},
      {"faults", toml::table{{"inject", e.faults}}},
      {"logging", toml::table{{"level", c.log_level}, {"format", c.log_format}}},
  };
  std::ostringstream out;
  out << root << "\n";
  return out.str();
}

}  // namespace cuzk::server
