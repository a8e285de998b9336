#include "post/vanilla/post_challenges.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "filecoin/hash/sha256.hpp"

namespace cuzk::filecoin {

namespace {

std::array<uint8_t, 8> le64(uint64_t v) {
  std::array<uint8_t, 8> b;
  for (int i = 0; i < 8; ++i)
    b[static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
  return b;
}

uint64_t first_word(const Sha256Digest& d) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = v << 8 | d[static_cast<size_t>(i)];
  return v;
}

}  // namespace

uint64_t post_challenge_index(ApiVersion api_version, uint64_t sector_index,
                              uint64_t challenge_count_per_sector, uint64_t n) {
  return api_version == ApiVersion::kV1_2_0 ? n : sector_index * challenge_count_per_sector + n;
}

uint64_t post_leaf_challenge(const Domain& randomness, uint64_t sector_id, uint64_t challenge_index,
                             uint64_t sector_size) {
  if (sector_size < 32 || sector_size % 32 != 0) {
    throw std::invalid_argument("post_leaf_challenge: sector size " + std::to_string(sector_size) +
                                " is not a positive multiple of 32");
  }
  return first_word(sha256({randomness, le64(sector_id), le64(challenge_index)})) %
         (sector_size / 32);
}

std::vector<uint64_t> post_leaf_challenges(const Domain& randomness, uint64_t sector_id,
                                           uint64_t sector_size, unsigned challenge_count,
                                           ApiVersion api_version, uint64_t sector_index) {
  std::vector<uint64_t> out;
  for (unsigned n = 0; n < challenge_count; ++n) {
    out.push_back(post_leaf_challenge(
        randomness, sector_id, post_challenge_index(api_version, sector_index, challenge_count, n),
        sector_size));
  }
  return out;
}

uint64_t post_sector_challenge(const Domain& randomness, uint64_t n, uint64_t sector_set_len,
                               const Domain& prover_id) {
  if (sector_set_len == 0) throw std::invalid_argument("post_sector_challenge: empty sector set");
  return first_word(sha256({prover_id, randomness, le64(n)})) % sector_set_len;
}

std::vector<uint64_t> post_sector_challenges(const Domain& randomness, unsigned challenge_count,
                                             uint64_t sector_set_len, const Domain& prover_id) {
  std::vector<uint64_t> out;
  for (unsigned n = 0; n < challenge_count; ++n)
    out.push_back(post_sector_challenge(randomness, n, sector_set_len, prover_id));
  return out;
}

}  // namespace cuzk::filecoin
