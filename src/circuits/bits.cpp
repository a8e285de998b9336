#include "circuits/bits.hpp"

#include <algorithm>
#include <stdexcept>

#include "circuits/names.hpp"

namespace cuzk::circuits {

using gadgets::AllocatedBit;

namespace {

std::vector<Boolean> alloc_bits(ConstraintSystem& cs, std::optional<std::span<const uint8_t>> value,
                                size_t size, bool msb_first) {
  const size_t n = value ? 8 * value->size() : size;
  std::vector<Boolean> bits;
  bits.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    std::optional<bool> b;
    if (value) {
      const unsigned shift = msb_first ? 7 - i % 8 : i % 8;
      b = (((*value)[i / 8] >> shift) & 1) != 0;
    }
    bits.emplace_back(AllocatedBit::alloc(Ns(cs, NameN{"bit ", i}), b));
  }
  return bits;
}

}  // namespace

std::vector<Boolean> bytes_into_boolean_vec(ConstraintSystem& cs,
                                            std::optional<std::span<const uint8_t>> value,
                                            size_t size) {
  return alloc_bits(cs, value, size, false);
}

std::vector<Boolean> bytes_into_boolean_vec_be(ConstraintSystem& cs,
                                               std::optional<std::span<const uint8_t>> value,
                                               size_t size) {
  return alloc_bits(cs, value, size, true);
}

std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits) {
  while (bits.size() % 8 != 0)
    bits.push_back(Boolean::constant(false));
  for (size_t i = 0; i < bits.size(); i += 8)
    std::reverse(bits.begin() + static_cast<ptrdiff_t>(i),
                 bits.begin() + static_cast<ptrdiff_t>(i + 8));
  return bits;
}

std::vector<Boolean> xor_bits(ConstraintSystem& cs, std::span<const Boolean> key,
                              std::span<const Boolean> input) {
  if (key.size() != 256) throw std::invalid_argument("xor_bits: the key must have 256 bits");
  std::vector<Boolean> out;
  out.reserve(input.size());
  for (size_t i = 0; i < input.size(); ++i)
    out.push_back(Boolean::xor_(Ns(cs, NameN{"xor bit: ", i}), input[i], key[i % key.size()]));
  return out;
}

}  // namespace cuzk::circuits
