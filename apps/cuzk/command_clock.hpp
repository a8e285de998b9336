// The wall time and peak memory the `cuzk` commands print after each phase.
#pragma once

#include <sys/resource.h>

#include <chrono>

namespace cuzk::app {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// This process's peak resident set so far, in GiB.
inline double peak_rss_gib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / (1024.0 * 1024.0);  // ru_maxrss is in KiB
}

}  // namespace cuzk::app
