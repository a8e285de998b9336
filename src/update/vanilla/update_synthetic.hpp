// A synthetic SnapDeals update: vanilla partition proofs of the real shape of any allowed sector
// size (32 GiB: 16 partitions x 86 challenges, 128 apex leafs, full-height paths) that verify
// (update_vanilla.hpp) against their own commitments, made in seconds without a sector, so that
// full-size update proofs can be run and benchmarked. Deterministic from a 64-bit seed.
//
// It is a real update of a sector that is almost uniform (the trees are sparse trees,
// sparse_merkle_tree.hpp): the sector key holds one filler value everywhere but `set_nodes`
// random nodes, the new data is zero except at those nodes (random there), and the new replica is
// their encoding (key + data * rho, with the real phi and rho), so it equals the key filler
// wherever the data is zero. comm_c is random. The challenges follow comm_r_new as always; they
// almost never meet the set nodes, so a challenged node typically has leaf_r_old = leaf_r_new =
// the filler and leaf_d_new = 0, while the paths carry the trees' real (filler-subtree) hashes.
#pragma once

#include <cstdint>
#include <vector>

#include "update/vanilla/update_params.hpp"
#include "update/vanilla/update_proof.hpp"
#include "update/vanilla/update_vanilla.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

struct SyntheticUpdate {
  UpdatePublicInputs in;
  std::vector<UpdatePartitionProof> proofs;  // one per partition, verified
};

// std::invalid_argument for the Poseidon variant (no vanilla proofs upstream).
SyntheticUpdate make_synthetic_update(const UpdateParams& pp, uint64_t seed,
                                      unsigned set_nodes = 64, ThreadPool* pool = nullptr);

}  // namespace cuzk::filecoin
