// PhaseClock: where a job's time went. Every instant from its submission to its end belongs to
// exactly one phase, the furthest along of what is under way for the job at that instant:
//
//   gpu_compute  a partition of it is on a prover (proving, self-verifying, retrying);
//   synthesis    none is, and it is being prepared (payload read, parsed and checked) or a
//                partition of it is being synthesized;
//   srs_load     neither, and it waits for its parameters to load (room for them included);
//   queue        none of these: it waits to be started, for memory, for a synthesis worker or
//                for a prover.
//
// The phases are intervals of the job's wall clock, not sums over partitions (those overlap), so
// they add up to the total: before, a WinningPoSt that waited 5.6 s for the GPU on the H200
// reported "queue 0 | synthesis 10 | gpu 229 | total 5726" (the wait for a prover was nobody's).
// Thread-safe: the engine's workers mark what they do without the engine's lock.
#pragma once

#include <array>
#include <mutex>

#include "engine/types.hpp"
#include "util/clock.hpp"

namespace cuzk::engine {

class PhaseClock {
 public:
  // What can be under way for a job, in the order of precedence above (the last wins).
  enum class Activity { kSrsLoad = 0, kSynthesis = 1, kProve = 2 };

  PhaseClock() = default;
  // A copy of the state so far (a Job is a value the tests build and copy).
  PhaseClock(const PhaseClock& o);
  PhaseClock& operator=(const PhaseClock& o);

  // The job's life begins at `t` (its submission).
  void start(SteadyClock::time_point t);
  // An activity begins or ends at `t` (several partitions may be in one at once). A `t` before
  // the last change (another thread read the clock first) counts as that change's time.
  void begin(Activity a, SteadyClock::time_point t = SteadyClock::now());
  void end(Activity a, SteadyClock::time_point t = SteadyClock::now());

  // The phases from start() to `t`, in milliseconds that add up to total_ms exactly: each phase
  // is rounded down and the milliseconds left go to the largest remainders.
  JobTimings timings(SteadyClock::time_point t) const;

  // begin() now, end() when it goes out of scope.
  class Scope {
   public:
    Scope(PhaseClock& clock, Activity a) : clock_(clock), a_(a) { clock_.begin(a_); }
    ~Scope() { clock_.end(a_); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseClock& clock_;
    Activity a_;
  };

 private:
  // Adds the time since the last change to the phase under way (caller holds mu_).
  void advance(SteadyClock::time_point t);
  size_t phase() const;  // index into spent_: 0 queue, 1 + Activity

  mutable std::mutex mu_;
  SteadyClock::time_point since_{};
  std::array<unsigned, 3> active_{};
  std::array<SteadyClock::duration, 4> spent_{};
};

}  // namespace cuzk::engine
