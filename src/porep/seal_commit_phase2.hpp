// PoRep commit phase 2 (C2): the check of its input and the verification of its output, as
// filecoin-proofs src/api/seal.rs `seal_commit_phase2_circuit_proofs` / `verify_seal` and
// storage-proofs-core src/compound_proof.rs `circuit_proofs` / `verify` (facts sheet 6.10):
//
//   1. refuse a bad C1 before any proving: all-zero comm_d / comm_r / seed (upstream's ensure!s),
//      a comm_r that is not a field element, and every vanilla check (porep_verify.hpp);
//   2. per partition k: the circuit from vanilla_proofs[k] (stacked_circuit.hpp), the public
//      inputs natively (public_inputs.hpp), a Groth16 proof with fresh r, s, and that proof
//      verified against those inputs before anything is returned: porep_partitions.hpp
//      builds the partitions, the engine or, for `cuzk porep c2`,
//      engine/serial_prover.hpp proves them;
//   3. the output is the partition proofs concatenated in k order, 192 bytes each
//      (multi_proof.rs `MultiProof::write`).
//
// NI-PoRep C1s are proved the same way (this is what `seal_commit_phase2_circuit_proofs` returns);
// the SnarkPack aggregation filecoin-proofs then applies to them is not done here.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "groth16/types.hpp"
#include "porep/public_inputs.hpp"
#include "porep/public_params.hpp"
#include "porep/vanilla/porep_proof.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::porep {

// The C1 was refused before proving; what() says why (the vanilla verifier's message names the
// partition, challenge and check).
// Each proof kind has its own refusal type (update's is VanillaRejectedError), which its engine
// handler and command catch by name.
class C1RejectedError : public std::runtime_error {
 public:
  explicit C1RejectedError(const std::string& why)
      : std::runtime_error("C1 refused before proving: " + why) {}
};

// The PorepConfig the vanilla verifier needs for `pp` (registered sizes only).
filecoin::PorepConfig porep_config_of(const PublicParams& pp);

// Step 1: C1RejectedError naming the failed check (std::invalid_argument when `c1` is of
// another proof type than `pp`).
void check_c1(const filecoin::SealCommitPhase1Output& c1, const PublicParams& pp, ThreadPool* pool);

// Verifies concatenated partition proofs against the public inputs of every partition.
// std::invalid_argument when the byte count is not partitions x 192 or a point does not decode;
// otherwise the result, with per-partition outcomes in `per_partition` when given.
bool verify_seal_proof(const PublicParams& pp, const groth16::VerifyingKey& vk,
                       const PorepPublicInputs& inputs, std::span<const uint8_t> proof_bytes,
                       std::vector<bool>* per_partition = nullptr);

}  // namespace cuzk::porep
