#include "groth16/proof_io.hpp"

#include <algorithm>

namespace cuzk::groth16 {

std::array<uint8_t, kProofBytes> encode_proof(const Proof& p) {
  std::array<uint8_t, kProofBytes> out{};
  const auto a = encode_compressed(p.a);
  const auto b = encode_compressed(p.b);
  const auto c = encode_compressed(p.c);
  std::copy(a.begin(), a.end(), out.begin());
  std::copy(b.begin(), b.end(), out.begin() + kG1CompressedBytes);
  std::copy(c.begin(), c.end(), out.begin() + kG1CompressedBytes + kG2CompressedBytes);
  return out;
}

std::string ProofDecodeError::message() const {
  if (point == PointDecodeError::kBadLength && offset == 0) return "proof bytes: wrong length";
  return "proof bytes: point at offset " + std::to_string(offset) + ": " + describe(point);
}

Result<Proof, ProofDecodeError> decode_proof(std::span<const uint8_t> bytes) {
  if (bytes.size() != kProofBytes)
    return Unexpected{ProofDecodeError{0, PointDecodeError::kBadLength}};
  constexpr size_t kB = kG1CompressedBytes, kC = kG1CompressedBytes + kG2CompressedBytes;
  const auto a = decode_g1(bytes.subspan(0, kG1CompressedBytes));
  if (!a) return Unexpected{ProofDecodeError{0, a.error()}};
  const auto b = decode_g2(bytes.subspan(kB, kG2CompressedBytes));
  if (!b) return Unexpected{ProofDecodeError{kB, b.error()}};
  const auto c = decode_g1(bytes.subspan(kC, kG1CompressedBytes));
  if (!c) return Unexpected{ProofDecodeError{kC, c.error()}};
  return Proof{*a, *b, *c};
}

Result<std::vector<Proof>, ProofDecodeError> decode_proofs(std::span<const uint8_t> bytes) {
  if (bytes.empty() || bytes.size() % kProofBytes != 0) {
    return Unexpected{ProofDecodeError{0, PointDecodeError::kBadLength}};
  }
  std::vector<Proof> out;
  for (size_t off = 0; off < bytes.size(); off += kProofBytes) {
    auto p = decode_proof(bytes.subspan(off, kProofBytes));
    if (!p) {
      ProofDecodeError e = p.error();
      e.offset += off;
      return Unexpected{e};
    }
    out.push_back(*p);
  }
  return out;
}

}  // namespace cuzk::groth16
