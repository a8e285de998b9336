// Field-element gadgets, constraint-for-constraint as bellpepper-core 0.2 `gadgets::num`
// (re-exported by bellperson 0.27): AllocatedNum (a variable with its optional value) and Num (a
// linear combination with its optional value, for packing bits without new variables).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

class AllocatedNum {
 public:
  AllocatedNum() = default;
  AllocatedNum(Variable var, std::optional<Fr> value) : var_(var), value_(value) {}

  Variable variable() const { return var_; }
  const std::optional<Fr>& value() const { return value_; }

  // An aux variable named "num".
  static AllocatedNum alloc(ConstraintSystem& cs, const std::optional<Fr>& value);
  // A public input named "input num".
  static AllocatedNum alloc_input(ConstraintSystem& cs, const std::optional<Fr>& value);
  static AllocatedNum alloc_maybe_input(ConstraintSystem& cs, bool is_input,
                                        const std::optional<Fr>& value);

  // Exposes this value as a new public input: "input variable" and
  // "enforce input is correct": input * 1 = self (1 input, 1 constraint).
  void inputize(ConstraintSystem& cs) const;

  // 255 booleans, least significant first ("bit i" counts from the least significant bit), and
  // "unpacking constraint": 0 * 0 = sum 2^i bit_i - self. Does not exclude the encodings of
  // self + r that fit in 255 bits.
  std::vector<Boolean> to_bits_le(ConstraintSystem& cs) const;
  // The same bits, additionally constrained to encode an integer <= r - 1: bits under a zero of
  // r - 1 are allocated conditionally on the runs of ones above being all set. Here "bit i"
  // counts from the MOST significant bit, as bellpepper names them.
  std::vector<Boolean> to_bits_le_strict(ConstraintSystem& cs) const;

  // "product num", "multiplication constraint": self * other = product.
  AllocatedNum mul(ConstraintSystem& cs, const AllocatedNum& other) const;
  // "squared num", "squaring constraint": self * self = square.
  AllocatedNum square(ConstraintSystem& cs) const;
  // "ephemeral inverse", "nonzero assertion constraint": self * inv = 1. The value callback
  // throws SynthesisError::kDivisionByZero for a zero witness.
  void assert_nonzero(ConstraintSystem& cs) const;

  // (b, a) when condition is true, else (a, b): two "num" variables in namespaces
  // "conditional reversal result 1/2" and "first/second conditional reversal":
  // (a - b) * condition = a - c and (b - a) * condition = b - d.
  static std::pair<AllocatedNum, AllocatedNum> conditionally_reverse(ConstraintSystem& cs,
                                                                     const AllocatedNum& a,
                                                                     const AllocatedNum& b,
                                                                     const Boolean& condition);

 private:
  Variable var_;
  std::optional<Fr> value_;
};

// A linear combination with its value; allocates nothing.
class Num {
 public:
  // Zero, with known value 0.
  Num() : value_(Fr::zero()) {}
  Num(const AllocatedNum& n) : value_(n.value()), lc_(n.variable()) {}  // NOLINT: as Rust's From
  static Num zero() { return Num(); }

  const std::optional<Fr>& value() const { return value_; }
  // coeff * self.
  LinearCombination lc(const Fr& coeff) const;
  const LinearCombination& terms() const { return lc_; }

  // self += coeff * bit.
  Num& add_bool_with_coeff(Variable one, const Boolean& bit, const Fr& coeff);
  // self += other. The value is unknown unless both are known (bellpepper-core after 0.2.1
  // fixed 0.2.1's value-only bug here; constraints never depended on it).
  Num& add(const Num& other);
  // self *= scalar.
  Num& scale(const Fr& scalar);

 private:
  std::optional<Fr> value_;
  LinearCombination lc_;
};

}  // namespace cuzk::gadgets
