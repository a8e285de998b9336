#include "gadgets/boolean.hpp"

#include "gadgets/scope.hpp"

namespace cuzk::gadgets {

namespace {

constexpr Variable kOne = Variable::one();

Fr fr_of(bool b) {
  return b ? Fr::one() : Fr::zero();
}

// The value callback of a bit: asks for the witness only when the system wants a value.
struct BitValue {
  const std::optional<bool>& v;
  Fr operator()() const { return fr_of(require_value(v)); }
};

std::optional<bool> both(std::optional<bool> a, std::optional<bool> b, bool (*op)(bool, bool)) {
  if (!a || !b) return std::nullopt;
  return op(*a, *b);
}

bool is_const(const Boolean& x, bool c) {
  return x.is_constant() && x.constant_value() == c;
}

}  // namespace

AllocatedBit AllocatedBit::alloc(ConstraintSystem& cs, std::optional<bool> value) {
  const Variable var = cs.alloc(Name{"boolean"}, BitValue{value});
  // (1 - a) * a = 0
  cs.enforce(
      Name{"boolean constraint"},
      [&](LinearCombination& lc) {
        lc += kOne;
        lc -= var;
      },
      [&](LinearCombination& lc) { lc += var; }, [](LinearCombination&) {});
  return {var, value};
}

AllocatedBit AllocatedBit::alloc_conditionally(ConstraintSystem& cs, std::optional<bool> value,
                                               const AllocatedBit& must_be_false) {
  const Variable var = cs.alloc(Name{"boolean"}, BitValue{value});
  // (1 - must_be_false - a) * a = 0
  cs.enforce(
      Name{"boolean constraint"},
      [&](LinearCombination& lc) {
        lc += kOne;
        lc -= must_be_false.var_;
        lc -= var;
      },
      [&](LinearCombination& lc) { lc += var; }, [](LinearCombination&) {});
  return {var, value};
}

AllocatedBit AllocatedBit::xor_(ConstraintSystem& cs, const AllocatedBit& a,
                                const AllocatedBit& b) {
  const auto value = both(a.value_, b.value_, [](bool x, bool y) { return x != y; });
  const Variable c = cs.alloc(Name{"xor result"}, BitValue{value});
  // 2a * b = a + b - c: with a, b boolean, c is forced to a + b - 2ab = a XOR b.
  cs.enforce(
      Name{"xor constraint"},
      [&](LinearCombination& lc) {
        lc += a.var_;
        lc += a.var_;
      },
      [&](LinearCombination& lc) { lc += b.var_; },
      [&](LinearCombination& lc) {
        lc += a.var_;
        lc += b.var_;
        lc -= c;
      });
  return {c, value};
}

AllocatedBit AllocatedBit::and_(ConstraintSystem& cs, const AllocatedBit& a,
                                const AllocatedBit& b) {
  const auto value = both(a.value_, b.value_, [](bool x, bool y) { return x && y; });
  const Variable c = cs.alloc(Name{"and result"}, BitValue{value});
  cs.enforce(
      Name{"and constraint"}, [&](LinearCombination& lc) { lc += a.var_; },
      [&](LinearCombination& lc) { lc += b.var_; }, [&](LinearCombination& lc) { lc += c; });
  return {c, value};
}

AllocatedBit AllocatedBit::and_not(ConstraintSystem& cs, const AllocatedBit& a,
                                   const AllocatedBit& b) {
  const auto value = both(a.value_, b.value_, [](bool x, bool y) { return x && !y; });
  const Variable c = cs.alloc(Name{"and not result"}, BitValue{value});
  cs.enforce(
      Name{"and not constraint"}, [&](LinearCombination& lc) { lc += a.var_; },
      [&](LinearCombination& lc) {
        lc += kOne;
        lc -= b.var_;
      },
      [&](LinearCombination& lc) { lc += c; });
  return {c, value};
}

// Each gadget here writes its own constraints as bellpepper's does, under its names; their
// linear combinations read alike (1 - a - ...) without being one constraint.
AllocatedBit AllocatedBit::nor(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const auto value = both(a.value_, b.value_, [](bool x, bool y) { return !x && !y; });
  const Variable c = cs.alloc(Name{"nor result"}, BitValue{value});
  cs.enforce(
      Name{"nor constraint"},
      [&](LinearCombination& lc) {
        lc += kOne;
        lc -= a.var_;
      },
      [&](LinearCombination& lc) {
        lc += kOne;
        lc -= b.var_;
      },
      [&](LinearCombination& lc) { lc += c; });
  return {c, value};
}

std::optional<bool> Boolean::value() const {
  switch (kind_) {
    case Kind::kConstant:
      return constant_;
    case Kind::kIs:
      return bit_.value();
    case Kind::kNot:
      break;
  }
  const auto v = bit_.value();
  if (!v) return std::nullopt;
  return !*v;
}

void Boolean::add_lc(LinearCombination& out, Variable one, const Fr& coeff) const {
  switch (kind_) {
    case Kind::kConstant:
      if (constant_) out.add(coeff, one);
      return;
    case Kind::kIs:
      out.add(coeff, bit_.variable());
      return;
    case Kind::kNot:
      out.add(coeff, one);
      out.add(-coeff, bit_.variable());
      return;
  }
}

LinearCombination Boolean::lc(Variable one, const Fr& coeff) const {
  LinearCombination out;
  add_lc(out, one, coeff);
  return out;
}

Boolean Boolean::not_() const {
  switch (kind_) {
    case Kind::kConstant:
      return constant(!constant_);
    case Kind::kIs:
      return negation_of(bit_);
    case Kind::kNot:
      break;
  }
  return is(bit_);
}

Boolean Boolean::xor_(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  // The case order is bellpepper's match order; it decides which operand's variable is doubled.
  if (is_const(a, false)) return b;
  if (is_const(b, false)) return a;
  if (is_const(a, true)) return b.not_();
  if (is_const(b, true)) return a.not_();
  // a XOR (NOT b) = NOT(a XOR b), with the Is operand first.
  if (a.kind_ == Kind::kIs && b.kind_ == Kind::kNot) return xor_(cs, a, b.not_()).not_();
  if (a.kind_ == Kind::kNot && b.kind_ == Kind::kIs) return xor_(cs, b, a.not_()).not_();
  // Is/Is, or Not/Not: (NOT a) XOR (NOT b) = a XOR b.
  return AllocatedBit::xor_(cs, a.bit_, b.bit_);
}

Boolean Boolean::and_(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (is_const(a, false) || is_const(b, false)) return constant(false);
  if (is_const(a, true)) return b;
  if (is_const(b, true)) return a;
  if (a.kind_ == Kind::kIs && b.kind_ == Kind::kNot)
    return AllocatedBit::and_not(cs, a.bit_, b.bit_);
  if (a.kind_ == Kind::kNot && b.kind_ == Kind::kIs)
    return AllocatedBit::and_not(cs, b.bit_, a.bit_);
  if (a.kind_ == Kind::kNot && b.kind_ == Kind::kNot) return AllocatedBit::nor(cs, a.bit_, b.bit_);
  return AllocatedBit::and_(cs, a.bit_, b.bit_);
}

void Boolean::enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant() && b.is_constant()) {
    if (a.constant_ != b.constant_) {
      throw SynthesisError(SynthesisError::Kind::kUnsatisfiable, "unequal boolean constants");
    }
    return;
  }
  const auto empty = [](LinearCombination&) {};
  if (is_const(a, true) || is_const(b, true)) {
    const Boolean& x = is_const(a, true) ? b : a;
    cs.enforce(Name{"enforce equal to one"}, empty, empty, [&](LinearCombination& lc) {
      lc += kOne;
      x.add_lc(lc, kOne, -Fr::one());
    });
    return;
  }
  if (is_const(a, false) || is_const(b, false)) {
    const Boolean& x = is_const(a, false) ? b : a;
    cs.enforce(Name{"enforce equal to zero"}, empty, empty,
               [&](LinearCombination& lc) { x.add_lc(lc, kOne, Fr::one()); });
    return;
  }
  cs.enforce(Name{"enforce equal"}, empty, empty, [&](LinearCombination& lc) {
    a.add_lc(lc, kOne, Fr::one());
    b.add_lc(lc, kOne, -Fr::one());
  });
}

