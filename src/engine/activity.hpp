// What the engine has been doing lately (Engine::activity): the recent spans of each worker lane
// (a prover per GPU or CPU worker, each synthesis worker, the preparer), the jobs in flight, the
// last finished jobs, queue depth by priority, and memory by use. The status page draws its
// timeline from this; times are seconds since the engine started.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/types.hpp"

namespace cuzk::engine {

// Phase names as the page colours them: "prepare" (parse + parameters), "witness" (synthesis),
// "queued" (synthesized, waiting for room in the prover queue), "upload", "spmv", "h_chain",
// "msm" (the five MSMs and the proof's assembly), "verify".
struct PhaseSpan {
  std::string phase;
  double start_s = 0, end_s = 0;
};

struct LaneSpan {
  std::string lane;  // "gpu:0", "cpu:0", "synth:0", "prepare"
  std::string job_id, kind;
  uint64_t sector_size = 0;
  int priority = 0;
  int partition = -1;  // -1: the job's preparation
  double start_s = 0, end_s = 0;
  bool open = false;    // still running: end_s is the snapshot's time
  bool failed = false;  // ended without its result (error, cancel)
  std::vector<PhaseSpan> phases;
};

struct LaneInfo {
  std::string name;
  std::string role;       // "prover", "synthesis", "preparer"
  double busy_ratio = 0;  // share of the window covered by its spans (open ones included)
  std::string current_job;
};

struct FinishedJob {
  std::string job_id, request_id, kind, circuit_id;
  uint64_t sector_size = 0;
  int priority = 0;
  JobState state = JobState::kCompleted;
  std::string error;
  JobTimings timings;
  unsigned partitions = 0;
  std::string assigned_gpu;
  double submitted_s = 0, finished_s = 0;
};

struct ActiveJob {
  std::string job_id, kind;
  uint64_t sector_size = 0;
  int priority = 0;
  std::string state;  // "pending", "preparing", "running"
  unsigned partitions = 0, done_partitions = 0;
  double submitted_s = 0;
};

struct PriorityDepth {
  int priority = 0;  // Priority's numbers (UNSPECIFIED counted as NORMAL)
  uint32_t pending = 0, running = 0;
};

// What a device holds as far as the engine knows: the parameters and the recorded constraints of
// the circuit it proved last (one circuit per device), and the working set of one partition
// while one is proved. Free and total come from the driver (0 without CUDA).
struct DeviceUse {
  std::string lane;  // "gpu:0"
  std::string circuit_id;
  uint64_t srs_bytes = 0, pce_bytes = 0, working_set_bytes = 0;
  uint64_t total_bytes = 0, free_bytes = 0;
  bool srs_streams = false;  // srs_bytes is a part: the rest streams from the host at each proof
  uint64_t pinned_host_bytes = 0;  // host memory its backend keeps page-locked for the streaming
};

struct HostMemory {
  uint64_t budget_bytes = 0;  // 0: no limit
  uint64_t reserved_bytes = 0, peak_bytes = 0;
  uint64_t srs_bytes = 0;            // loaded parameters (and recorded constraints), host copies
  uint64_t payload_bytes = 0;        // queued payloads in memory
  uint64_t payload_share_bytes = 0;  // reserved for them (1/16 of the budget)
  uint64_t resident_bytes = 0;       // the process's resident set
};

struct EngineActivity {
  double now_s = 0, window_s = 0;
  std::vector<LaneInfo> lanes;
  std::vector<LaneSpan> spans;  // ending within the window, oldest first per lane
  std::vector<ActiveJob> active_jobs;
  std::vector<FinishedJob> recent_jobs;  // newest first
  std::vector<PriorityDepth> queue_by_priority;
  uint32_t prover_queue_partitions = 0;
  std::vector<DeviceUse> devices;
  HostMemory host;
};

}  // namespace cuzk::engine
