// Kernels of the parameter generator (gpu/setup/setup_device.hpp).
#include <cub/cub.cuh>

#include <algorithm>

#include "gpu/arith/curves.cuh"
#include "gpu/arith/field_inverse.cuh"
#include "gpu/arith/fr_io.cuh"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/grid.hpp"
#include "gpu/setup/setup_device.hpp"

namespace cuzk::gpu::setup_detail {

namespace {

constexpr unsigned kThreads = 256;
// Columns with more entries than this are summed by a block each (imbalance otherwise: one
// thread would add ONE's hundred million entries of B alone).
constexpr uint32_t kHeavyColumn = 2048;

FrD dev(const Fr& x) {
  return FrD::from_host(x);
}

__device__ FrD pow_small(FrD base, uint64_t e) {
  FrD r = FrD::one();
  while (e != 0) {
    if (e & 1) r = r * base;
    base = base.sqr();
    e >>= 1;
  }
  return r;
}

__global__ void lagrange_kernel(FrD* __restrict__ out, size_t m, FrD tau, FrD omega, FrD scale) {
  for (size_t j = blockIdx.x * size_t{blockDim.x} + threadIdx.x; j < m;
       j += size_t{gridDim.x} * blockDim.x) {
    const FrD w = pow_small(omega, j);
    store_fr(out + j, scale * w * fermat_inverse<Fr>(tau - w));
  }
}

__global__ void powers_kernel(FrD* __restrict__ out, size_t n, FrD base, FrD scale) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x)
    store_fr(out + i, scale * pow_small(base, i));
}

__device__ __forceinline__ unsigned lane_id() {
  return threadIdx.x % 32;
}

// counts[col] += 1 for every entry; lanes holding the same column add once (ONE's column).
__global__ void count_kernel(const uint32_t* __restrict__ row_ptr,
                             const uint32_t* __restrict__ cols, size_t rows,
                             uint32_t* __restrict__ counts) {
  for (size_t r = blockIdx.x * size_t{blockDim.x} + threadIdx.x; r < rows;
       r += size_t{gridDim.x} * blockDim.x) {
    for (uint32_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
      const uint32_t col = cols[k];
      const unsigned group = __match_any_sync(__activemask(), col);
      if (lane_id() == static_cast<unsigned>(__ffs(group) - 1))
        atomicAdd(&counts[col], static_cast<uint32_t>(__popc(group)));
    }
  }
}

// Each entry to its column's next slot (the order within a column does not matter: sums).
__global__ void scatter_kernel(const uint32_t* __restrict__ row_ptr,
                               const uint32_t* __restrict__ cols,
                               const pce::CoefficientIndex* __restrict__ coeffs, size_t rows,
                               uint32_t* __restrict__ cursor, uint32_t* __restrict__ out_rows,
                               pce::CoefficientIndex* __restrict__ out_coeffs) {
  for (size_t r = blockIdx.x * size_t{blockDim.x} + threadIdx.x; r < rows;
       r += size_t{gridDim.x} * blockDim.x) {
    for (uint32_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
      const uint32_t col = cols[k];
      const unsigned group = __match_any_sync(__activemask(), col);
      const int leader = __ffs(group) - 1;
      uint32_t base = 0;
      if (lane_id() == static_cast<unsigned>(leader))
        base = atomicAdd(&cursor[col], static_cast<uint32_t>(__popc(group)));
      base = __shfl_sync(group, base, leader);
      const uint32_t pos = base + __popc(group & ((1u << lane_id()) - 1));
      out_rows[pos] = static_cast<uint32_t>(r);
      out_coeffs[pos] = coeffs[k];
    }
  }
}

