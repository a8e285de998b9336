#include "circuits/uint64.hpp"

#include <stdexcept>
#include <utility>

#include "circuits/names.hpp"
#include "gadgets/multipack.hpp"

namespace cuzk::circuits {

UInt64 UInt64::constant(uint64_t value) {
  std::vector<Boolean> bits;
  bits.reserve(64);
  for (size_t i = 0; i < 64; ++i)
    bits.push_back(Boolean::constant(((value >> i) & 1) != 0));
  return {std::move(bits), value};
}

UInt64 UInt64::alloc(ConstraintSystem& cs, std::optional<uint64_t> value) {
  return {gadgets::u64_into_boolean_vec_le(cs, value, "allocated bit "), value};
}

void UInt64::pack_into_input(ConstraintSystem& cs) const {
  gadgets::pack_into_inputs(cs, bits_);
}

UInt64 UInt64::from_bits(std::span<const Boolean> bits_le) {
  if (bits_le.size() != 64) throw std::invalid_argument("UInt64::from_bits: need 64 bits");
  std::optional<uint64_t> value = 0;
  for (size_t i = 0; i < 64; ++i) {
    const std::optional<bool> b = bits_le[i].value();
    if (!b) {
      value.reset();
    } else if (value && *b) {
      *value |= uint64_t{1} << i;
    }
  }
  return {std::vector<Boolean>(bits_le.begin(), bits_le.end()), value};
}

UInt64 UInt64::from_bits_be(std::span<const Boolean> bits_be) {
  if (bits_be.size() != 64) throw std::invalid_argument("UInt64::from_bits_be: need 64 bits");
  const std::vector<Boolean> le(bits_be.rbegin(), bits_be.rend());
  return from_bits(le);
}

}  // namespace cuzk::circuits
