// `cuzk-bench kernels`: checks, then the timing table.
#pragma once

#include <string>
#include <vector>

namespace cuzk::bench {

struct KernelsOptions {
  unsigned max_log = 27;    // largest size timed (NTT 2^27, MSM G1 2^27, G2 2^24)
  unsigned reps = 5;        // timed repeats after one warm-up; the median is reported
  unsigned prove_log = 16;  // RandomCircuit size for the whole-prove rows (0: skip)
  unsigned threads = 0;     // CPU threads (0: all)
  bool skip_checks = false;
  std::vector<unsigned> sweep_logs;  // MSM sizes (log2) to time at several window widths
  // Window widths of the precomputed-bases MSM rows (each with as many copies as device memory
  // holds, up to one per window); empty: none.
  std::vector<unsigned> table_windows = {16, 20, 22, 24};
  unsigned table_max_copies = 0;  // cap on the copies (0: as many as fit)
  std::string zkey, wtns;         // optional circom fixture for the zkey prove rows
  std::vector<std::string> only;  // sections timed (arith, ntt, g1, g2, prove); empty: all
  bool runs(const std::string& section) const;
};

// The small-size checks of every kernel against its CPU twin; prints one line per check and
// returns the number of mismatches.
int run_kernel_checks(unsigned threads);

int run_kernels(const KernelsOptions& o);

}  // namespace cuzk::bench
