// The daemon config tests' helpers: a 64 GiB machine's facts, parsing TOML text as "test.toml",
// and the ConfigError message of a text that does not parse.
#pragma once

#include <cstdint>
#include <string>

#include "server/daemon_config.hpp"

namespace cuzk::server::testing {

constexpr uint64_t kGiB = uint64_t{1} << 30, kMiB = uint64_t{1} << 20;

inline SystemFacts facts_64g() {
  SystemFacts f;
  f.mem_total_bytes = 64 * kGiB;
  return f;
}

inline DaemonConfig parse(const std::string& text, const SystemFacts& facts = facts_64g()) {
  return parse_daemon_config(text, "test.toml", facts);
}

// The ConfigError message for `text` ("" when it parses).
inline std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace cuzk::server::testing
