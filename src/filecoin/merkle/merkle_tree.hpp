// Merkle trees as rust-fil-proofs builds them with the merkletree crate 0.23: tree_c and
// tree_r_last (Poseidon, arity 8 base trees, optional sub/top levels) and tree_d (binary SHA-256).
//
// BaseTree is one merkletree `MerkleTree<_, _, _, Arity>` over a power-of-arity number of leaves.
// Leaves are used as they are; a parent is the node hash of its `arity` consecutive children
// (merkle_hasher.hpp); rows are stored bottom-up in one array (tree_shape.hpp). Two storage forms
// exist upstream and both are supported:
//   * every row (DiskStore / VecStore: tree_c, tree_d);
//   * level cache (LevelCacheStore + external reader: tree_r_last): the leaves come from the
//     replica file and the file holds only the rows above the `rows_to_discard` lowest inner rows.
//     A proof then rebuilds the discarded rows of the one segment it needs, as merkle.rs
//     `gen_cached_proof` does (the segment is the arity^(rows_to_discard + 1) leaves under the
//     challenged node's ancestor in the first cached row).
//
// MerkleTree is the compound tree (MerkleTreeWrapper of DiskTree / LCTree with sub and top
// arities): `sub` consecutive base trees under one node of arity `sub` (merkle.rs `from_trees`),
// and with a top arity `top` such groups under a root of arity `top` (`from_sub_trees_as_trees`).
// Proofs are Single / Sub / Top accordingly (merkle_proof.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/merkle/merkle_hasher.hpp"
#include "filecoin/merkle/merkle_proof.hpp"
#include "filecoin/merkle/tree_shape.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

class BaseTree {
 public:
  // Builds all rows over `leaves` (32-byte nodes; their count must be a power of the arity, at
  // least the arity). With a pool, each row is hashed in parallel chunks.
  static BaseTree build(std::span<const uint8_t> leaves, uint32_t arity, TreeHasher hasher,
                        ThreadPool* pool = nullptr);
  // Fills `rows` (merkle_tree_len(leaves, arity) nodes whose first `leaves` nodes are the leaves)
  // with the inner rows; returns the root. For building straight into a mapped output file.
  static Domain build_rows_in_place(std::span<uint8_t> rows, uint64_t leaves, uint32_t arity,
                                    TreeHasher hasher, ThreadPool* pool = nullptr);

  // A tree stored with every row (the DiskStore layout); `keep_alive` owns the bytes (e.g. a
  // shared MappedFile), or is empty when the caller guarantees their lifetime. Throws
  // std::invalid_argument when the size does not match `leaves` and `arity`.
  static BaseTree view(std::span<const uint8_t> rows, uint64_t leaves, uint32_t arity,
                       TreeHasher hasher, std::shared_ptr<const void> keep_alive = {});
  // A level-cache tree: the leaves (a replica window) and the cached rows (merkle_tree_cache_size
  // nodes). Throws std::invalid_argument on size mismatches.
  static BaseTree view_level_cache(std::span<const uint8_t> leaves,
                                   std::span<const uint8_t> cached_rows, uint32_t arity,
                                   unsigned rows_to_discard, TreeHasher hasher,
                                   std::shared_ptr<const void> keep_alive = {});

  uint64_t leaves() const { return leaves_count_; }
  uint32_t arity() const { return arity_; }
  TreeHasher hasher() const { return hasher_; }
  unsigned row_count() const { return row_count_; }
  // Inner rows not stored (0 for a full tree).
  unsigned rows_to_discard() const { return first_upper_row_ - 1; }
  Domain root() const { return node(row_count_ - 1, 0); }

  uint64_t row_width(unsigned row) const { return leaves_count_ >> (shift_ * row); }
  bool has_row(unsigned row) const { return row == 0 || row >= first_upper_row_; }
  // Node i of a stored row (row 0 = leaves). Throws std::out_of_range for a discarded row or an
  // index outside the row.
  Domain node(unsigned row, uint64_t i) const;
  Domain leaf(uint64_t i) const { return node(0, i); }
  std::span<const uint8_t> leaf_bytes() const { return leaves_; }
  // Rows [first stored inner row, root] as one array: all inner rows of a full tree, or exactly
  // the level-cache file content.
  std::span<const uint8_t> upper_rows_bytes() const { return upper_; }
  // The level-cache file content for `rows_to_discard` (a tail of the stored rows). Throws
  // std::invalid_argument if those rows are not stored here.
  std::span<const uint8_t> level_cache_bytes(unsigned rows_to_discard) const;

  // Siblings of leaf i, leaf level first (merkle.rs gen_proof / gen_cached_proof).
  InclusionPath path(uint64_t i) const;

 private:
  BaseTree() = default;
  uint64_t upper_offset(unsigned row) const;  // node offset of `row` within upper_

  std::shared_ptr<const void> keep_;
  std::span<const uint8_t> leaves_, upper_;
  uint64_t leaves_count_ = 0;
  uint32_t arity_ = 0;
  unsigned shift_ = 0;
  unsigned row_count_ = 0;
  unsigned first_upper_row_ = 1;
  TreeHasher hasher_ = TreeHasher::kPoseidon;
};

class MerkleTree {
 public:
  // Builds shape.base_tree_count() equal base trees over consecutive slices of `leaves` and joins
  // them.
  static MerkleTree build(std::span<const uint8_t> leaves, const TreeShape& shape,
                          TreeHasher hasher, ThreadPool* pool = nullptr);
  // Joins base trees in order. They must share leaves, arity (= shape.base) and hasher, and their
  // count must be shape.base_tree_count() (std::invalid_argument otherwise).
  static MerkleTree from_base_trees(std::vector<BaseTree> trees, const TreeShape& shape);

  const TreeShape& shape() const { return shape_; }
  TreeHasher hasher() const { return base_.front().hasher(); }
  uint64_t leaves() const { return base_.front().leaves() * base_.size(); }
  const Domain& root() const { return root_; }
  const std::vector<BaseTree>& base_trees() const { return base_; }
  // Roots of the sub trees (top shape only: `top` of them; otherwise empty).
  const std::vector<Domain>& sub_roots() const { return sub_roots_; }
  Domain leaf(uint64_t i) const;

  // Inclusion proof of leaf i (merkle.rs gen_cached_proof + proof.rs try_from_proof). Throws
  // std::out_of_range for i >= leaves().
  MerkleProof gen_proof(uint64_t i) const;

 private:
  MerkleTree() = default;

  TreeShape shape_;
  std::vector<BaseTree> base_;
  std::vector<Domain> sub_roots_;
  Domain root_{};
};

}  // namespace cuzk::filecoin
