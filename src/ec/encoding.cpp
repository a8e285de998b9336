#include "ec/encoding.hpp"

#include <algorithm>
#include <optional>

namespace cuzk {
namespace {

constexpr uint8_t kFlagCompressed = 0x80;
constexpr uint8_t kFlagInfinity = 0x40;
constexpr uint8_t kFlagSort = 0x20;
constexpr uint8_t kFlagMask = kFlagCompressed | kFlagInfinity | kFlagSort;

// Coordinate (de)serialisation per field: Fp is 48 bytes big-endian, Fp2 is c1 || c0.
void write_coord(const Fp& v, uint8_t* out) {
  const auto b = v.to_bytes_be();
  std::copy(b.begin(), b.end(), out);
}
void write_coord(const Fp2& v, uint8_t* out) {
  write_coord(v.c1, out);
  write_coord(v.c0, out + Fp::kBytes);
}
std::optional<Fp> read_coord(const uint8_t* in, Fp*) {
  return Fp::from_bytes_be(std::span<const uint8_t, Fp::kBytes>(in, Fp::kBytes));
}
std::optional<Fp2> read_coord(const uint8_t* in, Fp2*) {
  const auto c1 = read_coord(in, static_cast<Fp*>(nullptr));
  const auto c0 = read_coord(in + Fp::kBytes, static_cast<Fp*>(nullptr));
  if (!c0 || !c1) return std::nullopt;
  return Fp2{*c0, *c1};
}

template <class Curve, size_t kCoord>
std::array<uint8_t, kCoord> encode_compressed_impl(const Affine<Curve>& p) {
  std::array<uint8_t, kCoord> out{};
  if (p.is_identity()) {
    out[0] = kFlagCompressed | kFlagInfinity;
    return out;
  }
  write_coord(p.x, out.data());
  out[0] |= kFlagCompressed;
  if (p.y.is_lexicographically_largest()) out[0] |= kFlagSort;
  return out;
}

template <class Curve, size_t kCoord>
std::array<uint8_t, 2 * kCoord> encode_uncompressed_impl(const Affine<Curve>& p) {
  std::array<uint8_t, 2 * kCoord> out{};
  if (p.is_identity()) {
    out[0] = kFlagInfinity;
    return out;
  }
  write_coord(p.x, out.data());
  write_coord(p.y, out.data() + kCoord);
  return out;
}

template <class Curve, size_t kCoord, class SubgroupFn>
Result<Affine<Curve>, PointDecodeError> decode_impl(std::span<const uint8_t> bytes,
                                                    SubgroupCheck check, SubgroupFn in_subgroup) {
  using Field = typename Curve::Field;
  using E = PointDecodeError;
  const bool compressed_len = bytes.size() == kCoord;
  if (!compressed_len && bytes.size() != 2 * kCoord) return Unexpected{E::kBadLength};
  const uint8_t flags = bytes[0] & kFlagMask;
  const bool compressed = flags & kFlagCompressed;
  const bool infinity = flags & kFlagInfinity;
  const bool sort = flags & kFlagSort;
  if (compressed != compressed_len) return Unexpected{E::kBadFlags};
  if (sort && (!compressed || infinity)) return Unexpected{E::kBadFlags};

  if (infinity) {
    const bool rest_zero =
        (bytes[0] & ~kFlagMask) == 0 &&
        std::all_of(bytes.begin() + 1, bytes.end(), [](uint8_t b) { return b == 0; });
    if (!rest_zero) return Unexpected{E::kBadInfinity};
    return Affine<Curve>::identity();
  }

  std::array<uint8_t, kCoord> xbytes;
  std::copy(bytes.begin(), bytes.begin() + kCoord, xbytes.begin());
  xbytes[0] &= static_cast<uint8_t>(~kFlagMask);
  const auto x = read_coord(xbytes.data(), static_cast<Field*>(nullptr));
  if (!x) return Unexpected{E::kNonCanonicalCoordinate};

  Affine<Curve> p;
  if (compressed) {
    const auto y = (x->sqr() * *x + Curve::kB).sqrt();
    if (!y) return Unexpected{E::kNotOnCurve};
    p = Affine<Curve>::from_xy(*x, y->is_lexicographically_largest() == sort ? *y : -*y);
  } else {
    const auto y = read_coord(bytes.data() + kCoord, static_cast<Field*>(nullptr));
    if (!y) return Unexpected{E::kNonCanonicalCoordinate};
    p = Affine<Curve>::from_xy(*x, *y);
    if (!p.is_on_curve()) return Unexpected{E::kNotOnCurve};
  }
  if (check == SubgroupCheck::kCheck && !in_subgroup(p)) return Unexpected{E::kNotInSubgroup};
  return p;
}

}  // namespace

// A switch with no default: -Wswitch (an error here) names an enumerator added without a name.
const char* describe(PointDecodeError e) {
  switch (e) {
    case PointDecodeError::kBadLength:
      return "wrong encoding length";
    case PointDecodeError::kBadFlags:
      return "flag bits inconsistent with the encoding";
    case PointDecodeError::kBadInfinity:
      return "infinity flag set with non-zero bits";
    case PointDecodeError::kNonCanonicalCoordinate:
      return "coordinate not below the field modulus";
    case PointDecodeError::kNotOnCurve:
      return "point not on the curve";
    case PointDecodeError::kNotInSubgroup:
      return "point not in the prime-order subgroup";
  }
  return "unknown point decoding error";
}

std::array<uint8_t, kG1CompressedBytes> encode_compressed(const G1Affine& p) {
  return encode_compressed_impl<G1Curve, kG1CompressedBytes>(p);
}
std::array<uint8_t, kG1UncompressedBytes> encode_uncompressed(const G1Affine& p) {
  return encode_uncompressed_impl<G1Curve, kG1CompressedBytes>(p);
}
std::array<uint8_t, kG2CompressedBytes> encode_compressed(const G2Affine& p) {
  return encode_compressed_impl<G2Curve, kG2CompressedBytes>(p);
}
std::array<uint8_t, kG2UncompressedBytes> encode_uncompressed(const G2Affine& p) {
  return encode_uncompressed_impl<G2Curve, kG2CompressedBytes>(p);
}

Result<G1Affine, PointDecodeError> decode_g1(std::span<const uint8_t> bytes, SubgroupCheck check) {
  return decode_impl<G1Curve, kG1CompressedBytes>(
      bytes, check, [](const G1Affine& p) { return g1_is_in_subgroup(p); });
}
Result<G2Affine, PointDecodeError> decode_g2(std::span<const uint8_t> bytes, SubgroupCheck check) {
  return decode_impl<G2Curve, kG2CompressedBytes>(
      bytes, check, [](const G2Affine& p) { return g2_is_in_subgroup(p); });
}

}  // namespace cuzk
