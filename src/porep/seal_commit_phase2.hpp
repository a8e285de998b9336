// PoRep commit phase 2 (C2) and the verification of its output, as filecoin-proofs
// src/api/seal.rs `seal_commit_phase2_circuit_proofs` / `verify_seal` and storage-proofs-core
// src/compound_proof.rs `circuit_proofs` / `verify` (facts sheet 6.10):
//
//   1. refuse a bad C1 before any proving: all-zero comm_d / comm_r / seed (upstream's ensure!s),
//      a comm_r that is not a field element, and every vanilla check (porep_verify.hpp);
//   2. per partition k: the circuit from vanilla_proofs[k] (stacked_circuit.hpp), the public
//      inputs natively (public_inputs.hpp), a Groth16 proof with fresh r, s, and that proof
//      verified against those inputs before anything is returned;
//   3. the output is the partition proofs concatenated in k order, 192 bytes each
//      (multi_proof.rs `MultiProof::write`).
//
// NI-PoRep C1s are proved the same way (this is what `seal_commit_phase2_circuit_proofs` returns);
// the SnarkPack aggregation filecoin-proofs then applies to them is not done here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/porep_proof.hpp"
#include "groth16/backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/types.hpp"
#include "porep/public_inputs.hpp"
#include "porep/public_params.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::porep {

// The C1 was refused before proving; what() says why (the vanilla verifier's message names the
// partition, challenge and check).
class C1RejectedError : public std::runtime_error {
 public:
  explicit C1RejectedError(const std::string& why)
      : std::runtime_error("C1 refused before proving: " + why) {}
};

// Wall-clock seconds of one partition.
struct PartitionTiming {
  unsigned partition = 0;
  double circuit_s = 0;          // witness from the vanilla proofs
  double inputs_s = 0;           // native public inputs
  groth16::ProverTiming prover;  // synthesis, quotient, MSMs, assembly
  double verify_s = 0;           // the proof checked against the inputs
  double total_s = 0;
};

struct C2Options {
  ThreadPool* pool = nullptr;   // required: vanilla verification and the CPU backend
  std::string backend = "cpu";  // cpu | gpu[:N] | auto (gpu only in builds with the factory)
  // Per partition r, s; default fresh OS randomness (tests inject them).
  std::function<groth16::ProofRandomness(unsigned partition)> randomness;
  // Called after each partition is proved and verified (progress printing).
  std::function<void(const PartitionTiming&)> on_partition;
  // The caller already ran check_c1 (e.g. before loading the parameters).
  bool c1_checked = false;
};

struct C2Result {
  std::vector<uint8_t> proof;  // partitions x 192 bytes
  std::vector<PartitionTiming> partitions;
  double vanilla_verify_s = 0;
  std::string backend;  // what the backend factory chose and why
};

// The PorepConfig the vanilla verifier needs for `pp` (registered sizes only).
filecoin::PorepConfig porep_config_of(const PublicParams& pp);

// Step 1 alone: C1RejectedError naming the failed check (std::invalid_argument when `c1` is of
// another proof type than `pp`).
void check_c1(const filecoin::SealCommitPhase1Output& c1, const PublicParams& pp, ThreadPool* pool);

// C1RejectedError for a bad C1; std::invalid_argument when the parameters do not fit `pp`;
// std::runtime_error if a proof fails its own verification (nothing is returned then).
C2Result seal_commit_phase2(const filecoin::SealCommitPhase1Output& c1, const PublicParams& pp,
                            const groth16::Parameters& params, const C2Options& options);

// Verifies concatenated partition proofs against the public inputs of every partition.
// std::invalid_argument when the byte count is not partitions x 192 or a point does not decode;
// otherwise the result, with per-partition outcomes in `per_partition` when given.
bool verify_seal_proof(const PublicParams& pp, const groth16::VerifyingKey& vk,
                       const PorepPublicInputs& inputs, std::span<const uint8_t> proof_bytes,
                       std::vector<bool>* per_partition = nullptr);

}  // namespace cuzk::porep
