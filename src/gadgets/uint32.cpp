#include "gadgets/uint32.hpp"

#include <stdexcept>

#include "gadgets/scope.hpp"

namespace cuzk::gadgets {

UInt32 UInt32::constant(uint32_t value) {
  std::array<Boolean, 32> bits;
  for (size_t i = 0; i < 32; ++i)
    bits[i] = Boolean::constant(((value >> i) & 1) != 0);
  return {bits, value};
}

UInt32 UInt32::alloc(ConstraintSystem& cs, std::optional<uint32_t> value) {
  std::array<Boolean, 32> bits;
  for (size_t i = 0; i < 32; ++i) {
    std::optional<bool> b;
    if (value) b = ((*value >> i) & 1) != 0;
    bits[i] = AllocatedBit::alloc(Ns(cs, NameN{"allocated bit ", i}), b);
  }
  return {bits, value};
}

UInt32 UInt32::from_bits(std::span<const Boolean> bits) {
  if (bits.size() != 32) throw std::invalid_argument("UInt32::from_bits: need 32 bits");
  std::array<Boolean, 32> out;
  std::optional<uint32_t> value = 0;
  for (size_t i = 0; i < 32; ++i) {
    out[i] = bits[i];
    const std::optional<bool> b = bits[i].value();
    if (!b) {
      value.reset();
    } else if (value && *b) {
      *value |= uint32_t{1} << i;
    }
  }
  return {out, value};
}

UInt32 UInt32::from_bits_be(std::span<const Boolean> bits) {
  if (bits.size() != 32) throw std::invalid_argument("UInt32::from_bits_be: need 32 bits");
  std::array<Boolean, 32> le;
  for (size_t i = 0; i < 32; ++i)
    le[i] = bits[31 - i];
  return from_bits(le);
}

UInt32 UInt32::rotr(size_t by) const {
  by %= 32;
  std::array<Boolean, 32> out;
  for (size_t i = 0; i < 32; ++i)
    out[i] = bits_[(i + by) % 32];
  std::optional<uint32_t> value;
  if (value_) value = by == 0 ? *value_ : (*value_ >> by) | (*value_ << (32 - by));
  return {out, value};
}

UInt32 UInt32::shr(size_t by) const {
  by %= 32;  // bellperson reduces the shift too (so shr(32) is the identity)
  std::array<Boolean, 32> out;
  for (size_t i = 0; i < 32; ++i)
    out[i] = i + by < 32 ? bits_[i + by] : Boolean::constant(false);
  std::optional<uint32_t> value;
  if (value_) value = *value_ >> by;
  return {out, value};
}

UInt32 UInt32::xor_(ConstraintSystem& cs, const UInt32& other) const {
  std::array<Boolean, 32> out;
  for (size_t i = 0; i < 32; ++i) {
    out[i] = Boolean::xor_(Ns(cs, NameN{"xor of bit ", i}), bits_[i], other.bits_[i]);
  }
  std::optional<uint32_t> value;
  if (value_ && other.value_) value = *value_ ^ *other.value_;
  return {out, value};
}

UInt32 UInt32::sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  return bitwise3(cs, "maj ", a, b, c, &Boolean::sha256_maj,
                  [](uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (x & z) ^ (y & z); });
}

UInt32 UInt32::sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  return bitwise3(cs, "ch ", a, b, c, &Boolean::sha256_ch,
                  [](uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (~x & z); });
}

UInt32 UInt32::bitwise3(ConstraintSystem& cs, const char* prefix, const UInt32& a, const UInt32& b,
                        const UInt32& c, BitGadget3 bit,
                        uint32_t (*word)(uint32_t, uint32_t, uint32_t)) {
  std::array<Boolean, 32> out;
  for (size_t i = 0; i < 32; ++i)
    out[i] = bit(Ns(cs, NameN{prefix, i}), a.bits_[i], b.bits_[i], c.bits_[i]);
  std::optional<uint32_t> value;
  if (a.value_ && b.value_ && c.value_) value = word(*a.value_, *b.value_, *c.value_);
  return {out, value};
}

UInt32 UInt32::addmany(MultiEq& cs, std::span<const UInt32> operands) {
  // bellperson's bounds: at least two operands, at most ten (so the sum fits in 36 bits).
  if (operands.size() < 2 || operands.size() > 10) {
    throw std::invalid_argument("UInt32::addmany: needs 2 to 10 operands");
  }
  uint64_t max_value = operands.size() * uint64_t{0xffffffff};

  // The sum as a plain flag and integer (an optional<uint64_t> here trips GCC 12's
  // maybe-uninitialized analysis).
  bool known = true;
  uint64_t sum = 0;
  LinearCombination lhs;
  bool all_constants = true;
  // The combinations feed only MultiEq's constraint: a witness-only system skips them (they
  // were most of a PoRep partition's witness time: ~200 terms and Fr products per addition).
  const bool combinations = !cs.is_witness_only();
  for (const UInt32& op : operands) {
    if (op.value_) {
      sum += *op.value_;
    } else {
      known = false;
    }
    Fr coeff = Fr::one();
    for (const Boolean& bit : op.bits_) {
      all_constants &= bit.is_constant();
      if (!combinations) continue;
      bit.add_lc(lhs, Variable::one(), coeff);
      coeff = coeff.dbl();
    }
  }
  std::optional<uint32_t> modular;
  if (known) modular = static_cast<uint32_t>(sum);
  if (all_constants && modular) return constant(*modular);

  std::array<Boolean, 32> out;
  LinearCombination rhs;
  Fr coeff = Fr::one();
  size_t i = 0;
  for (; max_value != 0; ++i, max_value >>= 1) {
    std::optional<bool> b;
    if (known) b = ((sum >> i) & 1) != 0;
    const AllocatedBit bit = AllocatedBit::alloc(Ns(cs, NameN{"result bit ", i}), b);
    if (i < 32) out[i] = bit;  // the carry bits only take part in the equality
    if (!combinations) continue;
    rhs.add(coeff, bit.variable());
    coeff = coeff.dbl();
  }
  if (combinations) cs.enforce_equal(i, lhs, rhs);
  return {out, modular};
}

}  // namespace cuzk::gadgets