Boolean Boolean::sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                           const Boolean& c) {
  std::optional<bool> value;
  if (a.value() && b.value() && c.value()) {
    const bool x = *a.value(), y = *b.value(), z = *c.value();
    value = (x && y) != (!x && z);
  }
  // Shortcuts in bellpepper's match order.
  if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(*value);
  if (is_const(a, false)) return c;                                   // ch = c
  if (is_const(b, false)) return and_(cs, a.not_(), c);               // ch = !a & c
  if (is_const(c, false)) return and_(cs, a, b);                      // ch = a & b
  if (is_const(c, true)) return and_(cs, a, b.not_()).not_();         // ch = !(a & !b)
  if (is_const(b, true)) return and_(cs, a.not_(), c.not_()).not_();  // ch = !(!a & !c)
  // a constant true (ch = b xor (!a & c)) or nothing constant: the general gadget.

  const Variable ch = cs.alloc(Name{"ch"}, BitValue{value});
  // a * (b - c) = ch - c
  cs.enforce(
      Name{"ch computation"},
      [&](LinearCombination& lc) {
        b.add_lc(lc, kOne, Fr::one());
        c.add_lc(lc, kOne, -Fr::one());
      },
      [&](LinearCombination& lc) { a.add_lc(lc, kOne, Fr::one()); },
      [&](LinearCombination& lc) {
        lc += ch;
        c.add_lc(lc, kOne, -Fr::one());
      });
  return AllocatedBit(ch, value);
}

