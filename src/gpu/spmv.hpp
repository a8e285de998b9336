// The pre-compiled constraint evaluator on the device: the compact witness expanded into
// w = (inputs | aux), the sparse products a = A w, b = B w, c = C w over a recorded circuit held
// in device memory (DeviceCircuit), and the a * b = c check of every row. Twins of pce/spmv.hpp
// and pce/compact_witness.hpp, equal bit for bit (tests/gpu/spmv_test.cpp).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ff/fr.hpp"
#include "gpu/device_buffer.hpp"
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

// a, b, c (each of c.rows elements) of the rows of `circuit` on d_w. Asynchronous on `s`.
void spmv(const DeviceCircuit& circuit, const Fr* d_w, Fr* d_a, Fr* d_b, Fr* d_c, cudaStream_t s);

// The first row r < rows with a[r] * b[r] != c[r], or rows when every row holds. Synchronises `s`;
// `flag` is one word of scratch.
size_t first_unsatisfied_row(const Fr* d_a, const Fr* d_b, const Fr* d_c, size_t rows,
                             DeviceBuffer<unsigned long long>& flag, cudaStream_t s);

}  // namespace cuzk::gpu
