#include "circuits/poseidon_circuit.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "circuits/names.hpp"

namespace cuzk::circuits {

namespace {

constexpr Variable kOne = Variable::one();

// Variables in bellpepper's index order: inputs first, then aux, each by index.
bool var_less(const Variable& a, const Variable& b) {
  if (a.is_input() != b.is_input()) return a.is_input();
  return a.index < b.index;
}

// neptune circuit.rs `Elt`: an allocated number, or a linear combination with its value. The
// combination is kept merged and sorted by variable, the form bellpepper's LinearCombination has
// (zero sums included), so constraints carry one term per variable; appending unmerged terms
// would give the same R1CS but terms growing with t per partial round.
struct Elt {
  std::optional<AllocatedNum> alloc;
  std::vector<Term> terms;
  std::optional<Fr> value = Fr::zero();  // of the combination (Num::zero() is known)

  static Elt allocated(const AllocatedNum& n) { return Elt{n, {}, std::nullopt}; }
  // `Elt::num_from_fr`: Num::zero() + coeff * ONE (the term stays even for a zero constant).
  static Elt constant(const Fr& c) { return Elt{std::nullopt, {{kOne, c}}, c}; }

  const std::optional<Fr>& val() const { return alloc ? alloc->value() : value; }
};

// acc += s * e, acc a combination (`acc.add(e.scale(s))`), merging by variable; only the value
// without `terms` (a system that never reads the combinations: witness-only synthesis, and
// counting without densities, 1.82 -> 0.056 us per constraint of a blank 32 GiB WindowPoSt
// circuit, perf-log).
void add_scaled(Elt& acc, const Elt& e, const Fr& s, std::vector<Term>& scratch, bool terms) {
  const std::optional<Fr>& ev = e.val();
  if (acc.value && ev) {
    *acc.value += s * *ev;
  } else {
    acc.value.reset();
  }
  if (!terms) return;
  const Term single{e.alloc ? e.alloc->variable() : kOne, Fr::one()};
  const std::span<const Term> add =
      e.alloc ? std::span<const Term>(&single, 1) : std::span<const Term>(e.terms);
  // In place where the merge is trivial: the linear layers mostly add a combination over the
  // same variables, or one newer variable (S-box outputs are allocated in increasing order).
  if (acc.terms.empty()) {
    acc.terms.reserve(add.size());
    for (const Term& t : add)
      acc.terms.push_back({t.var, t.coeff * s});
    return;
  }
  if (add.size() == 1 && var_less(acc.terms.back().var, add[0].var)) {
    acc.terms.push_back({add[0].var, add[0].coeff * s});
    return;
  }
  if (add.size() == acc.terms.size() &&
      std::equal(add.begin(), add.end(), acc.terms.begin(),
                 [](const Term& a, const Term& b) { return a.var == b.var; })) {
    for (size_t k = 0; k < add.size(); ++k)
      acc.terms[k].coeff += add[k].coeff * s;
    return;
  }
  scratch.clear();
  scratch.reserve(acc.terms.size() + add.size());
  size_t i = 0, j = 0;
  while (i < acc.terms.size() || j < add.size()) {
    const bool take_acc =
        j == add.size() || (i < acc.terms.size() && var_less(acc.terms[i].var, add[j].var));
    if (take_acc) {
      scratch.push_back(acc.terms[i++]);
      continue;
    }
    Term t{add[j].var, add[j].coeff * s};
    if (i < acc.terms.size() && acc.terms[i].var == t.var) t.coeff += acc.terms[i++].coeff;
    scratch.push_back(t);
    ++j;
  }
  acc.terms.swap(scratch);
}

void append_terms(LinearCombination& lc, const std::vector<Term>& terms) {
  for (const Term& t : terms)
    lc.add(t.coeff, t.var);
}

// `Elt::ensure_allocated(.., enforce = true)`.
AllocatedNum ensure_allocated(ConstraintSystem& cs, const Elt& e) {
  if (e.alloc) return *e.alloc;
  const AllocatedNum v = AllocatedNum::alloc(Ns(cs, Name{"allocate for Elt::Num"}), e.value);
  cs.enforce(
      Name{"enforce num allocation preserves lc"},
      [&](LinearCombination& lc) { append_terms(lc, e.terms); },
      [](LinearCombination& lc) { lc += kOne; },
      [&](LinearCombination& lc) { lc += v.variable(); });
  return v;
}

// circuit.rs `square_sum`: (num + to_add)^2, one constraint.
AllocatedNum square_sum(ConstraintSystem& cs, const Fr& to_add, const AllocatedNum& num) {
  std::optional<Fr> value;
  if (num.value()) value = (*num.value() + to_add).sqr();
  const AllocatedNum res = AllocatedNum::alloc(Ns(cs, Name{"squared sum"}), value);
  const auto sum = [&](LinearCombination& lc) {
    lc += num.variable();
    lc.add(to_add, kOne);
  };
  cs.enforce(Name{"squared sum constraint"}, sum, sum,
             [&](LinearCombination& lc) { lc += res.variable(); });
  return res;
}

// circuit.rs `mul_sum`: a * (b + pre) + post, one constraint (b + pre) * a = res - post, named
// after which of pre/post are present.
AllocatedNum mul_sum(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b,
                     const std::optional<Fr>& pre, const std::optional<Fr>& post) {
  std::optional<Fr> value;
  if (a.value() && b.value()) {
    Fr tmp = *b.value();
    if (pre) tmp += *pre;
    tmp *= *a.value();
    if (post) tmp += *post;
    value = tmp;
  }
  const AllocatedNum res = AllocatedNum::alloc(Ns(cs, Name{"mul_sum"}), value);
  const char* name = post
                         ? (pre ? "mul sum constraint pre-post-add" : "mul sum constraint post-add")
                         : (pre ? "mul sum constraint pre-add" : "mul sum constraint");
  cs.enforce(
      Name{name},
      [&](LinearCombination& lc) {
        lc += b.variable();
        if (pre) lc.add(*pre, kOne);
      },
      [&](LinearCombination& lc) { lc += a.variable(); },
      [&](LinearCombination& lc) {
        lc += res.variable();
        if (post) lc.add(-*post, kOne);
      });
  return res;
}

// circuit.rs `quintic_s_box`: l = allocated input, l^2, l^4, l^5 + post.
AllocatedNum quintic_s_box(ConstraintSystem& cs, const Elt& e, const std::optional<Fr>& post) {
  const AllocatedNum l = ensure_allocated(Ns(cs, Name{"S-box input"}), e);
  const AllocatedNum l2 = l.square(Ns(cs, Name{"l^2"}));
  const AllocatedNum l4 = l2.square(Ns(cs, Name{"l^4"}));
  return mul_sum(Ns(cs, Name{"(l4 * l) + rk)"}), l4, l, std::nullopt, post);
}

// circuit.rs `quintic_s_box_pre_add` (first round): (l + pre)^2, ^4, (l + pre)^5 + post.
AllocatedNum quintic_s_box_pre_add(ConstraintSystem& cs, const Elt& e, const Fr& pre,
                                   const Fr& post) {
  const AllocatedNum l = ensure_allocated(Ns(cs, Name{"S-box input"}), e);
  const AllocatedNum l2 = square_sum(Ns(cs, Name{"(l+rk)^2"}), pre, l);
  const AllocatedNum l4 = l2.square(Ns(cs, Name{"l^4"}));
  return mul_sum(Ns(cs, Name{"l4 * (l + rk)"}), l4, l, pre, post);
}

Fr pow5(const Fr& x) {
  return x.sqr().sqr() * x;
}

// circuit.rs `PoseidonCircuit`.
class PoseidonCircuit {
 public:
  PoseidonCircuit(const PoseidonCircuitConstants& c, std::vector<Elt> elements)
      : c_(c), t_(c.width()), elements_(std::move(elements)) {}

