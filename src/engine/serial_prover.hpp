// A prepared job's partitions proved one after another in the calling thread: the orchestration
// of the `cuzk porep c2`, `cuzk update prove` and `cuzk post prove` commands. The partitions come
// from the proof kind's handler (make_porep_job, make_update_job, make_post_job: the one place a
// kind builds partition k and its public inputs) and go through the steps the engine's workers
// run (partition_prover.hpp), so a command and the daemon prove a partition the same way.
//
// Not the engine itself: a command proves one job once, prints each partition's timing line as
// it is done, refuses a bad input with its own exit code before the parameters are read, and
// tests inject r, s (the CPU and GPU backends must give the same bytes). An in-process Engine
// would add threads, a memory budget, the SRS manager, and record the circuit (PCE) into a
// directory beside the parameters on first use; none of that pays off for one proof.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/handlers/circuit_handler.hpp"
#include "groth16/backend.hpp"
#include "groth16/types.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

// Wall-clock seconds of one partition.
struct PartitionTiming {
  unsigned partition = 0;
  double circuit_s = 0;          // witness circuit from the vanilla proofs
  double inputs_s = 0;           // native public inputs
  groth16::ProverTiming prover;  // synthesis, quotient, MSMs, assembly
  double verify_s = 0;           // the proof checked against the inputs
  double total_s = 0;
};

struct SerialProveOptions {
  // Per partition r, s; default fresh OS randomness (tests inject them).
  std::function<groth16::ProofRandomness(unsigned partition)> randomness;
  // Called after each partition is proved and verified (progress printing).
  std::function<void(const PartitionTiming&)> on_partition;
};

struct SerialProveResult {
  std::vector<uint8_t> proof;  // partitions x 192 bytes, in partition order
  std::vector<PartitionTiming> partitions;
};

// Every partition of `job`, classic synthesis (a recording is the daemon's, kept in its PCE
// directory) on `pool`, proved on `backend` with `params`, each proof verified before the next
// partition starts. std::invalid_argument when the parameters are not the circuit's (before
// anything is proved); std::runtime_error when a proof does not verify (nothing is returned).
SerialProveResult prove_serially(const PreparedJob& job, const groth16::Parameters& params,
                                 groth16::ProverBackend& backend, ThreadPool& pool,
                                 const SerialProveOptions& options = {});

}  // namespace cuzk::engine
