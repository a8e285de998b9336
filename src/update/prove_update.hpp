// The SnapDeals update proof from vanilla partition proofs and its verification, as
// filecoin-proofs src/api/update.rs `generate_empty_sector_update_proof_with_vanilla` /
// `verify_empty_sector_update_proof` and storage-proofs-core compound_proof.rs:
//
//   1. refuse bad vanilla proofs before any proving: a partition count other than the sector
//      size's, and every check of the vanilla verifier (filecoin/update/update_vanilla.hpp);
//   2. per partition k: the circuit from vanilla_proofs[k] (update_circuit.hpp), the public
//      inputs natively (public_inputs.hpp), a Groth16 proof with fresh r, s, verified against
//      those inputs before anything is returned;
//   3. the output is the partition proofs concatenated in k order, 192 bytes each.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/update/update_params.hpp"
#include "filecoin/update/update_proof.hpp"
#include "filecoin/update/update_vanilla.hpp"
#include "groth16/prover.hpp"
#include "groth16/types.hpp"
#include "porep/seal_commit_phase2.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::update {

using porep::PartitionTiming;

// The vanilla proofs were refused before proving; what() says why.
class VanillaRejectedError : public std::runtime_error {
 public:
  explicit VanillaRejectedError(const std::string& why)
      : std::runtime_error("vanilla proofs refused before proving: " + why) {}
};

struct UpdateProveOptions {
  ThreadPool* pool = nullptr;                                              // required
  std::string backend = "cpu";                                             // cpu | gpu[:N] | auto
  std::function<groth16::ProofRandomness(unsigned partition)> randomness;  // default: OS
  std::function<void(const PartitionTiming&)> on_partition;
  bool vanilla_checked = false;  // the caller ran check_update_vanilla
};

struct UpdateProveResult {
  std::vector<uint8_t> proof;  // partitions x 192 bytes
  std::vector<PartitionTiming> partitions;
  double vanilla_verify_s = 0;
  std::string backend;
};

// Step 1 alone: VanillaRejectedError naming the failed check.
void check_update_vanilla(const filecoin::UpdateParams& pp, const filecoin::UpdatePublicInputs& in,
                          std::span<const filecoin::UpdatePartitionProof> proofs, ThreadPool* pool);

// VanillaRejectedError for bad vanilla proofs; std::invalid_argument when the parameters do not
// fit; std::runtime_error if a proof fails its own verification (nothing is returned then).
UpdateProveResult prove_update(const filecoin::UpdateParams& pp,
                               const filecoin::UpdatePublicInputs& in,
                               std::span<const filecoin::UpdatePartitionProof> proofs,
                               const groth16::Parameters& params,
                               const UpdateProveOptions& options);

// std::invalid_argument when the byte count is not partitions x 192 or a point does not decode;
// otherwise the result, with per-partition outcomes in `per_partition` when given.
bool verify_update_proof(const filecoin::UpdateParams& pp, const groth16::VerifyingKey& vk,
                         const filecoin::UpdatePublicInputs& in,
                         std::span<const uint8_t> proof_bytes,
                         std::vector<bool>* per_partition = nullptr);

}  // namespace cuzk::update
