// SHA-256 through OpenSSL (which picks the SHA extensions on CPUs that have them), plus the
// Filecoin "trunc254" forms (filecoin-hashers/src/sha256.rs):
//   sha256_trunc254(m) = SHA-256(m) with byte[31] &= 0x3f  (the digest, in standard byte order,
//                        read as a little-endian Fr; the two top bits are cleared),
//   sha256_node(l, r)  = sha256_trunc254(l || r)           (Sha256Function::hash2, piece_hash in
//                        filecoin-proofs/src/pieces.rs; no prefix, no height tag).
//
// Speed: one 64-byte node costs two compression blocks. A reused EVP_MD_CTX re-initialised with
// an already fetched EVP_MD measured ~150 ns per node here against ~440 ns for the one-shot
// SHA256() (which fetches the algorithm per call in OpenSSL 3) and ~125 ns for the deprecated
// SHA256_Init family, so the free functions keep one context per thread.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>

#include "filecoin/domain.hpp"

struct evp_md_ctx_st;

namespace cuzk::filecoin {

using Sha256Digest = std::array<uint8_t, 32>;

// Incremental SHA-256. Not thread safe; cheap to reuse (finish() resets it).
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(Sha256&& o) noexcept : ctx_(o.ctx_) { o.ctx_ = nullptr; }
  Sha256& operator=(Sha256&& o) noexcept;
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  Sha256& update(std::span<const uint8_t> data);
  // The digest of everything since construction or the last finish()/reset(); then resets.
  Sha256Digest finish();
  Domain finish_trunc254() { return trim_to_fr32(finish()); }
  void reset();

  // One-shot helpers on this context.
  Sha256Digest digest(std::span<const uint8_t> data) { return update(data).finish(); }
  Domain node(const Domain& left, const Domain& right);
  // trunc254(SHA-256) of 64 contiguous bytes (two adjacent nodes).
  Domain node_pair(const uint8_t* two_nodes);

 private:
  evp_md_ctx_st* ctx_;
};

// One-shot functions (each thread reuses one hidden context; see the note above).
Sha256Digest sha256(std::span<const uint8_t> data);
// The digest of the concatenation of parts (no separators).
Sha256Digest sha256(std::initializer_list<std::span<const uint8_t>> parts);
Domain sha256_trunc254(std::span<const uint8_t> data);
Domain sha256_trunc254(std::initializer_list<std::span<const uint8_t>> parts);
Domain sha256_node(const Domain& left, const Domain& right);

}  // namespace cuzk::filecoin
