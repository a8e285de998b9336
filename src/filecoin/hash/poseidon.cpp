// The optimized permutation, derived from the round-by-round one (facts sheet 3.4):
//
// 1. Constant folding. In a partial round only s[0] passes the S-box, so the constants of
//    s[1..] can be pushed through that round's MDS product and added to the next round's
//    constants instead. Going forward from the first partial round, each partial round keeps one
//    scalar constant (for s[0]) and the remainder lands on the first full round after them.
// 2. Sparse linear layers. Write M = [[m00, v^T], [w, Mhat]]. The matrix P = diag(1, A) commutes
//    with a partial round's S-box and s[0] constant for any A. Since
//        M * diag(1, Mhat^i) = diag(1, Mhat^(i+1)) * [[m00, v^T Mhat^i], [Mhat^-(i+1) w, I]],
//    partial round i can use the sparse right factor (2t - 1 products instead of t^2) while the
//    dense diag(1, Mhat^(i+1)) is deferred; after the last partial round the accumulated
//    diag(1, Mhat^R_P) is applied once, before the folded constants of the next full round.
// The tests check the two implementations against each other on random states and against the
// upstream vectors.
#include "filecoin/hash/poseidon.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::filecoin {

namespace {

constexpr size_t kMaxWidth = PoseidonConstants::kMaxArity + 1;

Fr pow5(const Fr& x) {
  const Fr x2 = x.sqr();
  return x2.sqr() * x;
}

void check_width(const PoseidonConstants& c, size_t size, const char* who) {
  if (size != c.width()) {
    throw std::invalid_argument(std::string(who) + ": state of " + std::to_string(size) +
                                " elements for width " + std::to_string(c.width()));
  }
}

// s <- M s (M symmetric, so row and column conventions agree).
void mds_mul(const PoseidonConstants& c, Fr* s) {
  const size_t t = c.width();
  std::array<Fr, kMaxWidth> out;
  for (size_t i = 0; i < t; ++i) {
    Fr acc = c.mds(i, 0) * s[0];
    for (size_t j = 1; j < t; ++j)
      acc += c.mds(i, j) * s[j];
    out[i] = acc;
  }
  std::copy(out.begin(), out.begin() + static_cast<ptrdiff_t>(t), s);
}

void full_round(const PoseidonConstants& c, Fr* s, const Fr* constants) {
  for (size_t i = 0; i < c.width(); ++i)
    s[i] = pow5(s[i] + constants[i]);
  mds_mul(c, s);
}

Fr hash_impl(const PoseidonConstants& c, const Fr& tag, std::span<const Fr> inputs,
             bool reference) {
  if (inputs.size() > c.arity()) {
    throw std::invalid_argument("Poseidon: " + std::to_string(inputs.size()) +
                                " inputs for arity " + std::to_string(c.arity()));
  }
  std::array<Fr, kMaxWidth> s{};
  s[0] = tag;
  std::copy(inputs.begin(), inputs.end(), s.begin() + 1);
  const std::span<Fr> state(s.data(), c.width());
  if (reference) {
    poseidon_permute_reference(c, state);
  } else {
    poseidon_permute(c, state);
  }
  return s[1];
}

}  // namespace

namespace poseidon_tag {

Fr merkle_tree(size_t arity) {
  return Fr::from_u64(2).pow(arity) - Fr::one();
}

Fr constant_length(uint64_t length) {
  return Fr::from_u64(length) * Fr::from_u64(2).pow(uint64_t{64});
}

Fr custom(uint64_t id) {
  if (id == 0 || id > 256) {
    throw std::invalid_argument("poseidon_tag::custom: id " + std::to_string(id) +
                                " is outside 1..256");
  }
  return Fr::from_u64(id) * Fr::from_u64(uint64_t{1} << 40);
}

}  // namespace poseidon_tag

void poseidon_permute_reference(const PoseidonConstants& c, std::span<Fr> state) {
  check_width(c, state.size(), "poseidon_permute_reference");
  const size_t t = c.width(), half = c.full_rounds() / 2;
  const size_t rounds = c.full_rounds() + c.partial_rounds();
  const Fr* rc = c.round_constants().data();
  for (size_t r = 0; r < rounds; ++r) {
    const bool full = r < half || r >= half + c.partial_rounds();
    for (size_t i = 0; i < t; ++i)
      state[i] += rc[r * t + i];
    if (full) {
      for (size_t i = 0; i < t; ++i)
        state[i] = pow5(state[i]);
    } else {
      state[0] = pow5(state[0]);
    }
    mds_mul(c, state.data());
  }
}

