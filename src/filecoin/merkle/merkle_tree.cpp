#include "filecoin/merkle/merkle_tree.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

Domain read_node(std::span<const uint8_t> bytes, uint64_t i) {
  Domain d;
  std::memcpy(d.data(), bytes.data() + i * kNodeSize, kNodeSize);
  return d;
}

void check_tree_size(uint64_t leaves, uint32_t arity, const char* who) {
  if (arity < 2 || !merkle_tree_size_valid(leaves, arity) || leaves < arity) {
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(leaves) +
                                " leaves do not form a tree of arity " + std::to_string(arity) +
                                " (need a power of the arity, at least the arity)");
  }
}

uint64_t node_count(std::span<const uint8_t> bytes, const char* who) {
  if (bytes.size() % kNodeSize != 0) {
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(bytes.size()) +
                                " bytes is not a whole number of 32-byte nodes");
  }
  return bytes.size() / kNodeSize;
}

// Parents hashed per parallel task: Poseidon costs ~30 us per arity-8 node, SHA-256 ~0.15 us.
size_t min_parents_per_task(TreeHasher h) {
  return h == TreeHasher::kPoseidon ? 64 : 8192;
}

}  // namespace

Domain BaseTree::build_rows_in_place(std::span<uint8_t> rows, uint64_t leaves, uint32_t arity,
                                     TreeHasher hasher, ThreadPool* pool) {
  check_tree_size(leaves, arity, "BaseTree::build");
  const uint64_t len = merkle_tree_len(leaves, arity);
  if (rows.size() != len * kNodeSize) {
    throw std::invalid_argument("BaseTree::build_rows_in_place: " + std::to_string(rows.size()) +
                                " bytes for a tree of " + std::to_string(len) + " nodes");
  }
  uint64_t in_offset = 0, width = leaves;
  while (width > 1) {
    const uint64_t parents = width / arity;
    const uint8_t* in = rows.data() + in_offset * kNodeSize;
    uint8_t* out = rows.data() + (in_offset + width) * kNodeSize;
    const auto body = [&](size_t begin, size_t end) {
      NodeHasher h(hasher, arity);
      for (size_t p = begin; p < end; ++p) {
        const Domain d = h.hash_bytes(in + p * arity * kNodeSize);
        std::memcpy(out + p * kNodeSize, d.data(), kNodeSize);
      }
    };
    if (pool != nullptr && pool->size() > 1 && parents >= 2 * min_parents_per_task(hasher)) {
      pool->parallel_for(parents, body, min_parents_per_task(hasher));
    } else {
      body(0, parents);
    }
    in_offset += width;
    width = parents;
  }
  return read_node(rows, len - 1);
}

BaseTree BaseTree::build(std::span<const uint8_t> leaves, uint32_t arity, TreeHasher hasher,
                         ThreadPool* pool) {
  const uint64_t n = node_count(leaves, "BaseTree::build");
  check_tree_size(n, arity, "BaseTree::build");
  auto storage = std::make_shared<std::vector<uint8_t>>(merkle_tree_len(n, arity) * kNodeSize);
  std::copy(leaves.begin(), leaves.end(), storage->begin());
  build_rows_in_place(*storage, n, arity, hasher, pool);
  return view(*storage, n, arity, hasher, storage);
}

BaseTree BaseTree::view(std::span<const uint8_t> rows, uint64_t leaves, uint32_t arity,
                        TreeHasher hasher, std::shared_ptr<const void> keep_alive) {
  check_tree_size(leaves, arity, "BaseTree::view");
  const uint64_t n = node_count(rows, "BaseTree::view");
  if (n != merkle_tree_len(leaves, arity)) {
    throw std::invalid_argument("BaseTree::view: " + std::to_string(n) +
                                " nodes stored, a tree over " + std::to_string(leaves) +
                                " leaves of arity " + std::to_string(arity) + " has " +
                                std::to_string(merkle_tree_len(leaves, arity)));
  }
  BaseTree t;
  t.keep_ = std::move(keep_alive);
  t.leaves_ = rows.first(leaves * kNodeSize);
  t.upper_ = rows.subspan(leaves * kNodeSize);
  t.leaves_count_ = leaves;
  t.arity_ = arity;
  t.shift_ = static_cast<unsigned>(std::countr_zero(arity));
  t.row_count_ = merkle_tree_row_count(leaves, arity);
  t.first_upper_row_ = 1;
  t.hasher_ = hasher;
  return t;
}

