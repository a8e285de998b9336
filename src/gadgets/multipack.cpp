#include "gadgets/multipack.hpp"

#include <algorithm>

#include "gadgets/scope.hpp"

namespace cuzk::gadgets {

namespace {

// sum 2^j bits[j] over a chunk, as a Num.
Num pack_chunk(std::span<const Boolean> bits) {
  Num num;
  Fr coeff = Fr::one();
  for (const Boolean& bit : bits) {
    num.add_bool_with_coeff(Variable::one(), bit, coeff);
    coeff = coeff.dbl();
  }
  return num;
}

// num * 1 = target
void enforce_packing(ConstraintSystem& cs, NameFn name, const Num& num, Variable target) {
  cs.enforce(
      name, [&](LinearCombination& lc) { lc += num.terms(); },
      [](LinearCombination& lc) { lc += Variable::one(); },
      [&](LinearCombination& lc) { lc += target; });
}

}  // namespace

std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes) {
  std::vector<bool> bits;
  bits.reserve(8 * bytes.size());
  for (uint8_t byte : bytes) {
    for (int i = 7; i >= 0; --i)
      bits.push_back(((byte >> i) & 1) != 0);
  }
  return bits;
}

std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes) {
  std::vector<bool> bits;
  bits.reserve(8 * bytes.size());
  for (uint8_t byte : bytes) {
    for (int i = 0; i < 8; ++i)
      bits.push_back(((byte >> i) & 1) != 0);
  }
  return bits;
}

std::vector<Fr> compute_multipacking(const std::vector<bool>& bits) {
  std::vector<Fr> out;
  for (size_t start = 0; start < bits.size(); start += kFrCapacity) {
    const size_t end = std::min(bits.size(), start + kFrCapacity);
    Fr cur, coeff = Fr::one();
    for (size_t j = start; j < end; ++j) {
      if (bits[j]) cur += coeff;
      coeff = coeff.dbl();
    }
    out.push_back(cur);
  }
  return out;
}

void pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits) {
  for (size_t i = 0, start = 0; start < bits.size(); ++i, start += kFrCapacity) {
    const Num num = pack_chunk(bits.subspan(start, std::min(kFrCapacity, bits.size() - start)));
    const Variable input =
        cs.alloc_input(NameN{"input ", i}, [&] { return require_value(num.value()); });
    enforce_packing(cs, NameN{"packing constraint ", i}, num, input);
  }
}

AllocatedNum pack_bits(ConstraintSystem& cs, std::span<const Boolean> bits) {
  const Num num = pack_chunk(bits.first(std::min(kFrCapacity, bits.size())));
  const AllocatedNum packed = AllocatedNum::alloc(Ns(cs, Name{"input"}), num.value());
  enforce_packing(cs, Name{"packing constraint"}, num, packed.variable());
  return packed;
}

}  // namespace cuzk::gadgets
