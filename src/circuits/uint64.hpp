// UInt64: 64 Booleans (least significant first) with the optional value they encode, as
// rust-fil-proofs storage-proofs-core/src/gadgets/uint64.rs. The StackedDrg circuit allocates
// each challenge as one (64 booleans, namespaces "allocated bit i") and exposes it with
// pack_into_input (one public input, one packing constraint); create_label hashes its big-endian
// bits.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"

namespace cuzk::circuits {

using gadgets::Boolean;

class UInt64 {
 public:
  // 64 constant bits; allocates nothing.
  static UInt64 constant(uint64_t value);
  // 64 booleans in namespaces "allocated bit 0" .. "allocated bit 63" (least significant first).
  static UInt64 alloc(ConstraintSystem& cs, std::optional<uint64_t> value);

  std::optional<uint64_t> value() const { return value_; }

  // multipack::pack_into_inputs over the 64 bits: "input 0" and "packing constraint 0".
  void pack_into_input(ConstraintSystem& cs) const;

  std::vector<Boolean> to_bits_le() const { return bits_; }
  std::vector<Boolean> to_bits_be() const { return {bits_.rbegin(), bits_.rend()}; }
  // From exactly 64 bits (std::invalid_argument otherwise); the value is known when every bit's
  // is.
  static UInt64 from_bits(std::span<const Boolean> bits_le);
  static UInt64 from_bits_be(std::span<const Boolean> bits_be);

 private:
  UInt64(std::vector<Boolean> bits, std::optional<uint64_t> value)
      : bits_(std::move(bits)), value_(value) {}

  std::vector<Boolean> bits_;  // least significant first
  std::optional<uint64_t> value_;
};

}  // namespace cuzk::circuits
