// Bit-vector helpers of rust-fil-proofs storage-proofs-core (util.rs and gadgets/xor.rs), used
// around the SHA-256 circuits:
//   bytes_into_boolean_vec / _be: one allocated bit per message bit ("bit i"), each byte least /
//     most significant bit first; with no value, `size` unknown bits;
//   reverse_bit_numbering: pad to whole bytes with constant zeros, then reverse the bits inside
//     each byte (turns a field element's little-endian bits into SHA-256 message order and
//     back);
//   xor: input[i] XOR key[i mod 256], namespaces "xor bit: i" (key of exactly 256 bits).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"

namespace cuzk::circuits {

using gadgets::Boolean;

std::vector<Boolean> bytes_into_boolean_vec(ConstraintSystem& cs,
                                            std::optional<std::span<const uint8_t>> value,
                                            size_t size);
std::vector<Boolean> bytes_into_boolean_vec_be(ConstraintSystem& cs,
                                               std::optional<std::span<const uint8_t>> value,
                                               size_t size);

std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits);

std::vector<Boolean> xor_bits(ConstraintSystem& cs, std::span<const Boolean> key,
                              std::span<const Boolean> input);

}  // namespace cuzk::circuits
