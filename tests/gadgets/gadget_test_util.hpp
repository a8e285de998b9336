// Shared helpers of the gadget tests: deterministic randomness, allocating bits, reading
// Boolean values back, and OpenSSL's SHA-256 as the native twin of the circuit.
#pragma once

#include <openssl/sha.h>

#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/scope.hpp"

namespace cuzk::gadgets::test {

inline std::mt19937_64 rng_for(uint64_t seed) {
  return std::mt19937_64(seed);
}

inline std::vector<uint8_t> random_bytes(std::mt19937_64& rng, size_t n) {
  std::vector<uint8_t> out(n);
  for (auto& b : out)
    b = static_cast<uint8_t>(rng());
  return out;
}

inline std::array<uint8_t, 32> openssl_sha256(std::span<const uint8_t> data) {
  std::array<uint8_t, 32> out{};
  SHA256(data.data(), data.size(), out.data());
  return out;
}

// Allocates the bits of `bytes`, most significant bit of each byte first, in namespaces
// "<prefix><k>" (k counting bits), as bellperson's sha256 tests feed the gadget.
inline std::vector<Boolean> alloc_message_bits(ConstraintSystem& cs, std::span<const uint8_t> bytes,
                                               const char* prefix = "input bit ") {
  std::vector<Boolean> bits;
  bits.reserve(8 * bytes.size());
  for (size_t k = 0; k < 8 * bytes.size(); ++k) {
    const bool b = ((bytes[k / 8] >> (7 - k % 8)) & 1) != 0;
    bits.emplace_back(AllocatedBit::alloc(Ns(cs, NameN{prefix, k}), b));
  }
  return bits;
}

// Values of Booleans packed back into bytes, most significant bit first (throws when unknown).
inline std::vector<uint8_t> bits_to_bytes_be(const std::vector<Boolean>& bits) {
  std::vector<uint8_t> out(bits.size() / 8);
  for (size_t k = 0; k < bits.size(); ++k) {
    if (require_value(bits[k].value())) out[k / 8] |= static_cast<uint8_t>(0x80 >> (k % 8));
  }
  return out;
}

inline std::vector<uint8_t> to_vec(std::string_view s) {
  return {s.begin(), s.end()};
}

}  // namespace cuzk::gadgets::test
