// The PoRep circuit through the pre-compiled constraint evaluator: the recorded 32 GiB partition
// has the counts cuzk's reference engine measured (facts sheet 7.1: rows, inputs, aux, non-zeros of
// A, B and C, densities), and for every test size the witness-only synthesis with the recorded
// matrices gives exactly the classic proving assignment's a, b, c, witness and densities.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "cs/proving_assignment.hpp"
#include "pce/recording_cs.hpp"
#include "pce/spmv.hpp"
#include "pce/witness_cs.hpp"
#include "porep/stacked_circuit.hpp"
#include "porep_test_util.hpp"

namespace cuzk::porep {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

pce::RecordedCircuit record(const PublicParams& pp) {
  pce::RecordingCS rec;
  StackedCircuit::blank(pp).synthesize(rec);
  return std::move(rec).finish({"porep", pp.sector_size(), "any", kStackedCircuitVersion});
}

void expect_pce_equals_classic(const filecoin::SealCommitPhase1Output& c1, const PublicParams& pp,
                               const char* name) {
  ThreadPool pool;
  auto t0 = Clock::now();
  const pce::RecordedCircuit rc = record(pp);
  const double record_s = since(t0);
  for (unsigned k = 0; k < pp.partitions; ++k) {
    const StackedCircuit circuit = StackedCircuit::from_c1(c1, pp, k);
    t0 = Clock::now();
    ProvingAssignment pa;
    circuit.synthesize(pa);
    pa.add_input_constraints();
    const double classic_s = since(t0);
    ASSERT_FALSE(pa.first_unsatisfied().has_value());
    t0 = Clock::now();
    pce::WitnessCS wcs(&pool);
    circuit.synthesize(wcs);
    const pce::CompactWitness w = std::move(wcs).finish();
    const double witness_s = since(t0);
    ASSERT_EQ(w.inputs, pa.input_assignment);
    ASSERT_EQ(w.expand_aux(), pa.aux_assignment);
    std::vector<Fr> a(rc.num_rows), b(rc.num_rows), c(rc.num_rows);
    t0 = Clock::now();
    pce::evaluate(rc, w, a, b, c, pool);
    const double spmv_s = since(t0);
    ASSERT_EQ(pa.a.size(), rc.num_rows);
    EXPECT_TRUE(a == pa.a && b == pa.b && c == pa.c) << name << " partition " << k;
    EXPECT_EQ(pce::abc_sha256_hex(a, b, c), pce::abc_sha256_hex(pa.a, pa.b, pa.c));
    EXPECT_EQ(rc.a_aux_density.words(), pa.a_aux_density.words());
    EXPECT_EQ(rc.b_input_density.words(), pa.b_input_density.words());
    EXPECT_EQ(rc.b_aux_density.words(), pa.b_aux_density.words());
    std::printf(
        "%s partition %u: %zu rows, %zu nnz, %zu coefficients (recorded in %.2f s) | classic %.2f "
        "s | witness %.2f s (%zu of %zu aux not bits, %.1f MB) | spmv %.2f s\n",
        name, k, rc.num_rows, rc.nnz(), rc.coefficients.size(), record_s, classic_s, witness_s,
        w.aux_values.size(), w.num_aux, static_cast<double>(w.bytes()) / 1e6, spmv_s);
  }
}

TEST(PorepPce, SealedTwoKiBSectorEvaluatesLikeTheClassicAssignment) {
  const test::SealedSector& s = test::sealed_2kib();
  expect_pce_equals_classic(s.c1, PublicParams::from_config(s.config), "2 KiB sealed");
}

TEST(PorepPce, SyntheticEightMiBAnd512MiBPartitionsEvaluateLikeTheClassicAssignment) {
  for (uint64_t size : {uint64_t{8} << 20, uint64_t{512} << 20}) {
    const filecoin::SyntheticC1 s = test::synthetic_c1(size);
    expect_pce_equals_classic(s.c1, PublicParams::for_proof(s.c1.registered_proof),
                              size == (8u << 20) ? "8 MiB synthetic" : "512 MiB synthetic");
  }
}

// Facts sheet 7.1: cuzk-pce's recording of the 32 GiB production partition.
TEST(PorepPce, ThirtyTwoGiBRecordingHasTheReferenceCounts) {
  const auto t0 = Clock::now();
  const pce::RecordedCircuit rc = record(PublicParams::for_sector_size(uint64_t{32} << 30));
  const double s = since(t0);
  EXPECT_EQ(rc.num_rows, 130'278'869u);
  EXPECT_EQ(rc.num_inputs, 328u);
  EXPECT_EQ(rc.num_aux, 130'169'893u);
  EXPECT_EQ(rc.a.nnz(), 309'405'051u);
  EXPECT_EQ(rc.b.nnz(), 130'327'340u);
  EXPECT_EQ(rc.c.nnz(), 282'656'500u);
  EXPECT_EQ(rc.a_aux_density.popcount(), 129'753'292u);
  EXPECT_EQ(rc.b_input_density.popcount(), 1u);
  EXPECT_EQ(rc.b_aux_density.popcount(), 33'112'281u);
  std::printf("32 GiB partition recorded in %.1f s: %zu coefficients, %.2f GB of matrices\n", s,
              rc.coefficients.size(), static_cast<double>(rc.storage_bytes) / 1e9);
}

}  // namespace
}  // namespace cuzk::porep