__global__ void column_sum_kernel(const uint32_t* __restrict__ offsets,
                                  const uint32_t* __restrict__ rows,
                                  const pce::CoefficientIndex* __restrict__ coeffs,
                                  const FrD* __restrict__ table, const FrD* __restrict__ l,
                                  size_t columns, FrD* __restrict__ out,
                                  uint32_t* __restrict__ heavy,
                                  uint32_t* __restrict__ heavy_count) {
  for (size_t c = blockIdx.x * size_t{blockDim.x} + threadIdx.x; c < columns;
       c += size_t{gridDim.x} * blockDim.x) {
    const uint32_t begin = offsets[c], end = offsets[c + 1];
    if (end - begin > kHeavyColumn) {
      heavy[atomicAdd(heavy_count, 1u)] = static_cast<uint32_t>(c);
      continue;
    }
    FrD acc = FrD::zero();
    for (uint32_t e = begin; e < end; ++e) {
      const FrD x = load_fr(l + rows[e]);
      const pce::CoefficientIndex ci = coeffs[e];
      acc = ci == 0 ? acc + x : ci == 1 ? acc - x : acc + load_fr(table + ci) * x;
    }
    store_fr(out + c, acc);
  }
}

__global__ void heavy_column_kernel(const uint32_t* __restrict__ offsets,
                                    const uint32_t* __restrict__ rows,
                                    const pce::CoefficientIndex* __restrict__ coeffs,
                                    const FrD* __restrict__ table, const FrD* __restrict__ l,
                                    const uint32_t* __restrict__ heavy, FrD* __restrict__ out) {
  __shared__ FrD partial[kThreads];
  const uint32_t c = heavy[blockIdx.x];
  const uint32_t begin = offsets[c], end = offsets[c + 1];
  FrD acc = FrD::zero();
  for (uint32_t e = begin + threadIdx.x; e < end; e += blockDim.x) {
    const FrD x = load_fr(l + rows[e]);
    const pce::CoefficientIndex ci = coeffs[e];
    acc = ci == 0 ? acc + x : ci == 1 ? acc - x : acc + load_fr(table + ci) * x;
  }
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
    if (threadIdx.x < h) partial[threadIdx.x] = partial[threadIdx.x] + partial[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) store_fr(out + c, partial[0]);
}

__global__ void combine_kernel(const FrD* __restrict__ u, const FrD* __restrict__ v,
                               const FrD* __restrict__ w, size_t vars, size_t inputs, FrD alpha,
                               FrD beta, FrD gamma_inv, FrD delta_inv, FrD* __restrict__ ic,
                               FrD* __restrict__ l) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < vars;
       i += size_t{gridDim.x} * blockDim.x) {
    const FrD k = beta * load_fr(u + i) + alpha * load_fr(v + i) + load_fr(w + i);
    if (i < inputs) {
      store_fr(ic + i, k * gamma_inv);
    } else {
      store_fr(l + (i - inputs), k * delta_inv);
    }
  }
}

struct NonZero {
  __device__ bool operator()(const FrD& x) const { return !x.is_zero(); }
};

// Points per thread in the fixed-base kernel: one inversion (Fermat, ~570 Fp products) is shared
// by this many points through Montgomery's trick (3 products each).
constexpr int kBatch = 8;

template <class CurveD>
__global__ void fixed_base_kernel(const Affine<CurveD>* __restrict__ table,
                                  const FrD* __restrict__ scalars, size_t n,
                                  uint32_t* __restrict__ out) {
  using F = typename CurveD::Field;
  constexpr int kCoordWords = sizeof(F) / 4;  // 12 (G1) or 24 (G2)
  const size_t first = (blockIdx.x * size_t{blockDim.x} + threadIdx.x) * kBatch;
  if (first >= n) return;
  const int count = static_cast<int>(n - first < kBatch ? n - first : kBatch);
  Xyzz<CurveD> p[kBatch];
  for (int i = 0; i < count; ++i) {
    const FrD k = canonical<Fr>(load_fr(scalars + first + i));
    Xyzz<CurveD> acc = Xyzz<CurveD>::identity();
    for (int w = 0; w < 32; ++w) {
      const uint32_t digit = (k.l[w / 4] >> (8 * (w % 4))) & 0xff;
      if (digit != 0) acc = acc.add_mixed(table[w * 256 + digit]);
    }
    p[i] = acc;
  }
  // Montgomery's trick over the ZZZ of the batch (identities count as 1).
  F prefix[kBatch];
  F run = F::one();
  for (int i = 0; i < count; ++i) {
    prefix[i] = run;
    if (!p[i].is_identity()) run = run * p[i].ZZZ;
  }
  F inv = fermat_inverse(run);
  for (int i = count - 1; i >= 0; --i) {
    uint32_t* o = out + (first + i) * 2 * kCoordWords;
    if (p[i].is_identity()) {
      o[0] = 0x40;  // byte 0 = the infinity flag, every other byte zero
      for (int j = 1; j < 2 * kCoordWords; ++j)
        o[j] = 0;
      continue;
    }
    const F zzz_inv = inv * prefix[i];
    inv = inv * p[i].ZZZ;
    const F zz_inv = (zzz_inv * p[i].ZZ).sqr();  // (ZZ / ZZZ)^2 = 1 / ZZ
    store_be(p[i].X * zz_inv, o);
    store_be(p[i].Y * zzz_inv, o + kCoordWords);
  }
}

