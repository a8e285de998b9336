// How `cuzk porep|post|update verify` report a proof: one line a partition where the verifier
// gives them, then the whole proof's verdict, timed; exit 0 only if it verifies.
#pragma once

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_clock.hpp"
#include "command_errors.hpp"

namespace cuzk::app {

// Runs `verify(per)` (true when the proof verifies; it fills `per` with one verdict a partition,
// or leaves it empty) and prints
//   partition 0: valid
//   OK: <kind> proof verifies (0.012 s)
// What the verifier throws as std::invalid_argument (malformed proof bytes) becomes BadInput,
// after "<source>: " when `source` is not empty.
template <class Verify>
int report_verdict(const std::string& kind, const std::string& source, Verify&& verify) {
  const auto t0 = Clock::now();
  std::vector<bool> per;
  bool ok = false;
  try {
    ok = verify(per);
  } catch (const std::invalid_argument& e) {
    throw BadInput(source.empty() ? std::string(e.what()) : source + ": " + e.what());
  }
  for (size_t k = 0; k < per.size(); ++k)
    std::printf("partition %zu: %s\n", k, per[k] ? "valid" : "INVALID");
  const std::string verdict =
      ok ? "OK: " + kind + " proof verifies" : "INVALID: " + kind + " proof does not verify";
  std::printf("%s (%.3f s)\n", verdict.c_str(), seconds_since(t0));
  return ok ? 0 : 1;
}

}  // namespace cuzk::app
