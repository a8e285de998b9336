// UInt32: 32 Booleans (least significant first) with the optional value they encode, as
// bellperson 0.27's `gadgets::uint32::UInt32`, with its SHA-256 helpers. Rotations and shifts
// only re-index bits; xor/maj/ch work bit by bit; addmany adds up to 10 words through MultiEq.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/multieq.hpp"

namespace cuzk::gadgets {

class UInt32 {
 public:
  UInt32() : UInt32(constant(0)) {}

  // 32 constant bits; allocates nothing.
  static UInt32 constant(uint32_t value);
  // 32 booleans in namespaces "allocated bit 0" .. "allocated bit 31" (least significant first).
  static UInt32 alloc(ConstraintSystem& cs, std::optional<uint32_t> value);

  // Bits least significant first ("into_bits" in bellperson despite the byte-order wording).
  std::vector<Boolean> into_bits() const { return {bits_.begin(), bits_.end()}; }
  // Bits most significant first.
  std::vector<Boolean> into_bits_be() const { return {bits_.rbegin(), bits_.rend()}; }
  // From 32 bits least significant first / most significant first (std::invalid_argument
  // otherwise). The value is known when every bit's value is.
  static UInt32 from_bits(std::span<const Boolean> bits);
  static UInt32 from_bits_be(std::span<const Boolean> bits);

  const std::array<Boolean, 32>& bits() const { return bits_; }
  std::optional<uint32_t> value() const { return value_; }

  // Free re-indexings (by is taken mod 32); shr fills with constant zeros.
  UInt32 rotr(size_t by) const;
  UInt32 shr(size_t by) const;

  // Bitwise, in namespaces "xor of bit i" / "maj i" / "ch i".
  UInt32 xor_(ConstraintSystem& cs, const UInt32& other) const;
  static UInt32 sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);
  static UInt32 sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);

  // Sum of 2..10 operands mod 2^32. All-constant operands give a constant (nothing allocated).
  // Otherwise the full sum gets as many booleans ("result bit i") as the largest possible sum
  // n * (2^32 - 1) needs, and MultiEq checks sum of operands = sum of those bits; the carries
  // above bit 31 are dropped.
  static UInt32 addmany(MultiEq& cs, std::span<const UInt32> operands);

 private:
  UInt32(const std::array<Boolean, 32>& bits, std::optional<uint32_t> value)
      : bits_(bits), value_(value) {}

  using BitGadget3 = Boolean (*)(ConstraintSystem&, const Boolean&, const Boolean&, const Boolean&);
  // sha256_maj and sha256_ch: bit i is `bit` in namespace "<prefix>i"; the value is `word` of the
  // three values when all are known.
  static UInt32 bitwise3(ConstraintSystem& cs, const char* prefix, const UInt32& a, const UInt32& b,
                         const UInt32& c, BitGadget3 bit,
                         uint32_t (*word)(uint32_t, uint32_t, uint32_t));

  std::array<Boolean, 32> bits_;
  std::optional<uint32_t> value_;
};

}  // namespace cuzk::gadgets
