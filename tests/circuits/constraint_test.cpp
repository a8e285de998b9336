// The rust-fil-proofs helper gadgets: constraint.rs (equal, sum, difference, add, sub), encode.rs,
// uint64.rs, xor.rs and the util.rs bit helpers: their values, one constraint each, their names,
// and failures of tampered variables.
#include "circuits/constraint.hpp"

#include <gtest/gtest.h>

#include <random>

#include "circuit_test_util.hpp"
#include "circuits/bits.hpp"
#include "circuits/insertion.hpp"
#include "circuits/uint64.hpp"
#include "cs/key_assembly.hpp"
#include "cs/metric_cs.hpp"
#include "cs/test_cs.hpp"

namespace cuzk::circuits {
namespace {

using gadgets::AllocatedBit;
using gadgets::Name;
using gadgets::Ns;

struct Two {
  TestConstraintSystem cs;
  Fr x, y;
  AllocatedNum a, b;
  explicit Two(uint64_t seed) {
    std::mt19937_64 rng(seed);
    x = Fr::random(rng);
    y = Fr::random(rng);
    a = AllocatedNum::alloc(Ns(cs, Name{"a"}), x);
    b = AllocatedNum::alloc(Ns(cs, Name{"b"}), y);
  }
};

TEST(Constraint, EqualSumDifferenceAreOneConstraintEach) {
  Two t(1);
  equal(t.cs, Name{"a equals a"}, t.a, t.a);
  const AllocatedNum s = AllocatedNum::alloc(Ns(t.cs, Name{"s"}), t.x + t.y);
  sum(t.cs, Name{"a plus b"}, t.a, t.b, s);
  const AllocatedNum d = AllocatedNum::alloc(Ns(t.cs, Name{"d"}), t.x - t.y);
  difference(t.cs, Name{"a minus b"}, t.a, t.b, d);
  EXPECT_TRUE(t.cs.is_satisfied());
  EXPECT_EQ(t.cs.num_constraints(), 3u);
  equal(t.cs, Name{"a equals b"}, t.a, t.b);
  EXPECT_EQ(t.cs.which_is_unsatisfied(), "a equals b");
  t.cs.set("d/num", t.x);
  EXPECT_EQ(t.cs.which_is_unsatisfied(), "a minus b");
}

TEST(Constraint, AddSubEncodeDecode) {
  Two t(2);
  const AllocatedNum s = add(Ns(t.cs, Name{"add"}), t.a, t.b);
  const AllocatedNum d = sub(Ns(t.cs, Name{"sub"}), t.a, t.b);
  const AllocatedNum enc = encode(Ns(t.cs, Name{"encode"}), t.a, t.b);
  const AllocatedNum dec = decode(Ns(t.cs, Name{"decode"}), t.a, enc);
  EXPECT_TRUE(t.cs.is_satisfied());
  EXPECT_EQ(t.cs.num_constraints(), 4u);
  EXPECT_EQ(*s.value(), t.x + t.y);
  EXPECT_EQ(*d.value(), t.x - t.y);
  EXPECT_EQ(*enc.value(), t.x + t.y);
  EXPECT_EQ(*dec.value(), t.y);
  EXPECT_EQ(t.cs.get("encode/encode_add/add_num/num"), t.x + t.y);
  EXPECT_EQ(t.cs.get("decode/decode_sub/sub_num/num"), t.y);
  t.cs.set("encode/encode_add/add_num/num", t.x);
  EXPECT_EQ(t.cs.which_is_unsatisfied(), "encode/encode_add/sum constraint");
  t.cs.set("encode/encode_add/add_num/num", t.x + t.y);
  t.cs.set("sub/sub_num/num", t.y);
  EXPECT_EQ(t.cs.which_is_unsatisfied(), "sub/subtraction constraint");
}

TEST(Constraint, ExactRowShapes) {
  // Variables a0 = a, a1 = b, a2 = given result; then add / sub / pick results.
  KeyAssembly ka;
  const AllocatedNum a = AllocatedNum::alloc(ka, std::nullopt);
  const AllocatedNum b = AllocatedNum::alloc(ka, std::nullopt);
  const AllocatedNum r = AllocatedNum::alloc(ka, std::nullopt);
  equal(ka, Name{"equal"}, a, b);
  sum(ka, Name{"sum"}, a, b, r);
  difference(ka, Name{"difference"}, a, b, r);
  add(ka, a, b);                                                   // a3
  sub(ka, a, b);                                                   // a4
  encode(ka, a, b);                                                // a5 = a + b
  decode(ka, a, b);                                                // a6 = b - a
  const AllocatedBit bit = AllocatedBit::alloc(ka, std::nullopt);  // a7, row 7
  pick(ka, bit, a, b);                                             // a8
  const R1cs r1cs = ka.finish();
  EXPECT_EQ(test::row_shape(r1cs, 0), "a0 | ONE | a1");
  EXPECT_EQ(test::row_shape(r1cs, 1), "a0 + a1 | ONE | a2");
  EXPECT_EQ(test::row_shape(r1cs, 2), "a1 + a2 | ONE | a0");
  EXPECT_EQ(test::row_shape(r1cs, 3), "a0 + a1 | ONE | a3");
  EXPECT_EQ(test::row_shape(r1cs, 4), "a1 + a4 | ONE | a0");
  EXPECT_EQ(test::row_shape(r1cs, 5), "a0 + a1 | ONE | a5");
  EXPECT_EQ(test::row_shape(r1cs, 6), "a0 + a6 | ONE | a1");
  EXPECT_EQ(test::row_shape(r1cs, 8), "-a0 + a1 | a7 | a1 + -a8");
}

TEST(UInt64, AllocPackAndBitOrders) {
  const uint64_t v = 0x8123456789abcdefULL;
  TestConstraintSystem cs;
  const UInt64 c = UInt64::alloc(Ns(cs, Name{"challenge"}), v);
  EXPECT_EQ(cs.num_constraints(), 64u);
  c.pack_into_input(Ns(cs, Name{"challenge input"}));
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 65u);
  EXPECT_EQ(cs.num_inputs(), 2u);
  const Fr expected_input = Fr::from_u64(v);
  EXPECT_TRUE(cs.verify_inputs(std::span<const Fr>(&expected_input, 1)));
  EXPECT_EQ(cs.get("challenge input/input 0"), expected_input);
  EXPECT_NO_THROW(cs.get("challenge/allocated bit 63/boolean"));
  EXPECT_EQ(UInt64::from_bits(c.to_bits_le()).value(), v);
  EXPECT_EQ(UInt64::from_bits_be(c.to_bits_be()).value(), v);
  EXPECT_EQ(c.to_bits_be().front().value(), true);  // the top bit of v
  EXPECT_EQ(UInt64::constant(v).value(), v);
  EXPECT_TRUE(UInt64::constant(v).to_bits_le()[0].is_constant());
  // A flipped bit no longer packs to the input.
  cs.set("challenge/allocated bit 0/boolean", Fr::zero());
  EXPECT_EQ(cs.which_is_unsatisfied(), "challenge input/packing constraint 0");
  // Blank allocation: unknown value, same shape.
  MetricCS mcs;
  const UInt64 blank = UInt64::alloc(mcs, std::nullopt);
  blank.pack_into_input(mcs);
  EXPECT_FALSE(blank.value().has_value());
  EXPECT_EQ(mcs.num_constraints(), 65u);
  EXPECT_EQ(mcs.num_inputs(), 2u);
}

TEST(Bits, BytesIntoBooleansReverseNumberingAndXor) {
  const std::vector<uint8_t> bytes = {0x01, 0x80, 0xa5};
  TestConstraintSystem cs;
  const std::vector<Boolean> le =
      bytes_into_boolean_vec(Ns(cs, Name{"le"}), std::span<const uint8_t>(bytes), 0);
  const std::vector<Boolean> be =
      bytes_into_boolean_vec_be(Ns(cs, Name{"be"}), std::span<const uint8_t>(bytes), 0);
  ASSERT_EQ(le.size(), 24u);
  EXPECT_EQ(le[0].value(), true);
  EXPECT_EQ(le[15].value(), true);
  EXPECT_EQ(be[7].value(), true);
  EXPECT_EQ(be[8].value(), true);
  const std::vector<Boolean> rev = reverse_bit_numbering(le);
  for (size_t i = 0; i < 24; ++i)
    EXPECT_EQ(rev[i].value(), be[i].value()) << i;
  const std::vector<Boolean> padded =
      reverse_bit_numbering(std::vector<Boolean>(le.begin(), le.begin() + 3));
  EXPECT_EQ(padded.size(), 8u);
  EXPECT_TRUE(padded[0].is_constant());
  EXPECT_EQ(padded[7].value(), true);
  // Without a value: `size` unknown bits.
  MetricCS mcs;
  EXPECT_EQ(bytes_into_boolean_vec(mcs, std::nullopt, 256).size(), 256u);
  EXPECT_EQ(mcs.num_constraints(), 256u);

  std::mt19937_64 rng(4);
  std::vector<uint8_t> key(32), input(40);
  for (auto& k : key)
    k = static_cast<uint8_t>(rng());
  for (auto& k : input)
    k = static_cast<uint8_t>(rng());
  TestConstraintSystem xcs;
  const std::vector<Boolean> kb =
      bytes_into_boolean_vec(Ns(xcs, Name{"key"}), std::span<const uint8_t>(key), 0);
  const std::vector<Boolean> ib =
      bytes_into_boolean_vec(Ns(xcs, Name{"input"}), std::span<const uint8_t>(input), 0);
  const std::vector<Boolean> out = xor_bits(Ns(xcs, Name{"xor"}), kb, ib);
  EXPECT_TRUE(xcs.is_satisfied());
  EXPECT_EQ(xcs.num_constraints(), 256u + 320u + 320u);
  for (size_t i = 0; i < out.size(); ++i) {
    const bool want = (((input[i / 8] ^ key[(i / 8) % 32]) >> (i % 8)) & 1) != 0;
    EXPECT_EQ(out[i].value(), want) << i;
  }
  EXPECT_NO_THROW(xcs.get("xor/xor bit: 319/xor result"));
  EXPECT_THROW(xor_bits(xcs, ib, ib), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::circuits
