// The prover side of PoSt's vanilla proofs, so our own sectors can be proved end to end:
//
//   fallback_sector_challenges   filecoin-proofs api/post_util.rs
//                                `generate_fallback_sector_challenges`: the leaf challenges of
//                                each sector. Window: the sectors in partitions of
//                                sectors-per-partition, sector_index = partition * that + i;
//                                Winning: the first (only) sector with its 66 challenges.
//   prove_sealed_sector          `generate_single_vanilla_proof` for a sector sealed here (the
//                                cache directory and sealed file `cuzk seal` writes): tree_r_last
//                                from its level-cache files and the replica, comm_c and
//                                comm_r_last from p_aux, one inclusion proof per challenge, each
//                                checked as upstream does before it is returned.
//   synthetic_sector_proof       the same for a synthetic sector of any size (no sealing): its
//                                replica is one filler value except at the challenged leaves, so
//                                tree_r_last is a sparse tree (sparse_merkle_tree.hpp) and a full
//                                2349-sector 32 GiB partition is made in seconds. A valid proof of
//                                that (made-up) replica, for benchmarks; never a real sector.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "filecoin/domain.hpp"
#include "post/vanilla/post_config.hpp"
#include "post/vanilla/post_vanilla_proof.hpp"

namespace cuzk::filecoin {

// One vector of challenges per sector id, in order (Winning: only the first sector's). The ids
// are all sectors of the PoSt, or (Window) those of partition `first_partition` onward.
std::vector<std::vector<uint64_t>> fallback_sector_challenges(const PoStConfig& config,
                                                              const Domain& randomness,
                                                              std::span<const uint64_t> sector_ids,
                                                              uint32_t first_partition = 0);

struct SealedReplica {
  std::filesystem::path cache_dir;    // p_aux, t_aux, sc-02-data-tree-r-last*.dat
  std::filesystem::path sealed_path;  // the replica
};

// std::invalid_argument naming the file or check that fails; std::runtime_error on I/O errors.
FallbackPoStSectorProof prove_sealed_sector(const PoStConfig& config, uint64_t sector_id,
                                            const SealedReplica& replica,
                                            std::span<const uint64_t> challenges);

// Deterministic in (seed, sector_id).
FallbackPoStSectorProof synthetic_sector_proof(const PoStConfig& config, uint64_t sector_id,
                                               uint64_t seed, std::span<const uint64_t> challenges);

}  // namespace cuzk::filecoin
