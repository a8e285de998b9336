#include "circuits/constraint.hpp"

#include <optional>

#include "circuits/names.hpp"

namespace cuzk::circuits {

namespace {

constexpr Variable kOne = Variable::one();

constexpr auto one_lc = [](LinearCombination& lc) { lc += kOne; };

}  // namespace

void equal(ConstraintSystem& cs, NameFn annotation, const AllocatedNum& a, const AllocatedNum& b) {
  cs.enforce(
      annotation, [&](LinearCombination& lc) { lc += a.variable(); }, one_lc,
      [&](LinearCombination& lc) { lc += b.variable(); });
}

void sum(ConstraintSystem& cs, NameFn annotation, const AllocatedNum& a, const AllocatedNum& b,
         const AllocatedNum& sum) {
  cs.enforce(
      annotation,
      [&](LinearCombination& lc) {
        lc += a.variable();
        lc += b.variable();
      },
      one_lc, [&](LinearCombination& lc) { lc += sum.variable(); });
}

// (d + b) * 1 = a is the sum constraint of d and b into a: the same rows, term for term.
void difference(ConstraintSystem& cs, NameFn annotation, const AllocatedNum& a,
                const AllocatedNum& b, const AllocatedNum& difference) {
  sum(cs, annotation, difference, b, a);
}

AllocatedNum add(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b) {
  std::optional<Fr> value;
  if (a.value() && b.value()) value = *a.value() + *b.value();
  const AllocatedNum res = AllocatedNum::alloc(Ns(cs, Name{"add_num"}), value);
  sum(cs, Name{"sum constraint"}, a, b, res);
  return res;
}

AllocatedNum sub(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b) {
  std::optional<Fr> value;
  if (a.value() && b.value()) value = *a.value() - *b.value();
  const AllocatedNum res = AllocatedNum::alloc(Ns(cs, Name{"sub_num"}), value);
  difference(cs, Name{"subtraction constraint"}, a, b, res);
  return res;
}

AllocatedNum encode(ConstraintSystem& cs, const AllocatedNum& key, const AllocatedNum& value) {
  return add(Ns(cs, Name{"encode_add"}), key, value);
}

AllocatedNum decode(ConstraintSystem& cs, const AllocatedNum& key, const AllocatedNum& value) {
  return sub(Ns(cs, Name{"decode_sub"}), value, key);
}

}  // namespace cuzk::circuits
