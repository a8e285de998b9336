#include "filecoin/merkle/merkle_proof.hpp"

#include <algorithm>
#include <array>

namespace cuzk::filecoin {

namespace {

// One level of a proof together with the arity it must have and its name in messages.
struct Level {
  const PathElement* element;
  uint32_t arity;
  std::string name;
};

std::vector<Level> levels_of(const MerkleProof& p, const TreeShape& shape) {
  std::vector<Level> out;
  const auto add = [&](const InclusionPath& path, uint32_t arity, const char* kind) {
    for (size_t i = 0; i < path.size(); ++i) {
      std::string name = kind;
      if (std::string_view(kind) == "base level") name += " " + std::to_string(i);
      out.push_back({&path[i], arity, name});
    }
  };
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, SingleProof>) {
          add(d.path, shape.base, "base level");
        } else if constexpr (std::is_same_v<T, SubProof>) {
          add(d.base_proof, shape.base, "base level");
          add(d.sub_proof, shape.sub, "sub level");
        } else {
          add(d.base_proof, shape.base, "base level");
          add(d.sub_proof, shape.sub, "sub level");
          add(d.top_proof, shape.top, "top level");
        }
      },
      p.data);
  return out;
}

Domain hash_level(const PathElement& e, const Domain& running, TreeHasher hasher) {
  const size_t arity = e.hashes.size() + 1;
  if (e.index >= arity) {
    throw std::invalid_argument("index " + std::to_string(e.index) + " is out of range for " +
                                std::to_string(arity) + " children");
  }
  std::vector<Domain> children;
  children.reserve(arity);
  children.insert(children.end(), e.hashes.begin(), e.hashes.end());
  children.insert(children.begin() + static_cast<ptrdiff_t>(e.index), running);
  NodeHasher h(hasher, static_cast<uint32_t>(arity));
  return h.hash(children);
}

}  // namespace

const Domain& MerkleProof::leaf() const {
  return std::visit([](const auto& d) -> const Domain& { return d.leaf; }, data);
}

const Domain& MerkleProof::root() const {
  return std::visit([](const auto& d) -> const Domain& { return d.root; }, data);
}

InclusionPath MerkleProof::path() const {
  InclusionPath out;
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, SingleProof>) {
          out = d.path;
        } else {
          out = d.base_proof;
          out.insert(out.end(), d.sub_proof.begin(), d.sub_proof.end());
          if constexpr (std::is_same_v<T, TopProof>)
            out.insert(out.end(), d.top_proof.begin(), d.top_proof.end());
        }
      },
      data);
  return out;
}

size_t MerkleProof::path_length() const {
  return std::visit(
      [](const auto& d) -> size_t {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, SingleProof>) {
          return d.path.size();
        } else if constexpr (std::is_same_v<T, SubProof>) {
          return d.base_proof.size() + d.sub_proof.size();
        } else {
          return d.base_proof.size() + d.sub_proof.size() + d.top_proof.size();
        }
      },
      data);
}

MerkleProof MerkleProof::from_parts(const Domain& leaf, const Domain& root, InclusionPath path,
                                    const TreeShape& shape) {
  const size_t extra = (shape.sub != 0 ? 1 : 0) + (shape.top != 0 ? 1 : 0);
  if (path.size() < extra) {
    throw std::invalid_argument("MerkleProof::from_parts: a path of " +
                                std::to_string(path.size()) + " elements is too short for shape " +
                                shape.to_string());
  }
  if (shape.sub == 0) return MerkleProof{SingleProof{root, leaf, std::move(path)}};
  if (shape.top == 0) {
    InclusionPath sub{path.back()};
    path.pop_back();
    return MerkleProof{SubProof{std::move(path), std::move(sub), root, leaf}};
  }
  InclusionPath top{path.back()};
  path.pop_back();
  InclusionPath sub{path.back()};
  path.pop_back();
  return MerkleProof{TopProof{std::move(path), std::move(sub), std::move(top), root, leaf}};
}

Domain inclusion_path_root(const InclusionPath& path, const Domain& leaf, TreeHasher hasher) {
  Domain running = leaf;
  for (size_t level = 0; level < path.size(); ++level) {
    try {
      running = hash_level(path[level], running, hasher);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("inclusion path level " + std::to_string(level) + ": " +
                                  e.what());
    }
  }
  return running;
}

uint64_t merkle_proof_leaf_index(const MerkleProof& proof) {
  uint64_t index = 0, weight = 1;
  for (const PathElement& e : proof.path()) {
    index += e.index * weight;
    weight *= e.hashes.size() + 1;
  }
  return index;
}

