#include "gpu/ntt_launch.hpp"

#include <algorithm>

#include "gpu/cuda_check.hpp"
#include "gpu/ntt_kernels.cuh"

namespace cuzk::gpu::ntt_detail {

namespace {

constexpr unsigned kThreads = 256;

FrD* dev(Fr* p) {
  return reinterpret_cast<FrD*>(p);
}
const FrD* dev(const Fr* p) {
  return reinterpret_cast<const FrD*>(p);
}

}  // namespace

void enable_large_tiles() {
  const int bytes = (1 << kMaxTileLog) * static_cast<int>(sizeof(FrD));
  CUZK_CUDA_CHECK(
      cudaFuncSetAttribute(ntt_pass<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  CUZK_CUDA_CHECK(
      cudaFuncSetAttribute(ntt_pass<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

void launch_pass(Fr* d_data, const Fr* d_tw, int log_n, int s0, int k, int log_c, bool dif,
                 cudaStream_t s) {
  const size_t elems = size_t{1} << (k + log_c);
  const unsigned blocks = static_cast<unsigned>((size_t{1} << log_n) / elems);
  const unsigned threads = static_cast<unsigned>(std::min<size_t>(elems / 2, kPassThreads));
  const size_t smem = elems * sizeof(FrD);
  if (dif) {
    ntt_pass<true><<<blocks, threads, smem, s>>>(dev(d_data), dev(d_tw), log_n, s0, k, log_c);
  } else {
    ntt_pass<false><<<blocks, threads, smem, s>>>(dev(d_data), dev(d_tw), log_n, s0, k, log_c);
  }
  CUZK_CUDA_CHECK_LAUNCH();
}

void launch_bit_reverse(Fr* d_data, int log_n, cudaStream_t s) {
  const size_t n = size_t{1} << log_n;
  bit_reverse_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(dev(d_data), n, log_n);
  CUZK_CUDA_CHECK_LAUNCH();
}

void launch_scale_powers(Fr* d_data, int log_n, const Fr* d_lo, const Fr* d_hi, bool bit_reversed,
                         cudaStream_t s) {
  const size_t n = size_t{1} << log_n;
  scale_powers_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(dev(d_data), n, log_n, dev(d_lo),
                                                                 dev(d_hi), bit_reversed);
  CUZK_CUDA_CHECK_LAUNCH();
}

void launch_expand_powers(Fr* d_out, size_t count, const Fr* d_lo, const Fr* d_hi, cudaStream_t s) {
  expand_powers_kernel<<<grid_for(count, kThreads), kThreads, 0, s>>>(dev(d_out), count, dev(d_lo),
                                                                      dev(d_hi));
  CUZK_CUDA_CHECK_LAUNCH();
}

void launch_scale(Fr* d_data, size_t n, const Fr& c, cudaStream_t s) {
  scale_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(dev(d_data), n, FrD::from_host(c));
  CUZK_CUDA_CHECK_LAUNCH();
}

void launch_ab_minus_c(Fr* d_a, const Fr* d_b, const Fr* d_c, size_t n, cudaStream_t s) {
  ab_minus_c_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(dev(d_a), dev(d_b), dev(d_c), n);
  CUZK_CUDA_CHECK_LAUNCH();
}

}  // namespace cuzk::gpu::ntt_detail