  AllocatedNum hash(ConstraintSystem& cs) {
    terms_ = cs.wants_linear_combinations();
    const size_t half = c_.half_full_rounds();
    full_round(Ns(cs, Name{"first round"}), true, false);
    for (size_t i = 1; i < half; ++i)
      full_round(Ns(cs, NameN{"initial full round ", i}), false, false);
    for (size_t i = 0; i < c_.partial_rounds(); ++i)
      partial_round(Ns(cs, NameN{"partial round ", i}));
    for (size_t i = 0; i + 1 < half; ++i)
      full_round(Ns(cs, NameN{"final full round ", i}), false, false);
    full_round(Ns(cs, Name{"terminal full round"}), false, true);
    return ensure_allocated(Ns(cs, Name{"hash result"}), elements_[1]);
  }

 private:
  void full_round(ConstraintSystem& cs, bool first, bool last) {
    const std::vector<Fr>& crc = c_.compressed_round_constants();
    size_t offset = offset_;
    const Fr* pre = nullptr;
    const Fr* post = nullptr;
    if (first) {
      pre = crc.data() + offset;
      offset += t_;
    }
    if (first || !last) {
      post = crc.data() + offset;
      offset += t_;
    }
    if (offset > crc.size()) throw std::logic_error("Poseidon circuit: out of round constants");
    for (size_t i = 0; i < t_; ++i) {
      if (first && i == 0) {
        // The tag is a constant: its first S-box is computed natively.
        const Fr tag = *elements_[0].val();
        elements_[0] = Elt::constant(pow5(tag + pre[0]) + post[0]);
      } else if (first) {
        elements_[i] = Elt::allocated(quintic_s_box_pre_add(Ns(cs, NameN{"quintic s-box ", i}),
                                                            elements_[i], pre[i], post[i]));
      } else {
        const std::optional<Fr> rk = post ? std::optional<Fr>(post[i]) : std::nullopt;
        elements_[i] =
            Elt::allocated(quintic_s_box(Ns(cs, NameN{"quintic s-box ", i}), elements_[i], rk));
      }
    }
    offset_ = offset;
    product_mds();
  }

  void partial_round(ConstraintSystem& cs) {
    const Fr rk = c_.compressed_round_constants().at(offset_++);
    elements_[0] =
        Elt::allocated(quintic_s_box(Ns(cs, Name{"solitary quintic s-box"}), elements_[0], rk));
    product_mds();
  }

