// Pre-compiled constraints tools of `cuzk`:
//   pce record   record a circuit shape once and write its PCE file (what the daemon loads)
//   pce info     the recorded shape's counts, from a file or recorded in memory
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "engine/handlers/circuit_handler.hpp"
#include "pce/recorded_circuit.hpp"

namespace cuzk::app {

struct PceOptions {
  enum class Action { kNone, kRecord, kInfo };
  Action action = Action::kNone;
  std::string kind = "porep";
  std::string sector_size;
  std::string out;   // record: directory
  std::string file;  // info: a PCE file instead of recording
  unsigned threads = 0;
};

void add_pce_commands(CLI::App& app, PceOptions& opts);
// Exit code: 0 success, 2 bad input or a file that is refused.
int run_pce(const PceOptions& opts);

// The blank circuit recorded in memory, with progress lines and its time and peak RSS on stderr.
pce::RecordedCircuit record_blank_circuit(const engine::BlankCircuit& blank);

}  // namespace cuzk::app
