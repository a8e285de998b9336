// Bit packing, as bellperson 0.27's `gadgets::multipack`: bits to public inputs (254 bits per
// field element, least significant first) in the circuit, and the same packing natively for the
// verifier's input vector.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"

namespace cuzk::gadgets {

// Bits of each byte, most significant first.
std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes);
// Bits of each byte, least significant first.
std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes);

// One field element per 254-bit chunk: sum 2^j chunk[j] (the public inputs pack_into_inputs
// allocates, in order).
std::vector<Fr> compute_multipacking(const std::vector<bool>& bits);

// For each 254-bit chunk i: public input "input i" and "packing constraint i":
// (sum 2^j chunk[j]) * 1 = input.
void pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits);

// The first 254 bits (the rest are ignored, as in bellperson) as one aux number: "input/num" and
// "packing constraint": (sum 2^j bits[j]) * 1 = num.
AllocatedNum pack_bits(ConstraintSystem& cs, std::span<const Boolean> bits);

}  // namespace cuzk::gadgets
