// The device halves of the parameter generator (gpu/setup/setup.hpp), over device pointers; kernels
// in setup_kernels.cu. Field constants arrive as host values (the same bytes on the device).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ec/affine.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ff/fr.hpp"
#include "gpu/device/device_buffer.hpp"
#include "pce/recorded_circuit.hpp"

namespace cuzk::gpu::setup_detail {

// L[j] = scale * omega^j / (tau - omega^j), j < m.
void lagrange(Fr* d_l, size_t m, const Fr& tau, const Fr& omega, const Fr& scale, cudaStream_t s);
// out[i] = scale * base^i, i < n.
void scaled_powers(Fr* d_out, size_t n, const Fr& base, const Fr& scale, cudaStream_t s);

// Scratch of transposed_product (grows; kept across the three matrices).
struct TransposeScratch {
  DeviceBuffer<uint32_t> offsets, cursor, rows, heavy, heavy_count;
  DeviceBuffer<pce::CoefficientIndex> coeffs;
  DeviceBuffer<uint8_t> cub_temp;
};
// out[c] = sum over the entries (r, c, k) of the matrix of table[k] * L[r] (a transposed SpMV,
// out = M^T L), for every column c < columns. Counting sort by column, then one thread per
// column, or one block per column for the few with many entries (ONE's column of B holds a
// hundred million at 32 GiB). Synchronises s.
void transposed_product(const uint32_t* d_row_ptr, const uint32_t* d_cols,
                        const pce::CoefficientIndex* d_coeffs, size_t rows, size_t nnz,
                        const Fr* d_table, const Fr* d_l, size_t columns, Fr* d_out,
                        TransposeScratch& ws, cudaStream_t s);

// k_i = beta u_i + alpha v_i + w_i; ic[i] = k_i / gamma for i < inputs, l[i - inputs] = k_i /
// delta.
void combine(const Fr* d_u, const Fr* d_v, const Fr* d_w, size_t vars, size_t inputs,
             const Fr& alpha, const Fr& beta, const Fr& gamma_inv, const Fr& delta_inv, Fr* d_ic,
             Fr* d_l, cudaStream_t s);

// The non-zero elements of in, in order, into out; returns their count (synchronises s).
size_t select_nonzero(const Fr* d_in, size_t n, Fr* d_out, DeviceBuffer<uint8_t>& cub_temp,
                      DeviceBuffer<uint32_t>& count, cudaStream_t s);

// out[i] = the uncompressed zcash encoding of scalars[i] * G (96 bytes G1, 192 bytes G2), from the
// fixed-base table of G (ec/fixed_base.hpp: 32 windows x 256 affine points).
void fixed_base_encode_g1(const G1Affine* d_table, const Fr* d_scalars, size_t n, uint8_t* d_out,
                          cudaStream_t s);
void fixed_base_encode_g2(const G2Affine* d_table, const Fr* d_scalars, size_t n, uint8_t* d_out,
                          cudaStream_t s);

}  // namespace cuzk::gpu::setup_detail
