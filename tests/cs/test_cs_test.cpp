// TestConstraintSystem: namespace paths, the first unsatisfied constraint, one path per object
// (variables, constraints and namespaces share bellpepper's single path space), tampering and
// input verification.
#include "cs/test_cs.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk {
namespace {

Variable alloc(ConstraintSystem& cs, const char* name, uint64_t v) {
  return cs.alloc([&] { return std::string(name); }, [&] { return Fr::from_u64(v); });
}

// x * y = z
void enforce_mul(ConstraintSystem& cs, const char* name, Variable x, Variable y, Variable z) {
  cs.enforce([&] { return std::string(name); }, [&](LinearCombination& lc) { lc += x; },
             [&](LinearCombination& lc) { lc += y; }, [&](LinearCombination& lc) { lc += z; });
}

TEST(TestConstraintSystem, NamesTheFirstUnsatisfiedConstraintByItsNamespacePath) {
  TestConstraintSystem cs;
  Variable a, b, c;
  {
    Ns outer(cs, [] { return std::string("outer"); });
    a = alloc(cs, "a", 2);
    b = alloc(cs, "b", 3);
    {
      Ns inner(cs, [] { return std::string("inner"); });
      c = alloc(cs, "c", 6);
      enforce_mul(cs, "product", a, b, c);
    }
    enforce_mul(cs, "square", a, a, c);  // 4 != 6
  }
  enforce_mul(cs, "again", b, a, c);
  EXPECT_EQ(cs.num_constraints(), 3u);
  EXPECT_EQ(cs.num_aux(), 3u);
  EXPECT_EQ(cs.which_is_unsatisfied(), "outer/square");
  EXPECT_EQ(cs.get("outer/inner/c"), Fr::from_u64(6));
  cs.set("outer/inner/c", Fr::from_u64(5));
  EXPECT_EQ(cs.which_is_unsatisfied(), "outer/inner/product");
  cs.set("outer/inner/c", Fr::from_u64(6));
  cs.set("outer/a", Fr::from_u64(3));  // 3 * 3 != 6: the earlier product now fails first
  EXPECT_EQ(cs.which_is_unsatisfied(), "outer/inner/product");
  cs.set("outer/a", Fr::from_u64(2));
  cs.set("outer/inner/c", Fr::from_u64(4));
  cs.set("outer/b", Fr::from_u64(2));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(TestConstraintSystem, RejectsAPathThatIsAlreadyInUseWhateverItNames) {
  TestConstraintSystem cs;
  const Variable x = alloc(cs, "x", 1);
  EXPECT_THROW(alloc(cs, "x", 1), std::logic_error);
  EXPECT_THROW(cs.alloc_input([] { return std::string("x"); }, [] { return Fr::one(); }),
               std::logic_error);
  EXPECT_THROW(enforce_mul(cs, "x", x, x, x), std::logic_error);  // a constraint named like x
  enforce_mul(cs, "k", x, x, x);
  EXPECT_THROW(enforce_mul(cs, "k", x, x, x), std::logic_error);
  EXPECT_THROW(cs.push_namespace([] { return std::string("k"); }), std::logic_error);
  cs.push_namespace([] { return std::string("ns"); });
  alloc(cs, "x", 1);  // "ns/x" is a new path
  cs.pop_namespace();
  EXPECT_THROW(cs.push_namespace([] { return std::string("ns"); }), std::logic_error);
  EXPECT_THROW(alloc(cs, "ONE", 1), std::logic_error);
}

TEST(TestConstraintSystem, RejectsSlashesInNamesAndUnknownPaths) {
  TestConstraintSystem cs;
  EXPECT_THROW(alloc(cs, "a/b", 1), std::invalid_argument);
  EXPECT_THROW(cs.push_namespace([] { return std::string("a/b"); }), std::invalid_argument);
  EXPECT_THROW(cs.get("nothing"), std::out_of_range);
  EXPECT_THROW(cs.set("nothing", Fr::one()), std::out_of_range);
  const Variable x = alloc(cs, "x", 1);
  enforce_mul(cs, "k", x, x, x);
  EXPECT_THROW(cs.get("k"), std::out_of_range);  // a constraint is not a variable
  EXPECT_THROW(cs.pop_namespace(), std::logic_error);
}

TEST(TestConstraintSystem, VerifiesPublicInputsAfterOne) {
  TestConstraintSystem cs;
  cs.alloc_input([] { return std::string("i0"); }, [] { return Fr::from_u64(4); });
  cs.alloc_input([] { return std::string("i1"); }, [] { return Fr::from_u64(9); });
  EXPECT_EQ(cs.num_inputs(), 3u);
  EXPECT_EQ(cs.get("ONE"), Fr::one());
  const std::vector<Fr> good = {Fr::from_u64(4), Fr::from_u64(9)};
  const std::vector<Fr> bad = {Fr::from_u64(4), Fr::from_u64(8)};
  const std::vector<Fr> short_list = {Fr::from_u64(4)};
  EXPECT_TRUE(cs.verify_inputs(good));
  EXPECT_FALSE(cs.verify_inputs(bad));
  EXPECT_FALSE(cs.verify_inputs(short_list));
}

}  // namespace
}  // namespace cuzk
