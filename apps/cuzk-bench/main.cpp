// cuzk-bench: reproducible GPU kernel checks and timings (issue #4's table).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "kernels_cmd.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk-bench: GPU kernel checks and timing table"};
  app.require_subcommand(1);
  cuzk::bench::KernelsOptions k;
  CLI::App* kc = app.add_subcommand(
      "kernels", "Check each GPU kernel against its CPU twin, then print the timing table");
  kc->add_option("--max-log", k.max_log, "Largest log2 size timed (default 27)");
  kc->add_option("--reps", k.reps, "Timed repeats per row after one warm-up (default 5)");
  kc->add_option("--prove-log", k.prove_log, "RandomCircuit log2 size for prove rows (0: skip)");
  kc->add_option("--threads", k.threads, "CPU threads (default: all)");
  kc->add_flag("--skip-checks", k.skip_checks, "Only time");
  kc->add_option("--sweep", k.sweep_logs, "MSM sizes (log2) to time at several window widths");
  kc->add_option("--zkey", k.zkey, "circom fixture .zkey for the zkey prove rows");
  kc->add_option("--wtns", k.wtns, "circom fixture .wtns for the zkey prove rows");
  CLI11_PARSE(app, argc, argv);
  try {
    return cuzk::bench::run_kernels(k);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk-bench: %s\n", e.what());
    return 2;
  }
}
