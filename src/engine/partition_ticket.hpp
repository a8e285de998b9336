// A partition's place in the pipeline, as one owning object: from the moment the scheduler hands
// it out until it leaves (proved, failed, or dropped because its job became final), it counts in
// its job's in_flight and, while it is synthesized, in the job's and the engine's synthesis
// counts (the lookahead), and it owns the partition's memory reservation. leave() is the one
// place a partition leaves the pipeline: its memory goes back to the budget, it leaves the counts,
// and when it was the last partition of a final job, the job's resources are released.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine/job.hpp"
#include "engine/partition_prover.hpp"
#include "engine/resources/memory_budget.hpp"

namespace cuzk::engine {

class PartitionTicket {
 public:
  PartitionTicket() = default;
  // Partition `index` of `job` enters the pipeline, in synthesis: counted in job.in_flight,
  // job.synthesizing and `*synthesizing_total` (the engine's; may be null). Caller holds the
  // engine's mutex.
  PartitionTicket(std::shared_ptr<Job> job, unsigned index, size_t* synthesizing_total);
  PartitionTicket(PartitionTicket&& o) noexcept;
  PartitionTicket& operator=(PartitionTicket&& o) noexcept;
  PartitionTicket(const PartitionTicket&) = delete;
  PartitionTicket& operator=(const PartitionTicket&) = delete;
  // Its memory goes back (Reservation). The counts are the engine's, under its mutex: a ticket
  // still held here is a partition that never left (an engine bug), and its job's resources
  // stay until the job is forgotten.
  ~PartitionTicket() = default;

  const std::shared_ptr<Job>& job() const { return job_; }
  unsigned index() const { return index_; }
  bool held() const { return job_ != nullptr; }
  bool synthesizing() const { return synthesizing_; }
  // The partition's memory reservation (set once its bytes are reserved, settled after
  // synthesis, grown by a CPU fallback).
  Reservation& memory() { return memory_; }

  // Its synthesis is over (it is in the prover queue): out of the synthesis counts, still in the
  // pipeline. Caller holds the engine's mutex.
  void synthesized();
  // Leaves the pipeline (see above); nothing after the first call. Caller holds the engine's
  // mutex.
  void leave();

 private:
  std::shared_ptr<Job> job_;
  unsigned index_ = 0;
  size_t* synthesizing_total_ = nullptr;
  bool synthesizing_ = false;
  Reservation memory_;
};

// A synthesized partition waiting for a prover, with its place in the pipeline.
struct ProverItem {
  std::shared_ptr<Job> job;
  std::shared_ptr<SrsLease> srs;
  unsigned index = 0;
  std::unique_ptr<SynthesizedPartition> partition;
  PartitionTicket ticket;
  // Its failed prove attempts so far ("on gpu:0: <error>"), and, when it waits for a retry on
  // another worker, the name of the one it failed on (which does not take it again).
  std::vector<std::string> failures;
  std::string not_on;
  // The host copy of a set leased without its points, once a prover needed it
  // (Engine::Impl::params_for); a batch's members share it.
  std::shared_ptr<const groth16::Parameters> host;

  // The one place the prover side decides between the two inputs: the circuit's recording when
  // the partition was synthesized witness-only (and the recording is loaded), otherwise nullptr,
  // the classic assignment. Only recorded partitions warm the device and batch.
  const pce::RecordedCircuit* recording() const {
    return partition && partition->witness && srs ? (*srs)->pce.get() : nullptr;
  }
};

}  // namespace cuzk::engine
