// Commit phase 1 (C1): the vanilla proofs of every partition's challenges from a sealed sector's
// cache directory, as filecoin-proofs/src/api/seal.rs `seal_commit_phase1_inner` and
// storage-proofs-porep/src/stacked/vanilla/proof.rs `prove_layers` / `prove_layers_generate`
// produce them:
//
//   challenges of partition k from the registered proof's derivation (interactive: replica_id and
//   seed; synthetic: the selection among the synthetic challenges, which needs comm_r and the
//   seed; non-interactive: replica_id and comm_r), then per challenge c:
//   comm_d proof (tree_d leaf c), the column proofs of c and of its 6 DRG and 8 expander parents
//   (labels of every layer, tree_c proof of the column hash), the tree_r_last proof of c, and the
//   labeling / encoding proofs derived from the parent columns (params.rs from_parts).
//
// The result is checked with the vanilla verifier before it is returned, as upstream does
// (`verify_all_partitions`, "Invalid vanilla proof generated").
//
// Synthetic PoRep upstream proves all 2^18 synthetic challenges after PC2 into
// syn-porep-vanilla-proofs.dat and C1 reads the selected ones back; the selected proofs are the
// same values as proving the selected challenges directly from the layers, which is what is done
// here (the labels must still be in the cache directory).
#pragma once

#include <cstdint>
#include <filesystem>

#include "filecoin/replica_id.hpp"
#include "porep/vanilla/porep_config.hpp"
#include "porep/vanilla/porep_proof.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

struct SealCommitInputs {
  std::filesystem::path cache_dir;
  std::filesystem::path sealed_path;
  Domain prover_id{};
  uint64_t sector_id = 0;
  Ticket ticket{};
  Ticket seed{};
  Domain comm_d{};
  Domain comm_r{};
};

// Needs config.registered (the output names it). Throws std::invalid_argument naming a bad input
// (zero commitments, comm_r not matching p_aux, a proof that fails verification) and
// std::runtime_error naming a file on I/O errors.
SealCommitPhase1Output seal_commit_phase1(const PorepConfig& config, const SealCommitInputs& in,
                                          ThreadPool* pool = nullptr);

}  // namespace cuzk::filecoin