template <class CurveD, class HostAffine>
void fixed_base_encode(const HostAffine* d_table, const Fr* d_scalars, size_t n, uint8_t* d_out,
                       cudaStream_t s) {
  if (n == 0) return;
  const size_t threads = (n + kBatch - 1) / kBatch;
  // 128 threads: the batch's points live in local memory; smaller blocks keep more of it in L1.
  constexpr unsigned kFixedThreads = 128;
  const unsigned blocks = static_cast<unsigned>((threads + kFixedThreads - 1) / kFixedThreads);
  fixed_base_kernel<CurveD><<<blocks, kFixedThreads, 0, s>>>(
      reinterpret_cast<const Affine<CurveD>*>(d_table), reinterpret_cast<const FrD*>(d_scalars), n,
      reinterpret_cast<uint32_t*>(d_out));
  CUZK_CUDA_CHECK_LAUNCH();
}

}  // namespace

void lagrange(Fr* d_l, size_t m, const Fr& tau, const Fr& omega, const Fr& scale, cudaStream_t s) {
  lagrange_kernel<<<grid_for(m, kThreads), kThreads, 0, s>>>(reinterpret_cast<FrD*>(d_l), m,
                                                             dev(tau), dev(omega), dev(scale));
  CUZK_CUDA_CHECK_LAUNCH();
}

void scaled_powers(Fr* d_out, size_t n, const Fr& base, const Fr& scale, cudaStream_t s) {
  if (n == 0) return;
  powers_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(reinterpret_cast<FrD*>(d_out), n,
                                                           dev(base), dev(scale));
  CUZK_CUDA_CHECK_LAUNCH();
}

