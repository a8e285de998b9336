// The pre-compiled constraint evaluator on the device: the compact witness expanded into
// w = (inputs | aux), the sparse products a = A w, b = B w, c = C w over a recorded circuit held
// in device memory (DeviceCircuit), and the a * b = c check of every row. Twins of pce/spmv.hpp
// and pce/compact_witness.hpp, equal bit for bit (tests/gpu/spmv_test.cpp).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ff/fr.hpp"
#include "gpu/device/device_buffer.hpp"
#include "pce/compact_witness.hpp"
#include "pce/recorded_circuit.hpp"

namespace cuzk::gpu {

// A recorded circuit's matrices, coefficient table and density bitmaps in device memory.
struct DeviceCircuit {
  const void* source = nullptr;  // the RecordedCircuit's storage it was made from (cache key)
  size_t rows = 0, inputs = 0, aux = 0;
  DeviceBuffer<Fr> coefficients;
  DeviceBuffer<uint32_t> row_ptr[3], cols[3];
  DeviceBuffer<pce::CoefficientIndex> coeffs[3];
  DeviceBuffer<uint64_t> a_aux_density, b_input_density, b_aux_density;

  // Uploads `rc` (synchronises `s`). CudaError when device memory runs out.
  void upload(const pce::RecordedCircuit& rc, cudaStream_t s);
  uint64_t bytes() const;
  // bytes() after upload(rc), without uploading (the device memory plan's input).
  static uint64_t bytes_for(const pce::RecordedCircuit& rc);
};

// The compact witness on the device, expanded: w[0, inputs) = the inputs, w[inputs + j] = aux j.
// Uploads the bitmaps and the non-bit values into `scratch`; d_w holds inputs + aux elements.
struct WitnessScratch {
  DeviceBuffer<uint64_t> ones, dense;
  DeviceBuffer<uint32_t> rank;
  DeviceBuffer<Fr> values;
};
void upload_witness(const pce::CompactWitness& w, Fr* d_w, WitnessScratch& scratch, cudaStream_t s);
// The aux parts of the compact witness into `scratch` alone (bitmaps, ranks, values), for
// expand_aux_range. Asynchronous on `s`: `w` must outlive the copies.
void upload_compact_aux(const pce::CompactWitness& w, WitnessScratch& scratch, cudaStream_t s);
// Fr values of aux [j0, j0 + count) from an upload_compact_aux scratch into d_out[0, count).
void expand_aux_range(const WitnessScratch& scratch, size_t j0, size_t count, Fr* d_out,
                      cudaStream_t s);
// Device bytes upload_compact_aux takes for `w`.
uint64_t compact_aux_bytes(const pce::CompactWitness& w);

// Rows [r0, r0 + rows) of one matrix whose row_ptr[r0 .. r0 + rows] (absolute entry offsets)
// and entries [e0, row_ptr[r0 + rows]) (cols, coeffs; e0 = row_ptr[r0]) are in device memory:
// d_out[i] = row r0 + i times d_w. The streamed SpMV of a capped device, a row block at a time.
struct MatrixRowBlock {
  const uint32_t* row_ptr = nullptr;  // rows + 1 offsets
  const uint32_t* cols = nullptr;     // from entry e0
  const pce::CoefficientIndex* coeffs = nullptr;
  size_t r0 = 0, rows = 0, e0 = 0;
};
void spmv_rows(const MatrixRowBlock& block, const Fr* d_coefficients, const Fr* d_w, Fr* d_out,
               cudaStream_t s);

// a, b, c (each of c.rows elements) of the rows of `circuit` on d_w. Asynchronous on `s`.
void spmv(const DeviceCircuit& circuit, const Fr* d_w, Fr* d_a, Fr* d_b, Fr* d_c, cudaStream_t s);

// The first row r < rows with a[r] * b[r] != c[r], or rows when every row holds. Synchronises `s`;
// `flag` is one word of scratch.
size_t first_unsatisfied_row(const Fr* d_a, const Fr* d_b, const Fr* d_c, size_t rows,
                             DeviceBuffer<unsigned long long>& flag, cudaStream_t s);

// The same check by blocks of rows without a wait per block (first_unsatisfied_row is one such
// block): start_row_check sets `flag` (one word) to `rows`; mark_unsatisfied_rows lowers it to
// row0 + r for the first r < rows with a[r] * b[r] != c[r] (atomicMin), asynchronous on `s`;
// first_marked_row waits for `s` and reads it (`rows`: every row holds).
void start_row_check(DeviceBuffer<unsigned long long>& flag, size_t rows, cudaStream_t s);
void mark_unsatisfied_rows(const Fr* d_a, const Fr* d_b, const Fr* d_c, size_t rows, size_t row0,
                           unsigned long long* d_first, cudaStream_t s);
size_t first_marked_row(const DeviceBuffer<unsigned long long>& flag, cudaStream_t s);

}  // namespace cuzk::gpu