void poseidon_permute(const PoseidonConstants& c, std::span<Fr> state) {
  check_width(c, state.size(), "poseidon_permute");
  const PoseidonConstants::Optimized& o = c.optimized();
  const size_t t = c.width(), n = t - 1, half = c.full_rounds() / 2;
  Fr* s = state.data();
  for (size_t r = 0; r < half; ++r)
    full_round(c, s, &o.full_constants[r * t]);
  for (size_t i = 0; i < c.partial_rounds(); ++i) {
    const Fr s0 = pow5(s[0] + o.partial_constants[i]);
    const Fr* row = &o.sparse_row[i * n];
    const Fr* col = &o.sparse_col[i * n];
    Fr acc = o.m00 * s0;
    for (size_t k = 0; k < n; ++k) {
      acc += row[k] * s[k + 1];
      s[k + 1] += col[k] * s0;
    }
    s[0] = acc;
  }
  if (c.partial_rounds() > 0) {
    std::array<Fr, kMaxWidth> tail;
    for (size_t i = 0; i < n; ++i) {
      Fr acc = o.tail_matrix[i * n] * s[1];
      for (size_t j = 1; j < n; ++j)
        acc += o.tail_matrix[i * n + j] * s[j + 1];
      tail[i] = acc;
    }
    std::copy(tail.begin(), tail.begin() + static_cast<ptrdiff_t>(n), s + 1);
  }
  for (size_t r = half; r < c.full_rounds(); ++r)
    full_round(c, s, &o.full_constants[r * t]);
}

Fr poseidon_hash_with_tag(const PoseidonConstants& c, const Fr& tag, std::span<const Fr> inputs) {
  return hash_impl(c, tag, inputs, false);
}

Fr poseidon_hash_reference_with_tag(const PoseidonConstants& c, const Fr& tag,
                                    std::span<const Fr> inputs) {
  return hash_impl(c, tag, inputs, true);
}

Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> inputs) {
  if (inputs.size() != c.arity()) {
    throw std::invalid_argument("poseidon_hash (MerkleTree): " + std::to_string(inputs.size()) +
                                " inputs for arity " + std::to_string(c.arity()));
  }
  return hash_impl(c, c.merkle_tag(), inputs, false);
}

Domain poseidon_hash(const PoseidonConstants& c, std::span<const Domain> inputs) {
  std::array<Fr, kMaxWidth> v;
  if (inputs.size() > c.arity()) {
    throw std::invalid_argument("poseidon_hash (MerkleTree): " + std::to_string(inputs.size()) +
                                " inputs for arity " + std::to_string(c.arity()));
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    v[i] = domain_to_fr(inputs[i]);
  return fr_to_domain(poseidon_hash(c, std::span<const Fr>(v.data(), inputs.size())));
}

Domain poseidon_hash2(const Domain& a, const Domain& b) {
  const std::array<Domain, 2> in{a, b};
  return poseidon_hash(PoseidonConstants::standard(2), std::span<const Domain>(in));
}

Fr poseidon_hash_constant_length(const PoseidonConstants& c, std::span<const Fr> inputs) {
  return hash_impl(c, poseidon_tag::constant_length(inputs.size()), inputs, false);
}

Fr poseidon_hash_custom(const PoseidonConstants& c, uint64_t id, std::span<const Fr> inputs) {
  return hash_impl(c, poseidon_tag::custom(id), inputs, false);
}

Fr poseidon_hash_md(std::span<const Fr> input) {
  if (input.size() < 2) {
    throw std::invalid_argument("poseidon_hash_md: needs more than one element, got " +
                                std::to_string(input.size()));
  }
  const PoseidonConstants& c = PoseidonConstants::standard(36);
  const size_t chunk = c.arity() - 1;
  Fr acc = input[0];
  std::array<Fr, kMaxWidth> buf;
  for (size_t i = 1; i < input.size(); i += chunk) {
    const size_t take = std::min(chunk, input.size() - i);
    buf[0] = acc;
    std::copy(input.begin() + static_cast<ptrdiff_t>(i),
              input.begin() + static_cast<ptrdiff_t>(i + take), buf.begin() + 1);
    acc = poseidon_hash_with_tag(c, c.merkle_tag(), std::span<const Fr>(buf.data(), take + 1));
  }
  return acc;
}

}  // namespace cuzk::filecoin
