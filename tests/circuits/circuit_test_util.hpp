// Shared helpers of the circuit tests: deterministic randomness, allocating numbers, checking a
// ProvingAssignment row by row, and native compound Merkle trees (base / sub / top levels, as
// rust-fil-proofs builds them) with their inclusion paths, the twins of the PoR circuits.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "circuits/por.hpp"
#include "circuits/tree_hash.hpp"
#include "cs/proving_assignment.hpp"
#include "cs/r1cs.hpp"
#include "filecoin/domain.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256.hpp"
#include "gadgets/num.hpp"
#include "gadgets/scope.hpp"

namespace cuzk::circuits::test {

inline std::vector<Fr> random_frs(std::mt19937_64& rng, size_t n) {
  std::vector<Fr> v;
  v.reserve(n);
  for (size_t i = 0; i < n; ++i)
    v.push_back(Fr::random(rng));
  return v;
}

// Allocates each value as "<prefix><i>/num".
inline std::vector<gadgets::AllocatedNum> alloc_nums(ConstraintSystem& cs,
                                                     std::span<const Fr> values,
                                                     const char* prefix) {
  std::vector<gadgets::AllocatedNum> out;
  for (size_t i = 0; i < values.size(); ++i)
    out.push_back(
        gadgets::AllocatedNum::alloc(gadgets::Ns(cs, gadgets::NameN{prefix, i}), values[i]));
  return out;
}

// The prover's view of satisfaction: every row has a * b = c.
inline bool rows_satisfied(const ProvingAssignment& pa) {
  for (size_t i = 0; i < pa.a.size(); ++i) {
    if (pa.a[i] * pa.b[i] != pa.c[i]) return false;
  }
  return true;
}

// One row of a recorded system as "A | B | C", each side its merged terms in variable order:
// "ONE" / "iK" for inputs, "aK" for aux, prefixed by the coefficient unless it is 1 ("-" for -1).
inline std::string row_shape(const R1cs& r1cs, uint32_t row) {
  const auto side = [&](const std::vector<R1csEntry>& entries) {
    LinearCombination lc;
    for (const R1csEntry& e : entries) {
      if (e.row == row) lc.add(e.coeff, e.var);
    }
    const LinearCombination merged = lc.simplify();
    std::string out;
    for (const Term& t : merged.terms()) {
      if (!out.empty()) out += " + ";
      if (t.coeff == -Fr::one()) {
        out += "-";
      } else if (t.coeff != Fr::one()) {
        out += t.coeff.to_hex() + "*";
      }
      out += t.var.is_input()
                 ? (t.var.index == 0 ? std::string("ONE") : "i" + std::to_string(t.var.index))
                 : "a" + std::to_string(t.var.index);
    }
    return out.empty() ? std::string("0") : out;
  };
  return side(r1cs.a) + " | " + side(r1cs.b) + " | " + side(r1cs.c);
}

// The native node hash of a tree hasher.
inline Fr native_node(TreeHasher h, std::span<const Fr> children) {
  if (h == TreeHasher::kPoseidon) {
    return filecoin::poseidon_hash(filecoin::PoseidonConstants::standard(children.size()),
                                   children);
  }
  std::vector<uint8_t> msg;
  for (const Fr& c : children) {
    const filecoin::Domain d = filecoin::fr_to_domain(c);
    msg.insert(msg.end(), d.begin(), d.end());
  }
  return filecoin::domain_to_fr(filecoin::sha256_trunc254(msg));
}

// A compound tree over random leaves: base trees of `leaves_per_base` leaves each, a sub level
// over groups of `sub` base roots, a top level over the sub roots.
class NativeTree {
 public:
  NativeTree(TreeHasher hasher, TreeArity arity, size_t leaves_per_base, std::mt19937_64& rng)
      : NativeTree(hasher, arity, leaves_per_base,
                   random_frs(rng, arity.base_tree_count() * leaves_per_base)) {}
  NativeTree(TreeHasher hasher, TreeArity arity, size_t leaves_per_base, std::vector<Fr> leaves)
      : hasher_(hasher), arity_(arity), per_base_(leaves_per_base), leaves_(std::move(leaves)) {
    const size_t count = arity.base_tree_count();
    for (size_t j = 0; j < count; ++j) {
      std::vector<std::vector<Fr>> rows{
          std::vector<Fr>(leaves_.begin() + static_cast<ptrdiff_t>(j * per_base_),
                          leaves_.begin() + static_cast<ptrdiff_t>((j + 1) * per_base_))};
      while (rows.back().size() > 1)
        rows.push_back(hash_row(rows.back(), arity.base));
      base_.push_back(std::move(rows));
    }
    std::vector<Fr> roots;
    for (const auto& rows : base_)
      roots.push_back(rows.back()[0]);
    if (arity.sub > 0) {
      base_roots_ = roots;
      roots = hash_row(roots, arity.sub);
    }
    if (arity.top > 0) {
      sub_roots_ = roots;
      roots = hash_row(roots, arity.top);
    }
    root_ = roots.at(0);
  }

  size_t leaves() const { return leaves_.size(); }
  const std::vector<Fr>& leaf_values() const { return leaves_; }
  const Fr& leaf(size_t i) const { return leaves_.at(i); }
  const Fr& root() const { return root_; }

  // The path of leaf c, base levels first.
  AuthPath path(size_t c) const {
    std::vector<PathElement> levels;
    const size_t tree = c / per_base_;
    size_t idx = c % per_base_;
    const auto& rows = base_.at(tree);
    for (size_t r = 0; r + 1 < rows.size(); ++r) {
      levels.push_back(level(rows[r], idx, arity_.base));
      idx /= arity_.base;
    }
    if (arity_.sub > 0) levels.push_back(level(base_roots_, tree, arity_.sub));
    if (arity_.top > 0) levels.push_back(level(sub_roots_, tree / arity_.sub, arity_.top));
    return AuthPath(arity_, std::move(levels));
  }

 private:
  std::vector<Fr> hash_row(const std::vector<Fr>& row, size_t arity) const {
    std::vector<Fr> out;
    for (size_t i = 0; i < row.size(); i += arity)
      out.push_back(native_node(hasher_, std::span<const Fr>(row).subspan(i, arity)));
    return out;
  }
  static PathElement level(const std::vector<Fr>& row, size_t idx, size_t arity) {
    PathElement e;
    const size_t start = idx - idx % arity;
    for (size_t k = start; k < start + arity; ++k) {
      if (k != idx) e.hashes.emplace_back(row.at(k));
    }
    e.index = idx % arity;
    return e;
  }

  TreeHasher hasher_;
  TreeArity arity_;
  size_t per_base_;
  std::vector<Fr> leaves_;
  std::vector<std::vector<std::vector<Fr>>> base_;  // per base tree: rows from the leaves up
  std::vector<Fr> base_roots_, sub_roots_;
  Fr root_;
};

}  // namespace cuzk::circuits::test
