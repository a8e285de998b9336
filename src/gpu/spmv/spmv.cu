// Kernels of gpu/spmv/spmv.hpp.
#include <algorithm>

#include "gpu/arith/fields.cuh"
#include "gpu/arith/fr_io.cuh"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/grid.hpp"
#include "gpu/spmv/spmv.hpp"

namespace cuzk::gpu {

namespace {

constexpr unsigned kThreads = 256;

// out[i] = aux j0 + i, i < n.
__global__ void expand_witness_kernel(const uint64_t* __restrict__ ones,
                                      const uint64_t* __restrict__ dense,
                                      const uint32_t* __restrict__ rank,
                                      const FrD* __restrict__ values, size_t j0, size_t n,
                                      FrD* __restrict__ out) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x) {
    const size_t j = j0 + i;
    const size_t w = j / 64;
    const uint64_t bit = uint64_t{1} << (j % 64);
    const uint64_t d = dense[w];
    FrD v = FrD::zero();
    if ((d & bit) != 0) {
      v = load_fr(values + rank[w] + __popcll(d & (bit - 1)));
    } else if ((ones[w] & bit) != 0) {
      v = FrD::one();
    }
    store_fr(out + i, v);
  }
}

// Row r of one matrix: coefficient index 0 is 1 and 1 is -1 (pce/coefficient_table.hpp), so most
// entries need no product. cols and coeffs start at entry e0 (a row block's; 0 for a whole matrix).
__device__ __forceinline__ FrD row_value(const uint32_t* __restrict__ row_ptr,
                                         const uint32_t* __restrict__ cols,
                                         const pce::CoefficientIndex* __restrict__ coeffs,
                                         const FrD* __restrict__ table, const FrD* __restrict__ w,
                                         size_t r, uint32_t e0 = 0) {
  FrD acc = FrD::zero();
  const uint32_t end = row_ptr[r + 1] - e0;
  for (uint32_t k = row_ptr[r] - e0; k < end; ++k) {
    const FrD x = load_fr(w + cols[k]);
    const pce::CoefficientIndex ci = coeffs[k];
    if (ci == 0) {
      acc += x;
    } else if (ci == 1) {
      acc -= x;
    } else {
      acc += load_fr(table + ci) * x;
    }
  }
  return acc;
}

struct MatrixView {
  const uint32_t* row_ptr;
  const uint32_t* cols;
  const pce::CoefficientIndex* coeffs;
};

__global__ void spmv_kernel(MatrixView a, MatrixView b, MatrixView c, const FrD* __restrict__ table,
                            const FrD* __restrict__ w, size_t rows, FrD* __restrict__ out_a,
                            FrD* __restrict__ out_b, FrD* __restrict__ out_c) {
  for (size_t r = blockIdx.x * size_t{blockDim.x} + threadIdx.x; r < rows;
       r += size_t{gridDim.x} * blockDim.x) {
    store_fr(out_a + r, row_value(a.row_ptr, a.cols, a.coeffs, table, w, r));
    store_fr(out_b + r, row_value(b.row_ptr, b.cols, b.coeffs, table, w, r));
    store_fr(out_c + r, row_value(c.row_ptr, c.cols, c.coeffs, table, w, r));
  }
}

__global__ void spmv_rows_kernel(MatrixView m, uint32_t e0, const FrD* __restrict__ table,
                                 const FrD* __restrict__ w, size_t rows, FrD* __restrict__ out) {
  for (size_t r = blockIdx.x * size_t{blockDim.x} + threadIdx.x; r < rows;
       r += size_t{gridDim.x} * blockDim.x)
    store_fr(out + r, row_value(m.row_ptr, m.cols, m.coeffs, table, w, r, e0));
}

__global__ void unsatisfied_kernel(const FrD* __restrict__ a, const FrD* __restrict__ b,
                                   const FrD* __restrict__ c, size_t rows, size_t row0,
                                   unsigned long long* first) {
  for (size_t r = blockIdx.x * size_t{blockDim.x} + threadIdx.x; r < rows;
       r += size_t{gridDim.x} * blockDim.x) {
    if (load_fr(a + r) * load_fr(b + r) != load_fr(c + r))
      atomicMin(first, static_cast<unsigned long long>(row0 + r));
  }
}

}  // namespace

void upload_compact_aux(const pce::CompactWitness& w, WitnessScratch& scratch, cudaStream_t s) {
  scratch.ones.reserve(std::max<size_t>(1, w.aux_ones.size()));
  scratch.dense.reserve(std::max<size_t>(1, w.aux_dense.size()));
  scratch.rank.reserve(std::max<size_t>(1, w.dense_rank.size()));
  scratch.values.reserve(std::max<size_t>(1, w.aux_values.size()));
  scratch.ones.upload(w.aux_ones, s);
  scratch.dense.upload(w.aux_dense, s);
  scratch.rank.upload(w.dense_rank, s);
  scratch.values.upload(w.aux_values, s);
}

