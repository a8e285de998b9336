// Geometry of the Merkle trees rust-fil-proofs builds with the merkletree crate (0.23): tree shapes
// (base / sub / top arities), the in-store layout of one base tree, and the level-cache sizes.
//
// Layout of one base tree (merkletree src/merkle.rs, store/mod.rs): every row is stored
// bottom-up and concatenated, leaves first and the root last, so a tree over L leaves of arity A
// has L + L/A + ... + 1 nodes. A "level cache" store (store/level_cache.rs) drops the leaves and
// the `rows_to_discard` rows above them and keeps only the rest (the tail of that array).
//
// A compound tree (merkle.rs `from_trees`, `from_sub_trees_as_trees`) joins `sub` equal base trees
// under one node of arity `sub`, and with a top arity `top` joins `top` such sub trees under a root
// of arity `top`; base trees are addressed in order, so leaf i of the whole tree is leaf
// i mod L of base tree i / L.
#pragma once

#include <cstdint>
#include <string>

namespace cuzk::filecoin {

// Tree arities (base, sub, top); 0 = the level is absent. rust-fil-proofs writes them "A-B-C"
// (e.g. merkletree-poseidon_hasher-8-8-0 in parameter identifiers).
struct TreeShape {
  uint32_t base = 8;
  uint32_t sub = 0;
  uint32_t top = 0;

  bool operator==(const TreeShape&) const = default;

  // Throws std::invalid_argument naming the shape when an arity is not a power of two >= 2 (or 0
  // for sub/top), or top is set without sub (builders.rs `create_disk_tree` rejects it).
  void validate() const;

  // Base trees under the root: 1, sub, or sub * top (builders.rs `get_base_tree_count`).
  uint64_t base_tree_count() const;
  // Path elements of an inclusion proof over `total_leaves` leaves: the base levels plus one per
  // sub/top level present (proof.rs `compound_path_length`).
  unsigned path_length(uint64_t total_leaves) const;
  std::string to_string() const;  // "8-8-0"
};

// ---- merkletree crate geometry (src/merkle.rs); all sizes in nodes
// -------------------------------

// get_merkle_tree_len: nodes in one base tree. Needs leaves >= arity, arity a power of two, and
// for arity 2 leaves a power of two (std::invalid_argument naming the values otherwise). Arity 1
// is accepted like upstream and gives `leaves`.
uint64_t merkle_tree_len(uint64_t leaves, uint32_t arity);
// get_merkle_tree_row_count: rows including the leaves and the root (log_arity(leaves) + 1).
// Computed exactly in integers; upstream evaluates log(arity * leaves) / log(arity) in double
// precision, which agrees for every tree it can build (leaves a power of the arity).
unsigned merkle_tree_row_count(uint64_t leaves, uint32_t arity);
// get_merkle_tree_leafs: inverse of merkle_tree_len; throws std::invalid_argument if `len` is not
// the length of a tree of that arity. (Upstream's arity-2 shortcut (len / 2 + 1, a power of two)
// also accepts even lengths such as 30; this version does not.)
uint64_t merkle_tree_leaves(uint64_t len, uint32_t arity);
// is_merkle_tree_size_valid: leaves a power of two that repeated division by arity brings to 1.
bool merkle_tree_size_valid(uint64_t leaves, uint32_t arity);
// get_merkle_tree_cache_size: nodes a level-cache store keeps, i.e. the tree without its leaves
// and the `rows_to_discard` rows above them. Throws std::invalid_argument if that would discard
// every row above the leaves.
uint64_t merkle_tree_cache_size(uint64_t leaves, uint32_t arity, unsigned rows_to_discard);
// Rows a default tree_r_last store discards (storage-proofs-core/src/util.rs
// `default_rows_to_discard`, identical to merkletree's StoreConfig::default_rows_to_discard): 0 for
// trees of <= 2 rows, 1 for 3 rows, else min(rows - 2, 7 / 5 / `configured`) for arity 2 / 4 /
// other. `configured` is settings.rs DEFAULT_ROWS_TO_DISCARD (2), which the
// FIL_PROOFS_ROWS_TO_DISCARD setting can change unless the `fixed-rows-to-discard` feature is on.
inline constexpr unsigned kDefaultRowsToDiscard = 2;
unsigned default_rows_to_discard(uint64_t leaves, uint32_t arity,
                                 unsigned configured = kDefaultRowsToDiscard);

}  // namespace cuzk::filecoin
