// Synthetic C1: a commit-phase-1 output with the real shape of a sector size (partitions x
// challenges, real SDR graph parents, Merkle paths of the real tree shapes) whose vanilla proofs
// verify (porep_verify.hpp) against its own comm_d / comm_r, made in seconds without sealing, so
// that full-size C2 can be run and benchmarked. Everything is deterministic from a 64-bit seed.
//
// Construction (the verifier only ever looks at the challenged nodes and their parents):
//   * data is all zero (a CC sector): tree_d is the zero tree, comm_d the real zero comm_d;
//   * prover (actor id), sector id, ticket and the interactive randomness give the real
//     replica_id and the real interactive challenges (ticket and randomness are hashed from the
//     seed);
//   * a parent that is not itself challenged has filler labels, hashed from the seed, the layer
//     and the node; a challenged node's labels are computed from its parents' labels, layer by
//     layer in increasing node order (DRG parents precede their node, expander parents are in the
//     previous layer), so challenged parents are consistent too;
//   * tree_c has the column hashes of those nodes as leaves and one filler everywhere else;
//     tree_r_last has replica = label_L + 0 at the challenges and another filler elsewhere; both
//     are sparse trees (sparse_merkle_tree.hpp); comm_r = Poseidon_2(comm_c, comm_r_last).
// The challenges depend on comm_r for synthetic and non-interactive PoRep, which the trees depend
// on, so only interactive proofs (V1, V1_1) can be made this way.
#pragma once

#include <cstdint>

#include "porep/vanilla/porep_config.hpp"
#include "porep/vanilla/porep_proof.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

struct SyntheticC1Params {
  uint64_t seed = 0;
  uint64_t prover_actor_id = 1000;  // prover_id = LEB128 of the actor id (replica_id.hpp)
  uint64_t sector_id = 1;
};

struct SyntheticC1 {
  SealCommitPhase1Output c1;  // registered_proof set when the config is a registered proof
  Domain prover_id{};
  uint64_t sector_id = 0;
};

// Throws std::invalid_argument for a config with synthetic or non-interactive challenges.
SyntheticC1 make_synthetic_c1(const PorepConfig& config, const SyntheticC1Params& params,
                              ThreadPool* pool = nullptr);

}  // namespace cuzk::filecoin
