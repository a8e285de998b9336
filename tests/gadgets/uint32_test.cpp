// UInt32 against bellperson 0.27 uint32.rs: bit orders, free rotations and shifts, bitwise
// SHA-256 helpers, and addmany's constant folding, result width and MultiEq equality.
#include "gadgets/uint32.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "cs/test_cs.hpp"
#include "gadgets/multieq.hpp"
#include "gadgets/scope.hpp"

namespace cuzk::gadgets {
namespace {

void expect_bits(const UInt32& x, uint32_t expected) {
  ASSERT_EQ(x.value(), expected);
  for (size_t i = 0; i < 32; ++i)
    EXPECT_EQ(x.bits()[i].value(), ((expected >> i) & 1) != 0) << i;
}

TEST(UInt32, AllocationIs32NamedBooleans) {
  TestConstraintSystem cs;
  const UInt32 x = UInt32::alloc(cs, 0x80000001u);
  expect_bits(x, 0x80000001u);
  EXPECT_EQ(cs.num_constraints(), 32u);
  EXPECT_EQ(cs.get("allocated bit 31/boolean"), Fr::one());
  EXPECT_EQ(cs.get("allocated bit 30/boolean"), Fr::zero());
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(UInt32, BitOrderConversionsRoundTrip) {
  std::mt19937_64 rng(1);
  for (int iter = 0; iter < 200; ++iter) {
    const auto v = static_cast<uint32_t>(rng());
    const UInt32 c = UInt32::constant(v);
    expect_bits(c, v);
    const std::vector<Boolean> be = c.into_bits_be();
    EXPECT_EQ(be[0].value(), (v >> 31) != 0);
    expect_bits(UInt32::from_bits_be(be), v);
    expect_bits(UInt32::from_bits(c.into_bits()), v);
  }
  EXPECT_THROW(UInt32::from_bits(std::vector<Boolean>(31)), std::invalid_argument);
}

TEST(UInt32, RotationsAndShiftsOnlyReindexBits) {
  std::mt19937_64 rng(2);
  const auto v = static_cast<uint32_t>(rng());
  for (size_t by = 0; by < 64; ++by) {
    expect_bits(UInt32::constant(v).rotr(by), std::rotr(v, static_cast<int>(by % 32)));
    expect_bits(UInt32::constant(v).shr(by), v >> (by % 32));
  }
  TestConstraintSystem cs;
  const UInt32 x = UInt32::alloc(cs, v);
  const UInt32 r = x.rotr(7);
  EXPECT_EQ(r.bits()[0].bit().variable(), x.bits()[7].bit().variable());
  EXPECT_TRUE(x.shr(3).bits()[31].is_constant());
  EXPECT_EQ(cs.num_constraints(), 32u);
}

TEST(UInt32, XorWithAConstantIsFreeAndWithAVariableCostsOneConstraintPerBit) {
  std::mt19937_64 rng(3);
  for (int iter = 0; iter < 50; ++iter) {
    TestConstraintSystem cs;
    const auto a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng()),
               c = static_cast<uint32_t>(rng());
    const UInt32 xa = UInt32::alloc(Ns(cs, Name{"a_bit"}), a);
    const UInt32 xc = UInt32::alloc(Ns(cs, Name{"c_bit"}), c);
    const UInt32 r1 = xa.xor_(Ns(cs, Name{"first xor"}), UInt32::constant(b));
    EXPECT_EQ(cs.num_constraints(), 64u);
    const UInt32 r2 = r1.xor_(Ns(cs, Name{"second xor"}), xc);
    EXPECT_EQ(cs.num_constraints(), 96u);
    expect_bits(r2, a ^ b ^ c);
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(UInt32, MajAndChMatchTheirDefinitions) {
  std::mt19937_64 rng(4);
  for (int iter = 0; iter < 50; ++iter) {
    TestConstraintSystem cs;
    const auto a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng()),
               c = static_cast<uint32_t>(rng());
    const UInt32 xa = UInt32::alloc(Ns(cs, Name{"a_bit"}), a);
    const UInt32 xb = UInt32::constant(b);
    const UInt32 xc = UInt32::alloc(Ns(cs, Name{"c_bit"}), c);
    expect_bits(UInt32::sha256_maj(Ns(cs, Name{"maj"}), xa, xb, xc), (a & b) ^ (a & c) ^ (b & c));
    expect_bits(UInt32::sha256_ch(Ns(cs, Name{"ch"}), xa, xb, xc), (a & b) ^ (~a & c));
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(UInt32, AddmanyOfConstantsIsAConstantAndCostsNothing) {
  std::mt19937_64 rng(5);
  for (int iter = 0; iter < 100; ++iter) {
    TestConstraintSystem cs;
    const auto a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng()),
               c = static_cast<uint32_t>(rng());
    UInt32 r;
    {
      MultiEq meq(cs);
      const std::vector<UInt32> ops = {UInt32::constant(a), UInt32::constant(b),
                                       UInt32::constant(c)};
      r = UInt32::addmany(Ns(meq, Name{"addition"}), ops);
    }
    expect_bits(r, a + b + c);
    for (const Boolean& bit : r.bits())
      EXPECT_TRUE(bit.is_constant());
    EXPECT_EQ(cs.num_constraints(), 0u);
  }
}

TEST(UInt32, AddmanyAllocatesTheFullSumWidthAndOneMultieqAndFailsOnAFlippedResultBit) {
  // bellperson's test_uint32_addmany: (a xor b) + c + d with b and c constant.
  std::mt19937_64 rng(6);
  for (int iter = 0; iter < 50; ++iter) {
    TestConstraintSystem cs;
    const auto a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng()),
               c = static_cast<uint32_t>(rng()), d = static_cast<uint32_t>(rng());
    const UInt32 xa = UInt32::alloc(Ns(cs, Name{"a_bit"}), a);
    const UInt32 xd = UInt32::alloc(Ns(cs, Name{"d_bit"}), d);
    const UInt32 x = xa.xor_(Ns(cs, Name{"xor"}), UInt32::constant(b));
    UInt32 r;
    {
      MultiEq meq(cs);
      const std::vector<UInt32> ops = {x, UInt32::constant(c), xd};
      r = UInt32::addmany(Ns(meq, Name{"addition"}), ops);
    }
    expect_bits(r, (a ^ b) + c + d);
    EXPECT_TRUE(cs.is_satisfied());
    // 2 x 32 operand bits, 34 result bits (3 (2^32 - 1) < 2^34), one "multieq 0".
    EXPECT_EQ(cs.num_constraints(), 64u + 34u + 1u);
    const Fr bit0 = cs.get("addition/result bit 0/boolean");
    cs.set("addition/result bit 0/boolean", Fr::one() - bit0);
    EXPECT_EQ(cs.which_is_unsatisfied(), "multieq 0");
  }
}

TEST(UInt32, AddmanyResultWidthFollowsTheLargestPossibleSum) {
  const size_t widths[] = {33, 34, 34, 35, 35, 35, 35, 36, 36};  // 2 .. 10 operands
  for (size_t n = 2; n <= 10; ++n) {
    TestConstraintSystem cs;
    std::vector<UInt32> ops;
    uint32_t expect = 0;
    for (size_t k = 0; k < n; ++k) {
      const uint32_t v = 0xffffffffu - static_cast<uint32_t>(k);
      ops.push_back(UInt32::alloc(Ns(cs, NameN{"op ", k}), v));
      expect += v;
    }
    const size_t before = cs.num_constraints();
    MultiEq meq(cs);
    const UInt32 r = UInt32::addmany(Ns(meq, Name{"sum"}), ops);
    meq.finish();
    expect_bits(r, expect);
    EXPECT_EQ(cs.num_constraints() - before, widths[n - 2] + 1) << n;
    EXPECT_TRUE(cs.is_satisfied());
  }
  TestConstraintSystem cs;
  MultiEq meq(cs);
  EXPECT_THROW(UInt32::addmany(meq, std::vector<UInt32>(1)), std::invalid_argument);
  EXPECT_THROW(UInt32::addmany(meq, std::vector<UInt32>(11)), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::gadgets
