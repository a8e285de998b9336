// RecordingCS against the classic proving assignment (the twin the prover used before): the
// recorded matrices applied to a witness give the same a, b, c on every row, the same density
// bitmaps, and rows with each variable once.
#include "pce/recording_cs.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "cs/cs_test_circuits.hpp"
#include "cs/proving_assignment.hpp"
#include "groth16/random_circuit.hpp"
#include "pce/spmv.hpp"
#include "pce/witness_cs.hpp"
#include "pce_test_util.hpp"
#include "piece_circuit.hpp"

namespace cuzk::pce {
namespace {

const CircuitIdentity kId{"test", 0, "any", 1};

struct Case {
  const char* name;
  const Circuit* witness;  // with values
  const Circuit* blank;    // the shape alone (may be the same object)
};

void expect_pce_matches_classic(const Circuit& witness_circuit, const Circuit& blank) {
  RecordingCS rec;
  blank.synthesize(rec);
  const RecordedCircuit rc = std::move(rec).finish(kId);

  ProvingAssignment pa;
  witness_circuit.synthesize(pa);
  pa.add_input_constraints();
  ASSERT_FALSE(pa.first_unsatisfied().has_value());
  ASSERT_EQ(rc.num_rows, pa.a.size());
  ASSERT_EQ(rc.num_inputs, pa.input_assignment.size());
  ASSERT_EQ(rc.num_aux, pa.aux_assignment.size());

  ThreadPool pool(3);
  WitnessCS wcs(&pool);
  witness_circuit.synthesize(wcs);
  const CompactWitness w = std::move(wcs).finish();
  EXPECT_EQ(w.inputs, pa.input_assignment);
  EXPECT_EQ(w.expand_aux(), pa.aux_assignment);

  std::vector<Fr> a(rc.num_rows), b(rc.num_rows), c(rc.num_rows);
  evaluate(rc, w, a, b, c, pool);
  for (size_t r = 0; r < rc.num_rows; ++r) {
    ASSERT_EQ(a[r], pa.a[r]) << "row " << r;
    ASSERT_EQ(b[r], pa.b[r]) << "row " << r;
    ASSERT_EQ(c[r], pa.c[r]) << "row " << r;
  }
  EXPECT_EQ(abc_sha256_hex(a, b, c), abc_sha256_hex(pa.a, pa.b, pa.c));
  EXPECT_FALSE(first_unsatisfied_row(a, b, c, pool).has_value());
  EXPECT_EQ(rc.a_aux_density.words(), pa.a_aux_density.words());
  EXPECT_EQ(rc.b_input_density.words(), pa.b_input_density.words());
  EXPECT_EQ(rc.b_aux_density.words(), pa.b_aux_density.words());

  // Each row lists a column once, in increasing order, with a non-zero coefficient.
  for (const CsrMatrix* m : {&rc.a, &rc.b, &rc.c}) {
    for (size_t r = 0; r < m->rows(); ++r) {
      for (uint32_t k = m->row_ptr[r]; k + 1 < m->row_ptr[r + 1]; ++k)
        ASSERT_LT(m->cols[k], m->cols[k + 1]) << "row " << r;
    }
    for (CoefficientIndex ci : m->coeffs)
      ASSERT_FALSE(rc.coefficients[ci].is_zero());
  }
}

TEST(RecordingCS, Sha256CircuitEvaluatesLikeTheProvingAssignment) {
  const cuzk::test::Sha256Circuit with(cuzk::test::sample_message());
  const cuzk::test::Sha256Circuit blank(std::nullopt);
  expect_pce_matches_classic(with, blank);
}

TEST(RecordingCS, RandomCircuitsEvaluateLikeTheProvingAssignment) {
  for (uint64_t seed : {1, 2, 3}) {
    const testing::RandomCircuit circuit(3000, 4, seed);
    expect_pce_matches_classic(circuit, circuit);
  }
}

TEST(RecordingCS, NestedPiecesEvaluateLikeTheProvingAssignment) {
  const cuzk::test::PieceCircuit circuit(5, 6, 2);
  expect_pce_matches_classic(circuit, circuit);
}

TEST(RecordingCS, HandCircuitRowsMergeTermsAndAppendTheInputRows) {
  RecordingCS rec;
  cuzk::test::HandCircuit(false).synthesize(rec);
  const RecordedCircuit rc = std::move(rec).finish(kId);
  // Inputs ONE, x, y (columns 0-2); aux a, b, c, d (columns 3-6); 3 constraints + 3 input rows.
  ASSERT_EQ(rc.num_inputs, 3u);
  ASSERT_EQ(rc.num_aux, 4u);
  ASSERT_EQ(rc.num_rows, 6u);
  EXPECT_EQ(std::vector<uint32_t>(rc.a.row_ptr.begin(), rc.a.row_ptr.end()),
            (std::vector<uint32_t>{0, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(std::vector<uint32_t>(rc.a.cols.begin(), rc.a.cols.end()),
            (std::vector<uint32_t>{1, 3, 5, 2, 0, 1, 2}));  // x + a, c, y, then ONE, x, y
  EXPECT_EQ(std::vector<uint32_t>(rc.b.cols.begin(), rc.b.cols.end()),
            (std::vector<uint32_t>{4, 0, 1, 3}));
  EXPECT_EQ(rc.nnz(), 7u + 4u + 3u);
}

TEST(RecordingCS, CancellingTermsLeaveNoEntryButStillCountInTheDensity) {
  // (x + y - x) * (a - a + b) = c: x and a cancel. bellpepper keeps such terms (with a zero
  // coefficient) in the combinations, so they are in the densities; the matrices drop them.
  class Cancel final : public Circuit {
   public:
    void synthesize(ConstraintSystem& cs) const override {
      const Variable x = cs.alloc([] { return std::string("x"); }, [] { return Fr::from_u64(5); });
      const Variable y = cs.alloc([] { return std::string("y"); }, [] { return Fr::from_u64(2); });
      const Variable a = cs.alloc([] { return std::string("a"); }, [] { return Fr::from_u64(9); });
      const Variable b = cs.alloc([] { return std::string("b"); }, [] { return Fr::from_u64(3); });
      const Variable c = cs.alloc([] { return std::string("c"); }, [] { return Fr::from_u64(6); });
      cs.enforce([] { return std::string("cancel"); },
                 [&](LinearCombination& lc) {
                   lc += x;
                   lc += y;
                   lc -= x;
                 },
                 [&](LinearCombination& lc) {
                   lc += a;
                   lc -= a;
                   lc += b;
                 },
                 [&](LinearCombination& lc) { lc += c; });
    }
  };
  const Cancel circuit;
  expect_pce_matches_classic(circuit, circuit);
  RecordingCS rec;
  circuit.synthesize(rec);
  const RecordedCircuit rc = std::move(rec).finish(kId);
  EXPECT_EQ(rc.a.row_ptr[1], 1u);        // y alone
  EXPECT_EQ(rc.b.row_ptr[1], 1u);        // b alone
  EXPECT_TRUE(rc.a_aux_density.get(0));  // x, cancelled, still dense
  EXPECT_TRUE(rc.b_aux_density.get(2));  // a, cancelled, still dense
}

TEST(RecordingCS, CoefficientTableStoresEachValueOnce) {
  const testing::RandomCircuit circuit(5000, 3, 9);
  RecordingCS rec;
  circuit.synthesize(rec);
  const RecordedCircuit rc = std::move(rec).finish(kId);
  std::vector<Fr> sorted(rc.coefficients.begin(), rc.coefficients.end());
  std::sort(sorted.begin(), sorted.end(), [](const Fr& x, const Fr& y) {
    return std::lexicographical_compare(x.mont().w, x.mont().w + 4, y.mont().w, y.mont().w + 4);
  });
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  EXPECT_EQ(rc.coefficients[0], Fr::one());
  EXPECT_EQ(rc.coefficients[1], -Fr::one());
  // Random coefficients are 1 or 2..1001 (random_circuit.hpp), merged sums add a few more.
  EXPECT_LT(rc.coefficients.size(), 5000u);
}

TEST(Spmv, UnsatisfyingWitnessIsCaughtAtTheFirstBrokenRow) {
  const testing::RandomCircuit circuit(2000, 3, 4);
  RecordingCS rec;
  circuit.synthesize(rec);
  const RecordedCircuit rc = std::move(rec).finish(kId);
  ThreadPool pool(2);
  WitnessCS wcs(&pool);
  circuit.synthesize(wcs);
  CompactWitness w = std::move(wcs).finish();
  // Change one dense value; the first row that reads it breaks.
  ASSERT_FALSE(w.aux_values.empty());
  const size_t victim = w.aux_values.size() / 2;
  w.aux_values[victim] += Fr::one();
  std::vector<Fr> a(rc.num_rows), b(rc.num_rows), c(rc.num_rows);
  evaluate(rc, w, a, b, c, pool);
  const auto bad = first_unsatisfied_row(a, b, c, pool);
  ASSERT_TRUE(bad.has_value());
  const size_t want = cuzk::test::first_row_reading(rc, w, victim);
  EXPECT_EQ(*bad, want);
  for (size_t r = 0; r < *bad; ++r)
    ASSERT_EQ(a[r] * b[r], c[r]);
}

TEST(Spmv, WitnessOfAnotherShapeIsRefused) {
  const testing::RandomCircuit circuit(100, 2, 1), other(120, 2, 1);
  RecordingCS rec;
  circuit.synthesize(rec);
  const RecordedCircuit rc = std::move(rec).finish(kId);
  WitnessCS wcs;
  other.synthesize(wcs);
  const CompactWitness w = std::move(wcs).finish();
  std::vector<Fr> a(200), b(200), c(200);
  ThreadPool pool(1);
  EXPECT_THROW(evaluate(rc, w, a, b, c, pool), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::pce
