// What makes two submissions the same request, for request_id idempotency: SHA-256 over the
// proof kind and every field that decides the proof (sector size, registered proof, sector
// number, miner id, partition index, randomness, the three commitments, the vanilla proof(s)),
// each fixed-width little-endian or length-prefixed. The priority is left out: the same request
// sent again at another priority is the same job. The request_id itself is the key, not part of
// the digest.
#pragma once

#include <array>
#include <cstdint>

#include "engine/types.hpp"

namespace cuzk::engine {

using RequestDigest = std::array<uint8_t, 32>;

RequestDigest request_digest(const ProofRequest& request);

}  // namespace cuzk::engine
