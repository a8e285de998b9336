// Proof bytes as bellperson/filecoin-proofs write them: A (G1 compressed, 48) || B (G2
// compressed, 96) || C (G1 compressed, 48) = 192 bytes; multi-partition proofs are concatenated.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ec/encoding.hpp"
#include "groth16/types.hpp"
#include "util/result.hpp"

namespace cuzk::groth16 {

inline constexpr size_t kProofBytes = 192;

std::array<uint8_t, kProofBytes> encode_proof(const Proof& p);

struct ProofDecodeError {
  size_t offset;           // byte offset of the failing point within the input
  PointDecodeError point;  // what failed (kBadLength when the input size is wrong)
  std::string message() const;
};

// Decodes one proof; points are checked (curve and subgroup).
Result<Proof, ProofDecodeError> decode_proof(std::span<const uint8_t> bytes);
// Decodes a concatenation of proofs (size must be a multiple of 192).
Result<std::vector<Proof>, ProofDecodeError> decode_proofs(std::span<const uint8_t> bytes);

}  // namespace cuzk::groth16
