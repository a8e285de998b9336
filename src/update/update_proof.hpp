// The SnapDeals update proof from vanilla partition proofs: the check of its input and the
// verification of its output, as filecoin-proofs src/api/update.rs
// `generate_empty_sector_update_proof_with_vanilla` / `verify_empty_sector_update_proof` and
// storage-proofs-core compound_proof.rs:
//
//   1. refuse bad vanilla proofs before any proving: a partition count other than the sector
//      size's, and every check of the vanilla verifier (filecoin/update/update_vanilla.hpp);
//   2. per partition k: the circuit from vanilla_proofs[k] (update_circuit.hpp), the public
//      inputs natively (public_inputs.hpp), a Groth16 proof with fresh r, s, verified against
//      those inputs before anything is returned: update_partitions.hpp builds the partitions,
//      the engine or, for `cuzk update prove`, engine/serial_prover.hpp proves them;
//   3. the output is the partition proofs concatenated in k order, 192 bytes each.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "groth16/types.hpp"
#include "update/vanilla/update_params.hpp"
#include "update/vanilla/update_proof.hpp"
#include "update/vanilla/update_vanilla.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::update {

// The vanilla proofs were refused before proving; what() says why.
class VanillaRejectedError : public std::runtime_error {
 public:
  explicit VanillaRejectedError(const std::string& why)
      : std::runtime_error("vanilla proofs refused before proving: " + why) {}
};

// Step 1: VanillaRejectedError naming the failed check.
void check_update_vanilla(const filecoin::UpdateParams& pp, const filecoin::UpdatePublicInputs& in,
                          std::span<const filecoin::UpdatePartitionProof> proofs, ThreadPool* pool);

// std::invalid_argument when the byte count is not partitions x 192 or a point does not decode;
// otherwise the result, with per-partition outcomes in `per_partition` when given.
bool verify_update_proof(const filecoin::UpdateParams& pp, const groth16::VerifyingKey& vk,
                         const filecoin::UpdatePublicInputs& in,
                         std::span<const uint8_t> proof_bytes,
                         std::vector<bool>* per_partition = nullptr);

}  // namespace cuzk::update
