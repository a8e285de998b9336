// CircuitIdentity: what a recorded circuit (a PCE file) is the circuit of. A file is used only for
// a circuit whose identity equals the one in its header, so a file of another sector size, proof
// kind, API version or circuit revision is refused instead of producing a wrong proof.
#pragma once

#include <cstdint>
#include <string>

namespace cuzk::pce {

struct CircuitIdentity {
  std::string kind;          // "porep", "window-post", ... (letters, digits, '-')
  uint64_t sector_size = 0;  // bytes
  std::string api_version;   // "1.1.0"; "any" for circuits that do not depend on it
  // Bumped whenever the circuit's code changes its variables or constraints (a file recorded by
  // an older build then no longer matches).
  uint32_t circuit_version = 1;

  bool operator==(const CircuitIdentity&) const = default;

  // "porep-34359738368-1.1.0-c1" (file names, logs).
  std::string to_string() const {
    return kind + "-" + std::to_string(sector_size) + "-" + api_version + "-c" +
           std::to_string(circuit_version);
  }
};

}  // namespace cuzk::pce