BaseTree BaseTree::view_level_cache(std::span<const uint8_t> leaves,
                                    std::span<const uint8_t> cached_rows, uint32_t arity,
                                    unsigned rows_to_discard, TreeHasher hasher,
                                    std::shared_ptr<const void> keep_alive) {
  const uint64_t n = node_count(leaves, "BaseTree::view_level_cache (leaves)");
  check_tree_size(n, arity, "BaseTree::view_level_cache");
  const uint64_t cached = node_count(cached_rows, "BaseTree::view_level_cache (cache)");
  const uint64_t expected = merkle_tree_cache_size(n, arity, rows_to_discard);
  if (cached != expected) {
    throw std::invalid_argument(
        "BaseTree::view_level_cache: " + std::to_string(cached) + " cached nodes, a tree over " +
        std::to_string(n) + " leaves of arity " + std::to_string(arity) + " discarding " +
        std::to_string(rows_to_discard) + " rows keeps " + std::to_string(expected));
  }
  BaseTree t;
  t.keep_ = std::move(keep_alive);
  t.leaves_ = leaves;
  t.upper_ = cached_rows;
  t.leaves_count_ = n;
  t.arity_ = arity;
  t.shift_ = static_cast<unsigned>(std::countr_zero(arity));
  t.row_count_ = merkle_tree_row_count(n, arity);
  t.first_upper_row_ = 1 + rows_to_discard;
  t.hasher_ = hasher;
  return t;
}

uint64_t BaseTree::upper_offset(unsigned row) const {
  uint64_t offset = 0;
  for (unsigned r = first_upper_row_; r < row; ++r)
    offset += row_width(r);
  return offset;
}

Domain BaseTree::node(unsigned row, uint64_t i) const {
  if (row >= row_count_ || i >= row_width(row)) {
    throw std::out_of_range("BaseTree::node: row " + std::to_string(row) + " index " +
                            std::to_string(i) + " is outside a tree of " +
                            std::to_string(row_count_) + " rows over " +
                            std::to_string(leaves_count_) + " leaves");
  }
  if (row == 0) return read_node(leaves_, i);
  if (row < first_upper_row_) {
    throw std::out_of_range("BaseTree::node: row " + std::to_string(row) +
                            " is discarded by the level cache (rows_to_discard " +
                            std::to_string(rows_to_discard()) + ")");
  }
  return read_node(upper_, upper_offset(row) + i);
}

std::span<const uint8_t> BaseTree::level_cache_bytes(unsigned rows_to_discard) const {
  const unsigned first = rows_to_discard + 1;
  if (first < first_upper_row_ || first >= row_count_) {
    throw std::invalid_argument("BaseTree::level_cache_bytes: rows_to_discard " +
                                std::to_string(rows_to_discard) +
                                " is not available in a tree of " + std::to_string(row_count_) +
                                " rows storing rows from " + std::to_string(first_upper_row_));
  }
  return upper_.subspan(upper_offset(first) * kNodeSize);
}