Boolean Boolean::sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                            const Boolean& c) {
  std::optional<bool> value;
  if (a.value() && b.value() && c.value()) {
    const bool x = *a.value(), y = *b.value(), z = *c.value();
    value = ((x && y) != (x && z)) != (y && z);
  }
  if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(*value);
  if (is_const(a, false)) return and_(cs, b, c);
  if (is_const(b, false)) return and_(cs, a, c);
  if (is_const(c, false)) return and_(cs, a, b);
  if (is_const(c, true)) return and_(cs, a.not_(), b.not_()).not_();
  if (is_const(b, true)) return and_(cs, a.not_(), c.not_()).not_();
  if (is_const(a, true)) return and_(cs, b.not_(), c.not_()).not_();

  const Variable maj = cs.alloc(Name{"maj"}, BitValue{value});
  // maj = ab + ac + bc - 2abc = a(b + c - 2bc) + bc, with bc = b AND c allocated first.
  const Boolean bc = and_(Ns(cs, Name{"b and c"}), b, c);
  cs.enforce(
      Name{"maj computation"},
      [&](LinearCombination& lc) {
        bc.add_lc(lc, kOne, Fr::one());
        bc.add_lc(lc, kOne, Fr::one());
        b.add_lc(lc, kOne, -Fr::one());
        c.add_lc(lc, kOne, -Fr::one());
      },
      [&](LinearCombination& lc) { a.add_lc(lc, kOne, Fr::one()); },
      [&](LinearCombination& lc) {
        bc.add_lc(lc, kOne, Fr::one());
        lc -= maj;
      });
  return AllocatedBit(maj, value);
}

std::vector<Boolean> u64_into_boolean_vec_le(ConstraintSystem& cs, std::optional<uint64_t> value,
                                             const char* prefix) {
  std::vector<Boolean> bits;
  bits.reserve(64);
  for (size_t i = 0; i < 64; ++i) {
    std::optional<bool> b;
    if (value) b = ((*value >> i) & 1) != 0;
    bits.emplace_back(AllocatedBit::alloc(Ns(cs, NameN{prefix, i}), b));
  }
  return bits;
}

std::vector<AllocatedBit> field_into_allocated_bits_le(ConstraintSystem& cs,
                                                       const std::optional<Fr>& value) {
  std::optional<BigInt<4>> canonical;
  if (value) canonical = value->to_canonical();
  std::vector<AllocatedBit> bits;
  bits.reserve(kFrNumBits);
  for (size_t i = 0; i < kFrNumBits; ++i) {
    std::optional<bool> b;
    if (canonical) b = canonical->bit(i);
    bits.push_back(AllocatedBit::alloc(Ns(cs, NameN{"bit ", i}), b));
  }
  return bits;
}

std::vector<Boolean> field_into_boolean_vec_le(ConstraintSystem& cs,
                                               const std::optional<Fr>& value) {
  const std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, value);
  return {bits.begin(), bits.end()};
}

}  // namespace cuzk::gadgets
