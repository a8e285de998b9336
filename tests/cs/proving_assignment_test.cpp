// ProvingAssignment: per-constraint evaluations equal the recorded matrices applied to the test
// system's assignment, densities of a hand-worked example, and the input * 0 = 0 rows.
#include "cs/proving_assignment.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "cs/key_assembly.hpp"
#include "cs/test_cs.hpp"
#include "cs_test_circuits.hpp"

namespace cuzk {
namespace {

// <M_row, w> for every row of one matrix.
std::vector<Fr> evaluate(const std::vector<R1csEntry>& m, size_t rows, std::span<const Fr> inputs,
                         std::span<const Fr> aux) {
  std::vector<Fr> out(rows);
  for (const R1csEntry& e : m) {
    out.at(e.row) += e.coeff * (e.var.is_input() ? inputs[e.var.index] : aux[e.var.index]);
  }
  return out;
}

std::vector<bool> bits_of(const DensityTracker& d) {
  std::vector<bool> out(d.size());
  for (size_t i = 0; i < d.size(); ++i)
    out[i] = d.get(i);
  return out;
}

TEST(ProvingAssignment, EvaluationsEqualTheRecordedMatricesOnTheTestAssignment) {
  const test::Sha256Circuit with_witness(test::sample_message());
  TestConstraintSystem test;
  with_witness.synthesize(test);
  ASSERT_TRUE(test.is_satisfied());
  ProvingAssignment pa;
  with_witness.synthesize(pa);
  KeyAssembly ka;
  test::Sha256Circuit(std::nullopt).synthesize(ka);
  const R1cs r1cs = ka.finish();

  const size_t n = test.num_constraints();
  ASSERT_EQ(pa.a.size(), n);
  ASSERT_EQ(r1cs.num_constraints, n + test.num_inputs());
  EXPECT_EQ(pa.input_assignment,
            std::vector<Fr>(test.input_values().begin(), test.input_values().end()));
  EXPECT_EQ(pa.aux_assignment, std::vector<Fr>(test.aux_values().begin(), test.aux_values().end()));
  const auto a = evaluate(r1cs.a, r1cs.num_constraints, test.input_values(), test.aux_values());
  const auto b = evaluate(r1cs.b, r1cs.num_constraints, test.input_values(), test.aux_values());
  const auto c = evaluate(r1cs.c, r1cs.num_constraints, test.input_values(), test.aux_values());
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(pa.a[i], a[i]) << i;
    ASSERT_EQ(pa.b[i], b[i]) << i;
    ASSERT_EQ(pa.c[i], c[i]) << i;
    ASSERT_EQ(pa.a[i] * pa.b[i], pa.c[i]) << i;
  }
  // After the input rows the two agree on those too.
  pa.add_input_constraints();
  ASSERT_EQ(pa.a.size(), r1cs.num_constraints);
  for (size_t i = n; i < r1cs.num_constraints; ++i) {
    EXPECT_EQ(pa.a[i], a[i]);
    EXPECT_TRUE(pa.b[i].is_zero());
    EXPECT_TRUE(pa.c[i].is_zero());
  }
}

TEST(ProvingAssignment, ReservedCapacityChangesNothingButTheCapacity) {
  const test::Sha256Circuit circuit(test::sample_message());
  ProvingAssignment plain, reserved;
  circuit.synthesize(plain);
  plain.add_input_constraints();
  // Too small and too large hints alike: capacity only.
  for (const size_t rows : {size_t{7}, plain.a.size() * 2}) {
    reserved = ProvingAssignment();
    reserved.reserve(rows, plain.input_assignment.size(), plain.aux_assignment.size());
    EXPECT_GE(reserved.a.capacity(), rows);
    circuit.synthesize(reserved);
    reserved.add_input_constraints();
    EXPECT_EQ(reserved.a, plain.a);
    EXPECT_EQ(reserved.b, plain.b);
    EXPECT_EQ(reserved.c, plain.c);
    EXPECT_EQ(reserved.input_assignment, plain.input_assignment);
    EXPECT_EQ(reserved.aux_assignment, plain.aux_assignment);
    EXPECT_EQ(bits_of(reserved.a_aux_density), bits_of(plain.a_aux_density));
    EXPECT_EQ(bits_of(reserved.b_input_density), bits_of(plain.b_input_density));
    EXPECT_EQ(bits_of(reserved.b_aux_density), bits_of(plain.b_aux_density));
  }
}

TEST(ProvingAssignment, HandWorkedExampleHasTheExpectedEvaluationsAndDensities) {
  ProvingAssignment pa;
  test::HandCircuit(true).synthesize(pa);
  const auto f = [](uint64_t v) { return Fr::from_u64(v); };
  EXPECT_EQ(pa.a, (std::vector<Fr>{f(5), f(20), f(1)}));
  EXPECT_EQ(pa.b, (std::vector<Fr>{f(4), f(3), f(3)}));
  EXPECT_EQ(pa.c, (std::vector<Fr>{f(20), f(60), f(3)}));
  // aux a, b, c, d: A reads a and c; B reads b and a.
  EXPECT_EQ(bits_of(pa.a_aux_density), (std::vector<bool>{true, false, true, false}));
  EXPECT_EQ(bits_of(pa.b_aux_density), (std::vector<bool>{true, true, false, false}));
  // inputs ONE, x, y: B reads ONE and x; y only appears in A.
  EXPECT_EQ(bits_of(pa.b_input_density), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(pa.b_input_density.popcount(), 2u);

  pa.add_input_constraints();
  EXPECT_EQ(pa.a, (std::vector<Fr>{f(5), f(20), f(1), f(1), f(2), f(1)}));
  EXPECT_EQ(pa.b.size(), 6u);
  for (size_t i = 3; i < 6; ++i) {
    EXPECT_TRUE(pa.b[i].is_zero());
    EXPECT_TRUE(pa.c[i].is_zero());
  }
  // The input rows add nothing to the B densities.
  EXPECT_EQ(bits_of(pa.b_input_density), (std::vector<bool>{true, true, false}));
}

TEST(ProvingAssignment, AsksForEveryValueSoAMissingWitnessIsAnError) {
  ProvingAssignment pa;
  try {
    test::HandCircuit(false).synthesize(pa);
    ADD_FAILURE() << "synthesized without a witness";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.kind(), SynthesisError::Kind::kAssignmentMissing);
  }
}

}  // namespace
}  // namespace cuzk
