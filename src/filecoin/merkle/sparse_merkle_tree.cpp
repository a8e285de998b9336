#include "filecoin/merkle/sparse_merkle_tree.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

SparseMerkleTree::SparseMerkleTree(const TreeShape& shape, uint64_t leaves, TreeHasher hasher,
                                   const Domain& filler)
    : shape_(shape), leaves_(leaves), hasher_(hasher) {
  shape.validate();
  const uint64_t count = shape.base_tree_count();
  if (leaves == 0 || leaves % count != 0 || !merkle_tree_size_valid(leaves / count, shape.base) ||
      leaves / count < shape.base) {
    throw std::invalid_argument("SparseMerkleTree: " + std::to_string(leaves) +
                                " leaves do not form base trees of shape " + shape.to_string());
  }
  for (uint64_t w = leaves / count; w > 1; w /= shape.base)
    arities_.push_back(shape.base);
  if (shape.sub != 0) arities_.push_back(shape.sub);
  if (shape.top != 0) arities_.push_back(shape.top);

  filler_.push_back(filler);
  NodeHasher h(hasher, shape.base);
  for (uint32_t arity : arities_) {
    if (arity != h.arity()) h = NodeHasher(hasher, arity);
    const std::vector<Domain> children(arity, filler_.back());
    filler_.push_back(h.hash(children));
  }
  nodes_.resize(arities_.size() + 1);
}

void SparseMerkleTree::set_leaf(uint64_t i, const Domain& value) {
  if (i >= leaves_) {
    throw std::out_of_range("SparseMerkleTree::set_leaf: leaf " + std::to_string(i) + " of " +
                            std::to_string(leaves_));
  }
  nodes_[0][i] = value;
  built_ = false;
}

Domain SparseMerkleTree::node(unsigned level, uint64_t i) const {
  const auto& m = nodes_[level];
  const auto it = m.find(i);
  return it == m.end() ? filler_[level] : it->second;
}

void SparseMerkleTree::build(ThreadPool* pool) {
  for (unsigned level = 0; level < arities_.size(); ++level) {
    const uint32_t arity = arities_[level];
    std::vector<uint64_t> parents;
    parents.reserve(nodes_[level].size());
    for (const auto& [i, v] : nodes_[level])
      parents.push_back(i / arity);
    std::sort(parents.begin(), parents.end());
    parents.erase(std::unique(parents.begin(), parents.end()), parents.end());
    std::vector<Domain> hashes(parents.size());
    const auto body = [&](size_t b, size_t e) {
      NodeHasher h(hasher_, arity);
      std::vector<Domain> children(arity);
      for (size_t k = b; k < e; ++k) {
        for (uint32_t j = 0; j < arity; ++j)
          children[j] = node(level, parents[k] * arity + j);
        hashes[k] = h.hash(children);
      }
    };
    if (pool != nullptr && pool->size() > 1 && parents.size() >= 16) {
      pool->parallel_for(parents.size(), body, 4);
    } else {
      body(0, parents.size());
    }
    auto& up = nodes_[level + 1];
    up.clear();
    for (size_t k = 0; k < parents.size(); ++k)
      up[parents[k]] = hashes[k];
  }
  built_ = true;
}

const Domain& SparseMerkleTree::root() const {
  if (!built_) throw std::logic_error("SparseMerkleTree::root: build() was not called");
  const auto& top = nodes_.back();
  const auto it = top.find(0);
  return it == top.end() ? filler_.back() : it->second;
}

MerkleProof SparseMerkleTree::gen_proof(uint64_t i) const {
  if (!built_) throw std::logic_error("SparseMerkleTree::gen_proof: build() was not called");
  if (i >= leaves_) {
    throw std::out_of_range("SparseMerkleTree::gen_proof: leaf " + std::to_string(i) + " of " +
                            std::to_string(leaves_));
  }
  InclusionPath path;
  uint64_t j = i;
  for (unsigned level = 0; level < arities_.size(); ++level) {
    const uint32_t arity = arities_[level];
    PathElement e;
    e.index = j % arity;
    for (uint64_t k = j - e.index; k < j - e.index + arity; ++k)
      if (k != j) e.hashes.push_back(node(level, k));
    path.push_back(std::move(e));
    j /= arity;
  }
  return MerkleProof::from_parts(leaf(i), root(), std::move(path), shape_);
}

}  // namespace cuzk::filecoin
