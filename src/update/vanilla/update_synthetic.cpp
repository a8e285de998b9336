#include "update/vanilla/update_synthetic.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/merkle/sparse_merkle_tree.hpp"
#include "update/vanilla/update_encoding.hpp"

namespace cuzk::filecoin {

namespace {

// A canonical value: trunc254 SHA-256("cuzk synthetic update|" tag || u64_le(seed) || u64_le(i)).
Domain derive(std::string_view tag, uint64_t seed, uint64_t i = 0) {
  const std::string prefix = "cuzk synthetic update|" + std::string(tag);
  uint8_t nums[16];
  for (int b = 0; b < 8; ++b) {
    nums[b] = static_cast<uint8_t>(seed >> (8 * b));
    nums[8 + b] = static_cast<uint8_t>(i >> (8 * b));
  }
  return sha256_trunc254(
      {std::span(reinterpret_cast<const uint8_t*>(prefix.data()), prefix.size()), nums});
}

}  // namespace

SyntheticUpdate make_synthetic_update(const UpdateParams& pp, uint64_t seed, unsigned set_nodes,
                                      ThreadPool* pool) {
  if (pp.poseidon) {
    throw std::invalid_argument("synthetic update: the Poseidon variant has no vanilla proofs");
  }
  const TreeShape shape = pp.tree_r_shape();
  const Domain key_filler = derive("sector key filler", seed);
  const Domain zero{};
  const Domain comm_c = derive("comm_c", seed);

  // The nodes that differ from the rest: a random key and random data each.
  std::vector<uint64_t> nodes;
  for (unsigned j = 0; j < set_nodes; ++j) {
    const Domain d = derive("node", seed, j);
    uint64_t v = 0;
    for (int b = 7; b >= 0; --b)
      v = v << 8 | d[b];
    nodes.push_back(v % pp.sector_nodes);
  }
  SparseMerkleTree tree_r_old(shape, pp.sector_nodes, TreeHasher::kPoseidon, key_filler);
  SparseMerkleTree tree_d_new(TreeShape{2, 0, 0}, pp.sector_nodes, TreeHasher::kSha256, zero);
  for (unsigned j = 0; j < set_nodes; ++j) {
    tree_r_old.set_leaf(nodes[j], derive("sector key", seed, j));
    tree_d_new.set_leaf(nodes[j], derive("data", seed, j));
  }
  tree_r_old.build(pool);
  tree_d_new.build(pool);

  SyntheticUpdate out;
  out.in.h = pp.h_default();
  out.in.comm_r_old = poseidon_hash2(comm_c, tree_r_old.root());
  out.in.comm_d_new = tree_d_new.root();
  const UpdateRhos rhos(pp, update_phi(out.in.comm_d_new, out.in.comm_r_old), out.in.h);
  // replica = key + data * rho: the key filler where the data is zero.
  SparseMerkleTree tree_r_new(shape, pp.sector_nodes, TreeHasher::kPoseidon, key_filler);
  for (const uint64_t v : nodes) {
    const Fr replica =
        domain_to_fr(tree_r_old.leaf(v)) + domain_to_fr(tree_d_new.leaf(v)) * rhos.of_node(v);
    tree_r_new.set_leaf(v, fr_to_domain(replica));
  }
  tree_r_new.build(pool);
  out.in.comm_r_new = poseidon_hash2(comm_c, tree_r_new.root());

  const SparseUpdateTrees trees{tree_r_old, tree_d_new, tree_r_new};
  out.proofs.resize(pp.partition_count);
  for (unsigned k = 0; k < pp.partition_count; ++k)
    out.proofs[k] = prove_update_partition(pp, out.in, comm_c, trees, k);
  verify_update_partitions(pp, out.in, out.proofs, pool);
  return out;
}

}  // namespace cuzk::filecoin
