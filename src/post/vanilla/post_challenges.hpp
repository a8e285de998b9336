// PoSt challenge derivation, storage-proofs-post/src/fallback/vanilla.rs and utils.rs
// (facts sheet 6.6).
//
//   sector challenge n (Winning PoSt sector selection):
//       u64_le(SHA-256(prover_id || randomness || u64_le(n))[0..8]) mod sector_set_len
//   leaf challenge of a sector:
//       u64_le(SHA-256(randomness || u64_le(sector_id) || u64_le(challenge_index))[0..8])
//       mod (sector_size / 32)
//   challenge_index of challenge n of the sector at position sector_index of the whole proof
//   (partition * sectors_per_partition + i): sector_index * challenge_count + n for API 1.0 / 1.1,
//   n for API 1.2 (Window PoSt V1_2, the grinding fix).
// randomness and prover_id enter as raw bytes; the API layer requires both to be canonical field
// elements (callers clear the top two bits of chain randomness).
#pragma once

#include <cstdint>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

uint64_t post_challenge_index(ApiVersion api_version, uint64_t sector_index,
                              uint64_t challenge_count_per_sector, uint64_t n);

// sector_size in bytes (a multiple of 32, else std::invalid_argument).
uint64_t post_leaf_challenge(const Domain& randomness, uint64_t sector_id, uint64_t challenge_index,
                             uint64_t sector_size);
// The `challenge_count` leaf challenges of one sector, in proof order.
std::vector<uint64_t> post_leaf_challenges(const Domain& randomness, uint64_t sector_id,
                                           uint64_t sector_size, unsigned challenge_count,
                                           ApiVersion api_version, uint64_t sector_index);

// sector_set_len must be > 0 (std::invalid_argument).
uint64_t post_sector_challenge(const Domain& randomness, uint64_t n, uint64_t sector_set_len,
                               const Domain& prover_id);
std::vector<uint64_t> post_sector_challenges(const Domain& randomness, unsigned challenge_count,
                                             uint64_t sector_set_len, const Domain& prover_id);

}  // namespace cuzk::filecoin
