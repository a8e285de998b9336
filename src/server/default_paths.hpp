// The paths a Curio host expects, one set for the daemon, its clients (cuzk-bench), the systemd
// unit and README ("Migrating from the Rust daemon"): the Rust daemon's socket and config file,
// and the parameter directory `curio fetch-params` fills. Header-only: clients include it alone.
#pragma once

#include <string_view>

namespace cuzk::server {

inline constexpr std::string_view kDefaultListen = "unix:///run/curio/cuzk.sock";
inline constexpr std::string_view kDefaultParamCache = "/var/tmp/filecoin-proof-parameters";
inline constexpr std::string_view kDefaultConfigFile = "/data/zk/cuzk.toml";
// The Rust daemon's default [srs] param_cache: named in the warning when ours does not exist.
inline constexpr std::string_view kRustDaemonParamCache = "/data/zk/params";

}  // namespace cuzk::server
