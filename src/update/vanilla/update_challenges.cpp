#include "update/vanilla/update_challenges.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/hash/poseidon.hpp"
#include "update/vanilla/update_encoding.hpp"

namespace cuzk::filecoin {

namespace {

constexpr unsigned kCapacity = Fr::kBits - 1;  // Fr::CAPACITY = 254

}  // namespace

Fr update_challenge_digest(const Fr& comm_r_new, uint64_t digest_index) {
  const Fr in[2] = {comm_r_new, Fr::from_u64(digest_index)};
  return poseidon_hash_custom(PoseidonConstants::standard(2), kUpdateHashTypeId, in);
}

unsigned update_digests_per_partition(const UpdateParams& pp) {
  const unsigned per_digest = kCapacity / pp.random_bits_per_challenge();
  return (pp.challenge_count + per_digest - 1) / per_digest;
}

std::vector<uint32_t> update_challenges(const UpdateParams& pp, const Domain& comm_r_new,
                                        unsigned k) {
  if (k >= pp.partition_count) {
    throw std::invalid_argument("update challenges: partition " + std::to_string(k) + " of " +
                                std::to_string(pp.partition_count));
  }
  const std::optional<Fr> comm = try_domain_to_fr(comm_r_new);
  if (!comm) {
    throw std::invalid_argument("update challenges: comm_r_new is not a field element (" +
                                to_hex(comm_r_new) + ")");
  }
  const unsigned bits = pp.random_bits_per_challenge();
  const unsigned per_digest = kCapacity / bits;
  const uint32_t partition_bits = static_cast<uint32_t>(k) << bits;
  uint64_t digest = uint64_t{k} * update_digests_per_partition(pp);

  std::vector<uint32_t> out;
  out.reserve(pp.challenge_count);
  while (out.size() < pp.challenge_count) {
    const Fr::Int d = update_challenge_digest(*comm, digest++).to_canonical();
    for (unsigned i = 0; i < per_digest && out.size() < pp.challenge_count; ++i) {
      uint32_t c = 0;
      for (unsigned b = 0; b < bits; ++b)
        c |= static_cast<uint32_t>(d.bit(i * bits + b)) << b;
      out.push_back(c | partition_bits);
    }
  }
  return out;
}

}  // namespace cuzk::filecoin
