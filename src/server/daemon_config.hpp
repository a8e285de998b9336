// cuzk-daemon's TOML configuration (the Rust cuzk daemon's knobs, apps/cuzk-daemon/
// cuzk.example.toml documents each with its default) -> the engine's EngineConfig plus what the
// daemon itself needs. An empty file gives working defaults; an unknown key or a wrong type is a
// ConfigError naming the file, the line and the key.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.hpp"
#include "server/config_values.hpp"
#include "server/default_paths.hpp"

namespace cuzk::server {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class ShutdownMode { kFinish, kCancel };  // what SIGTERM does to jobs in flight

struct DaemonConfig {
  engine::EngineConfig engine;

  ListenAddress listen;                        // [daemon] listen
  std::optional<ListenAddress> status_listen;  // [daemon] status_listen: HTTP GET /metrics
  // [daemon] socket_mode / socket_group: a unix socket's permission bits and group, so that a
  // Curio running as another user (in that group) can connect. "" = the daemon's own group.
  uint32_t socket_mode = 0600;
  std::string socket_group;
  // [daemon] tls_cert / tls_key (PEM): TLS on the gRPC listener; client_ca (PEM): only clients
  // whose certificate it signed are served. All empty: plaintext.
  std::filesystem::path tls_cert, tls_key, client_ca;
  ShutdownMode shutdown = ShutdownMode::kFinish;
  uint64_t shutdown_timeout_s = 300;

  // How engine.memory_budget_bytes came about, for the startup log.
  std::string memory_budget_origin;
  bool pipeline_enabled = true;

  std::string log_level = "info";   // trace | debug | info | warn | error | off (log_level.hpp)
  std::string log_format = "text";  // text | json

  // Keys of the Rust daemon that are accepted but have no effect here, one line each.
  std::vector<std::string> notes;
};

// What "auto" and the defaults depend on; tests pass their own.
struct SystemFacts {
  uint64_t mem_total_bytes = 0;  // /proc/meminfo MemTotal
  std::string param_cache_env;   // $FIL_PROOFS_PARAMETER_CACHE ("" when unset)
  std::string fault_env;         // $CUZK_FAULT: a fault plan replacing [faults] inject
  static SystemFacts of_this_machine();
};

// [gpus] cpu_fallback_max_sector_size's default: test sizes (2 KiB .. 512 MiB) prove on the CPU
// when backend "auto" finds no GPU; 32 and 64 GiB jobs are refused (UNAVAILABLE) rather than
// proved for hours past Curio's ProveTimeout.
inline constexpr uint64_t kDefaultCpuFallbackMaxSectorSize = uint64_t{512} << 20;

// `toml_text` read from `source` (a file name, used in messages). Throws ConfigError.
DaemonConfig parse_daemon_config(std::string_view toml_text, const std::string& source,
                                 const SystemFacts& facts);
// The file, or only the defaults when `file` is empty. Throws ConfigError.
DaemonConfig load_daemon_config(const std::filesystem::path& file, const SystemFacts& facts);

// The effective configuration as TOML (resolved values: the budget in bytes, the parameter
// directory); parsing it again gives the same configuration.
std::string to_toml(const DaemonConfig& config);

}  // namespace cuzk::server
