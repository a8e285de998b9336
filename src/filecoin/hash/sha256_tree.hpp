// Binary SHA-256 trunc254 Merkle trees over 32-byte nodes: tree_d, comm_d and comm_P.
//
// Leaves are the 32-byte (Fr32-padded) data nodes as they are, never hashed on their own; an inner
// node is sha256_node(left, right) (filecoin-hashers/src/sha256.rs, merkletree with the Sha256
// algorithm; facts sheet 3.3). A tree over 2^k leaves has k levels above the leaves.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/hash/sha256.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

inline constexpr unsigned kMaxZeroLevel = 63;

// Root of the tree over 2^level all-zero nodes: Z_0 = 32 zero bytes, Z_{k+1} = node(Z_k, Z_k)
// (pieces.rs `zero_padding`, go-commp-utils zerocomm). comm_d of an empty sector of N nodes is
// Z_{log2 N}. The table is computed on first use (a function-local static, so initialisation is
// thread safe) and is immutable afterwards. Throws std::out_of_range for level > kMaxZeroLevel.
const Domain& zero_subtree_root(unsigned level);

// Root over leaves.size() / 32 nodes, which must be a power of two (one node is its own root).
// With a pool, disjoint subtrees are hashed in parallel. Throws std::invalid_argument naming the
// size when it is not 32 * 2^k.
Domain sha256_tree_root(std::span<const uint8_t> leaves, ThreadPool* pool = nullptr);

// Streaming root computation in O(log n) memory: push leaves (or whole aligned subtrees) left to
// right, then finish(). Equivalent to sha256_tree_root over everything pushed.
class Sha256TreeBuilder {
 public:
  void push_leaf(const Domain& leaf) { push_subtree(leaf, 0); }
  // Consecutive 32-byte nodes; throws std::invalid_argument if the size is not a multiple of 32.
  void push_leaves(std::span<const uint8_t> nodes);
  // A complete subtree over 2^level leaves. It must start at a multiple of 2^level leaves;
  // throws std::invalid_argument otherwise.
  void push_subtree(const Domain& root, unsigned level);
  // Appends zero leaves (as zero-subtree roots, O(log) work) until leaf_count() == total_leaves.
  void pad_with_zeros_to(uint64_t total_leaves);

  uint64_t leaf_count() const { return leaves_; }
  // The root; the leaf count must be a power of two (throws std::logic_error naming it).
  // Resets the builder.
  Domain finish();

 private:
  struct Entry {
    Domain root;
    unsigned level;
  };
  std::vector<Entry> stack_;  // levels strictly decreasing from bottom to top
  uint64_t leaves_ = 0;
  Sha256 hasher_;
};

}  // namespace cuzk::filecoin
