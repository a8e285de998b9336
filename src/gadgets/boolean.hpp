// Boolean gadgets, constraint-for-constraint as bellpepper-core 0.2 `gadgets::boolean` (which
// bellperson 0.27 re-exports): the same allocations, constraints, names and order, so circuits
// built from them match Filecoin's parameters.
//
// Values are optional: std::nullopt during parameter generation (no witness). A missing value is
// only an error when a constraint system asks for it (the value callbacks throw
// SynthesisError::kAssignmentMissing through require_value), as bellpepper's closures do.
//
// C++ reserves `and`, `xor` and `not` as alternative tokens, so those operations are spelled
// and_, xor_ and not_.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cs/constraint_system.hpp"

namespace cuzk::gadgets {

// Fr::NUM_BITS and Fr::CAPACITY in the Rust `ff` traits.
inline constexpr size_t kFrNumBits = Fr::kBits;       // 255
inline constexpr size_t kFrCapacity = Fr::kBits - 1;  // 254

// A variable constrained to be 0 or 1.
class AllocatedBit {
 public:
  AllocatedBit() = default;
  AllocatedBit(Variable var, std::optional<bool> value) : var_(var), value_(value) {}

  Variable variable() const { return var_; }
  std::optional<bool> value() const { return value_; }

  // Allocates "boolean" and enforces "boolean constraint": (1 - a) * a = 0.
  static AllocatedBit alloc(ConstraintSystem& cs, std::optional<bool> value);
  // Allocates "boolean" and enforces "boolean constraint": (1 - must_be_false - a) * a = 0,
  // so a is boolean, and 0 whenever must_be_false is 1.
  static AllocatedBit alloc_conditionally(ConstraintSystem& cs, std::optional<bool> value,
                                          const AllocatedBit& must_be_false);

  // One variable and one constraint each:
  //   xor:     "xor result",     (a + a) * b = a + b - c
  //   and:     "and result",     a * b = c
  //   and_not: "and not result", a * (1 - b) = c
  //   nor:     "nor result",     (1 - a) * (1 - b) = c
  static AllocatedBit xor_(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  static AllocatedBit and_(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  static AllocatedBit and_not(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  static AllocatedBit nor(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);

 private:
  Variable var_;
  std::optional<bool> value_;
};

// A boolean that is an allocated bit, its negation, or a constant. Negation and operations with
// constants are free: they allocate nothing and add no constraint.
class Boolean {
 public:
  enum class Kind : uint8_t { kIs, kNot, kConstant };

  Boolean() = default;                                               // Constant(false)
  Boolean(const AllocatedBit& bit) : kind_(Kind::kIs), bit_(bit) {}  // NOLINT: as Rust's From
  static Boolean constant(bool b) { return Boolean(Kind::kConstant, {}, b); }
  static Boolean is(const AllocatedBit& bit) { return Boolean(Kind::kIs, bit, false); }
  static Boolean negation_of(const AllocatedBit& bit) { return Boolean(Kind::kNot, bit, false); }

  Kind kind() const { return kind_; }
  bool is_constant() const { return kind_ == Kind::kConstant; }
  // The underlying bit (kIs / kNot only).
  const AllocatedBit& bit() const { return bit_; }
  // The constant (kConstant only).
  bool constant_value() const { return constant_; }

  std::optional<bool> value() const;

  // coeff * self as a combination: Constant(true) -> coeff * one, Constant(false) -> empty,
  // Is(v) -> coeff * v, Not(v) -> coeff * one - coeff * v.
  LinearCombination lc(Variable one, const Fr& coeff) const;
  // Appends the same terms to `out`.
  void add_lc(LinearCombination& out, Variable one, const Fr& coeff) const;

  Boolean not_() const;

  // Constants fold; Is/Not mixes become NOT(is XOR inner(not)); otherwise one AllocatedBit::xor_.
  static Boolean xor_(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  // Constants fold; Is & Not -> and_not(is, not), Not & Not -> nor, Is & Is -> and_.
  static Boolean and_(ConstraintSystem& cs, const Boolean& a, const Boolean& b);

  // Two constants: nothing, or SynthesisError::kUnsatisfiable when they differ. One constant:
  // "enforce equal to one" 0 * 0 = 1 - x, or "enforce equal to zero" 0 * 0 = x. Otherwise
  // "enforce equal" 0 * 0 = a - b.
  static void enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b);

  // (a and b) xor ((not a) and c), with bellpepper's constant shortcuts; in general one "ch"
  // variable and "ch computation": (b - c) * a = ch - c.
  static Boolean sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                           const Boolean& c);
  // (a and b) xor (a and c) xor (b and c), with bellpepper's constant shortcuts; in general a
  // "maj" variable, bc = b and c (namespace "b and c"), and "maj computation":
  // (2bc - b - c) * a = bc - maj.
  static Boolean sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                            const Boolean& c);

 private:
  Boolean(Kind kind, const AllocatedBit& bit, bool constant)
      : kind_(kind), bit_(bit), constant_(constant) {}

  Kind kind_ = Kind::kConstant;
  AllocatedBit bit_;
  bool constant_ = false;
};

// 64 bits of `value`, least significant first, each allocated in namespace "<prefix>i" ("bit i"
// as bellperson's; UInt64::alloc's are "allocated bit i").
std::vector<Boolean> u64_into_boolean_vec_le(ConstraintSystem& cs, std::optional<uint64_t> value,
                                             const char* prefix = "bit ");

// The 255 bits of a field element, least significant first, each allocated in namespace "bit i"
// (i counting from the least significant bit). Only booleanity is enforced, nothing ties the
// bits to a number.
std::vector<AllocatedBit> field_into_allocated_bits_le(ConstraintSystem& cs,
                                                       const std::optional<Fr>& value);
std::vector<Boolean> field_into_boolean_vec_le(ConstraintSystem& cs,
                                               const std::optional<Fr>& value);

}  // namespace cuzk::gadgets
