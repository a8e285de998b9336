// Domain: the 32-byte value every Filecoin commitment, tree node, label and replica_id is stored
// as.
//
// The bytes are the little-endian canonical (non-Montgomery) encoding of a BLS12-381 Fr element
// (rust-fil-proofs fr32/src/convert.rs; blstrs Scalar::to_repr/from_repr are little-endian).
// Two conversions to Fr exist upstream and both are needed:
//   * strict (`bytes_into_fr`): a value >= r is an error, never reduced;
//   * "safe" (`bytes_into_fr_repr_safe`): clear the two top bits (byte[31] &= 0x3f) first. Since
//     2^254 < r, any 32-byte string becomes canonical; SHA-256 outputs become field elements so.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::filecoin {

inline constexpr size_t kNodeSize = 32;  // NODE_SIZE in storage-proofs-core/src/util.rs
using Domain = std::array<uint8_t, kNodeSize>;

static_assert(Fr::kBytes == kNodeSize, "an Fr encodes in exactly one node");

// Clears bits 254 and 255 (byte[31] &= 0x3f): the trunc254 rule of fr32/src/convert.rs and
// filecoin-hashers/src/sha256.rs (`trim_to_fr32`).
constexpr Domain trim_to_fr32(Domain d) {
  d[31] &= 0x3f;
  return d;
}

// True when the little-endian value is < r.
bool is_canonical_fr(const Domain& d);

// Strict conversion; nullopt when the value is >= r.
std::optional<Fr> try_domain_to_fr(const Domain& d);
// Strict conversion; throws std::invalid_argument naming the value (hex of the stored bytes).
Fr domain_to_fr(const Domain& d);
// Strict conversion of a named input: std::invalid_argument
// "<context>: <what> is not a canonical field element (<hex>)".
Fr domain_to_fr(const Domain& d, std::string_view context, std::string_view what);
// Safe conversion: byte[31] &= 0x3f, then decode (always succeeds).
Fr domain_to_fr_safe(const Domain& d);
// Little-endian canonical encoding.
Domain fr_to_domain(const Fr& f);

// A Domain from exactly 32 bytes; throws std::invalid_argument on any other length.
Domain domain_from_bytes(std::span<const uint8_t> bytes);

// Lower-case hex of bytes in stored order (the form rust `hex::encode` and the oracle file use).
std::string to_hex(std::span<const uint8_t> bytes);
// Parses hex (optional "0x", even digit count) into bytes in the written order; throws
// std::invalid_argument naming the input on a bad digit or odd length.
std::vector<uint8_t> bytes_from_hex(std::string_view hex);
// Exactly 64 hex digits, bytes in stored (little-endian value) order.
Domain domain_from_hex(std::string_view hex);

}  // namespace cuzk::filecoin
