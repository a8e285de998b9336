// The engine's job record and the partitions that move through the pipeline: the types the
// scheduler, the payload spool and the workers share (internal to the engine).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/circuit_handler.hpp"
#include "engine/memory_budget.hpp"
#include "engine/partition_prover.hpp"
#include "engine/phase_clock.hpp"
#include "engine/request_digest.hpp"
#include "engine/srs_manager.hpp"
#include "engine/types.hpp"
#include "util/clock.hpp"

namespace cuzk::engine {

using Clock = SteadyClock;  // seconds_between, seconds_since: util/clock.hpp

inline bool is_final(JobState s) {
  return s == JobState::kCompleted || s == JobState::kFailed || s == JobState::kCancelled;
}

// UNSPECIFIED is treated as NORMAL.
inline int effective_priority(Priority p) {
  return p == Priority::kUnspecified ? static_cast<int>(Priority::kNormal) : static_cast<int>(p);
}

struct Job {
  std::string id;
  std::string request_id;
  RequestDigest request_digest;  // when request_id is set: what a resubmission must match
  ProofRequest request;          // the payload is dropped once prepared
  // Until a worker takes the request: its payload bytes counted in memory, or the spool file
  // holding the payload (then request's payload fields are empty).
  uint64_t payload_bytes = 0;
  std::filesystem::path spool_file;
  ProofKind kind = ProofKind::kUnspecified;
  std::string kind_label;
  std::string circuit_id;
  uint64_t sector_size = 0;
  std::shared_ptr<const CircuitHandler> handler;
  int priority = 0;
  uint64_t seq = 0;          // submission order
  uint64_t release_seq = 0;  // order of release into the pipeline
  Clock::time_point submitted, started, finished;
  PhaseClock phases;  // where its time goes (result.timings at its end)

  JobState state = JobState::kPending;
  bool released = false, preparing = false, prepared = false;
  bool flush = false;  // a higher priority job arrived while this one's batch was collecting
  std::shared_ptr<const PreparedJob> work;
  std::shared_ptr<SrsLease> srs;
  Reservation resident;  // the prepared job's bytes
  unsigned partitions = 0, next_partition = 0, done_partitions = 0, in_flight = 0;
  unsigned synthesizing = 0;  // partitions handed to synthesis, not yet in the prover queue
  std::vector<std::vector<uint8_t>> partition_proofs;
  JobResult result;
  std::string assigned_gpu;
};

// A synthesized partition waiting for a prover, with its memory reservation.
struct ProverItem {
  std::shared_ptr<Job> job;
  std::shared_ptr<SrsLease> srs;
  unsigned index = 0;
  std::unique_ptr<SynthesizedPartition> partition;
  Reservation reservation;
  // Its failed prove attempts so far ("on gpu:0: <error>"), and, when it waits for a retry on
  // another worker, the name of the one it failed on (which does not take it again).
  std::vector<std::string> failures;
  std::string not_on;
};

}  // namespace cuzk::engine
