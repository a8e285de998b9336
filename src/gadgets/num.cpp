#include "gadgets/num.hpp"

#include "gadgets/scope.hpp"

namespace cuzk::gadgets {

namespace {

constexpr Variable kOne = Variable::one();

struct FrValue {
  const std::optional<Fr>& v;
  Fr operator()() const { return require_value(v); }
};

constexpr auto empty_lc = [](LinearCombination&) {};

// AND of all bits in order, as bellpepper's private kary_and (namespaces "and i", i >= 1).
AllocatedBit kary_and(ConstraintSystem& cs, const std::vector<AllocatedBit>& v) {
  AllocatedBit cur = v.at(0);
  for (size_t i = 1; i < v.size(); ++i)
    cur = AllocatedBit::and_(Ns(cs, NameN{"and ", i}), cur, v[i]);
  return cur;
}

// 0 * 0 = sum 2^i bits_le[i] - value
void enforce_unpacking(ConstraintSystem& cs, const std::vector<AllocatedBit>& bits_le,
                       Variable value) {
  cs.enforce(Name{"unpacking constraint"}, empty_lc, empty_lc, [&](LinearCombination& lc) {
    Fr coeff = Fr::one();
    for (const AllocatedBit& bit : bits_le) {
      lc.add(coeff, bit.variable());
      coeff = coeff.dbl();
    }
    lc -= value;
  });
}

}  // namespace

AllocatedNum AllocatedNum::alloc(ConstraintSystem& cs, const std::optional<Fr>& value) {
  return {cs.alloc(Name{"num"}, FrValue{value}), value};
}

AllocatedNum AllocatedNum::alloc_input(ConstraintSystem& cs, const std::optional<Fr>& value) {
  return {cs.alloc_input(Name{"input num"}, FrValue{value}), value};
}

AllocatedNum AllocatedNum::alloc_maybe_input(ConstraintSystem& cs, bool is_input,
                                             const std::optional<Fr>& value) {
  return is_input ? alloc_input(cs, value) : alloc(cs, value);
}

void AllocatedNum::inputize(ConstraintSystem& cs) const {
  const Variable input = cs.alloc_input(Name{"input variable"}, FrValue{value_});
  cs.enforce(
      Name{"enforce input is correct"}, [&](LinearCombination& lc) { lc += input; },
      [](LinearCombination& lc) { lc += kOne; }, [&](LinearCombination& lc) { lc += var_; });
}

std::vector<Boolean> AllocatedNum::to_bits_le(ConstraintSystem& cs) const {
  const std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, value_);
  enforce_unpacking(cs, bits, var_);
  return {bits.begin(), bits.end()};
}

std::vector<Boolean> AllocatedNum::to_bits_le_strict(ConstraintSystem& cs) const {
  // Walk the bits of r - 1 from the top. A run of ones in r - 1 allocates free bits; at the first
  // zero after a run, the run (and the previous run's AND) is AND-ed together: if all those bits
  // of self equal r - 1's, self's bit under this zero must be 0.
  using Int = Fr::Int;
  const Int r_minus_1 = (-Fr::one()).to_canonical();
  std::optional<Int> self;
  if (value_) self = value_->to_canonical();

  std::vector<AllocatedBit> result;  // most significant first
  result.reserve(kFrNumBits);
  std::vector<AllocatedBit> current_run;
  std::optional<AllocatedBit> last_run;
  size_t i = 0;
  bool found_one = false;
  for (size_t pos = 64 * Int::kLimbs; pos-- > 0;) {
    std::optional<bool> a_bit;
    if (self) a_bit = self->bit(pos);
    const bool r_bit = r_minus_1.bit(pos);
    found_one |= r_bit;
    if (!found_one) continue;  // above the modulus' top bit: self has zeros there too
    if (r_bit) {
      const AllocatedBit bit = AllocatedBit::alloc(Ns(cs, NameN{"bit ", i}), a_bit);
      current_run.push_back(bit);
      result.push_back(bit);
    } else {
      if (!current_run.empty()) {
        if (last_run) current_run.push_back(*last_run);
        last_run = kary_and(Ns(cs, NameN{"run ending at ", i}), current_run);
        current_run.clear();
      }
      result.push_back(
          AllocatedBit::alloc_conditionally(Ns(cs, NameN{"bit ", i}), a_bit, *last_run));
    }
    ++i;
  }
  // r - 1 is even, so the walk ends inside a run of zeros.
  const std::vector<AllocatedBit> bits_le(result.rbegin(), result.rend());
  enforce_unpacking(cs, bits_le, var_);
  return {bits_le.begin(), bits_le.end()};
}

