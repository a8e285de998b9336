// One partition of a Winning or Window PoSt as its circuit consumes it: exactly sector_count
// slots, each a public sector (id, comm_r) and one SectorProof with challenge_count inclusion
// proofs. Built from the per-sector vanilla proofs Curio sends (`FallbackPoStSectorProof`, one
// per sector, as GenerateSingleVanillaProof makes them), as filecoin-proofs
// src/api/post_util.rs `single_partition_vanilla_proofs` shapes them:
//
//   Window   the partition's sectors in the order given, each contributing its SectorProof(s);
//            a short partition is padded by repeating the last slot (and compound.rs repeats
//            the last sector's public inputs the same way);
//   Winning  the one sector's SectorProof of 66 inclusion proofs unrolled into 66 slots of one
//            inclusion proof each, all with the same sector id and comm_r.
//
// Verification is storage-proofs-post fallback/vanilla.rs `verify` for the partition: every
// real slot i is checked with sector_index = partition * sector_count + i (the challenge index of
// API 1.0; API 1.2 ignores it); padding slots are copies and add nothing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/domain.hpp"
#include "post/vanilla/post_config.hpp"
#include "post/vanilla/post_vanilla_proof.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

struct PoStSlot {
  uint64_t sector_id = 0;
  Domain comm_r{};
  PoStSectorProof proof;
  bool operator==(const PoStSlot&) const = default;
};

struct PoStPartition {
  uint32_t index = 0;           // partition index (0 for Winning)
  std::vector<PoStSlot> slots;  // exactly FallbackPoStParams::sector_count
  size_t real_slots = 0;        // slots[real_slots..] repeat slots[real_slots - 1]
};

// std::invalid_argument naming the sector and what is wrong with its shape (a vanilla proof
// with other than one SectorProof, other than the challenge count of inclusion proofs, too many
// sectors for one partition, none at all).
PoStPartition window_partition(const FallbackPoStParams& pp,
                               std::span<const FallbackPoStSectorProof> sector_proofs,
                               uint32_t partition_index);
// Exactly one vanilla proof (WINNING_POST_SECTOR_COUNT), its one SectorProof holding
// pp.sector_count inclusion proofs.
PoStPartition winning_partition(const FallbackPoStParams& pp,
                                std::span<const FallbackPoStSectorProof> sector_proofs);

// The leaf challenges of real slot i, in the order of its inclusion proofs.
std::vector<uint64_t> slot_challenges(const FallbackPoStParams& pp, const Domain& randomness,
                                      const PoStPartition& partition, size_t slot);

// vanilla.rs `verify` of the partition's real slots, in parallel on `pool` when given (a 2349-
// sector 32 GiB partition is 2.3 * 10^5 Poseidon hashes, ~11 s on one core). Throws, for the
// first failing slot, MerkleProofError or std::invalid_argument whose what() starts with
// "slot <i>: " and names the sector, challenge, leaf and level.
void verify_partition(const FallbackPoStParams& pp, const Domain& randomness,
                      const PoStPartition& partition, ThreadPool* pool = nullptr);

}  // namespace cuzk::filecoin
