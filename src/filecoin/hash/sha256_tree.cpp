#include "filecoin/hash/sha256_tree.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

const Domain& zero_subtree_root(unsigned level) {
  static const std::array<Domain, kMaxZeroLevel + 1> table = [] {
    std::array<Domain, kMaxZeroLevel + 1> t{};
    Sha256 h;
    for (unsigned k = 1; k <= kMaxZeroLevel; ++k)
      t[k] = h.node(t[k - 1], t[k - 1]);
    return t;
  }();
  if (level > kMaxZeroLevel) {
    throw std::out_of_range("zero_subtree_root: level " + std::to_string(level) + " exceeds " +
                            std::to_string(kMaxZeroLevel));
  }
  return table[level];
}

void Sha256TreeBuilder::push_subtree(const Domain& root, unsigned level) {
  if (level >= 64 || (leaves_ & ((uint64_t{1} << level) - 1)) != 0) {
    throw std::invalid_argument("Sha256TreeBuilder: a subtree of level " + std::to_string(level) +
                                " cannot start at leaf " + std::to_string(leaves_));
  }
  leaves_ += uint64_t{1} << level;
  Entry e{root, level};
  while (!stack_.empty() && stack_.back().level == e.level) {
    e.root = hasher_.node(stack_.back().root, e.root);
    ++e.level;
    stack_.pop_back();
  }
  stack_.push_back(e);
}

void Sha256TreeBuilder::push_leaves(std::span<const uint8_t> nodes) {
  if (nodes.size() % kNodeSize != 0) {
    throw std::invalid_argument("Sha256TreeBuilder::push_leaves: " + std::to_string(nodes.size()) +
                                " bytes is not a whole number of 32-byte nodes");
  }
  const size_t n = nodes.size() / kNodeSize;
  size_t i = 0;
  if ((leaves_ & 1) != 0 && n > 0) {
    push_leaf(domain_from_bytes(nodes.first(kNodeSize)));
    i = 1;
  }
  // Adjacent pairs are hashed straight from the input (64 contiguous bytes each).
  for (; i + 2 <= n; i += 2)
    push_subtree(hasher_.node_pair(nodes.data() + i * kNodeSize), 1);
  if (i < n) push_leaf(domain_from_bytes(nodes.subspan(i * kNodeSize, kNodeSize)));
}

void Sha256TreeBuilder::pad_with_zeros_to(uint64_t total_leaves) {
  if (total_leaves < leaves_) {
    throw std::invalid_argument(
        "Sha256TreeBuilder::pad_with_zeros_to: " + std::to_string(total_leaves) +
        " leaves is fewer than the " + std::to_string(leaves_) + " already pushed");
  }
  while (leaves_ < total_leaves) {
    // The largest zero subtree that is aligned here and still fits.
    const unsigned aligned = leaves_ == 0 ? 63 : static_cast<unsigned>(std::countr_zero(leaves_));
    const unsigned fits = static_cast<unsigned>(std::bit_width(total_leaves - leaves_) - 1);
    const unsigned level = std::min(aligned, fits);
    push_subtree(zero_subtree_root(level), level);
  }
}

Domain Sha256TreeBuilder::finish() {
  if (leaves_ == 0 || !std::has_single_bit(leaves_)) {
    throw std::logic_error("Sha256TreeBuilder::finish: " + std::to_string(leaves_) +
                           " leaves is not a power of two");
  }
  const Domain root = stack_.back().root;
  stack_.clear();
  leaves_ = 0;
  return root;
}

Domain sha256_tree_root(std::span<const uint8_t> leaves, ThreadPool* pool) {
  const uint64_t n = leaves.size() / kNodeSize;
  if (leaves.size() % kNodeSize != 0 || !std::has_single_bit(n)) {
    throw std::invalid_argument("sha256_tree_root: " + std::to_string(leaves.size()) +
                                " bytes is not 32 * 2^k (a power-of-two number of nodes)");
  }
  constexpr uint64_t kMinChunkLeaves = uint64_t{1} << 12;
  if (pool == nullptr || pool->size() < 2 || n < 2 * kMinChunkLeaves) {
    Sha256TreeBuilder b;
    b.push_leaves(leaves);
    return b.finish();
  }
  // Power-of-two chunks, several per thread for balance, each a complete subtree.
  uint64_t chunks = std::bit_ceil(uint64_t{pool->size()} * 4);
  while (chunks > 1 && n / chunks < kMinChunkLeaves)
    chunks /= 2;
  const uint64_t chunk_leaves = n / chunks;
  const unsigned chunk_level = static_cast<unsigned>(std::countr_zero(chunk_leaves));
  std::vector<Domain> roots(chunks);
  pool->run(chunks, [&](size_t c) {
    Sha256TreeBuilder b;
    b.push_leaves(leaves.subspan(c * chunk_leaves * kNodeSize, chunk_leaves * kNodeSize));
    roots[c] = b.finish();
  });
  Sha256TreeBuilder top;
  for (const Domain& r : roots)
    top.push_subtree(r, chunk_level);
  return top.finish();
}

}  // namespace cuzk::filecoin
