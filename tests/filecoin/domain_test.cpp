// Domain <-> Fr conversions: strict (bytes_into_fr) and safe (bytes_into_fr_repr_safe), with the
// byte vectors of rust-fil-proofs fr32/src/convert.rs test_bytes_into_fr_into_bytes.
#include "filecoin/domain.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace cuzk::filecoin {
namespace {

Domain bytes_0_to_31() {
  Domain d;
  for (int i = 0; i < 32; ++i)
    d[i] = static_cast<uint8_t>(i);
  return d;
}

Domain all_ff_then(uint8_t b30, uint8_t b31) {
  Domain d;
  d.fill(0xff);
  d[30] = b30;
  d[31] = b31;
  return d;
}

TEST(Domain, UpstreamConvertVectorsAreAcceptedOrRejectedAsInRustFilProofs) {
  // convert.rs: accepted values round-trip to the same bytes; the others are not in the field.
  for (const Domain& ok : {bytes_0_to_31(), all_ff_then(255, 114), all_ff_then(236, 115)}) {
    const auto f = try_domain_to_fr(ok);
    ASSERT_TRUE(f.has_value()) << to_hex(ok);
    EXPECT_EQ(fr_to_domain(*f), ok);
  }
  for (const Domain& bad : {all_ff_then(255, 115), all_ff_then(237, 115)}) {
    EXPECT_FALSE(try_domain_to_fr(bad).has_value()) << to_hex(bad);
    EXPECT_FALSE(is_canonical_fr(bad));
  }
}

TEST(Domain, StrictConversionOfTheModulusThrowsNamingTheValue) {
  // r = 0x73eda753...00000001 (facts 3.1), stored little-endian.
  const Domain r =
      domain_from_hex("01000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73");
  try {
    domain_to_fr(r);
    FAIL() << "r was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(to_hex(r)), std::string::npos) << e.what();
  }
  Domain r_minus_1 = r;
  r_minus_1[0] = 0;
  EXPECT_EQ(domain_to_fr(r_minus_1), Fr::zero() - Fr::one());
}

TEST(Domain, SafeConversionClearsTheTwoTopBits) {
  Domain ones;
  ones.fill(0xff);
  EXPECT_EQ(trim_to_fr32(ones)[31], 0x3f);
  EXPECT_EQ(domain_to_fr_safe(ones),
            Fr::from_hex("0x3fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"));
  // Values already below 2^254 are unchanged.
  EXPECT_EQ(domain_to_fr_safe(bytes_0_to_31()), domain_to_fr(bytes_0_to_31()));
}

TEST(Domain, EncodingIsLittleEndianCanonical) {
  Domain one{};
  one[0] = 1;
  EXPECT_EQ(fr_to_domain(Fr::one()), one);
  Domain big{};
  big[8] = 1;  // 2^64
  EXPECT_EQ(domain_to_fr(big), Fr::from_hex("0x10000000000000000"));
}

TEST(Domain, HexHelpersRejectBadInputByName) {
  EXPECT_EQ(to_hex(bytes_from_hex("0x00ff10")), "00ff10");
  EXPECT_THROW(bytes_from_hex("abc"), std::invalid_argument);
  EXPECT_THROW(bytes_from_hex("zz"), std::invalid_argument);
  EXPECT_THROW(domain_from_hex("00"), std::invalid_argument);
  EXPECT_THROW(domain_from_bytes(std::vector<uint8_t>(31)), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
