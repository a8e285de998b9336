// Progress: where a long command is (parameter generation, PCE recording, sealing, proving...).
// On a terminal one bar redrawn in place; otherwise (a log file, a pipe) a line every few
// seconds. Each line names the phase, done / total (when the total is known), the rate and the
// time left. Thread-safe: workers call add() as they finish pieces of work.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace cuzk {

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

  // One line of text without terminal control characters.
  static std::string format(const std::string& phase, uint64_t done, uint64_t total,
                            const std::string& unit, double elapsed_s, bool final);

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