void verify_merkle_proof(const MerkleProof& proof, const MerkleProofCheck& check) {
  const TreeShape& shape = check.shape;
  shape.validate();
  const size_t variant = proof.data.index();
  const size_t expected_variant = shape.sub == 0 ? 0 : (shape.top == 0 ? 1 : 2);
  static constexpr std::array<const char*, 3> kNames = {"Single", "Sub", "Top"};
  if (variant != expected_variant) {
    throw MerkleProofError(0, std::string("Merkle proof: a ") + kNames[variant] +
                                  " proof cannot prove a tree of shape " + shape.to_string() +
                                  " (expected " + kNames[expected_variant] + ")");
  }
  const std::vector<Level> levels = levels_of(proof, shape);
  if (const auto* sub = std::get_if<SubProof>(&proof.data); sub && sub->sub_proof.size() != 1) {
    throw MerkleProofError(levels.size(), "Merkle proof: the sub path has " +
                                              std::to_string(sub->sub_proof.size()) +
                                              " elements, expected 1");
  }
  if (const auto* top = std::get_if<TopProof>(&proof.data);
      top && (top->sub_proof.size() != 1 || top->top_proof.size() != 1)) {
    throw MerkleProofError(levels.size(),
                           "Merkle proof: the sub and top paths must have exactly "
                           "one element each");
  }
  if (check.leaves) {
    const size_t expected = shape.path_length(*check.leaves);
    if (levels.size() != expected) {
      throw MerkleProofError(std::min(levels.size(), expected),
                             "Merkle proof: path of " + std::to_string(levels.size()) +
                                 " elements, a tree of shape " + shape.to_string() + " over " +
                                 std::to_string(*check.leaves) + " leaves needs " +
                                 std::to_string(expected));
    }
  }
  const auto canonical = [&](const Domain& d) {
    return check.hasher != TreeHasher::kPoseidon || is_canonical_fr(d);
  };
  if (!canonical(proof.leaf())) {
    throw MerkleProofError(
        0, "Merkle proof: the leaf " + to_hex(proof.leaf()) + " is not a canonical field element");
  }
  uint64_t remaining_index = check.leaf_index.value_or(0);
  Domain running = proof.leaf();
  for (size_t l = 0; l < levels.size(); ++l) {
    const Level& lv = levels[l];
    const PathElement& e = *lv.element;
    const std::string where =
        "Merkle proof: " + lv.name + " (path element " + std::to_string(l) + ")";
    if (e.hashes.size() + 1 != lv.arity) {
      throw MerkleProofError(l, where + ": " + std::to_string(e.hashes.size()) +
                                    " sibling hashes, arity " + std::to_string(lv.arity) +
                                    " needs " + std::to_string(lv.arity - 1));
    }
    if (e.index >= lv.arity) {
      throw MerkleProofError(l, where + ": index " + std::to_string(e.index) +
                                    " is out of range for arity " + std::to_string(lv.arity));
    }
    if (check.leaf_index) {
      const uint64_t digit = remaining_index % lv.arity;
      remaining_index /= lv.arity;
      if (e.index != digit) {
        throw MerkleProofError(l, where + ": index " + std::to_string(e.index) + ", but leaf " +
                                      std::to_string(*check.leaf_index) + " needs " +
                                      std::to_string(digit));
      }
    }
    for (size_t s = 0; s < e.hashes.size(); ++s) {
      if (!canonical(e.hashes[s])) {
        throw MerkleProofError(l, where + ": sibling " + std::to_string(s) + " (" +
                                      to_hex(e.hashes[s]) + ") is not a canonical field element");
      }
    }
    running = hash_level(e, running, check.hasher);
  }
  if (check.leaf_index && remaining_index != 0) {
    throw MerkleProofError(levels.size(), "Merkle proof: leaf " +
                                              std::to_string(*check.leaf_index) +
                                              " is beyond the leaves the path can address");
  }
  if (running != proof.root()) {
    throw MerkleProofError(levels.size(), "Merkle proof: root level: the path hashes to " +
                                              to_hex(running) + ", the proof claims root " +
                                              to_hex(proof.root()));
  }
  if (check.root && *check.root != proof.root()) {
    throw MerkleProofError(levels.size(), "Merkle proof: root level: the proof's root " +
                                              to_hex(proof.root()) + " is not the expected " +
                                              to_hex(*check.root));
  }
}

bool merkle_proof_is_valid(const MerkleProof& proof, const MerkleProofCheck& check) noexcept {
  try {
    verify_merkle_proof(proof, check);
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace cuzk::filecoin
