// The streamed SpMV of a capped device over packed matrices (pce/packed_matrix.hpp): a row block
// is a run of whole groups, and a warp decodes a group, a lane a row, as it multiplies. Twin of
// pce::evaluate_packed_rows, equal bit for bit (tests/gpu/spmv_test.cpp).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ff/fr.hpp"

namespace cuzk::gpu {

// Groups [g0, g0 + groups) of one packed matrix in device memory: their offsets (groups + 1,
// absolute: as the host's group_offsets) and bytes from offsets[0]. Rows r0 = g0 * 32 up to
// r0 + rows (the last group of a matrix may be partial).
struct PackedRowBlock {
  const uint64_t* group_offsets = nullptr;
  const uint8_t* bytes = nullptr;
  size_t groups = 0, rows = 0;
};

// d_out[i] = row r0 + i times d_w, for the block's rows. Asynchronous on `s`.
void spmv_packed_rows(const PackedRowBlock& block, const Fr* d_coefficients, const Fr* d_w,
                      Fr* d_out, cudaStream_t s);

}  // namespace cuzk::gpu
