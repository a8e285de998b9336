// AllocatedNum and Num against bellpepper-core 0.2 num.rs: values, names, the 255 + 1 cost of
// to_bits_le, the strict decomposition's rejection of non-canonical encodings, and failing
// constraints after tampering.
#include "gadgets/num.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cs/metric_cs.hpp"
#include "cs/test_cs.hpp"
#include "gadgets/scope.hpp"

namespace cuzk::gadgets {
namespace {

Fr fr(bool b) {
  return b ? Fr::one() : Fr::zero();
}

TEST(AllocatedNum, AllocatesAuxNumAndPublicInputNum) {
  TestConstraintSystem cs;
  const AllocatedNum a = AllocatedNum::alloc(cs, Fr::one());
  const AllocatedNum b = AllocatedNum::alloc_input(cs, Fr::from_u64(7));
  EXPECT_EQ(cs.get("num"), Fr::one());
  EXPECT_EQ(cs.get("input num"), Fr::from_u64(7));
  EXPECT_FALSE(a.variable().is_input());
  EXPECT_TRUE(b.variable().is_input());
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.num_constraints(), 0u);
}

TEST(AllocatedNum, InputizeAddsOneInputAndOneConstraintTyingItToTheNumber) {
  TestConstraintSystem cs;
  const AllocatedNum a = AllocatedNum::alloc(Ns(cs, Name{"a"}), Fr::from_u64(42));
  a.inputize(Ns(cs, Name{"expose"}));
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.num_constraints(), 1u);
  const std::vector<Fr> expected = {Fr::from_u64(42)};
  EXPECT_TRUE(cs.verify_inputs(expected));
  cs.set("expose/input variable", Fr::from_u64(43));
  EXPECT_EQ(cs.which_is_unsatisfied(), "expose/enforce input is correct");
}

TEST(AllocatedNum, MultiplicationAndSquaringAreOneConstraintEach) {
  TestConstraintSystem cs;
  const AllocatedNum a = AllocatedNum::alloc(Ns(cs, Name{"a"}), Fr::from_u64(12));
  const AllocatedNum b = AllocatedNum::alloc(Ns(cs, Name{"b"}), Fr::from_u64(10));
  const AllocatedNum p = a.mul(Ns(cs, Name{"mul"}), b);
  const AllocatedNum s = a.square(Ns(cs, Name{"sq"}));
  EXPECT_EQ(p.value(), Fr::from_u64(120));
  EXPECT_EQ(s.value(), Fr::from_u64(144));
  EXPECT_EQ(cs.get("mul/product num"), Fr::from_u64(120));
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 2u);
  cs.set("sq/squared num", Fr::from_u64(145));
  EXPECT_EQ(cs.which_is_unsatisfied(), "sq/squaring constraint");
  cs.set("mul/product num", Fr::from_u64(121));
  EXPECT_EQ(cs.which_is_unsatisfied(), "mul/multiplication constraint");
}

TEST(AllocatedNum, AssertNonzeroAcceptsInvertibleValuesAndRefusesZero) {
  TestConstraintSystem cs;
  const AllocatedNum a = AllocatedNum::alloc(Ns(cs, Name{"a"}), Fr::from_u64(3));
  a.assert_nonzero(cs);
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("ephemeral inverse", Fr::from_u64(3));
  EXPECT_EQ(cs.which_is_unsatisfied(), "nonzero assertion constraint");

  TestConstraintSystem zero_cs;
  const AllocatedNum z = AllocatedNum::alloc(zero_cs, Fr::zero());
  try {
    z.assert_nonzero(zero_cs);
    ADD_FAILURE() << "zero accepted";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.kind(), SynthesisError::Kind::kDivisionByZero);
  }
  // A shape-only system never asks for the inverse.
  MetricCS metric;
  EXPECT_NO_THROW(AllocatedNum::alloc(metric, Fr::zero()).assert_nonzero(metric));
}

TEST(AllocatedNum, ConditionalReversalSwapsExactlyWhenTheConditionHolds) {
  std::mt19937_64 rng(7);
  for (bool swap : {false, true}) {
    TestConstraintSystem cs;
    const AllocatedNum a = AllocatedNum::alloc(Ns(cs, Name{"a"}), Fr::random(rng));
    const AllocatedNum b = AllocatedNum::alloc(Ns(cs, Name{"b"}), Fr::random(rng));
    const Boolean cond = AllocatedBit::alloc(Ns(cs, Name{"cond"}), swap);
    const auto [c, d] = AllocatedNum::conditionally_reverse(Ns(cs, Name{"rev"}), a, b, cond);
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_EQ(c.value(), swap ? b.value() : a.value());
    EXPECT_EQ(d.value(), swap ? a.value() : b.value());
    EXPECT_EQ(cs.num_constraints(), 3u);
    cs.set("rev/conditional reversal result 2/num", Fr::from_u64(5));
    EXPECT_EQ(cs.which_is_unsatisfied(), "rev/second conditional reversal");
    cs.set("rev/conditional reversal result 1/num", Fr::from_u64(5));
    EXPECT_EQ(cs.which_is_unsatisfied(), "rev/first conditional reversal");
  }
}

