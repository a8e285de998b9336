// SnapDeals' partitions: vanilla proofs that check_update_vanilla (update_proof.hpp) accepted,
// partition k its EmptySectorUpdate circuit with the witness and its native public inputs. What
// the engine's handler makes of a request and where `cuzk update prove` gets its partitions.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "circuits/proof_partitions.hpp"
#include "update/vanilla/update_params.hpp"
#include "update/vanilla/update_proof.hpp"
#include "update/vanilla/update_vanilla.hpp"

namespace cuzk::update {

// `payload_bytes`: the proofs' bincode size (the decoded proofs are about as large).
std::unique_ptr<circuits::PreparedJob> make_update_job(
    filecoin::UpdateParams pp, filecoin::UpdatePublicInputs in,
    std::vector<filecoin::UpdatePartitionProof> proofs, uint64_t payload_bytes);

}  // namespace cuzk::update
