// EventHistory: the engine's bounded memory of what its workers did (internal to the engine).
// Each lane keeps its last kSpansPerLane spans and the one now running; the last kFinishedJobs
// finished jobs are kept with their timings. It has its own mutex, taken for a few copies per
// partition, never while the engine's mutex is needed.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "engine/activity.hpp"
#include "engine/job.hpp"
#include "groth16/backend.hpp"

namespace cuzk::engine {

class EventHistory;

// What a device holds while (busy) or after proving a partition of `srs`: its parameters (as much
// of them as `holding`, its backend's last word, says), its recorded constraints, and while busy
// the partition's working set as the engine estimates it.
DeviceUse device_use(const std::string& lane, const LoadedSrs& srs, bool busy,
                     const std::optional<groth16::DeviceHolding>& holding);

// One span while it runs: phases are added as they end; it is recorded when it goes out of scope
// (failed unless succeeded() was called).
class OpenSpan {
 public:
  OpenSpan(EventHistory* history, std::string lane) : history_(history), lane_(std::move(lane)) {}
  OpenSpan(OpenSpan&& o) noexcept : history_(std::exchange(o.history_, nullptr)), lane_(o.lane_) {}
  OpenSpan(const OpenSpan&) = delete;
  OpenSpan& operator=(const OpenSpan&) = delete;
  ~OpenSpan();

  void phase(const char* name, Clock::time_point start, Clock::time_point end);
  // The prover's phases laid end to end from `start` (ProverTiming has durations only).
  void prover_phases(Clock::time_point start, const groth16::ProverTiming& t);
  void succeeded() { ok_ = true; }

 private:
  EventHistory* history_;
  std::string lane_;
  bool ok_ = false;
};

class EventHistory {
 public:
  static constexpr size_t kSpansPerLane = 512;
  static constexpr size_t kFinishedJobs = 64;

  explicit EventHistory(Clock::time_point origin) : origin_(origin) {}

  // Lanes are listed in the order they are declared (workers declare theirs at start).
  void declare_lane(const std::string& name, const std::string& role);
  // Starts a span on `lane` for partition `partition` of `job` (-1: its preparation). `phase`
  // names the whole span if no phase is added.
  OpenSpan open(const std::string& lane, const Job& job, int partition, const char* phase);
  // What a device holds (see DeviceUse); working set 0 when it is idle.
  void set_device_use(DeviceUse use);
  void job_finished(const Job& job);  // caller may hold the engine's mutex

  double seconds(Clock::time_point t) const;
  // Spans ending after now - window_s, lanes with their busy share, devices, finished jobs.
  void snapshot(Clock::time_point now, double window_s, EngineActivity* out) const;

 private:
  friend class OpenSpan;
  void add_phase(const std::string& lane, PhaseSpan p);
  void close(const std::string& lane, bool ok);

  struct Lane {
    std::string role;
    std::deque<LaneSpan> done;
    std::optional<LaneSpan> running;
  };
  const Clock::time_point origin_;
  mutable std::mutex mu_;
  std::vector<std::string> order_;
  std::map<std::string, Lane> lanes_;
  std::map<std::string, DeviceUse> devices_;
  std::deque<FinishedJob> finished_;
};

}  // namespace cuzk::engine
