// The SnapDeals encoding, as rust-fil-proofs storage-proofs-update/src/vanilla.rs (`phi`, `rho`,
// `Rhos`, `encode_into`; facts sheet 5.8):
//
//   comm_r_old    = Poseidon_2(comm_c, comm_r_last_old)          (the sector key's comm_r)
//   phi           = Poseidon_2^{Custom(1)}(comm_d_new, comm_r_old)
//   rho(v)        = Poseidon_2^{Custom(1)}(phi, Fr(v >> (log2 N - h)))
//   replica_new(v)= sector_key(v) + data_new(v) * rho(v)         (mod r)
//   comm_r_new    = Poseidon_2(comm_c, root of tree_r_last over replica_new)
//
// Custom(1) is neptune's HashType::Custom(CType::Arbitrary(1)), domain tag 2^40 (constants.rs
// HASH_TYPE_GEN_RANDOMNESS); it also derives the challenges. Nodes are read strictly
// (bytes_into_fr): a sector key or data node >= r is an error.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/domain.hpp"
#include "update/vanilla/update_params.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

// neptune CType::Arbitrary id of HASH_TYPE_GEN_RANDOMNESS.
inline constexpr uint64_t kUpdateHashTypeId = 1;

// Strict conversions (std::invalid_argument naming the input that is not a field element).
Domain update_phi(const Domain& comm_d_new, const Domain& comm_r_old);
Fr update_rho(const Domain& phi, uint32_t high);

// The rho of every node of a sector: 2^h values, one per value of a node index's h high bits.
class UpdateRhos {
 public:
  // std::invalid_argument when h is not allowed for the sector size or phi is not canonical.
  UpdateRhos(const UpdateParams& pp, const Domain& phi, unsigned h);
  const Fr& of_node(uint64_t node) const { return rhos_[node >> shift_]; }
  // Right shift of a node index that leaves its h high bits.
  unsigned shift() const { return shift_; }

 private:
  unsigned shift_ = 0;
  std::vector<Fr> rhos_;
};

// replica_new = sector_key + data * rho over whole nodes: out[v] for v in [first_node, ...).
// All three spans hold the same number of 32-byte nodes (out may alias neither input). Throws
// std::invalid_argument naming the node when an input is not a canonical field element.
void update_encode_nodes(std::span<const uint8_t> sector_key, std::span<const uint8_t> data,
                         std::span<uint8_t> out, uint64_t first_node, const UpdateRhos& rhos,
                         ThreadPool* pool = nullptr);

}  // namespace cuzk::filecoin
