// MetricCS: the same counts as TestConstraintSystem on a real gadget, never a name or a value
// callback, and (when asked) the same density bitmaps as the proving assignment.
#include "cs/metric_cs.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cs/proving_assignment.hpp"
#include "cs/test_cs.hpp"
#include "cs_test_circuits.hpp"

namespace cuzk {
namespace {

bool same_bits(const DensityTracker& x, const DensityTracker& y) {
  return x.size() == y.size() && x.words() == y.words();
}

TEST(MetricCS, CountsTheSha256CircuitExactlyAsTheTestSystemDoes) {
  TestConstraintSystem test;
  test::Sha256Circuit(test::sample_message()).synthesize(test);
  ASSERT_TRUE(test.is_satisfied());
  MetricCS metric;
  // No witness: any value callback that ran would throw kAssignmentMissing.
  test::Sha256Circuit(std::nullopt).synthesize(metric);
  EXPECT_EQ(metric.num_inputs(), test.num_inputs());
  EXPECT_EQ(metric.num_aux(), test.num_aux());
  EXPECT_EQ(metric.num_constraints(), test.num_constraints());
  // 512 message bits + 44,874 for the hash + 2 packing inputs (254 bits) + 1 inputize.
  EXPECT_EQ(metric.num_constraints(), 512u + 44874u + 1u + 1u);
  EXPECT_EQ(metric.num_inputs(), 1u + 1u + 1u);
}

TEST(MetricCS, NeverCallsNameOrValueCallbacks) {
  MetricCS metric(/*track_density=*/true);
  const auto bad_name = [] {
    ADD_FAILURE() << "name callback called";
    return std::string("x");
  };
  const auto bad_value = [] {
    ADD_FAILURE() << "value callback called";
    return Fr::zero();
  };
  const Variable a = metric.alloc(bad_name, bad_value);
  const Variable i = metric.alloc_input(bad_name, bad_value);
  metric.push_namespace(bad_name);
  metric.enforce(
      bad_name, [&](LinearCombination& lc) { lc += a; }, [&](LinearCombination& lc) { lc += i; },
      [&](LinearCombination& lc) { lc += a; });
  metric.pop_namespace();
  EXPECT_EQ(metric.num_aux(), 1u);
  EXPECT_EQ(metric.num_inputs(), 2u);
  EXPECT_EQ(metric.num_constraints(), 1u);
}

TEST(MetricCS, TracksTheSameDensitiesAsTheProvingAssignment) {
  for (int which = 0; which < 2; ++which) {
    MetricCS metric(/*track_density=*/true);
    ProvingAssignment pa;
    if (which == 0) {
      test::HandCircuit(false).synthesize(metric);
      test::HandCircuit(true).synthesize(pa);
    } else {
      test::Sha256Circuit(std::nullopt).synthesize(metric);
      test::Sha256Circuit(test::sample_message()).synthesize(pa);
    }
    EXPECT_TRUE(same_bits(metric.a_aux_density(), pa.a_aux_density));
    EXPECT_TRUE(same_bits(metric.b_input_density(), pa.b_input_density));
    EXPECT_TRUE(same_bits(metric.b_aux_density(), pa.b_aux_density));
  }
}

}  // namespace
}  // namespace cuzk
