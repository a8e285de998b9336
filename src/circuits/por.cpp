#include "circuits/por.hpp"

#include <bit>
#include <stdexcept>
#include <string>
#include <utility>

#include "circuits/constraint.hpp"
#include "circuits/insertion.hpp"
#include "circuits/names.hpp"
#include "gadgets/multipack.hpp"

namespace cuzk::circuits {

using gadgets::AllocatedBit;
using gadgets::AllocatedNum;

namespace {

void check_level(const PathElement& e, size_t arity) {
  if (e.hashes.size() + 1 != arity) {
    throw std::invalid_argument("AuthPath: a level of arity " + std::to_string(arity) + " has " +
                                std::to_string(e.hashes.size()) + " siblings");
  }
  if (e.index && *e.index >= arity) {
    throw std::invalid_argument("AuthPath: index " + std::to_string(*e.index) +
                                " in a level of arity " + std::to_string(arity));
  }
}

// por.rs `SubPath::synthesize`: hashes up the given levels from `cur`, appending the index bits.
AllocatedNum sub_path(ConstraintSystem& cs, TreeHasher hasher, size_t arity,
                      const std::vector<PathElement>& levels, AllocatedNum cur,
                      std::vector<Boolean>& path_bits) {
  if (arity == 0) return cur;
  const size_t bit_count = static_cast<size_t>(std::countr_zero(arity));
  for (size_t i = 0; i < levels.size(); ++i) {
    const PathElement& level = levels[i];
    Ns<ConstraintSystem> ns(cs, NameN{"merkle tree hash ", i});
    std::vector<Boolean> index_bits;
    index_bits.reserve(bit_count);
    for (size_t j = 0; j < bit_count; ++j) {
      std::optional<bool> bit;
      if (level.index) bit = ((*level.index >> j) & 1) != 0;
      index_bits.emplace_back(AllocatedBit::alloc(Ns(ns.cs(), NameN{"index bit ", j}), bit));
    }
    path_bits.insert(path_bits.end(), index_bits.begin(), index_bits.end());
    std::vector<AllocatedNum> siblings;
    siblings.reserve(level.hashes.size());
    for (size_t j = 0; j < level.hashes.size(); ++j)
      siblings.push_back(
          AllocatedNum::alloc(Ns(ns.cs(), NameN{"path element ", j}), level.hashes[j]));
    const std::vector<AllocatedNum> inserted = insert(ns.cs(), cur, index_bits, siblings);
    cur = hash_multi_leaf_circuit(Ns(ns.cs(), Name{"computation of commitment hash"}), hasher,
                                  inserted);
  }
  return cur;
}

// One level of por_no_challenge_input.
AllocatedNum hash_level(ConstraintSystem& cs, TreeHasher hasher, size_t arity, size_t height,
                        const AllocatedNum& cur, std::span<const AllocatedBit> bits,
                        size_t& next_bit, const std::vector<AllocatedNum>& siblings) {
  if (siblings.size() + 1 != arity) {
    throw std::invalid_argument("por_no_challenge_input: path element has " +
                                std::to_string(siblings.size()) + " siblings for arity " +
                                std::to_string(arity));
  }
  const size_t bit_count = static_cast<size_t>(std::countr_zero(arity));
  if (next_bit + bit_count > bits.size()) {
    throw std::invalid_argument("por_no_challenge_input: not enough challenge bits");
  }
  std::vector<Boolean> index(bits.begin() + static_cast<ptrdiff_t>(next_bit),
                             bits.begin() + static_cast<ptrdiff_t>(next_bit + bit_count));
  next_bit += bit_count;
  const std::vector<AllocatedNum> preimage =
      insert(Ns(cs, NameNS{"merkle proof insert (height=", height, ")"}), cur, index, siblings);
  return hash_multi_leaf_circuit(Ns(cs, NameNS{"merkle proof hash (height=", height, ")"}), hasher,
                                 preimage);
}

}  // namespace

size_t base_path_length(TreeArity arity, size_t leaves) {
  arity.validate();
  const size_t count = arity.base_tree_count();
  if (leaves == 0 || leaves % count != 0) {
    throw std::invalid_argument("base_path_length: " + std::to_string(leaves) +
                                " leaves do not split into " + std::to_string(count) + " trees");
  }
  size_t n = leaves / count, len = 0;
  while (n > 1) {
    if (n % arity.base != 0) {
      throw std::invalid_argument("base_path_length: " + std::to_string(leaves / count) +
                                  " leaves per base tree is not a power of " +
                                  std::to_string(arity.base));
    }
    n /= arity.base;
    ++len;
  }
  return len;
}

AuthPath auth_path_of(const filecoin::MerkleProof& proof, TreeArity arity, uint64_t leaves) {
  const filecoin::InclusionPath elements = proof.path();
  const size_t want =
      base_path_length(arity, leaves) + (arity.sub > 0 ? 1 : 0) + (arity.top > 0 ? 1 : 0);
  if (elements.size() != want) {
    throw std::invalid_argument("has " + std::to_string(elements.size()) +
                                " path elements, the shape needs " + std::to_string(want));
  }
  std::vector<PathElement> levels;
  levels.reserve(elements.size());
  for (const filecoin::PathElement& e : elements) {
    PathElement level;
    level.hashes.reserve(e.hashes.size());
    for (const filecoin::Domain& h : e.hashes) {
      const std::optional<Fr> f = filecoin::try_domain_to_fr(h);
      if (!f) {
        throw std::invalid_argument("has a hash that is not a canonical field element (" +
                                    filecoin::to_hex(h) + ")");
      }
      level.hashes.emplace_back(*f);
    }
    level.index = static_cast<size_t>(e.index);
    levels.push_back(std::move(level));
  }
  try {
    return AuthPath(arity, std::move(levels));
  } catch (const std::invalid_argument& err) {
    throw std::invalid_argument(std::string("has a bad level: ") + err.what());
  }
}

AuthPath::AuthPath(TreeArity arity, std::vector<PathElement> levels) : arity_(arity) {
  arity.validate();
  const size_t extra = (arity.top > 0 ? 1 : 0) + (arity.sub > 0 ? 1 : 0);
  if (levels.size() < extra) throw std::invalid_argument("AuthPath: too few levels");
  const size_t base_len = levels.size() - extra;
  for (size_t i = 0; i < levels.size(); ++i) {
    const size_t a =
        i < base_len ? arity.base : (i == base_len && arity.sub > 0 ? arity.sub : arity.top);
    check_level(levels[i], a);
  }
  if (arity.top > 0) {
    top_.push_back(std::move(levels.back()));
    levels.pop_back();
  }
  if (arity.sub > 0) {
    sub_.push_back(std::move(levels.back()));
    levels.pop_back();
  }
  base_ = std::move(levels);
}

AuthPath AuthPath::blank(TreeArity arity, size_t leaves) {
  const size_t base_len = base_path_length(arity, leaves);
  std::vector<PathElement> levels(
      base_len, PathElement{std::vector<std::optional<Fr>>(arity.base - 1), std::nullopt});
  if (arity.sub > 0)
    levels.push_back({std::vector<std::optional<Fr>>(arity.sub - 1), std::nullopt});
  if (arity.top > 0)
    levels.push_back({std::vector<std::optional<Fr>>(arity.top - 1), std::nullopt});
  return AuthPath(arity, std::move(levels));
}

void por_circuit(ConstraintSystem& cs, TreeHasher hasher, const Root& value, const AuthPath& path,
                 const Root& root, bool private_root) {
  const TreeArity& arity = path.arity();
  const AllocatedNum leaf = value.allocated(Ns(cs, Name{"value"}));
  std::vector<Boolean> path_bits;
  AllocatedNum cur =
      sub_path(Ns(cs, Name{"base"}), hasher, arity.base, path.base(), leaf, path_bits);
  cur = sub_path(Ns(cs, Name{"sub"}), hasher, arity.sub, path.sub(), cur, path_bits);
  const AllocatedNum computed_root =
      sub_path(Ns(cs, Name{"top"}), hasher, arity.top, path.top(), cur, path_bits);

  gadgets::pack_into_inputs(Ns(cs, Name{"path"}), path_bits);
  const AllocatedNum rt = root.allocated(Ns(cs, Name{"root_value"}));
  equal(cs, Name{"enforce root is correct"}, computed_root, rt);
  if (!private_root) rt.inputize(Ns(cs, Name{"root"}));
}

std::vector<Fr> por_public_inputs(uint64_t challenge, const std::optional<Fr>& public_root) {
  std::vector<Fr> inputs{Fr::from_u64(challenge)};
  if (public_root) inputs.push_back(*public_root);
  return inputs;
}

void por_no_challenge_input(ConstraintSystem& cs, TreeHasher hasher, TreeArity arity,
                            std::span<const AllocatedBit> challenge_bits, const AllocatedNum& leaf,
                            std::span<const std::vector<AllocatedNum>> path_values,
                            const AllocatedNum& root) {
  arity.validate();
  const size_t extra = (arity.top > 0 ? 1 : 0) + (arity.sub > 0 ? 1 : 0);
  if (path_values.size() < extra) throw std::invalid_argument("por_no_challenge_input: short path");
  const size_t base_len = path_values.size() - extra;
  AllocatedNum cur = leaf;
  size_t height = 0, next_bit = 0, level = 0;
  for (; level < base_len; ++level, ++height) {
    cur = hash_level(cs, hasher, arity.base, height, cur, challenge_bits, next_bit,
                     path_values[level]);
  }
  if (arity.sub > 0) {
    cur = hash_level(cs, hasher, arity.sub, height++, cur, challenge_bits, next_bit,
                     path_values[level++]);
  }
  if (arity.top > 0) {
    cur = hash_level(cs, hasher, arity.top, height, cur, challenge_bits, next_bit,
                     path_values[level]);
  }
  if (next_bit != challenge_bits.size()) {
    throw std::invalid_argument(
        "por_no_challenge_input: challenge bit-length and tree arity "
        "do not agree");
  }
  equal(cs, Name{"calculated root == provided root"}, cur, root);
}

}  // namespace cuzk::circuits