uint64_t compact_aux_bytes(const pce::CompactWitness& w) {
  return (std::max<size_t>(1, w.aux_ones.size()) + std::max<size_t>(1, w.aux_dense.size())) * 8 +
         std::max<size_t>(1, w.dense_rank.size()) * 4 +
         std::max<size_t>(1, w.aux_values.size()) * sizeof(Fr);
}

void expand_aux_range(const WitnessScratch& scratch, size_t j0, size_t count, Fr* d_out,
                      cudaStream_t s) {
  if (count == 0) return;
  expand_witness_kernel<<<grid_for(count, kThreads), kThreads, 0, s>>>(
      scratch.ones.get(), scratch.dense.get(), scratch.rank.get(),
      reinterpret_cast<const FrD*>(scratch.values.get()), j0, count, reinterpret_cast<FrD*>(d_out));
  CUZK_CUDA_CHECK_LAUNCH();
}

void upload_witness(const pce::CompactWitness& w, Fr* d_w, WitnessScratch& scratch,
                    cudaStream_t s) {
  CUZK_CUDA_CHECK(cudaMemcpyAsync(d_w, w.inputs.data(), w.inputs.size() * sizeof(Fr),
                                  cudaMemcpyHostToDevice, s));
  if (w.num_aux == 0) return;
  upload_compact_aux(w, scratch, s);
  expand_aux_range(scratch, 0, w.num_aux, d_w + w.inputs.size(), s);
}

void spmv_rows(const MatrixRowBlock& block, const Fr* d_coefficients, const Fr* d_w, Fr* d_out,
               cudaStream_t s) {
  if (block.rows == 0) return;
  spmv_rows_kernel<<<grid_for(block.rows, kThreads), kThreads, 0, s>>>(
      MatrixView{block.row_ptr, block.cols, block.coeffs}, static_cast<uint32_t>(block.e0),
      reinterpret_cast<const FrD*>(d_coefficients), reinterpret_cast<const FrD*>(d_w), block.rows,
      reinterpret_cast<FrD*>(d_out));
  CUZK_CUDA_CHECK_LAUNCH();
}

void spmv(const DeviceCircuit& dc, const Fr* d_w, Fr* d_a, Fr* d_b, Fr* d_c, cudaStream_t s) {
  if (dc.rows == 0) return;
  const auto view = [&](int k) {
    return MatrixView{dc.row_ptr[k].get(), dc.cols[k].get(), dc.coeffs[k].get()};
  };
  spmv_kernel<<<grid_for(dc.rows, kThreads), kThreads, 0, s>>>(
      view(0), view(1), view(2), reinterpret_cast<const FrD*>(dc.coefficients.get()),
      reinterpret_cast<const FrD*>(d_w), dc.rows, reinterpret_cast<FrD*>(d_a),
      reinterpret_cast<FrD*>(d_b), reinterpret_cast<FrD*>(d_c));
  CUZK_CUDA_CHECK_LAUNCH();
}

size_t first_unsatisfied_row(const Fr* d_a, const Fr* d_b, const Fr* d_c, size_t rows,
                             DeviceBuffer<unsigned long long>& flag, cudaStream_t s) {
  start_row_check(flag, rows, s);
  mark_unsatisfied_rows(d_a, d_b, d_c, rows, 0, flag.get(), s);
  return first_marked_row(flag, s);
}

void start_row_check(DeviceBuffer<unsigned long long>& flag, size_t rows, cudaStream_t s) {
  flag.reserve(1);
  const unsigned long long none = rows;
  CUZK_CUDA_CHECK(cudaMemcpyAsync(flag.get(), &none, sizeof none, cudaMemcpyHostToDevice, s));
}

size_t first_marked_row(const DeviceBuffer<unsigned long long>& flag, cudaStream_t s) {
  unsigned long long first = 0;
  CUZK_CUDA_CHECK(cudaMemcpyAsync(&first, flag.get(), sizeof first, cudaMemcpyDeviceToHost, s));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  return static_cast<size_t>(first);
}

void mark_unsatisfied_rows(const Fr* d_a, const Fr* d_b, const Fr* d_c, size_t rows, size_t row0,
                           unsigned long long* d_first, cudaStream_t s) {
  if (rows == 0) return;
  unsatisfied_kernel<<<grid_for(rows, kThreads), kThreads, 0, s>>>(
      reinterpret_cast<const FrD*>(d_a), reinterpret_cast<const FrD*>(d_b),
      reinterpret_cast<const FrD*>(d_c), rows, row0, d_first);
  CUZK_CUDA_CHECK_LAUNCH();
}

}  // namespace cuzk::gpu
