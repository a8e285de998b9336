// zcash / IETF point encodings of G1 and G2 (as blst, bellman, bellperson and noble write them).
//
//   G1 compressed   48 bytes: x (big-endian)            G1 uncompressed  96 bytes: x || y
//   G2 compressed   96 bytes: x.c1 || x.c0              G2 uncompressed 192 bytes: x.c1 || x.c0 ||
//   y.c1 || y.c0
// Top three bits of byte 0: 0x80 compressed, 0x40 infinity (every other bit zero), 0x20 sort flag
// (compressed, non-infinity only: set iff y is lexicographically largest).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "util/result.hpp"

namespace cuzk {

enum class PointDecodeError {
  kBadLength,               // not the compressed or uncompressed size
  kBadFlags,                // compression flag disagrees with the length, or a misplaced sort flag
  kBadInfinity,             // infinity flag with any other bit set
  kNonCanonicalCoordinate,  // a coordinate (or Fp2 half) >= p
  kNotOnCurve,              // no y for this x, or (x, y) off the curve
  kNotInSubgroup,           // on the curve, but not in the order-r subgroup
};
const char* describe(PointDecodeError e);

// Skipping the subgroup check is for trusted bulk data only (e.g. parameter files whose digest
// was verified); everything from the network or a user must be checked.
enum class SubgroupCheck { kCheck, kSkipTrusted };

inline constexpr size_t kG1CompressedBytes = 48;
inline constexpr size_t kG1UncompressedBytes = 96;
inline constexpr size_t kG2CompressedBytes = 96;
inline constexpr size_t kG2UncompressedBytes = 192;

std::array<uint8_t, kG1CompressedBytes> encode_compressed(const G1Affine& p);
std::array<uint8_t, kG1UncompressedBytes> encode_uncompressed(const G1Affine& p);
std::array<uint8_t, kG2CompressedBytes> encode_compressed(const G2Affine& p);
std::array<uint8_t, kG2UncompressedBytes> encode_uncompressed(const G2Affine& p);

// Accepts either size; validates flags, canonical coordinates, the curve equation and (unless
// skipped) subgroup membership, and says which check failed.
Result<G1Affine, PointDecodeError> decode_g1(std::span<const uint8_t> bytes,
                                             SubgroupCheck check = SubgroupCheck::kCheck);
Result<G2Affine, PointDecodeError> decode_g2(std::span<const uint8_t> bytes,
                                             SubgroupCheck check = SubgroupCheck::kCheck);

}  // namespace cuzk