void transposed_product(const uint32_t* d_row_ptr, const uint32_t* d_cols,
                        const pce::CoefficientIndex* d_coeffs, size_t rows, size_t nnz,
                        const Fr* d_table, const Fr* d_l, size_t columns, Fr* d_out,
                        TransposeScratch& ws, cudaStream_t s) {
  ws.offsets.reserve(columns + 1);
  ws.cursor.reserve(columns + 1);
  ws.rows.reserve(std::max<size_t>(1, nnz));
  ws.coeffs.reserve(std::max<size_t>(1, nnz));
  ws.heavy.reserve(std::max<size_t>(1, columns));
  ws.heavy_count.reserve(1);
  // counts in cursor[0, columns), cursor[columns] = 0; offsets = exclusive scan (columns + 1).
  ws.cursor.zero(s, 0, columns + 1);
  if (rows != 0) {
    count_kernel<<<grid_for(rows, kThreads), kThreads, 0, s>>>(d_row_ptr, d_cols, rows,
                                                               ws.cursor.get());
    CUZK_CUDA_CHECK_LAUNCH();
  }
  size_t temp = 0;
  CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp, ws.cursor.get(), ws.offsets.get(),
                                                static_cast<int>(columns + 1), s));
  ws.cub_temp.reserve(std::max<size_t>(temp, 1));
  CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(ws.cub_temp.get(), temp, ws.cursor.get(),
                                                ws.offsets.get(), static_cast<int>(columns + 1),
                                                s));
  CUZK_CUDA_CHECK(cudaMemcpyAsync(ws.cursor.get(), ws.offsets.get(), columns * sizeof(uint32_t),
                                  cudaMemcpyDeviceToDevice, s));
  if (rows != 0) {
    scatter_kernel<<<grid_for(rows, kThreads), kThreads, 0, s>>>(
        d_row_ptr, d_cols, d_coeffs, rows, ws.cursor.get(), ws.rows.get(), ws.coeffs.get());
    CUZK_CUDA_CHECK_LAUNCH();
  }
  ws.heavy_count.zero(s, 0, 1);
  const auto* table = reinterpret_cast<const FrD*>(d_table);
  const auto* l = reinterpret_cast<const FrD*>(d_l);
  column_sum_kernel<<<grid_for(columns, kThreads), kThreads, 0, s>>>(
      ws.offsets.get(), ws.rows.get(), ws.coeffs.get(), table, l, columns,
      reinterpret_cast<FrD*>(d_out), ws.heavy.get(), ws.heavy_count.get());
  CUZK_CUDA_CHECK_LAUNCH();
  uint32_t heavy = 0;
  CUZK_CUDA_CHECK(
      cudaMemcpyAsync(&heavy, ws.heavy_count.get(), sizeof heavy, cudaMemcpyDeviceToHost, s));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  if (heavy != 0) {
    heavy_column_kernel<<<heavy, kThreads, 0, s>>>(ws.offsets.get(), ws.rows.get(), ws.coeffs.get(),
                                                   table, l, ws.heavy.get(),
                                                   reinterpret_cast<FrD*>(d_out));
    CUZK_CUDA_CHECK_LAUNCH();
  }
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
}

void combine(const Fr* d_u, const Fr* d_v, const Fr* d_w, size_t vars, size_t inputs,
             const Fr& alpha, const Fr& beta, const Fr& gamma_inv, const Fr& delta_inv, Fr* d_ic,
             Fr* d_l, cudaStream_t s) {
  if (vars == 0) return;
  combine_kernel<<<grid_for(vars, kThreads), kThreads, 0, s>>>(
      reinterpret_cast<const FrD*>(d_u), reinterpret_cast<const FrD*>(d_v),
      reinterpret_cast<const FrD*>(d_w), vars, inputs, dev(alpha), dev(beta), dev(gamma_inv),
      dev(delta_inv), reinterpret_cast<FrD*>(d_ic), reinterpret_cast<FrD*>(d_l));
  CUZK_CUDA_CHECK_LAUNCH();
}

size_t select_nonzero(const Fr* d_in, size_t n, Fr* d_out, DeviceBuffer<uint8_t>& cub_temp,
                      DeviceBuffer<uint32_t>& count, cudaStream_t s) {
  count.reserve(1);
  const auto* in = reinterpret_cast<const FrD*>(d_in);
  auto* out = reinterpret_cast<FrD*>(d_out);
  size_t temp = 0;
  CUZK_CUDA_CHECK(cub::DeviceSelect::If(nullptr, temp, in, out, count.get(),
                                        static_cast<int64_t>(n), NonZero{}, s));
  cub_temp.reserve(std::max<size_t>(temp, 1));
  CUZK_CUDA_CHECK(cub::DeviceSelect::If(cub_temp.get(), temp, in, out, count.get(),
                                        static_cast<int64_t>(n), NonZero{}, s));
  uint32_t selected = 0;
  CUZK_CUDA_CHECK(
      cudaMemcpyAsync(&selected, count.get(), sizeof selected, cudaMemcpyDeviceToHost, s));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  return selected;
}

void fixed_base_encode_g1(const G1Affine* d_table, const Fr* d_scalars, size_t n, uint8_t* d_out,
                          cudaStream_t s) {
  fixed_base_encode<G1CurveD>(d_table, d_scalars, n, d_out, s);
}

void fixed_base_encode_g2(const G2Affine* d_table, const Fr* d_scalars, size_t n, uint8_t* d_out,
                          cudaStream_t s) {
  fixed_base_encode<G2CurveD>(d_table, d_scalars, n, d_out, s);
}

}  // namespace cuzk::gpu::setup_detail
