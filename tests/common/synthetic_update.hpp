// A SnapDeals update of random data, built in memory for tests: a random sector key (the old
// replica) and new data (each node a canonical field element), the new replica encoded with rho
// (update_encoding.hpp), the three trees of the sector's update shape, and every partition's
// vanilla proof (update_vanilla.hpp). Works for every allowed size, the test-only shapes
// (1 KiB 8-4-0, 4 KiB 8-2-0, ...) included.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/merkle/merkle_tree.hpp"
#include "update/vanilla/update_encoding.hpp"
#include "update/vanilla/update_params.hpp"
#include "update/vanilla/update_vanilla.hpp"

namespace cuzk::testing {

struct SyntheticUpdate {
  filecoin::UpdateParams pp;
  filecoin::UpdatePublicInputs in;
  filecoin::Domain comm_c{};
  std::vector<uint8_t> sector_key, data, replica;
  std::unique_ptr<filecoin::MerkleTree> tree_r_old, tree_d_new, tree_r_new;
  std::vector<filecoin::UpdatePartitionProof> proofs;

  filecoin::UpdateTrees trees() const { return {*tree_r_old, *tree_d_new, *tree_r_new}; }
};

// Random canonical nodes (the top two bits of each node cleared).
inline std::vector<uint8_t> random_nodes(uint64_t nodes, std::mt19937_64& rng) {
  std::vector<uint8_t> out(nodes * filecoin::kNodeSize);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<uint8_t>(rng());
    if (i % filecoin::kNodeSize == filecoin::kNodeSize - 1) out[i] &= 0x3f;
  }
  return out;
}

// `h` = 0: the size's default h.
inline SyntheticUpdate make_synthetic_update(uint64_t sector_bytes, uint64_t seed = 1,
                                             unsigned h = 0, ThreadPool* pool = nullptr) {
  using namespace cuzk::filecoin;
  SyntheticUpdate u;
  u.pp = UpdateParams::for_sector_size(sector_bytes);
  const uint64_t n = u.pp.sector_nodes;
  std::mt19937_64 rng(seed);
  u.sector_key = random_nodes(n, rng);
  u.data = random_nodes(n, rng);
  const std::vector<uint8_t> c = random_nodes(1, rng);
  std::copy(c.begin(), c.end(), u.comm_c.begin());

  const TreeShape shape = u.pp.tree_r_shape();
  u.tree_r_old = std::make_unique<MerkleTree>(
      MerkleTree::build(u.sector_key, shape, TreeHasher::kPoseidon, pool));
  u.tree_d_new = std::make_unique<MerkleTree>(
      MerkleTree::build(u.data, TreeShape{2, 0, 0}, TreeHasher::kSha256, pool));
  u.in.h = h == 0 ? u.pp.h_default() : h;
  u.in.comm_r_old = poseidon_hash2(u.comm_c, u.tree_r_old->root());
  u.in.comm_d_new = u.tree_d_new->root();
  const UpdateRhos rhos(u.pp, update_phi(u.in.comm_d_new, u.in.comm_r_old), u.in.h);
  u.replica.resize(u.data.size());
  update_encode_nodes(u.sector_key, u.data, u.replica, 0, rhos, pool);
  u.tree_r_new = std::make_unique<MerkleTree>(
      MerkleTree::build(u.replica, shape, TreeHasher::kPoseidon, pool));
  u.in.comm_r_new = poseidon_hash2(u.comm_c, u.tree_r_new->root());
  u.proofs = prove_update_partitions(u.pp, u.in, u.comm_c, u.trees(), pool);
  return u;
}

}  // namespace cuzk::testing
