// The device SpMV path against its CPU twin (pce/): the expanded witness equals expand_aux(), a,
// b, c equal pce::evaluate bit for bit, and the row check finds the same first broken row.
#include "gpu/spmv/spmv.hpp"

#include <gtest/gtest.h>

#include <random>

#include "gpu_test_util.hpp"
#include "pce/piece_circuit.hpp"
#include "pce/recording_cs.hpp"
#include "pce/spmv.hpp"
#include "pce/witness_cs.hpp"
#include "random_circuit.hpp"

namespace cuzk::gpu {
namespace {

using testing::GpuTest;
using testing::pool;

struct Recorded {
  pce::RecordedCircuit rc;
  pce::CompactWitness w;
};

Recorded record(const Circuit& circuit) {
  pce::RecordingCS rec;
  circuit.synthesize(rec);
  Recorded out{std::move(rec).finish({"test", 0, "any", 1}), {}};
  pce::WitnessCS wcs(&pool());
  circuit.synthesize(wcs);
  out.w = std::move(wcs).finish();
  return out;
}

std::vector<Fr> download(const DeviceBuffer<Fr>& d, size_t n) {
  std::vector<Fr> out(n);
  d.download(out, nullptr);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  return out;
}

using DeviceSpmv = GpuTest;

TEST_F(DeviceSpmv, WitnessAndEvaluationsEqualTheCpuTwin) {
  const cuzk::testing::RandomCircuit random(20'000, 6, 77);
  const cuzk::test::PieceCircuit pieces(9, 7, 3);
  for (const Circuit* c :
       {static_cast<const Circuit*>(&random), static_cast<const Circuit*>(&pieces)}) {
    const Recorded r = record(*c);
    const size_t rows = r.rc.num_rows, vars = r.rc.num_columns();
    DeviceCircuit dc;
    dc.upload(r.rc, nullptr);
    DeviceBuffer<Fr> w(vars), a(rows), b(rows), cc(rows);
    WitnessScratch scratch;
    upload_witness(r.w, w.get(), scratch, nullptr);
    std::vector<Fr> want_w = r.w.inputs;
    const std::vector<Fr> aux = r.w.expand_aux();
    want_w.insert(want_w.end(), aux.begin(), aux.end());
    EXPECT_EQ(download(w, vars), want_w);
    spmv(dc, w.get(), a.get(), b.get(), cc.get(), nullptr);
    std::vector<Fr> ea(rows), eb(rows), ec(rows);
    pce::evaluate(r.rc, r.w, ea, eb, ec, pool());
    EXPECT_EQ(download(a, rows), ea);
    EXPECT_EQ(download(b, rows), eb);
    EXPECT_EQ(download(cc, rows), ec);
    DeviceBuffer<unsigned long long> flag;
    EXPECT_EQ(first_unsatisfied_row(a.get(), b.get(), cc.get(), rows, flag, nullptr), rows);
  }
}

TEST_F(DeviceSpmv, BrokenWitnessIsCaughtAtTheSameRowAsOnTheCpu) {
  const cuzk::testing::RandomCircuit circuit(5000, 3, 13);
  Recorded r = record(circuit);
  r.w.aux_values[r.w.aux_values.size() / 3] += Fr::one();
  const size_t rows = r.rc.num_rows;
  std::vector<Fr> ea(rows), eb(rows), ec(rows);
  pce::evaluate(r.rc, r.w, ea, eb, ec, pool());
  const auto want = pce::first_unsatisfied_row(ea, eb, ec, pool());
  ASSERT_TRUE(want.has_value());
  DeviceCircuit dc;
  dc.upload(r.rc, nullptr);
  DeviceBuffer<Fr> w(r.rc.num_columns()), a(rows), b(rows), c(rows);
  WitnessScratch scratch;
  upload_witness(r.w, w.get(), scratch, nullptr);
  spmv(dc, w.get(), a.get(), b.get(), c.get(), nullptr);
  DeviceBuffer<unsigned long long> flag;
  EXPECT_EQ(first_unsatisfied_row(a.get(), b.get(), c.get(), rows, flag, nullptr), *want);
}

}  // namespace
}  // namespace cuzk::gpu
