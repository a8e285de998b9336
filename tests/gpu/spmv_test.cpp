// The device SpMV path against its CPU twin (pce/): the expanded witness equals expand_aux(), a,
// b, c equal pce::evaluate bit for bit (from the CSR, and from the packed matrices by blocks of
// groups), and the row check finds the same first broken row.
#include "gpu/spmv/spmv.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "gpu/spmv/packed_spmv.hpp"
#include "pce/packed_matrix.hpp"

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

// A packed matrix's groups [g0, g1) through the device decoder, laid out as the streamed chain
// lays out a slot (the groups' offsets, then their bytes): rows g0 * 32 .. of the product.
std::vector<Fr> packed_rows_on_device(const pce::PackedMatrix& m, size_t g0, size_t g1,
                                      const DeviceBuffer<Fr>& coefficients,
                                      const DeviceBuffer<Fr>& w) {
  const size_t offsets = (g1 - g0 + 1) * sizeof(uint64_t);
  const uint64_t bytes = m.group_bytes(g0, g1);
  std::vector<uint8_t> slot(offsets + bytes);
  std::memcpy(slot.data(), m.group_offsets.data() + g0, offsets);
  std::memcpy(slot.data() + offsets, m.bytes.data() + m.group_offsets[g0], bytes);
  DeviceBuffer<uint8_t> d_slot(slot.size());
  d_slot.upload(std::span<const uint8_t>(slot), nullptr);
  const size_t r0 = g0 * pce::kPackedGroupRows;
  const size_t rows = std::min(m.rows, g1 * pce::kPackedGroupRows) - r0;
  DeviceBuffer<Fr> out(std::max<size_t>(1, rows));
  PackedRowBlock block;
  block.group_offsets = reinterpret_cast<const uint64_t*>(d_slot.get());
  block.bytes = d_slot.get() + offsets;
  block.groups = g1 - g0;
  block.rows = rows;
  spmv_packed_rows(block, coefficients.get(), w.get(), out.get(), nullptr);
  return download(out, rows);
}

struct Packed {
  std::vector<uint64_t> offsets;
  std::vector<uint8_t> bytes;
  pce::PackedMatrix view(size_t rows) const { return {rows, offsets, bytes}; }
};

Packed pack(const pce::CsrMatrix& m) {
  Packed p;
  p.offsets = pce::packed_group_offsets(m, &pool());
  p.bytes.resize(p.offsets.back());
  pce::pack_matrix(m, p.offsets, p.bytes, &pool());
  return p;
}

// Every group alone, runs of three, and the whole matrix: each block's rows equal `want`'s.
void expect_blocks_equal(const pce::PackedMatrix& m, const std::vector<Fr>& want,
                         const DeviceBuffer<Fr>& coefficients, const DeviceBuffer<Fr>& w) {
  ASSERT_EQ(want.size(), m.rows);
  for (const size_t per_block : {size_t{1}, size_t{3}, m.groups()}) {
    for (size_t g0 = 0; g0 < m.groups(); g0 += per_block) {
      const size_t g1 = std::min(m.groups(), g0 + per_block);
      const std::vector<Fr> got = packed_rows_on_device(m, g0, g1, coefficients, w);
      const auto from = want.begin() + static_cast<ptrdiff_t>(g0 * pce::kPackedGroupRows);
      ASSERT_TRUE(std::equal(got.begin(), got.end(), from))
          << "groups [" << g0 << ", " << g1 << ") of " << m.groups();
    }
  }
}

// The packed matrices of two recorded circuits through the device decoder: pce::evaluate's a,
// b, c from the CSR (the resident path's twin), block by block.
TEST_F(DeviceSpmv, PackedRowBlocksEqualTheCsrEvaluation) {
  const cuzk::testing::RandomCircuit random(3'000, 6, 78);
  const cuzk::test::PieceCircuit pieces(9, 7, 3);
  for (const Circuit* c :
       {static_cast<const Circuit*>(&random), static_cast<const Circuit*>(&pieces)}) {
    const Recorded r = record(*c);
    const size_t rows = r.rc.num_rows, vars = r.rc.num_columns();
    ASSERT_GT(rows, 3 * pce::kPackedGroupRows);
    DeviceBuffer<Fr> w(vars), coefficients(r.rc.coefficients.size());
    WitnessScratch scratch;
    upload_witness(r.w, w.get(), scratch, nullptr);
    coefficients.upload(r.rc.coefficients, nullptr);
    std::vector<Fr> want[3] = {std::vector<Fr>(rows), std::vector<Fr>(rows), std::vector<Fr>(rows)};
    pce::evaluate(r.rc, r.w, want[0], want[1], want[2], pool());
    const pce::CsrMatrix* m[3] = {&r.rc.a, &r.rc.b, &r.rc.c};
    for (int k = 0; k < 3; ++k) {
      SCOPED_TRACE("matrix " + std::to_string(k));
      const Packed p = pack(*m[k]);
      expect_blocks_equal(p.view(rows), want[k], coefficients, w);
    }
  }
}

// Rows a recording rarely has: empty rows and groups, a first column below the row before (a
// negative first delta), rows long enough for the u32 length (two in one group), every kind of
// coefficient index, the last group partial. The oracle: each row's sum written out here.
TEST_F(DeviceSpmv, PackedRowsOfEveryShapeEqualTheirSums) {
  constexpr size_t kColumns = 5000, kRows = 32 * 5 + 7;
  std::mt19937_64 rng(4242);
  std::vector<Fr> table(600), w(kColumns);
  for (Fr& x : table)
    x = Fr::from_u64(rng()) * Fr::from_u64(rng());
  table[0] = Fr::one();
  table[1] = -Fr::one();
  for (Fr& x : w)
    x = Fr::from_u64(rng()) * Fr::from_u64(rng());
  std::vector<uint32_t> row_ptr{0}, cols;
  std::vector<pce::CoefficientIndex> coeffs;
  for (size_t r = 0; r < kRows; ++r) {
    size_t len = rng() % 4;
    if (r / 32 == 2) len = 0;           // a whole empty group
    if (r == 70 || r == 75) len = 400;  // two rows past 255 bytes in one group
    const uint32_t start =
        r % 5 == 0 ? 4000 - static_cast<uint32_t>(r) : static_cast<uint32_t>(r * 7);
    std::vector<uint32_t> row;
    for (size_t k = 0; k < len; ++k)
      row.push_back((start + static_cast<uint32_t>(k * (len > 100 ? 11 : 1 + rng() % 900))) %
                    kColumns);
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (const uint32_t col : row) {
      cols.push_back(col);
      coeffs.push_back(
          static_cast<pce::CoefficientIndex>(rng() % 3 == 0 ? 2 + rng() % 598 : rng() % 2));
    }
    row_ptr.push_back(static_cast<uint32_t>(cols.size()));
  }
  const pce::CsrMatrix m{row_ptr, cols, coeffs};
  std::vector<Fr> want(kRows, Fr::zero());
  for (size_t r = 0; r < kRows; ++r) {
    for (uint32_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
      want[r] += table[coeffs[k]] * w[cols[k]];
  }
  DeviceBuffer<Fr> d_w(kColumns), d_table(table.size());
  d_w.upload(std::span<const Fr>(w), nullptr);
  d_table.upload(std::span<const Fr>(table), nullptr);
  const Packed p = pack(m);
  expect_blocks_equal(p.view(kRows), want, d_table, d_w);
}

}  // namespace
}  // namespace cuzk::gpu
