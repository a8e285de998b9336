// SHA-256 circuits, constraint-for-constraint as bellperson 0.27's `gadgets::sha256`: the
// compression function over 512 booleans and 8 UInt32 chaining words, the full hash with its
// (constant) padding, and the single block hash without padding. Counts: 25,840 constraints for
// one block of allocated bits, 44,874 for a 512-bit allocated message (its second block is
// constant padding), 0 for all-constant input.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/uint32.hpp"
#include "util/sha256_constants.hpp"

namespace cuzk::gadgets {

// The IV as eight constant words.
std::vector<UInt32> sha256_iv();

// One compression: `input` is 512 bits, each 32-bit word most significant bit first;
// `current_hash_value` is 8 words. Returns the 8 new words. Additions that feed the next round's
// a and e are deferred and fused into one addmany each, and all additions share one MultiEq, as
// in bellperson; namespaces "w extension i", "compression round i", "new h1" .. "new h7",
// "deferred h0/h4 computation", and the final "multieq i" batch directly under `cs`.
std::vector<UInt32> sha256_compression_function(ConstraintSystem& cs,
                                                std::span<const Boolean> input,
                                                std::span<const UInt32> current_hash_value);

// SHA-256 of 512 bits with no padding added (one compression from the IV); 256 bits out, each
// word most significant bit first.
std::vector<Boolean> sha256_block_no_padding(ConstraintSystem& cs, std::span<const Boolean> input);

// SHA-256 of a message of whole bytes (input.size() % 8 == 0, each byte most significant bit
// first), padded with constant bits; one compression per block in namespace "block i".
std::vector<Boolean> sha256(ConstraintSystem& cs, std::span<const Boolean> input);

}  // namespace cuzk::gadgets