TEST(AllocatedNum, ToBitsLeCosts255BooleansPlusOnePackingConstraint) {
  std::mt19937_64 rng(11);
  for (int iter = 0; iter < 20; ++iter) {
    const Fr r = Fr::random(rng);
    TestConstraintSystem cs;
    const AllocatedNum n = AllocatedNum::alloc(cs, r);
    const std::vector<Boolean> bits = n.to_bits_le(cs);
    ASSERT_EQ(bits.size(), 255u);
    EXPECT_EQ(cs.num_constraints(), 255u + 1u);
    EXPECT_EQ(cs.num_aux(), 1u + 255u);
    EXPECT_TRUE(cs.is_satisfied());
    const auto canonical = r.to_canonical();
    for (size_t i = 0; i < 255; ++i) {
      ASSERT_EQ(bits[i].kind(), Boolean::Kind::kIs);
      EXPECT_EQ(bits[i].value(), canonical.bit(i));
    }
    cs.set("num", Fr::random(rng));
    EXPECT_EQ(cs.which_is_unsatisfied(), "unpacking constraint");
    cs.set("num", r);
    const std::string name = "bit " + std::to_string(iter * 12) + "/boolean";
    const Fr cur = cs.get(name);
    cs.set(name, Fr::one() - cur);
    EXPECT_EQ(cs.which_is_unsatisfied(), "unpacking constraint");
  }
}

TEST(AllocatedNum, StrictBitsRejectTheCharacteristicAndNameTheConditionalBooleanConstraint) {
  // bellpepper's test: -1 decomposes, then setting its lowest bit (named "bit 254" because the
  // strict names count from the top) would encode r itself.
  TestConstraintSystem cs;
  const AllocatedNum n = AllocatedNum::alloc(cs, -Fr::one());
  const std::vector<Boolean> bits = n.to_bits_le_strict(cs);
  ASSERT_EQ(bits.size(), 255u);
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("bit 254/boolean", Fr::one());
  EXPECT_EQ(cs.which_is_unsatisfied(), "bit 254/boolean constraint");
}

TEST(AllocatedNum, NonStrictBitsAlsoAcceptTheEncodingPlusTheModulus) {
  // 5 + r still fits in 255 bits, so it satisfies the non-strict decomposition of 5: why
  // to_bits_le_strict exists.
  BigInt<4> alias;
  add_with_carry(alias, Fr::kModulus, BigInt<4>::from_u64(5));
  ASSERT_LT(alias.num_bits(), 256u);
  TestConstraintSystem cs;
  AllocatedNum::alloc(cs, Fr::from_u64(5)).to_bits_le(cs);
  for (size_t i = 0; i < 255; ++i)
    cs.set("bit " + std::to_string(i) + "/boolean", fr(alias.bit(i)));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(AllocatedNum, StrictBitsMatchTheValueForRandomElements) {
  std::mt19937_64 rng(13);
  for (int iter = 0; iter < 20; ++iter) {
    const Fr r = Fr::random(rng);
    TestConstraintSystem cs;
    const std::vector<Boolean> bits = AllocatedNum::alloc(cs, r).to_bits_le_strict(cs);
    EXPECT_TRUE(cs.is_satisfied());
    const auto canonical = r.to_canonical();
    for (size_t i = 0; i < 255; ++i)
      EXPECT_EQ(bits[i].value(), canonical.bit(i));
  }
}

TEST(Num, AccumulatesBooleansWithCoefficientsAsALinearCombination) {
  TestConstraintSystem cs;
  const Boolean t = AllocatedBit::alloc(Ns(cs, Name{"t"}), true);
  const Boolean f = AllocatedBit::alloc(Ns(cs, Name{"f"}), false);
  Num num;
  num.add_bool_with_coeff(Variable::one(), t, Fr::from_u64(1))
      .add_bool_with_coeff(Variable::one(), f.not_(), Fr::from_u64(2))
      .add_bool_with_coeff(Variable::one(), Boolean::constant(true), Fr::from_u64(4))
      .add_bool_with_coeff(Variable::one(), f, Fr::from_u64(8));
  EXPECT_EQ(num.value(), Fr::from_u64(7));
  EXPECT_EQ(num.lc(Fr::one()).eval(cs.input_values(), cs.aux_values()), Fr::from_u64(7));
  num.scale(Fr::from_u64(3));
  EXPECT_EQ(num.value(), Fr::from_u64(21));
  EXPECT_EQ(num.lc(Fr::one()).eval(cs.input_values(), cs.aux_values()), Fr::from_u64(21));
  const AllocatedNum n = AllocatedNum::alloc(Ns(cs, Name{"n"}), Fr::from_u64(100));
  num.add(Num(n));
  EXPECT_EQ(num.value(), Fr::from_u64(121));
  EXPECT_EQ(num.lc(Fr::from_u64(2)).eval(cs.input_values(), cs.aux_values()), Fr::from_u64(242));
  Num unknown(AllocatedNum(n.variable(), std::nullopt));
  EXPECT_FALSE(Num().add(unknown).value().has_value());
  EXPECT_EQ(cs.num_constraints(), 2u);
}

}  // namespace
}  // namespace cuzk::gadgets
