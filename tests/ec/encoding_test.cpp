// Property tests of the zcash / IETF point encodings of G1 and G2: layout and flags of the
// encodings of random points, round trips (compressed, uncompressed, infinity), and one crafted
// input for each PointDecodeError, plus the trusted (no subgroup check) path.
#include "ec/encoding.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <set>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "common/curve_types.hpp"
#include "ec_test_util.hpp"

namespace cuzk {
namespace {

using ec_test::random_curve_point;
using ec_test::random_subgroup_point;
using Bytes = std::vector<uint8_t>;
using E = PointDecodeError;

constexpr uint8_t kCompressedFlag = 0x80;
constexpr uint8_t kInfinityFlag = 0x40;
constexpr uint8_t kSortFlag = 0x20;
constexpr size_t kFpBytes = 48;

// 48 big-endian bytes of a 384-bit integer, written from the limbs.
void put_be(const BigInt<6>& v, uint8_t* out) {
  for (size_t i = 0; i < kFpBytes; ++i)
    out[kFpBytes - 1 - i] = static_cast<uint8_t>(v.w[i / 8] >> (8 * (i % 8)));
}

// The Fp words of a coordinate in encoding order: x for Fp; x.c1, x.c0 for Fp2.
std::vector<Fp> words(const Fp& x) {
  return {x};
}
std::vector<Fp> words(const Fp2& x) {
  return {x.c1, x.c0};
}

template <class Curve>
struct Codec;

template <>
struct Codec<G1Curve> {
  static constexpr size_t kCoord = kG1CompressedBytes;
  static Bytes compressed(const G1Affine& p) {
    const auto a = encode_compressed(p);
    return Bytes(a.begin(), a.end());
  }
  static Bytes uncompressed(const G1Affine& p) {
    const auto a = encode_uncompressed(p);
    return Bytes(a.begin(), a.end());
  }
  static Result<G1Affine, E> decode(const Bytes& b, SubgroupCheck c = SubgroupCheck::kCheck) {
    return decode_g1(std::span<const uint8_t>(b), c);
  }
};

template <>
struct Codec<G2Curve> {
  static constexpr size_t kCoord = kG2CompressedBytes;
  static Bytes compressed(const G2Affine& p) {
    const auto a = encode_compressed(p);
    return Bytes(a.begin(), a.end());
  }
  static Bytes uncompressed(const G2Affine& p) {
    const auto a = encode_uncompressed(p);
    return Bytes(a.begin(), a.end());
  }
  static Result<G2Affine, E> decode(const Bytes& b, SubgroupCheck c = SubgroupCheck::kCheck) {
    return decode_g2(std::span<const uint8_t>(b), c);
  }
};

// Expects decoding to fail with exactly `want`, in both subgroup-check modes.
template <class Curve>
::testing::AssertionResult FailsWith(const Bytes& b, E want) {
  for (SubgroupCheck c : {SubgroupCheck::kCheck, SubgroupCheck::kSkipTrusted}) {
    const auto r = Codec<Curve>::decode(b, c);
    if (r.has_value())
      return ::testing::AssertionFailure() << "decoded, expected " << describe(want);
    if (r.error() != want) {
      return ::testing::AssertionFailure()
             << "error \"" << describe(r.error()) << "\", expected \"" << describe(want) << "\"";
    }
  }
  return ::testing::AssertionSuccess();
}

template <class Curve>
class PointEncoding : public ::testing::Test {
 protected:
  using Aff = Affine<Curve>;
  using Field = typename Curve::Field;
  using C = Codec<Curve>;
  static constexpr size_t kCoord = C::kCoord;

  Aff subgroup_point() { return random_subgroup_point<Curve>(rng_).to_affine(); }
  Aff curve_point() { return random_curve_point<Curve>(rng_); }
  // An x with x^3 + b not a square (no point has it).
  Field x_off_curve() {
    for (;;) {
      const Field x = Field::random(rng_);
      if (!(x.sqr() * x + Curve::kB).sqrt()) return x;
    }
  }

