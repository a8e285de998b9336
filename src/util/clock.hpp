// The wall-clock seconds src/ reports in its timings (the steady clock: it never jumps with the
// date). apps/cuzk/command_clock.hpp is the commands' twin.
#pragma once

#include <chrono>

namespace cuzk {

using SteadyClock = std::chrono::steady_clock;

inline double seconds_between(SteadyClock::time_point a, SteadyClock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

inline double seconds_since(SteadyClock::time_point t0) {
  return seconds_between(t0, SteadyClock::now());
}

}  // namespace cuzk
