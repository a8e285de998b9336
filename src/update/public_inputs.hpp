// The public inputs of a SnapDeals partition computed natively, as storage-proofs-update
// circuit.rs / poseidon/circuit.rs `PublicInputs::new` and `to_vec` (facts sheet 6.9), ONE
// excluded (as groth16::verify_proof takes them):
//
//   EmptySectorUpdate           k_and_h_select = k | (h_select << log2(partitions)), comm_r_old,
//                               comm_d_new, comm_r_new;
//   EmptySectorUpdate-Poseidon  h_select, comm_r_old, comm_d_new, comm_r_new.
//
// h_select = 1 << (first index of h in hs): 8 for h = 10 (32 GiB partition k: k + 128), 1 for
// the small sizes' h = 1.
#pragma once

#include <cstdint>
#include <vector>

#include "ff/fr.hpp"
#include "update/vanilla/update_params.hpp"
#include "update/vanilla/update_vanilla.hpp"

namespace cuzk::update {

inline constexpr size_t kUpdatePublicInputCount = 4;

// std::invalid_argument when k >= partitions or h is not allowed.
uint64_t k_and_h_select(const filecoin::UpdateParams& pp, unsigned k, unsigned h);

// std::invalid_argument also when a commitment is not a canonical field element.
std::vector<Fr> update_public_inputs(const filecoin::UpdateParams& pp,
                                     const filecoin::UpdatePublicInputs& in, unsigned k);

}  // namespace cuzk::update
