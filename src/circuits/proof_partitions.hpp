// What every proof kind (porep, post, update) gives for one job: its partitions, each a circuit
// with its witness and the public inputs its proof must verify for. The kinds implement it beside
// their circuits (porep/porep_partitions.hpp, post/post_partitions.hpp,
// update/update_partitions.hpp); the engine and the `cuzk` commands prove what it builds, so a
// command needs no engine to get a partition.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "cs/constraint_system.hpp"
#include "ff/fr.hpp"
#include "util/clock.hpp"

namespace cuzk::circuits {

// Vanilla data a proof kind cannot build a partition from (a std::invalid_argument, which is how
// the engine and the commands already report bad input).
class ProofKindError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One partition of a job: its circuit with the witness, and its public inputs (ONE excluded, as
// groth16::verify_proof takes them).
struct PartitionCircuit {
  std::unique_ptr<const Circuit> circuit;
  std::vector<Fr> public_inputs;
  // Seconds spent building each (what `cuzk porep c2` and the others print; 0: not measured).
  double circuit_s = 0, inputs_s = 0;
};

// A partition from its two builders, each timed: what the kinds' partition() returns.
template <class InputsFn, class CircuitFn>
PartitionCircuit timed_partition(InputsFn&& inputs, CircuitFn&& circuit) {
  PartitionCircuit out;
  const auto t0 = SteadyClock::now();
  out.public_inputs = inputs();
  const auto t1 = SteadyClock::now();
  out.circuit = circuit();
  out.inputs_s = seconds_between(t0, t1);
  out.circuit_s = seconds_since(t1);
  return out;
}

// A job whose payload is parsed and checked: partitions can be built, concurrently.
class PreparedJob {
 public:
  virtual ~PreparedJob() = default;
  virtual unsigned partitions() const = 0;
  // Host bytes this object holds while the job runs (parsed vanilla proofs, graph).
  virtual uint64_t resident_bytes() const = 0;
  // Thread-safe for different k. ProofKindError (or another std::invalid_argument) naming the
  // problem for bad vanilla data.
  virtual PartitionCircuit partition(unsigned k) const = 0;
};

}  // namespace cuzk::circuits
