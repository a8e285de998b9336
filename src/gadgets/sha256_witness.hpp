// The witness-only twin of sha256_compression_function (gadgets/sha256.hpp): the same variables,
// in the same order, with the same values, computed 32 bits at a time instead of one Boolean
// gadget call per bit, and handed to the system in one alloc_bits() call. Which bits a gadget
// allocates depends on which inputs are constants (xor, ch, maj and addmany fold constants as
// bellpepper does); words here carry a constant mask and a negation mask beside their values so
// that every such case is mirrored. SHA-256 is 99% of a 32 GiB PoRep partition's constraints
// (its labels and tree_d paths), so this is most of its witness time.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/uint32.hpp"

namespace cuzk::gadgets {

// nullopt when an input has no value (the caller then runs the gadget, which reports it).
std::optional<std::vector<UInt32>> sha256_compression_witness(
    ConstraintSystem& cs, std::span<const Boolean> input,
    std::span<const UInt32> current_hash_value);

}  // namespace cuzk::gadgets
