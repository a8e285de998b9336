// The bare SHA-256 compression function (FIPS 180-4 section 6.2.2) over whole 64-byte blocks, for
// the SDR labeler, which hashes ~20 blocks per label and knows its message layout in advance: the
// padding block is fixed and the blocks come straight from parent buffers, so neither the EVP
// machinery nor a copy into a message buffer is needed (rust-fil-proofs does the same with its
// sha2raw crate, storage-proofs-porep/src/stacked/vanilla/create_label/).
//
// Two implementations give identical results: one with the x86 SHA extensions (SHA-NI), chosen at
// run time when the CPU has them, and a portable one. The tests compare both with OpenSSL.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "util/sha256_constants.hpp"

namespace cuzk::filecoin {

using Sha256State = std::array<uint32_t, 8>;

// H(0) of FIPS 180-4 section 5.3.3.
inline constexpr Sha256State kSha256InitialState = kSha256Iv;

// True when the SHA-NI path is used (CPU support detected once).
bool sha256_compress_uses_shani();

// state <- compress(state, block) for `blocks` consecutive 64-byte blocks (dispatching).
void sha256_compress(Sha256State& state, const uint8_t* data, size_t blocks);
// The portable implementation, always available (tests compare the two).
void sha256_compress_portable(Sha256State& state, const uint8_t* data, size_t blocks);

// The digest bytes of a final state (words big-endian, FIPS 180-4 section 6.2.2 step 4).
std::array<uint8_t, 32> sha256_state_bytes(const Sha256State& state);

}  // namespace cuzk::filecoin