  // Round half-1 uses the pre-sparse matrix, the partial rounds their sparse matrices, the
  // other rounds M.
  void product_mds() {
    const size_t sparse_offset = c_.half_full_rounds() - 1;
    if (round_ == sparse_offset) {
      product_dense([&](size_t i, size_t j) -> const Fr& { return c_.pre_sparse(i, j); });
    } else if (round_ > sparse_offset && round_ < c_.half_full_rounds() + c_.partial_rounds()) {
      product_sparse(c_.sparse(round_ - sparse_offset - 1));
    } else {
      product_dense([&](size_t i, size_t j) -> const Fr& { return c_.mds(i, j); });
    }
    ++round_;
  }

  // result[j] = sum_i elements[i] * m(i, j) (`product_mds_with_matrix`).
  template <class M>
  void product_dense(M m) {
    std::vector<Elt> result(t_);
    for (size_t j = 0; j < t_; ++j)
      for (size_t i = 0; i < t_; ++i)
        add_scaled(result[j], elements_[i], m(i, j), scratch_, terms_);
    elements_ = std::move(result);
  }

  // result[0] = sum_i elements[i] * w_hat[i]; result[j] = elements[j] + v_rest[j-1] * elements[0]
  // (`product_mds_with_sparse_matrix`).
  void product_sparse(const PoseidonSparseMatrix& s) {
    // Summed from the last element down: elements 1.. share their variables and element 0 is the
    // newest S-box output, so every step merges in place (the sum is the same in any order).
    Elt first;
    for (size_t i = t_; i-- > 0;)
      add_scaled(first, elements_[i], s.w_hat[i], scratch_, terms_);
    for (size_t j = 1; j < t_; ++j) {
      if (elements_[j].alloc)
        throw std::logic_error("Poseidon circuit: sparse round on a variable");
      add_scaled(elements_[j], elements_[0], s.v_rest[j - 1], scratch_, terms_);
    }
    elements_[0] = std::move(first);
  }

  const PoseidonCircuitConstants& c_;
  size_t t_;
  std::vector<Elt> elements_;
  size_t offset_ = 0;
  size_t round_ = 0;
  std::vector<Term> scratch_;
  bool terms_ = true;  // build the combinations (the system reads them)
};

}  // namespace

AllocatedNum poseidon_hash_circuit(ConstraintSystem& cs, std::span<const AllocatedNum> preimage,
                                   const PoseidonCircuitConstants& constants,
                                   const Fr& domain_tag) {
  if (preimage.size() != constants.arity()) {
    throw std::invalid_argument("poseidon_hash_circuit: " + std::to_string(preimage.size()) +
                                " inputs for arity " + std::to_string(constants.arity()));
  }
  std::vector<Elt> elements;
  elements.reserve(constants.width());
  elements.push_back(Elt::constant(domain_tag));
  for (const AllocatedNum& n : preimage)
    elements.push_back(Elt::allocated(n));
  return PoseidonCircuit(constants, std::move(elements)).hash(cs);
}

AllocatedNum poseidon_hash_circuit(ConstraintSystem& cs, std::span<const AllocatedNum> preimage) {
  const PoseidonCircuitConstants& c = PoseidonCircuitConstants::standard(preimage.size());
  return poseidon_hash_circuit(cs, preimage, c, c.base().merkle_tag());
}

AllocatedNum poseidon_hash2_circuit(ConstraintSystem& cs, const AllocatedNum& a,
                                    const AllocatedNum& b) {
  const AllocatedNum preimage[2] = {a, b};
  return poseidon_hash_circuit(cs, preimage);
}

AllocatedNum poseidon_hash_md_circuit(ConstraintSystem& cs,
                                      std::span<const AllocatedNum> elements) {
  if (elements.size() < 2) {
    throw std::invalid_argument("poseidon_hash_md_circuit: needs more than one element");
  }
  constexpr size_t kArity = 36;
  const PoseidonCircuitConstants& c = PoseidonCircuitConstants::standard(kArity);
  AllocatedNum hash = elements[0];
  std::vector<AllocatedNum> preimage(kArity, hash);
  size_t hash_num = 0;
  for (size_t start = 1; start < elements.size(); start += kArity - 1, ++hash_num) {
    const size_t take = std::min(kArity - 1, elements.size() - start);
    preimage[0] = hash;
    for (size_t i = 0; i < take; ++i)
      preimage[i + 1] = elements[start + i];
    for (size_t i = take + 1; i < kArity; ++i)
      preimage[i] = AllocatedNum::alloc(Ns(cs, NameN{"padding ", i}), Fr::zero());
    hash = poseidon_hash_circuit(Ns(cs, NameN{"hash md ", hash_num}), preimage, c,
                                 c.base().merkle_tag());
  }
  return hash;
}

size_t poseidon_circuit_constraints(const filecoin::PoseidonConstants& constants) {
  const size_t rounds = constants.width() * constants.full_rounds() + constants.partial_rounds();
  return 3 * (rounds - 1) + (rounds - constants.arity());
}

}  // namespace cuzk::circuits