InclusionPath BaseTree::path(uint64_t i) const {
  if (i >= leaves_count_) {
    throw std::out_of_range("BaseTree::path: leaf " + std::to_string(i) + " of " +
                            std::to_string(leaves_count_));
  }
  // The discarded rows of the segment holding leaf i, rebuilt from its leaves.
  std::optional<BaseTree> partial;
  uint64_t segment_start = 0;
  if (first_upper_row_ > 1) {
    const uint64_t segment_width = uint64_t{1} << (shift_ * first_upper_row_);
    segment_start = i / segment_width * segment_width;
    partial = build(leaves_.subspan(segment_start * kNodeSize, segment_width * kNodeSize), arity_,
                    hasher_);
    const uint64_t cached_index = segment_start >> (shift_ * first_upper_row_);
    if (partial->root() != node(first_upper_row_, cached_index)) {
      throw std::runtime_error("BaseTree::path: the leaves under cached node " +
                               std::to_string(cached_index) + " of row " +
                               std::to_string(first_upper_row_) +
                               " do not hash to it (level cache and leaves disagree)");
    }
  }
  InclusionPath out;
  out.reserve(row_count_ - 1);
  uint64_t j = i;
  for (unsigned row = 0; row + 1 < row_count_; ++row, j >>= shift_) {
    PathElement e;
    e.index = j % arity_;
    e.hashes.reserve(arity_ - 1);
    const uint64_t first = j - e.index;
    for (uint64_t k = first; k < first + arity_; ++k) {
      if (k == j) continue;
      if (has_row(row)) {
        e.hashes.push_back(node(row, k));
      } else {
        e.hashes.push_back(partial->node(row, k - (segment_start >> (shift_ * row))));
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

MerkleTree MerkleTree::build(std::span<const uint8_t> leaves, const TreeShape& shape,
                             TreeHasher hasher, ThreadPool* pool) {
  shape.validate();
  const uint64_t n = node_count(leaves, "MerkleTree::build");
  const uint64_t count = shape.base_tree_count();
  if (n % count != 0) {
    throw std::invalid_argument("MerkleTree::build: " + std::to_string(n) +
                                " leaves do not split into " + std::to_string(count) +
                                " base trees of shape " + shape.to_string());
  }
  const uint64_t per_tree = n / count;
  std::vector<BaseTree> trees;
  trees.reserve(count);
  for (uint64_t t = 0; t < count; ++t) {
    trees.push_back(BaseTree::build(leaves.subspan(t * per_tree * kNodeSize, per_tree * kNodeSize),
                                    shape.base, hasher, pool));
  }
  return from_base_trees(std::move(trees), shape);
}

MerkleTree MerkleTree::from_base_trees(std::vector<BaseTree> trees, const TreeShape& shape) {
  shape.validate();
  if (trees.size() != shape.base_tree_count()) {
    throw std::invalid_argument("MerkleTree::from_base_trees: " + std::to_string(trees.size()) +
                                " base trees, shape " + shape.to_string() + " needs " +
                                std::to_string(shape.base_tree_count()));
  }
  for (const BaseTree& t : trees) {
    if (t.leaves() != trees.front().leaves() || t.arity() != shape.base ||
        t.hasher() != trees.front().hasher()) {
      throw std::invalid_argument(
          "MerkleTree::from_base_trees: base trees must all have the same leaf count, hasher "
          "and the base arity " +
          std::to_string(shape.base));
    }
  }
  MerkleTree m;
  m.shape_ = shape;
  m.base_ = std::move(trees);
  const TreeHasher hasher = m.base_.front().hasher();
  if (shape.sub == 0) {
    m.root_ = m.base_.front().root();
    return m;
  }
  std::vector<Domain> roots;
  for (const BaseTree& t : m.base_)
    roots.push_back(t.root());
  NodeHasher sub(hasher, shape.sub);
  if (shape.top == 0) {
    m.root_ = sub.hash(roots);
    return m;
  }
  for (uint32_t g = 0; g < shape.top; ++g)
    m.sub_roots_.push_back(
        sub.hash(std::span<const Domain>(roots).subspan(g * shape.sub, shape.sub)));
  m.root_ = NodeHasher(hasher, shape.top).hash(m.sub_roots_);
  return m;
}

Domain MerkleTree::leaf(uint64_t i) const {
  if (i >= leaves()) {
    throw std::out_of_range("MerkleTree::leaf: " + std::to_string(i) + " of " +
                            std::to_string(leaves()));
  }
  const uint64_t per_tree = base_.front().leaves();
  return base_[i / per_tree].leaf(i % per_tree);
}

MerkleProof MerkleTree::gen_proof(uint64_t i) const {
  if (i >= leaves()) {
    throw std::out_of_range("MerkleTree::gen_proof: leaf " + std::to_string(i) + " of " +
                            std::to_string(leaves()));
  }
  const uint64_t per_tree = base_.front().leaves();
  const uint64_t t = i / per_tree;
  const BaseTree& base = base_[t];
  InclusionPath path = base.path(i % per_tree);
  const Domain leaf = base.leaf(i % per_tree);
  if (shape_.sub == 0) return MerkleProof{SingleProof{root_, leaf, std::move(path)}};

  const uint64_t group = t / shape_.sub, position = t % shape_.sub;
  PathElement sub;
  sub.index = position;
  for (uint64_t k = 0; k < shape_.sub; ++k)
    if (k != position) sub.hashes.push_back(base_[group * shape_.sub + k].root());
  if (shape_.top == 0) return MerkleProof{SubProof{std::move(path), {std::move(sub)}, root_, leaf}};

  PathElement top;
  top.index = group;
  for (uint64_t g = 0; g < shape_.top; ++g)
    if (g != group) top.hashes.push_back(sub_roots_[g]);
  return MerkleProof{TopProof{std::move(path), {std::move(sub)}, {std::move(top)}, root_, leaf}};
}

}  // namespace cuzk::filecoin
