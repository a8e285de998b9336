// cuzk-daemon's TOML configuration (server/daemon_config.hpp): an accepted file prints (to_toml)
// to a configuration that parses to itself.
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "server/daemon_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::server;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  SystemFacts facts;
  facts.mem_total_bytes = uint64_t{64} << 30;
  try {
    const DaemonConfig c = parse_daemon_config(text, "fuzz.toml", facts);
    const std::string printed = to_toml(c);
    cuzk::fuzz::require(to_toml(parse_daemon_config(printed, "printed.toml", facts)) == printed,
                        "to_toml round trip", printed);
  } catch (const ConfigError&) {
  }
  return 0;
}
