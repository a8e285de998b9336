// The daemon's log level, from [logging] level, --log-level or RUST_LOG (the environment variable
// the Rust daemon reads, through tracing's EnvFilter). Accepted: a level name, any case (trace,
// debug, info, warn or warning, error, off), or an EnvFilter directive list such as
// "info,cuzk_core=debug": its bare level counts (without one, the most verbose target's level);
// per-target levels have no meaning here and are noted.
#pragma once

#include <string>
#include <string_view>

namespace cuzk::server {

struct LogLevel {
  std::string level;  // trace | debug | info | warn | error | off
  std::string note;   // what was not applied ("" when everything was)
};

// std::invalid_argument naming the text when no directive names a level.
LogLevel parse_log_level(std::string_view text);

// The documented names, for messages: "trace, debug, info, warn (or warning), error, off".
std::string_view log_level_names();

}  // namespace cuzk::server
