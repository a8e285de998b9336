// `cuzk-bench kernels`: checks, then the timing table.
#pragma once

#include <string>
#include <vector>

namespace cuzk {
class ThreadPool;
}

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
  // The capped H MSM's shape (msm_chunk_rows.cpp), timed only when `only` names msm-chunks:
  // 2^msm_chunks_log scalars through MsmAccumulator in chunks of 2^k for k in msm_chunk_logs.
  unsigned msm_chunks_log = 27;
  std::vector<unsigned> msm_chunk_logs = {24, 25};
  // Instead of the rows: one accumulator pass over the first chunk size's first two chunks, the
  // second chunk's kernels and the reduction between cudaProfilerStart / Stop (for `ncu
  // --profile-from-start off`).
  bool msm_chunks_profile = false;
  bool runs(const std::string& section) const;
  bool names(const std::string& section) const;  // `only` names it (opt-in sections)
};

// The middle value of `v` (the upper middle for an even count); 0 when empty.
double median(std::vector<double> v);

// The small-size checks of every kernel against its CPU twin; prints one line per check and
// returns the number of mismatches.
int run_kernel_checks(unsigned threads);

// The msm-chunks rows (or, with msm_chunks_profile, the profiled pass); prints their table and
// returns the number of results that differ from the CPU's.
int run_msm_chunk_rows(const KernelsOptions& o, ThreadPool& pool);

// The alloc rows: device buffers allocated and freed at a capped front's sizes; prints their
// table.
void run_alloc_rows();

// The chain-copy rows: the 2^27 H chain alone and beside a 1.61 GB page-locked copy; prints
// their table.
void run_chain_copy_rows(const KernelsOptions& o);

int run_kernels(const KernelsOptions& o);

}  // namespace cuzk::bench
