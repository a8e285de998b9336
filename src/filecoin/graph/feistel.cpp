#include "filecoin/graph/feistel.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

constexpr uint64_t kIv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                             0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                             0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

// RFC 7693 section 2.7 message schedule; rounds 10 and 11 reuse rows 0 and 1.
constexpr uint8_t kSigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

inline void g(uint64_t& a, uint64_t& b, uint64_t& c, uint64_t& d, uint64_t x, uint64_t y) {
  a = a + b + x;
  d = std::rotr(d ^ a, 32);
  c = c + d;
  b = std::rotr(b ^ c, 24);
  a = a + b + y;
  d = std::rotr(d ^ a, 16);
  c = c + d;
  b = std::rotr(b ^ c, 63);
}

uint64_t load_le64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = v << 8 | p[i];
  return v;
}

// feistel.rs encode / decode: 3 rounds of (L, R) <- (R, L ^ F(R, k)) and the inverse.
uint64_t encode(uint64_t index, const std::array<uint64_t, 4>& keys, const FeistelPrecomputed& p) {
  uint64_t left = (index & p.left_mask) >> p.half_bits;
  uint64_t right = index & p.right_mask;
  for (unsigned r = 0; r < kFeistelRounds; ++r) {
    const uint64_t next_right = left ^ feistel_round(right, keys[r], p.right_mask);
    left = right;
    right = next_right;
  }
  return (left << p.half_bits) | right;
}

uint64_t decode(uint64_t index, const std::array<uint64_t, 4>& keys, const FeistelPrecomputed& p) {
  uint64_t left = (index & p.left_mask) >> p.half_bits;
  uint64_t right = index & p.right_mask;
  for (unsigned r = kFeistelRounds; r-- > 0;) {
    const uint64_t next_left = right ^ feistel_round(left, keys[r], p.right_mask);
    right = left;
    left = next_left;
  }
  return (left << p.half_bits) | right;
}

void check_index(uint64_t num_elements, uint64_t index, const char* who) {
  if (index >= num_elements) {
    throw std::invalid_argument(std::string(who) + ": index " + std::to_string(index) +
                                " is outside [0, " + std::to_string(num_elements) + ")");
  }
}

}  // namespace

uint64_t blake2b512_16_first_word(const uint8_t message[16]) {
  uint64_t m[16] = {load_le64(message), load_le64(message + 8)};
  // Parameter block: digest length 64, key length 0, fanout 1, depth 1.
  const uint64_t h0 = kIv[0] ^ 0x01010040;
  uint64_t v[16] = {h0,     kIv[1], kIv[2], kIv[3], kIv[4], kIv[5], kIv[6], kIv[7],
                    kIv[0], kIv[1], kIv[2], kIv[3], kIv[4], kIv[5], kIv[6], kIv[7]};
  v[12] ^= 16;     // byte counter t: the whole message is 16 bytes
  v[14] = ~v[14];  // last block
#pragma GCC unroll 12
  for (int r = 0; r < 12; ++r) {
    const uint8_t* s = kSigma[r];
    g(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
    g(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
    g(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
    g(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
    g(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
    g(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
    g(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
    g(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
  }
  return h0 ^ v[0] ^ v[8];
}

FeistelPrecomputed feistel_precompute(uint64_t num_elements) {
  uint64_t next_pow4 = 4;
  unsigned log4 = 1;
  while (next_pow4 < num_elements) {
    if (log4 >= 31) {
      throw std::invalid_argument("feistel_precompute: " + std::to_string(num_elements) +
                                  " elements do not fit 62 bits");
    }
    next_pow4 *= 4;
    ++log4;
  }
  const uint64_t right_mask = (uint64_t{1} << log4) - 1;
  return {right_mask << log4, right_mask, log4};
}

uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t right_mask) {
  uint8_t data[16];
  for (int i = 0; i < 8; ++i) {
    data[i] = static_cast<uint8_t>(right >> (56 - 8 * i));
    data[8 + i] = static_cast<uint8_t>(key >> (56 - 8 * i));
  }
  // Digest bytes 0..7 read big-endian = the first little-endian word byte-swapped.
  return __builtin_bswap64(blake2b512_16_first_word(data)) & right_mask;
}

uint64_t feistel_permute(uint64_t num_elements, uint64_t index, const std::array<uint64_t, 4>& keys,
                         const FeistelPrecomputed& pre) {
  check_index(num_elements, index, "feistel_permute");
  uint64_t u = encode(index, keys, pre);
  while (u >= num_elements)
    u = encode(u, keys, pre);
  return u;
}

uint64_t feistel_invert_permute(uint64_t num_elements, uint64_t index,
                                const std::array<uint64_t, 4>& keys,
                                const FeistelPrecomputed& pre) {
  check_index(num_elements, index, "feistel_invert_permute");
  uint64_t u = decode(index, keys, pre);
  while (u >= num_elements)
    u = decode(u, keys, pre);
  return u;
}

FeistelNetwork::FeistelNetwork(uint64_t num_elements, const std::array<uint64_t, 4>& keys)
    : n_(num_elements), keys_(keys), pre_(feistel_precompute(num_elements)) {
  if (pre_.half_bits > kMaxTabulatedHalfBits) return;
  const size_t width = size_t{1} << pre_.half_bits;
  table_.resize(kFeistelRounds * width);
  for (unsigned r = 0; r < kFeistelRounds; ++r)
    for (size_t right = 0; right < width; ++right)
      table_[r * width + right] =
          static_cast<uint32_t>(feistel_round(right, keys_[r], pre_.right_mask));
}

uint64_t FeistelNetwork::encode(uint64_t index) const {
  uint64_t left = (index & pre_.left_mask) >> pre_.half_bits;
  uint64_t right = index & pre_.right_mask;
  for (unsigned r = 0; r < kFeistelRounds; ++r) {
    const uint64_t next_right = left ^ round(r, right);
    left = right;
    right = next_right;
  }
  return (left << pre_.half_bits) | right;
}

uint64_t FeistelNetwork::decode(uint64_t index) const {
  uint64_t left = (index & pre_.left_mask) >> pre_.half_bits;
  uint64_t right = index & pre_.right_mask;
  for (unsigned r = kFeistelRounds; r-- > 0;) {
    const uint64_t next_left = right ^ round(r, left);
    right = left;
    left = next_left;
  }
  return (left << pre_.half_bits) | right;
}

uint64_t FeistelNetwork::permute(uint64_t index) const {
  check_index(n_, index, "FeistelNetwork::permute");
  uint64_t u = encode(index);
  while (u >= n_)
    u = encode(u);
  return u;
}

uint64_t FeistelNetwork::invert_permute(uint64_t index) const {
  check_index(n_, index, "FeistelNetwork::invert_permute");
  uint64_t u = decode(index);
  while (u >= n_)
    u = decode(u);
  return u;
}

}  // namespace cuzk::filecoin
