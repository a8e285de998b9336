// MultiEq against bellperson 0.27 multieq.rs: equalities are packed at increasing powers of two
// into one "multieq i" constraint until the next one would reach Fr::CAPACITY (254) bits.
#include "gadgets/multieq.hpp"

#include <gtest/gtest.h>

#include "cs/test_cs.hpp"
#include "gadgets/num.hpp"
#include "gadgets/scope.hpp"

namespace cuzk::gadgets {
namespace {

// Allocates x and y with the given values and queues x = y as a `bits`-bit equality.
void queue_equal(MultiEq& meq, size_t k, size_t bits, uint64_t x, uint64_t y) {
  const AllocatedNum a = AllocatedNum::alloc(Ns(meq, NameN{"x ", k}), Fr::from_u64(x));
  const AllocatedNum b = AllocatedNum::alloc(Ns(meq, NameN{"y ", k}), Fr::from_u64(y));
  meq.enforce_equal(bits, a.variable(), b.variable());
}

TEST(MultiEq, PacksEqualitiesUntilTheNextWouldReachTheFieldCapacity) {
  TestConstraintSystem cs;
  MultiEq meq(cs);
  // 7 x 34 = 238 bits fit; the 8th (272 >= 254) starts a second batch.
  for (size_t k = 0; k < 8; ++k)
    queue_equal(meq, k, 34, 1000 + k, 1000 + k);
  EXPECT_EQ(cs.num_constraints(), 1u);
  EXPECT_EQ(meq.batches_emitted(), 1u);
  meq.finish();
  EXPECT_EQ(cs.num_constraints(), 2u);
  EXPECT_TRUE(cs.is_satisfied());
  meq.finish();  // nothing pending: no empty constraint
  EXPECT_EQ(cs.num_constraints(), 2u);
}

TEST(MultiEq, ABatchOfExactlyCapacityBitsIsSplitLikeBellperson) {
  // bellperson flushes when CAPACITY <= used + new, so 127 + 127 = 254 is split, 127 + 126 not.
  {
    TestConstraintSystem cs;
    MultiEq meq(cs);
    queue_equal(meq, 0, 127, 1, 1);
    queue_equal(meq, 1, 127, 2, 2);
    meq.finish();
    EXPECT_EQ(cs.num_constraints(), 2u);
  }
  {
    TestConstraintSystem cs;
    MultiEq meq(cs);
    queue_equal(meq, 0, 127, 1, 1);
    queue_equal(meq, 1, 126, 2, 2);
    meq.finish();
    EXPECT_EQ(cs.num_constraints(), 1u);
  }
  TestConstraintSystem cs;
  MultiEq meq(cs);
  EXPECT_THROW(queue_equal(meq, 0, 254, 1, 1), std::invalid_argument);
}

TEST(MultiEq, AFalseEqualityFailsItsBatchUnderTheNamespaceCurrentWhenTheBatchIsEmitted) {
  TestConstraintSystem cs;
  {
    MultiEq meq(cs);
    queue_equal(meq, 0, 200, 5, 5);
    {
      const Ns ns(meq, Name{"inner"});
      queue_equal(meq, 1, 100, 6, 7);  // flushes batch 0 (inside "inner"), opens batch 1
    }
    queue_equal(meq, 2, 10, 8, 8);
  }  // the destructor emits batch 1 at the root
  EXPECT_EQ(cs.num_constraints(), 2u);
  EXPECT_EQ(cs.which_is_unsatisfied(), "multieq 1");
  cs.set("inner/y 1/num", Fr::from_u64(6));
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("x 0/num", Fr::from_u64(4));
  EXPECT_EQ(cs.which_is_unsatisfied(), "inner/multieq 0");
}

TEST(MultiEq, ForwardsAllocationsAndConstraintsUnchanged) {
  TestConstraintSystem cs;
  MultiEq meq(cs);
  const AllocatedNum a = AllocatedNum::alloc(Ns(meq, Name{"a"}), Fr::from_u64(3));
  a.inputize(meq);
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.num_constraints(), 1u);
  EXPECT_EQ(cs.get("a/num"), Fr::from_u64(3));
}

}  // namespace
}  // namespace cuzk::gadgets
