// `cuzk-bench synth-only`: synthesizes one PoRep partition of a C1 output N times and prints, per
// iteration, the synthesis time, the constraint/variable counts and the peak memory — the
// microbenchmark that isolates witness synthesis (works on synthetic 32 GiB C1s).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace cuzk::bench {

struct SynthOnlyOptions {
  std::string c1;
  unsigned partition = 0;
  unsigned iterations = 1;
  bool metric = false;   // count only (MetricCS with densities) instead of the proving assignment
  bool reserve = false;  // reserve the vectors from a metric pass (untimed) before synthesis
};

void add_synth_only_command(CLI::App& app, SynthOnlyOptions& opts, bool& selected);
int run_synth_only(const SynthOnlyOptions& opts);

}  // namespace cuzk::bench
