// The public inputs of a FallbackPoSt partition, computed natively (no synthesis), as
// rust-fil-proofs storage-proofs-post/src/fallback/compound.rs `generate_public_inputs` (facts
// sheet 6.9): per real sector slot i, comm_r, then for each of its challenges the challenged leaf
// (por.rs `PoRCompound::generate_public_inputs` with a private root: Fr(leaf)), the leaf derived
// from the randomness, the sector id and the challenge index of sector_index = partition *
// sector_count + i (post_challenges.hpp); then the last slot's inputs repeated until there are
// sector_count slots. Input 0 (ONE) is not included, as for groth16::verify_proof.
//
// Only the public sectors (id, comm_r) enter: a verifier computes these without any proof.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "filecoin/domain.hpp"
#include "post/vanilla/post_config.hpp"
#include "post/vanilla/post_partition.hpp"

namespace cuzk::post {

struct PublicSector {
  uint64_t sector_id = 0;
  filecoin::Domain comm_r{};
};

// `sectors`: the partition's real sectors in order (1 .. sector_count). std::invalid_argument
// when there are none or too many, or a comm_r (or the randomness) is not a canonical field
// element.
std::vector<Fr> public_inputs(const filecoin::FallbackPoStParams& pp,
                              const filecoin::Domain& randomness,
                              std::span<const PublicSector> sectors, uint32_t partition_index);
// The real slots of a partition.
std::vector<Fr> public_inputs(const filecoin::FallbackPoStParams& pp,
                              const filecoin::Domain& randomness,
                              const filecoin::PoStPartition& partition);
std::vector<PublicSector> public_sectors(const filecoin::PoStPartition& partition);

}  // namespace cuzk::post
