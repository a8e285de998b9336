// Progress: where a long command is (parameter generation, subgroup checks, parameter loading, PCE
// recording, sealing, proving...). On a terminal one bar redrawn in place; otherwise (a log
// file, a pipe) a line every CUZK_PROGRESS_SECONDS (default 5; 0: every update). Each line names
// the phase, done / total (when the total is known), the rate and the time left. Thread-safe:
// workers call add() as they finish pieces of work.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace cuzk {

// How a layer below the commands reports progress: (phase, done so far, total; 0: unknown).
// Calls for one phase come in order; PhasedProgress is one. Empty: nobody listens.
using ProgressFn = std::function<void(std::string_view phase, uint64_t done, uint64_t total)>;

// Counts one phase's work from many threads and reports each new total to a ProgressFn, in
// order (the report is made under the counter's lock). Does nothing when `fn` is empty.
class ProgressCounter {
 public:
  ProgressCounter(ProgressFn fn, std::string phase, uint64_t total)
      : fn_(std::move(fn)), phase_(std::move(phase)), total_(total) {}
  void add(uint64_t n) {
    if (!fn_) return;
    std::lock_guard lock(mu_);
    done_ += n;
    fn_(phase_, done_, total_);
  }

 private:
  const ProgressFn fn_;
  std::string phase_;
  uint64_t total_;
  std::mutex mu_;
  uint64_t done_ = 0;
};

class Progress {
 public:
  // total 0: unknown (lines show done and the rate only). `unit` names what is counted
  // ("constraints", "points"); out: where lines go (stderr by default).
  Progress(std::string phase, uint64_t total, std::string unit, std::FILE* out = stderr);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add(uint64_t n);
  void set_total(uint64_t total);
  // The last line (done, total time, mean rate); the destructor calls it if nobody did.
  void finish();

  // One line of text without terminal control characters; with `bar` (a terminal) a bar of
  // the share done leads it when the total is known.
  static std::string format(const std::string& phase, uint64_t done, uint64_t total,
                            const std::string& unit, double elapsed_s, bool final,
                            bool bar = false);

 private:
  using Clock = std::chrono::steady_clock;
  void print(bool final);

  std::mutex mu_;
  std::string phase_, unit_;
  uint64_t done_ = 0, total_ = 0;
  std::FILE* out_;
  bool tty_ = false, finished_ = false;
  Clock::time_point start_, last_print_;
  double interval_s_;
};

// For code that reports progress as (phase, done so far, total) callbacks (sealing, the parent
// cache, parameter loading): one Progress per phase, the previous phase's final line printed when
// the phase changes or done reaches total. quiet: nothing is printed.
class PhasedProgress {
 public:
  explicit PhasedProgress(std::string unit, bool quiet = false, std::FILE* out = stderr);
  void operator()(std::string_view phase, uint64_t done, uint64_t total);
  void finish();  // the current phase's final line (the destructor calls it)
  ~PhasedProgress() { finish(); }

 private:
  std::mutex mu_;
  std::string unit_, phase_;
  std::FILE* out_;
  uint64_t done_ = 0;
  std::unique_ptr<Progress> current_;
};

}  // namespace cuzk
