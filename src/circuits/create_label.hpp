// SDR label creation in the circuit, as rust-fil-proofs
// storage-proofs-porep/src/stacked/circuit/create_label.rs `create_label_circuit`; the native twin
// is label_native.hpp.
//
// The SHA-256 message is built from booleans: replica_id (32..256 bits, padded with constant
// zeros to 256), layer (UInt32, big-endian bits), node (UInt64, big-endian bits), constant zeros
// to 512 bits, then each of the 37 parents (as given, padded to a multiple of 256 bits): 9 984
// bits, 20 blocks with the padding. bellperson's sha256 runs in namespace "hash"; the digest bits
// are reversed per byte and the first 254 packed into one number in "result_num" (the trunc254
// label as an Fr). Parents arrive as the per-byte-reversed little-endian bits of the parent
// labels (reverse_bit_numbering of AllocatedNum::to_bits_le), i.e. their LE bytes.
//
// Count of rfp's test (constant layer 3 and node 22, replica id and 37 parents allocated as
// 9 728 booleans): 532 025 constraints in total.
#pragma once

#include <vector>

#include "circuits/uint64.hpp"
#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"
#include "gadgets/uint32.hpp"

namespace cuzk::circuits {

gadgets::AllocatedNum create_label_circuit(
    ConstraintSystem& cs, std::span<const gadgets::Boolean> replica_id,
    const std::vector<std::vector<gadgets::Boolean>>& parents, const gadgets::UInt32& layer_index,
    const UInt64& node);

}  // namespace cuzk::circuits
