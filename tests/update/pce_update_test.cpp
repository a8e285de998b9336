// The SnapDeals circuits through the pre-compiled constraint evaluator: witness-only synthesis
// (its challenge and apex-row pieces run concurrently on a pool) with the recorded matrices gives
// exactly the classic proving assignment's a, b, c, witness and densities.
#include <gtest/gtest.h>

#include "common/synthetic_update.hpp"
#include "cs/proving_assignment.hpp"
#include "pce/recording_cs.hpp"
#include "pce/spmv.hpp"
#include "pce/witness_cs.hpp"
#include "update/update_circuit.hpp"

namespace cuzk::update {
namespace {

constexpr uint64_t KiB = 1024;

void expect_pce_equals_classic(const Circuit& blank, const Circuit& circuit, uint64_t size) {
  ThreadPool pool;
  pce::RecordingCS rec;
  blank.synthesize(rec);
  const pce::RecordedCircuit rc =
      std::move(rec).finish({"snap", size, "any", kEmptySectorUpdateCircuitVersion});
  ProvingAssignment pa;
  circuit.synthesize(pa);
  pa.add_input_constraints();
  ASSERT_FALSE(pa.first_unsatisfied().has_value());
  pce::WitnessCS wcs(&pool);
  circuit.synthesize(wcs);
  const pce::CompactWitness w = std::move(wcs).finish();
  ASSERT_EQ(w.inputs, pa.input_assignment);
  ASSERT_EQ(w.expand_aux(), pa.aux_assignment);
  std::vector<Fr> a(rc.num_rows), b(rc.num_rows), c(rc.num_rows);
  pce::evaluate(rc, w, a, b, c, pool);
  ASSERT_EQ(pa.a.size(), rc.num_rows);
  EXPECT_TRUE(a == pa.a && b == pa.b && c == pa.c) << size;
  EXPECT_EQ(rc.a_aux_density.words(), pa.a_aux_density.words());
  EXPECT_EQ(rc.b_input_density.words(), pa.b_input_density.words());
  EXPECT_EQ(rc.b_aux_density.words(), pa.b_aux_density.words());
}

TEST(UpdatePce, WitnessOnlySynthesisWithPiecesEvaluatesLikeTheClassicAssignment) {
  for (const uint64_t size : {2 * KiB, 16 * KiB}) {
    const testing::SyntheticUpdate u = testing::make_synthetic_update(size, 41);
    const unsigned k = u.pp.partition_count - 1;
    expect_pce_equals_classic(EmptySectorUpdateCircuit::blank(u.pp),
                              EmptySectorUpdateCircuit::from_vanilla(u.pp, u.in, k, u.proofs[k]),
                              size);
  }
}

}  // namespace
}  // namespace cuzk::update
