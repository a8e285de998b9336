// The challenges of a SnapDeals partition, as rust-fil-proofs storage-proofs-update/src/
// challenges.rs `Challenges::new` / `new_poseidon` (facts sheet 6.7):
//
//   random_bits = log2(N) - log2(partitions); per_digest = floor(254 / random_bits);
//   digests_per_partition = ceil(challenge_count / per_digest); partition k starts at digest
//   d = k * digests_per_partition; digest_d = Poseidon_2^{Custom(1)}(comm_r_new, Fr(d)); its
//   little-endian bits are cut into random_bits-wide chunks (bit 0 first, each read little-endian),
//   challenge = chunk | (k << random_bits), and the next digest follows after per_digest chunks.
//
// Every challenge of partition k lies in the k-th N / partitions nodes. The Poseidon variant is
// one partition with random_bits = log2(N).
#pragma once

#include <cstdint>
#include <vector>

#include "filecoin/domain.hpp"
#include "update/vanilla/update_params.hpp"

namespace cuzk::filecoin {

// Partition k's challenge_count challenges. std::invalid_argument when k >= partitions or
// comm_r_new is not a canonical field element.
std::vector<uint32_t> update_challenges(const UpdateParams& pp, const Domain& comm_r_new,
                                        unsigned k);

// digest_d of the derivation (also what the circuit's gen_challenge_bits computes).
Fr update_challenge_digest(const Fr& comm_r_new, uint64_t digest_index);

// ceil(challenge_count / per_digest).
unsigned update_digests_per_partition(const UpdateParams& pp);

}  // namespace cuzk::filecoin
