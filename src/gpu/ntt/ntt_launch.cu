#include "gpu/ntt/ntt_launch.hpp"

#include <algorithm>

#include "gpu/device/cuda_check.hpp"
#include "gpu/ntt/ntt_kernels.cuh"

namespace cuzk::gpu::ntt_detail {

namespace {

constexpr unsigned kThreads = 256;

FrD* dev(Fr* p) {
  return reinterpret_cast<FrD*>(p);
}
const FrD* dev(const Fr* p) {
  return reinterpret_cast<const FrD*>(p);
}

// The pass kernel of a DIF or DIT, with or without scaled loads (a transform's first pass only),
// the product-free unit stage, and two stages per barrier.
template <bool kDif, bool kScale, bool kRadix4>
auto pass_kernel(bool unit_stage) {
  return unit_stage ? ntt_pass<kDif, kScale, true, kRadix4>
                    : ntt_pass<kDif, kScale, false, kRadix4>;
}

template <bool kRadix4>
auto pass_kernel(bool dif, bool scale, bool unit_stage) {
  if (dif)
    return scale ? pass_kernel<true, true, kRadix4>(unit_stage)
                 : pass_kernel<true, false, kRadix4>(unit_stage);
  return scale ? pass_kernel<false, true, kRadix4>(unit_stage)
               : pass_kernel<false, false, kRadix4>(unit_stage);
}

}  // namespace

void launch_pass(Fr* d_data, const Fr* d_tw, int log_n, int s0, int k, int log_c, bool dif,
                 const LoadPowers* scale, cudaStream_t s) {
  const size_t elems = size_t{1} << (k + log_c);
  const unsigned blocks = static_cast<unsigned>((size_t{1} << log_n) / elems);
  const unsigned threads = static_cast<unsigned>(std::min<size_t>(elems / 2, kPassThreads));
  const size_t smem = elems * sizeof(FrD);
  const LoadScaling ls = scale != nullptr
                             ? LoadScaling{dev(scale->lo), dev(scale->hi), scale->exponent_reversed}
                             : LoadScaling{nullptr, nullptr, false};
  // Radix-4 steps where every thread has a quad of rows (ntt_pass).
  const auto kernel = elems >= 4 * size_t{threads}
                          ? pass_kernel<true>(dif, scale != nullptr, s0 == 0)
                          : pass_kernel<false>(dif, scale != nullptr, s0 == 0);
  kernel<<<blocks, threads, smem, s>>>(dev(d_data), dev(d_tw), log_n, s0, k, log_c, ls);
  CUZK_CUDA_CHECK_LAUNCH();
}

namespace {

// mode 0: permutation only; 1: times c; 2: times lo[e mod 2^12] hi[e >> 12] at natural index e.
template <int kMode>
bool launch_tiled_reverse(Fr* d_data, int log_n, const Fr& c, const Fr* d_lo, const Fr* d_hi,
                          cudaStream_t s) {
  if (log_n < 2 * kRevTileBits) return false;
  const unsigned blocks = 1u << (log_n - 2 * kRevTileBits);
  bit_reverse_tiles_kernel<kMode>
      <<<blocks, kRevTile, 0, s>>>(dev(d_data), log_n, FrD::from_host(c), dev(d_lo), dev(d_hi));
  CUZK_CUDA_CHECK_LAUNCH();
  return true;
}

void launch_swap_reverse(Fr* d_data, int log_n, cudaStream_t s) {
  const size_t n = size_t{1} << log_n;
  bit_reverse_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(dev(d_data), n, log_n);
  CUZK_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_bit_reverse(Fr* d_data, int log_n, cudaStream_t s) {
  if (!launch_tiled_reverse<0>(d_data, log_n, Fr{}, nullptr, nullptr, s))
    launch_swap_reverse(d_data, log_n, s);
}

void launch_bit_reverse_scale(Fr* d_data, int log_n, const Fr& c, cudaStream_t s) {
  if (launch_tiled_reverse<1>(d_data, log_n, c, nullptr, nullptr, s)) return;
  launch_swap_reverse(d_data, log_n, s);
  launch_scale(d_data, size_t{1} << log_n, c, s);
}

void launch_bit_reverse_scale_powers(Fr* d_data, int log_n, const Fr* d_lo, const Fr* d_hi,
                                     cudaStream_t s) {
  if (launch_tiled_reverse<2>(d_data, log_n, Fr{}, d_lo, d_hi, s)) return;
  launch_swap_reverse(d_data, log_n, s);
  launch_scale_powers(d_data, log_n, d_lo, d_hi, s);
}

void launch_scale_powers(Fr* d_data, int log_n, const Fr* d_lo, const Fr* d_hi, cudaStream_t s) {
  const size_t n = size_t{1} << log_n;
  scale_powers_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(dev(d_data), n, dev(d_lo),
                                                                 dev(d_hi));
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

void launch_mul(Fr* d_a, const Fr* d_b, size_t n, cudaStream_t s) {
  mul_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(dev(d_a), dev(d_b), n);
  CUZK_CUDA_CHECK_LAUNCH();
}

void launch_sub(Fr* d_a, const Fr* d_c, size_t n, cudaStream_t s) {
  sub_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(dev(d_a), dev(d_c), n);
  CUZK_CUDA_CHECK_LAUNCH();
}

}  // namespace cuzk::gpu::ntt_detail
