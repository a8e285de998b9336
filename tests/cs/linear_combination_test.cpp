// LinearCombination: evaluation over input/aux assignments, the merged (simplified) form, and
// the arithmetic helpers gadgets build combinations with.
#include "cs/linear_combination.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace cuzk {
namespace {

const std::vector<Fr> kInputs = {Fr::one(), Fr::from_u64(10), Fr::from_u64(100)};
const std::vector<Fr> kAux = {Fr::from_u64(3), Fr::from_u64(5), Fr::from_u64(7)};

TEST(LinearCombination, EvaluatesInputsAndAuxFromTheirOwnAssignments) {
  LinearCombination lc;
  lc.add(Fr::from_u64(2), Variable::input(1));  // 20
  lc += Variable::aux(1);                       // 5
  lc -= Variable::aux(0);                       // -3
  lc += Variable::one();                        // 1
  EXPECT_EQ(lc.eval(kInputs, kAux), Fr::from_u64(23));
  EXPECT_EQ(LinearCombination().eval(kInputs, kAux), Fr::zero());
}

TEST(LinearCombination, RepeatedVariablesAddUpTheirCoefficients) {
  LinearCombination lc(Variable::aux(2), Fr::from_u64(4));
  lc += Variable::aux(2);
  lc.add(-Fr::from_u64(2), Variable::aux(2));
  EXPECT_EQ(lc.size(), 3u);
  EXPECT_EQ(lc.eval(kInputs, kAux), Fr::from_u64(21));
}

TEST(LinearCombination, SimplifyMergesDuplicatesSortsInputsFirstAndKeepsZeroSums) {
  LinearCombination lc;
  lc.add(Fr::from_u64(5), Variable::aux(1));
  lc.add(Fr::from_u64(2), Variable::input(2));
  lc.add(Fr::from_u64(3), Variable::aux(0));
  lc.add(Fr::from_u64(7), Variable::aux(1));
  lc.add(Fr::from_u64(1), Variable::input(0));
  lc.add(-Fr::from_u64(2), Variable::input(2));  // cancels input 2
  const LinearCombination s = lc.simplify();
  ASSERT_EQ(s.size(), 4u);
  const auto t = s.terms();
  EXPECT_EQ(t[0].var, Variable::input(0));
  EXPECT_EQ(t[0].coeff, Fr::one());
  EXPECT_EQ(t[1].var, Variable::input(2));  // kept with coefficient zero (bellpepper keeps it)
  EXPECT_TRUE(t[1].coeff.is_zero());
  EXPECT_EQ(t[2].var, Variable::aux(0));
  EXPECT_EQ(t[3].var, Variable::aux(1));
  EXPECT_EQ(t[3].coeff, Fr::from_u64(12));
  EXPECT_EQ(s.eval(kInputs, kAux), lc.eval(kInputs, kAux));
}

TEST(LinearCombination, ScaledSumsAndDifferencesEvaluateAsExpected) {
  const LinearCombination x = LinearCombination(Variable::aux(0)) + Variable::input(1);  // 13
  const LinearCombination y = LinearCombination(Variable::aux(2)) - Variable::one();     // 6
  EXPECT_EQ((x + y).eval(kInputs, kAux), Fr::from_u64(19));
  EXPECT_EQ((x - y).eval(kInputs, kAux), Fr::from_u64(7));
  LinearCombination z = x;
  z.add_scaled(Fr::from_u64(10), y);
  EXPECT_EQ(z.eval(kInputs, kAux), Fr::from_u64(73));
  z -= x;
  EXPECT_EQ(z.eval(kInputs, kAux), Fr::from_u64(60));
  z.clear();
  EXPECT_TRUE(z.empty());
}

}  // namespace
}  // namespace cuzk