AllocatedNum AllocatedNum::mul(ConstraintSystem& cs, const AllocatedNum& other) const {
  std::optional<Fr> value;
  if (value_ && other.value_) value = *value_ * *other.value_;
  const Variable product = cs.alloc(Name{"product num"}, FrValue{value});
  cs.enforce(
      Name{"multiplication constraint"}, [&](LinearCombination& lc) { lc += var_; },
      [&](LinearCombination& lc) { lc += other.var_; },
      [&](LinearCombination& lc) { lc += product; });
  return {product, value};
}

AllocatedNum AllocatedNum::square(ConstraintSystem& cs) const {
  std::optional<Fr> value;
  if (value_) value = value_->sqr();
  const Variable sq = cs.alloc(Name{"squared num"}, FrValue{value});
  cs.enforce(
      Name{"squaring constraint"}, [&](LinearCombination& lc) { lc += var_; },
      [&](LinearCombination& lc) { lc += var_; }, [&](LinearCombination& lc) { lc += sq; });
  return {sq, value};
}

void AllocatedNum::assert_nonzero(ConstraintSystem& cs) const {
  const Variable inv = cs.alloc(Name{"ephemeral inverse"}, [&] {
    const Fr& v = require_value(value_);
    if (v.is_zero())
      throw SynthesisError(SynthesisError::Kind::kDivisionByZero, "zero has no inverse");
    return v.inv();
  });
  cs.enforce(
      Name{"nonzero assertion constraint"}, [&](LinearCombination& lc) { lc += var_; },
      [&](LinearCombination& lc) { lc += inv; }, [](LinearCombination& lc) { lc += kOne; });
}

std::pair<AllocatedNum, AllocatedNum> AllocatedNum::conditionally_reverse(
    ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b, const Boolean& condition) {
  const std::optional<bool> swap = condition.value();
  const auto pick = [&](const AllocatedNum& if_swap, const AllocatedNum& otherwise) {
    return swap ? (*swap ? if_swap.value_ : otherwise.value_) : std::nullopt;
  };

  // (x - y) * condition = x - out
  const auto reversal = [&](const char* name, const AllocatedNum& x, const AllocatedNum& y,
                            const AllocatedNum& out) {
    cs.enforce(
        Name{name},
        [&](LinearCombination& lc) {
          lc += x.var_;
          lc -= y.var_;
        },
        [&](LinearCombination& lc) { condition.add_lc(lc, kOne, Fr::one()); },
        [&](LinearCombination& lc) {
          lc += x.var_;
          lc -= out.var_;
        });
  };
  const AllocatedNum c = alloc(Ns(cs, Name{"conditional reversal result 1"}), pick(b, a));
  reversal("first conditional reversal", a, b, c);
  const AllocatedNum d = alloc(Ns(cs, Name{"conditional reversal result 2"}), pick(a, b));
  reversal("second conditional reversal", b, a, d);
  return {c, d};
}

LinearCombination Num::lc(const Fr& coeff) const {
  LinearCombination out;
  out.add_scaled(coeff, lc_);
  return out;
}

Num& Num::add_bool_with_coeff(Variable one, const Boolean& bit, const Fr& coeff) {
  const std::optional<bool> b = bit.value();
  if (value_ && b) {
    if (*b) *value_ += coeff;
  } else {
    value_.reset();
  }
  bit.add_lc(lc_, one, coeff);
  return *this;
}

Num& Num::add(const Num& other) {
  lc_ += other.lc_;
  if (value_ && other.value_) {
    *value_ += *other.value_;
  } else {
    value_.reset();
  }
  return *this;
}

Num& Num::scale(const Fr& scalar) {
  LinearCombination scaled;
  scaled.add_scaled(scalar, lc_);
  lc_ = std::move(scaled);
  if (value_) *value_ *= scalar;
  return *this;
}

}  // namespace cuzk::gadgets
