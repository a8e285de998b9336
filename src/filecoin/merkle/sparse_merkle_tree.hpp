// A Merkle tree of a Filecoin shape over any number of leaves, of which only a few are set and all
// others hold one filler value, so that every untouched subtree of height h has the same root
// F_h = H(F_{h-1}, ..., F_{h-1}). It costs O(set leaves x height) hashes and memory, whatever the
// sector size, and yields roots and inclusion proofs identical to those of the dense tree with the
// same leaves (merkle_tree.hpp), which the tests check. Synthetic C1 (synthetic_c1.hpp) builds its
// tree_c, tree_r_last and tree_d this way.
//
// A compound tree (base trees joined by sub / top levels) is one tree whose levels have the base
// arity, then the sub arity, then the top arity: base trees are addressed in order, so leaf i's
// digits in that mixed radix are exactly its path indices (tree_shape.hpp, merkle_proof.hpp).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/merkle/merkle_hasher.hpp"
#include "filecoin/merkle/merkle_proof.hpp"
#include "filecoin/merkle/tree_shape.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

class SparseMerkleTree {
 public:
  // `leaves` must split into shape.base_tree_count() base trees of a power of the base arity
  // (std::invalid_argument naming them otherwise).
  SparseMerkleTree(const TreeShape& shape, uint64_t leaves, TreeHasher hasher,
                   const Domain& filler);

  // Sets leaf i (std::out_of_range past the end). Invalidates the built state.
  void set_leaf(uint64_t i, const Domain& value);
  // Hashes every node above a set leaf, level by level (each level in parallel on the pool).
  void build(ThreadPool* pool = nullptr);

  uint64_t leaves() const { return leaves_; }
  const Domain& root() const;
  Domain leaf(uint64_t i) const { return node(0, i); }
  // The proof of leaf i in the form of the shape (Single / Sub / Top); needs build().
  MerkleProof gen_proof(uint64_t i) const;
  // The filler root of a level (0 = the filler leaf).
  const Domain& filler(unsigned level) const { return filler_.at(level); }
  // Node i of a level (0 = the leaves): the set or computed value, else the level's filler. Inner
  // levels need build().
  Domain node(unsigned level, uint64_t i) const;

 private:
  TreeShape shape_;
  uint64_t leaves_;
  TreeHasher hasher_;
  std::vector<uint32_t> arities_;                            // per level, from the leaves up
  std::vector<Domain> filler_;                               // per level, up to the root
  std::vector<std::unordered_map<uint64_t, Domain>> nodes_;  // set / computed nodes per level
  bool built_ = false;
};

}  // namespace cuzk::filecoin
