#include "engine/phase_clock.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace cuzk::engine {

PhaseClock::PhaseClock(const PhaseClock& o) {
  *this = o;
}

PhaseClock& PhaseClock::operator=(const PhaseClock& o) {
  if (this == &o) return *this;
  std::scoped_lock lock(mu_, o.mu_);
  since_ = o.since_;
  active_ = o.active_;
  spent_ = o.spent_;
  return *this;
}

void PhaseClock::start(SteadyClock::time_point t) {
  std::lock_guard<std::mutex> lock(mu_);
  since_ = t;
  active_ = {};
  spent_ = {};
}

size_t PhaseClock::phase() const {
  for (size_t a = active_.size(); a-- > 0;)
    if (active_[a] != 0) return a + 1;
  return 0;
}

void PhaseClock::advance(SteadyClock::time_point t) {
  if (t <= since_) return;
  spent_[phase()] += t - since_;
  since_ = t;
}

void PhaseClock::begin(Activity a, SteadyClock::time_point t) {
  std::lock_guard<std::mutex> lock(mu_);
  advance(t);
  ++active_[static_cast<size_t>(a)];
}

void PhaseClock::end(Activity a, SteadyClock::time_point t) {
  std::lock_guard<std::mutex> lock(mu_);
  advance(t);
  unsigned& n = active_[static_cast<size_t>(a)];
  if (n != 0) --n;
}

JobTimings PhaseClock::timings(SteadyClock::time_point t) const {
  std::array<SteadyClock::duration, 4> spent;
  {
    std::lock_guard<std::mutex> lock(mu_);
    spent = spent_;
    if (t > since_) spent[phase()] += t - since_;
  }
  using std::chrono::nanoseconds;
  constexpr int64_t kNsPerMs = 1'000'000;
  std::array<int64_t, 4> ns{}, ms{};
  for (size_t i = 0; i < ns.size(); ++i) {
    ns[i] = std::chrono::duration_cast<nanoseconds>(spent[i]).count();
    ms[i] = ns[i] / kNsPerMs;
  }
  const int64_t total_ms = std::accumulate(ns.begin(), ns.end(), int64_t{0}) / kNsPerMs;
  // Largest remainder: at most three milliseconds are left over after rounding each down.
  std::array<size_t, 4> order{0, 1, 2, 3};
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return ns[a] % kNsPerMs > ns[b] % kNsPerMs; });
  int64_t left = total_ms - std::accumulate(ms.begin(), ms.end(), int64_t{0});
  for (size_t i = 0; left > 0 && i < order.size(); ++i, --left)
    ++ms[order[i]];
  JobTimings out;
  out.queue_wait_ms = static_cast<uint64_t>(ms[0]);
  out.srs_load_ms = static_cast<uint64_t>(ms[1]);
  out.synthesis_ms = static_cast<uint64_t>(ms[2]);
  out.gpu_compute_ms = static_cast<uint64_t>(ms[3]);
  out.total_ms = static_cast<uint64_t>(total_ms);
  return out;
}

}  // namespace cuzk::engine
