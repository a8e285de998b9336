// The engine's job record: the type the scheduler, the payload spool and the workers share
// (internal to the engine). Its partitions in the pipeline: partition_ticket.hpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/handlers/circuit_handler.hpp"
#include "engine/job_lifecycle.hpp"
#include "engine/phase_clock.hpp"
#include "engine/request_digest.hpp"
#include "engine/resources/memory_budget.hpp"
#include "engine/resources/srs_manager.hpp"
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

  // Where it is in its life (job_lifecycle.hpp), and what that shows a client: both written by
  // advance() only.
  JobStage stage = JobStage::kQueued;
  JobState state = JobState::kPending;
  bool flush = false;  // a higher priority job arrived while this one's batch was collecting
  std::shared_ptr<const PreparedJob> work;
  std::shared_ptr<SrsLease> srs;
  Reservation resident;  // the prepared job's bytes
  unsigned partitions = 0, next_partition = 0, done_partitions = 0;
  // Its partitions in the pipeline (PartitionTicket: handed out and not yet left), and those
  // of them in synthesis (not yet in the prover queue).
  unsigned in_flight = 0, synthesizing = 0;
  std::vector<std::vector<uint8_t>> partition_proofs;
  JobResult result;
  std::string assigned_gpu;

  // What a prepared job holds (its parsed work, its parameters' lease, their reservation),
  // given back once it is final and no partition of it is in the pipeline.
  void release_resources() {
    work.reset();
    srs.reset();
    resident.reset();
  }
};

}  // namespace cuzk::engine
