// The Feistel permutation behind the SDR expander parents (storage-proofs-core/src/crypto/
// feistel.rs; facts sheet 4.3).
//
// Domain [0, N): the smallest h >= 1 with 4^h >= N splits an index into halves of h bits
// (left = bits [h, 2h), right = bits [0, h)). One encode is FEISTEL_ROUNDS = 3 rounds with keys
// k0, k1, k2 of (L, R) <- (R, L xor F(R, k)), F(R, k) = the first 8 bytes of
// BLAKE2b-512(u64_be(R) || u64_be(k)) read big-endian, masked to h bits. permute(x) repeats encode
// until the value is < N ("cycle walking"); invert_permute runs the rounds backwards likewise.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace cuzk::filecoin {

inline constexpr unsigned kFeistelRounds = 3;

struct FeistelPrecomputed {
  uint64_t left_mask = 0;
  uint64_t right_mask = 0;
  unsigned half_bits = 0;
  bool operator==(const FeistelPrecomputed&) const = default;
};

// feistel.rs `precompute(num_elements)`.
FeistelPrecomputed feistel_precompute(uint64_t num_elements);

// The round function F(right, key) (masked).
uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t right_mask);

// feistel.rs `permute` / `invert_permute` with the first kFeistelRounds of `keys`. The index must
// be < num_elements (std::invalid_argument otherwise, since cycle walking would not terminate in
// the domain).
uint64_t feistel_permute(uint64_t num_elements, uint64_t index, const std::array<uint64_t, 4>& keys,
                         const FeistelPrecomputed& pre);
uint64_t feistel_invert_permute(uint64_t num_elements, uint64_t index,
                                const std::array<uint64_t, 4>& keys, const FeistelPrecomputed& pre);

// permute / invert_permute for fixed keys and domain, with the round function tabulated: F(R, k)
// depends only on the h-bit R, so for h <= kMaxTabulatedHalfBits the 3 * 2^h values are computed
// once (3 * 2^17 BLAKE2b calls and 1.5 MiB for 32/64 GiB sectors) and every round becomes a table
// lookup. Larger domains hash per round. Immutable after construction; share it freely.
class FeistelNetwork {
 public:
  static constexpr unsigned kMaxTabulatedHalfBits = 20;

  FeistelNetwork(uint64_t num_elements, const std::array<uint64_t, 4>& keys);

  uint64_t num_elements() const { return n_; }
  const FeistelPrecomputed& precomputed() const { return pre_; }
  bool tabulated() const { return !table_.empty(); }
  // Same results as feistel_permute / feistel_invert_permute (and the same index check).
  uint64_t permute(uint64_t index) const;
  uint64_t invert_permute(uint64_t index) const;

 private:
  uint64_t round(unsigned r, uint64_t right) const {
    return tabulated() ? table_[(size_t{r} << pre_.half_bits) | right]
                       : feistel_round(right, keys_[r], pre_.right_mask);
  }
  uint64_t encode(uint64_t index) const;
  uint64_t decode(uint64_t index) const;

  uint64_t n_;
  std::array<uint64_t, 4> keys_;
  FeistelPrecomputed pre_;
  std::vector<uint32_t> table_;  // [round][R], empty when not tabulated
};

// BLAKE2b-512 of a 16-byte message, first output word (bytes 0..7 as a little-endian u64). A
// single-block specialisation of RFC 7693 used by the round function (OpenSSL's EVP interface
// costs ~3x more per call); the tests check it against the general implementation.
uint64_t blake2b512_16_first_word(const uint8_t message[16]);

}  // namespace cuzk::filecoin