  std::mt19937_64 rng_{std::is_same_v<Curve, G1Curve> ? 0xe101 : 0xe202};
};

TYPED_TEST_SUITE(PointEncoding, Curves, CurveNames);

TYPED_TEST(PointEncoding, CompressedEncodingHasTheSpecifiedLayoutAndRoundTrips) {
  using C = typename TestFixture::C;
  constexpr size_t kCoord = TestFixture::kCoord;
  bool saw_sort = false, saw_no_sort = false;
  for (int i = 0; i < 60; ++i) {
    const auto p = i % 2 ? this->subgroup_point() : -this->subgroup_point();
    const Bytes b = C::compressed(p);
    ASSERT_EQ(b.size(), kCoord);
    ASSERT_TRUE(b[0] & kCompressedFlag);
    ASSERT_FALSE(b[0] & kInfinityFlag);
    const bool sort = b[0] & kSortFlag;
    ASSERT_EQ(sort, p.y.is_lexicographically_largest());
    (sort ? saw_sort : saw_no_sort) = true;
    // x in big-endian words (c1 first for Fp2) under the flag bits.
    Bytes want(kCoord);
    const auto ws = words(p.x);
    for (size_t j = 0; j < ws.size(); ++j)
      put_be(ws[j].to_canonical(), want.data() + kFpBytes * j);
    Bytes masked = b;
    masked[0] &= 0x1f;
    ASSERT_EQ(masked, want);
    const auto d = C::decode(b);
    ASSERT_TRUE(d.has_value()) << describe(d.error());
    ASSERT_EQ(*d, p);
    // The sort flag alone selects between P and -P.
    Bytes flipped = b;
    flipped[0] ^= kSortFlag;
    const auto dn = C::decode(flipped);
    ASSERT_TRUE(dn.has_value()) << describe(dn.error());
    ASSERT_EQ(*dn, -p);
  }
  EXPECT_TRUE(saw_sort && saw_no_sort);
}

TYPED_TEST(PointEncoding, UncompressedEncodingHasTheSpecifiedLayoutAndRoundTrips) {
  using C = typename TestFixture::C;
  constexpr size_t kCoord = TestFixture::kCoord;
  for (int i = 0; i < 20; ++i) {
    const auto p = this->subgroup_point();
    const Bytes b = C::uncompressed(p);
    ASSERT_EQ(b.size(), 2 * kCoord);
    ASSERT_EQ(b[0] & 0xe0, 0);
    Bytes want(2 * kCoord);
    const auto xs = words(p.x);
    const auto ys = words(p.y);
    for (size_t j = 0; j < xs.size(); ++j) {
      put_be(xs[j].to_canonical(), want.data() + kFpBytes * j);
      put_be(ys[j].to_canonical(), want.data() + kCoord + kFpBytes * j);
    }
    ASSERT_EQ(b, want);
    const auto d = C::decode(b);
    ASSERT_TRUE(d.has_value()) << describe(d.error());
    ASSERT_EQ(*d, p);
  }
}

TYPED_TEST(PointEncoding, InfinityRoundTripsInBothForms) {
  using C = typename TestFixture::C;
  using Aff = typename TestFixture::Aff;
  constexpr size_t kCoord = TestFixture::kCoord;
  Bytes want_c(kCoord), want_u(2 * kCoord);
  want_c[0] = kCompressedFlag | kInfinityFlag;
  want_u[0] = kInfinityFlag;
  EXPECT_EQ(C::compressed(Aff::identity()), want_c);
  EXPECT_EQ(C::uncompressed(Aff::identity()), want_u);
  for (const Bytes& b : {want_c, want_u}) {
    const auto d = C::decode(b);
    ASSERT_TRUE(d.has_value()) << describe(d.error());
    EXPECT_TRUE(d->is_identity());
  }
}

TYPED_TEST(PointEncoding, WrongLengthIsBadLength) {
  using C = typename TestFixture::C;
  constexpr size_t kCoord = TestFixture::kCoord;
  const Bytes good = C::compressed(this->subgroup_point());
  for (size_t n : {size_t{0}, size_t{1}, kCoord - 1, kCoord + 1, 2 * kCoord - 1, 2 * kCoord + 1,
                   3 * kCoord, 4 * kCoord}) {
    Bytes b(n, 0);
    for (size_t i = 0; i < n && i < good.size(); ++i)
      b[i] = good[i];
    EXPECT_TRUE(FailsWith<TypeParam>(b, E::kBadLength)) << "length " << n;
  }
  const size_t other =
      std::is_same_v<TypeParam, G1Curve> ? kG2UncompressedBytes : kG1CompressedBytes;
  EXPECT_TRUE(FailsWith<TypeParam>(Bytes(other, 0), E::kBadLength)) << "length " << other;
}

TYPED_TEST(PointEncoding, InconsistentFlagsAreBadFlags) {
  using C = typename TestFixture::C;
  using Aff = typename TestFixture::Aff;
  const auto p = this->subgroup_point();
  Bytes b = C::compressed(p);
  b[0] &= static_cast<uint8_t>(~kCompressedFlag);  // compressed length, no compression flag
  EXPECT_TRUE(FailsWith<TypeParam>(b, E::kBadFlags)) << "compressed size without the flag";
  b = C::uncompressed(p);
  b[0] |= kCompressedFlag;  // uncompressed length with the compression flag
  EXPECT_TRUE(FailsWith<TypeParam>(b, E::kBadFlags)) << "uncompressed size with the flag";
  b = C::uncompressed(p);
  b[0] |= kSortFlag;  // sort flag on an uncompressed encoding
  EXPECT_TRUE(FailsWith<TypeParam>(b, E::kBadFlags)) << "sort flag on uncompressed";
  b = C::compressed(Aff::identity());
  b[0] |= kSortFlag;  // sort flag on infinity
  EXPECT_TRUE(FailsWith<TypeParam>(b, E::kBadFlags)) << "sort flag on compressed infinity";
  b = C::uncompressed(Aff::identity());
  b[0] |= kSortFlag;
  EXPECT_TRUE(FailsWith<TypeParam>(b, E::kBadFlags)) << "sort flag on uncompressed infinity";
}

TYPED_TEST(PointEncoding, InfinityWithExtraBitsIsBadInfinity) {
  using C = typename TestFixture::C;
  using Aff = typename TestFixture::Aff;
  for (const Bytes& inf : {C::compressed(Aff::identity()), C::uncompressed(Aff::identity())}) {
    for (size_t pos : {size_t{0}, size_t{1}, inf.size() / 2, inf.size() - 1}) {
      for (uint8_t bit : {uint8_t{0x01}, uint8_t{0x10}}) {
        Bytes b = inf;
        b[pos] |= bit;
        EXPECT_TRUE(FailsWith<TypeParam>(b, E::kBadInfinity))
            << "size " << b.size() << ", byte " << pos << " |= " << int{bit};
      }
    }
  }
  // The infinity flag over a real point's encoding.
  const auto p = this->subgroup_point();
  Bytes b = C::uncompressed(p);
  b[0] |= kInfinityFlag;
  EXPECT_TRUE(FailsWith<TypeParam>(b, E::kBadInfinity));
  b = C::compressed(p);
  b[0] = static_cast<uint8_t>((b[0] | kInfinityFlag) & ~kSortFlag);
  EXPECT_TRUE(FailsWith<TypeParam>(b, E::kBadInfinity));
}

TYPED_TEST(PointEncoding, CoordinateFromTheModulusUpIsNonCanonical) {
  using C = typename TestFixture::C;
  constexpr size_t kCoord = TestFixture::kCoord;
  const BigInt<6> p = Fp::kModulus;
  const BigInt<6> p1 = add_u64(p, 1);
  BigInt<6> all381;  // 2^381 - 1: every bit below the flags
  for (size_t i = 0; i < 6; ++i)
    all381.w[i] = ~uint64_t{0};
  all381.w[5] >>= 3;
  BigInt<6> all384;  // 2^384 - 1 (only possible in the y half of an uncompressed encoding)
  for (size_t i = 0; i < 6; ++i)
    all384.w[i] = ~uint64_t{0};
  const auto pt = this->subgroup_point();
  const size_t nwords = kCoord / kFpBytes;
  for (const BigInt<6>& bad : {p, p1, all381}) {
    for (size_t j = 0; j < nwords; ++j) {
      Bytes b = C::compressed(pt);
      const uint8_t flags = b[0] & 0xe0;
      put_be(bad, b.data() + kFpBytes * j);
      b[0] |= flags;
      EXPECT_TRUE(FailsWith<TypeParam>(b, E::kNonCanonicalCoordinate)) << "compressed x word " << j;
      b = C::uncompressed(pt);
      put_be(bad, b.data() + kFpBytes * j);
      EXPECT_TRUE(FailsWith<TypeParam>(b, E::kNonCanonicalCoordinate))
          << "uncompressed x word " << j;
    }
  }
  for (const BigInt<6>& bad : {p, p1, all381, all384}) {
    for (size_t j = 0; j < nwords; ++j) {
      Bytes b = C::uncompressed(pt);
      put_be(bad, b.data() + kCoord + kFpBytes * j);
      EXPECT_TRUE(FailsWith<TypeParam>(b, E::kNonCanonicalCoordinate)) << "y word " << j;
    }
  }
  // y + p encodes the same residue as y: still rejected, never reduced.
  const auto yw = words(pt.y);
  for (size_t j = 0; j < nwords; ++j) {
    BigInt<6> alias;
    ASSERT_EQ(add_with_carry(alias, yw[j].to_canonical(), p), 0u);
    Bytes b = C::uncompressed(pt);
    put_be(alias, b.data() + kCoord + kFpBytes * j);
    EXPECT_TRUE(FailsWith<TypeParam>(b, E::kNonCanonicalCoordinate)) << "y word " << j << " + p";
  }
}

TYPED_TEST(PointEncoding, XPlusModulusIsRejectedNotReduced) {
  // A curve point with a small x word, so that x + p still fits under the flag bits.
  using C = typename TestFixture::C;
  using Aff = typename TestFixture::Aff;
  using Field = typename TestFixture::Field;
  Aff q;
  for (uint64_t v = 1; q.is_identity(); ++v) {
    Field x{};
    if constexpr (std::is_same_v<Field, Fp>) {
      x = Fp::from_u64(v);
    } else {
      x = {Fp::from_u64(v), Fp::from_u64(v)};
    }
    if (const auto y = (x.sqr() * x + TypeParam::kB).sqrt()) q = Aff::from_xy(x, *y);
  }
  for (const Bytes& enc : {C::compressed(q), C::uncompressed(q)}) {
    const auto ok = C::decode(enc, SubgroupCheck::kSkipTrusted);
    ASSERT_TRUE(ok.has_value()) << describe(ok.error());
    ASSERT_EQ(*ok, q);
    const size_t nwords = TestFixture::kCoord / kFpBytes;
    for (size_t j = 0; j < nwords; ++j) {
      BigInt<6> alias;
      ASSERT_EQ(add_with_carry(alias, words(q.x)[j].to_canonical(), Fp::kModulus), 0u);
      ASSERT_EQ(alias.w[5] >> 61, 0u) << "x + p must stay under the flag bits";
      Bytes b = enc;
      const uint8_t flags = b[0] & 0xe0;
      put_be(alias, b.data() + kFpBytes * j);
      b[0] |= flags;
      EXPECT_TRUE(FailsWith<TypeParam>(b, E::kNonCanonicalCoordinate))
          << "size " << b.size() << ", word " << j;
    }
  }
}

TYPED_TEST(PointEncoding, PointsOffTheCurveAreNotOnCurve) {
  using C = typename TestFixture::C;
  using Aff = typename TestFixture::Aff;
  using Field = typename TestFixture::Field;
  for (int i = 0; i < 5; ++i) {
    // Compressed: an x that no point has (any y would need a square root of x^3 + b).
    const Field x = this->x_off_curve();
    Bytes b = C::compressed(Aff::from_xy(x, Field::one()));
    b[0] &= static_cast<uint8_t>(~kSortFlag);
    EXPECT_TRUE(FailsWith<TypeParam>(b, E::kNotOnCurve)) << "compressed, no sort flag";
    b[0] |= kSortFlag;
    EXPECT_TRUE(FailsWith<TypeParam>(b, E::kNotOnCurve)) << "compressed, sort flag";
    // Uncompressed: a valid x with a wrong y.
    const auto p = this->subgroup_point();
    const Aff off = Aff::from_xy(p.x, p.y + Field::one());
    ASSERT_FALSE(off.is_on_curve());
    EXPECT_TRUE(FailsWith<TypeParam>(C::uncompressed(off), E::kNotOnCurve)) << "uncompressed";
    // Uncompressed with an off-curve x (and any y).
    EXPECT_TRUE(FailsWith<TypeParam>(C::uncompressed(Aff::from_xy(x, p.y)), E::kNotOnCurve));
  }
}

TYPED_TEST(PointEncoding, PointsOutsideTheSubgroupAreRejectedUnlessTrusted) {
  using C = typename TestFixture::C;
  for (int i = 0; i < 5; ++i) {
    const auto q = this->curve_point();
    ASSERT_FALSE(ec_test::CurveOps<TypeParam>::in_subgroup(q));
    for (const Bytes& b : {C::compressed(q), C::uncompressed(q)}) {
      const auto checked = C::decode(b);
      ASSERT_FALSE(checked.has_value()) << "size " << b.size();
      EXPECT_EQ(checked.error(), E::kNotInSubgroup) << describe(checked.error());
      const auto checked_explicit = C::decode(b, SubgroupCheck::kCheck);
      ASSERT_FALSE(checked_explicit.has_value());
      EXPECT_EQ(checked_explicit.error(), E::kNotInSubgroup);
      const auto trusted = C::decode(b, SubgroupCheck::kSkipTrusted);
      ASSERT_TRUE(trusted.has_value()) << describe(trusted.error());
      EXPECT_EQ(*trusted, q);
    }
  }
}

TEST(PointEncodingErrors, EveryErrorHasADistinctDescription) {
  std::set<std::string> seen;
  for (E e : {E::kBadLength, E::kBadFlags, E::kBadInfinity, E::kNonCanonicalCoordinate,
              E::kNotOnCurve, E::kNotInSubgroup}) {
    const std::string d = describe(e);
    EXPECT_FALSE(d.empty());
    seen.insert(d);
  }
  EXPECT_EQ(seen.size(), 6u);
}

TEST(PointEncodingErrors, G1OrderThreePointAtXZeroIsOnCurveButNotInSubgroup) {
  Bytes b(kG1CompressedBytes, 0);
  b[0] = kCompressedFlag;  // x = 0, no infinity flag
  const auto checked = decode_g1(std::span<const uint8_t>(b));
  ASSERT_FALSE(checked.has_value());
  EXPECT_EQ(checked.error(), E::kNotInSubgroup);
  const auto trusted = decode_g1(std::span<const uint8_t>(b), SubgroupCheck::kSkipTrusted);
  ASSERT_TRUE(trusted.has_value()) << describe(trusted.error());
  EXPECT_EQ(trusted->x, Fp::zero());
  EXPECT_FALSE(trusted->y.is_lexicographically_largest());
  EXPECT_EQ(trusted->y.sqr(), Fp::from_u64(4));
}

}  // namespace
}  // namespace cuzk
