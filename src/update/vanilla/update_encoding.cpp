#include "update/vanilla/update_encoding.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "filecoin/hash/poseidon.hpp"

namespace cuzk::filecoin {

namespace {

Fr gen_randomness(const Fr& a, const Fr& b) {
  const Fr in[2] = {a, b};
  return poseidon_hash_custom(PoseidonConstants::standard(2), kUpdateHashTypeId, in);
}

Fr node_fr(std::span<const uint8_t> bytes, uint64_t i, uint64_t node, const char* what) {
  Domain d;
  std::memcpy(d.data(), bytes.data() + i * kNodeSize, kNodeSize);
  if (auto f = try_domain_to_fr(d)) return *f;
  throw std::invalid_argument(std::string("update encoding: ") + what + " node " +
                              std::to_string(node) + " (" + to_hex(d) +
                              ") is not a canonical field element");
}

}  // namespace

Domain update_phi(const Domain& comm_d_new, const Domain& comm_r_old) {
  return fr_to_domain(gen_randomness(domain_to_fr(comm_d_new, "update", "comm_d_new"),
                                     domain_to_fr(comm_r_old, "update", "comm_r_old")));
}

Fr update_rho(const Domain& phi, uint32_t high) {
  return gen_randomness(domain_to_fr(phi, "update", "phi"), Fr::from_u64(high));
}

UpdateRhos::UpdateRhos(const UpdateParams& pp, const Domain& phi, unsigned h) {
  pp.h_select(h);  // h must be one of hs
  shift_ = pp.challenge_bit_len - h;
  const Fr p = domain_to_fr(phi, "update", "phi");
  rhos_.reserve(size_t{1} << h);
  for (uint64_t high = 0; high < (uint64_t{1} << h); ++high)
    rhos_.push_back(gen_randomness(p, Fr::from_u64(high)));
}

void update_encode_nodes(std::span<const uint8_t> sector_key, std::span<const uint8_t> data,
                         std::span<uint8_t> out, uint64_t first_node, const UpdateRhos& rhos,
                         ThreadPool* pool) {
  if (sector_key.size() != data.size() || out.size() != data.size() ||
      data.size() % kNodeSize != 0) {
    throw std::invalid_argument(
        "update encoding: sector key, data and output of " + std::to_string(sector_key.size()) +
        ", " + std::to_string(data.size()) + " and " + std::to_string(out.size()) + " bytes");
  }
  const uint64_t nodes = data.size() / kNodeSize;
  const auto body = [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      const uint64_t v = first_node + i;
      const Fr key = node_fr(sector_key, i, v, "sector key");
      const Fr d = node_fr(data, i, v, "data");
      const Domain r = fr_to_domain(key + d * rhos.of_node(v));
      std::memcpy(out.data() + i * kNodeSize, r.data(), kNodeSize);
    }
  };
  if (pool != nullptr) {
    pool->parallel_for(nodes, body, 4096);
  } else {
    body(0, nodes);
  }
}

}  // namespace cuzk::filecoin
