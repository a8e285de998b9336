// BLAKE2b through OpenSSL: unkeyed BLAKE2b-512 (the Feistel round function of the SDR expander
// graph, storage-proofs-core/src/crypto/feistel.rs, and parameter file digests) and keyed BLAKE2b
// with a 32-byte output (the synthetic PoRep PRF keys, storage-proofs-porep/src/stacked/vanilla/
// challenges.rs, blake2b_simd Params::hash_length(32).key(tag)). Both are plain RFC 7693.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>

struct evp_md_ctx_st;

namespace cuzk::filecoin {

using Blake2b512Digest = std::array<uint8_t, 64>;
using Blake2b256Digest = std::array<uint8_t, 32>;

// Incremental unkeyed BLAKE2b-512; finish() resets for reuse. Not thread safe.
class Blake2b512 {
 public:
  Blake2b512();
  ~Blake2b512();
  Blake2b512(const Blake2b512&) = delete;
  Blake2b512& operator=(const Blake2b512&) = delete;

  Blake2b512& update(std::span<const uint8_t> data);
  Blake2b512Digest finish();
  Blake2b512Digest digest(std::span<const uint8_t> data) { return update(data).finish(); }

 private:
  evp_md_ctx_st* ctx_;
};

Blake2b512Digest blake2b512(std::span<const uint8_t> data);

// Keyed BLAKE2b with a 32-byte digest over the concatenated parts. The key must be 1..64 bytes
// (std::invalid_argument otherwise).
Blake2b256Digest blake2b256_keyed(std::span<const uint8_t> key,
                                  std::initializer_list<std::span<const uint8_t>> parts);

}  // namespace cuzk::filecoin
