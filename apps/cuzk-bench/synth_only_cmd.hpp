// `cuzk-bench synth-only`: synthesizes PoRep partitions of a C1 output and prints, per iteration,
// the time of each phase, the counts, the peak memory and `abc sha256 <hex>` (over the canonical
// little-endian bytes of a, then b, then c), so that modes and machines can be compared:
//   --mode classic  the proving assignment (one thread per partition: it builds every linear
//                   combination);
//   --mode pce      the recorded constraints (recorded once, or loaded with --pce-dir), the
//                   witness-only synthesis on --threads, a, b, c by SpMV on the CPU or, with
//                   --gpu-spmv, on the device;
//   --mode metric   counts only (MetricCS with densities).
// Works on synthetic 32 GiB C1s (`cuzk c1 synthetic`).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace cuzk::bench {

struct SynthOnlyOptions {
  std::string c1;
  std::string mode = "classic";
  unsigned partition = 0;
  bool all_partitions = false;  // every partition of the C1 (pce: concurrently)
  unsigned iterations = 1;
  unsigned threads = 0;  // pce: witness synthesis and CPU SpMV threads (0: all cores)
  bool reserve = false;  // classic: reserve the vectors from a metric pass (untimed) first
  bool gpu_spmv = false;
  std::string digest = "all";  // abc sha256 of: all | first | none of the partitions (12.5 GB
                               // hash each at 32 GiB)
  std::string pce_dir;         // pce: load the recording from here (recorded and saved when absent)
};

void add_synth_only_command(CLI::App& app, SynthOnlyOptions& opts, bool& selected);
int run_synth_only(const SynthOnlyOptions& opts);

}  // namespace cuzk::bench
