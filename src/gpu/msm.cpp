// Host halves of the device MSM: window planning, Horner over the window sums, the split.
#include "gpu/msm.hpp"

#include <stdexcept>
#include <string>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "gpu/msm_device.hpp"

namespace cuzk::gpu {

template <class Curve>
Jacobian<Curve> msm_pippenger(const Affine<Curve>* d_bases, const Fr* d_scalars,
                              const uint32_t* d_index, size_t n, MsmWorkspace& ws,
                              cudaStream_t stream, unsigned window_bits, MsmStats* stats) {
  if (n == 0) return Jacobian<Curve>::identity();
  if (n >= (size_t{1} << 31)) throw std::invalid_argument("gpu msm: at most 2^31 - 1 scalars");
  const unsigned c = window_bits != 0 ? window_bits : msm_window_bits(n);
  if (c < 2 || c > kMsmMaxWindowBits)
    throw std::invalid_argument("gpu msm: window bits must be 2.." +
                                std::to_string(kMsmMaxWindowBits));
  const std::vector<Xyzz<Curve>> sums = msm_detail::pippenger_window_sums<Curve>(
      d_bases, d_scalars, d_index, n, c, ws, stream, stats);
  if (stats != nullptr) {
    stats->window_bits = c;
    stats->windows = static_cast<unsigned>(sums.size());
    stats->pippenger = n;
  }
  // sum_w 2^(w c) S_w by Horner.
  Jacobian<Curve> acc = Jacobian<Curve>::identity();
  for (size_t w = sums.size(); w-- > 0;) {
    for (unsigned k = 0; k < c; ++k)
      acc = acc.dbl();
    acc += sums[w].to_jacobian();
  }
  return acc;
}

template <class Curve>
Jacobian<Curve> batch_add(const Affine<Curve>* d_bases, const uint32_t* d_bits, size_t n,
                          MsmWorkspace& ws, cudaStream_t stream) {
  if (n == 0) return Jacobian<Curve>::identity();
  return msm_detail::batch_add_sum<Curve>(d_bases, d_bits, n, ws, stream).to_jacobian();
}

template <class Curve>
Jacobian<Curve> msm_split(const Affine<Curve>* d_bases, const Fr* d_scalars, size_t n,
                          const uint64_t* d_density, MsmWorkspace& ws, cudaStream_t stream,
                          MsmStats* stats) {
  if (n == 0) return Jacobian<Curve>::identity();
  if (n >= (size_t{1} << 31)) throw std::invalid_argument("gpu msm: at most 2^31 - 1 scalars");
  const msm_detail::SplitCounts counts = msm_detail::classify(d_scalars, n, d_density, ws, stream);
  Jacobian<Curve> ones = Jacobian<Curve>::identity();
  if (counts.ones != 0) ones = batch_add<Curve>(d_bases, ws.ones_bits.get(), n, ws, stream);
  const Jacobian<Curve> rest = msm_pippenger<Curve>(
      d_bases, ws.tail_scalars.get(), ws.tail_index.get(), counts.tail, ws, stream, 0, stats);
  if (stats != nullptr) {
    stats->scalars = n;
    stats->ones = counts.ones;
    stats->pippenger = counts.tail;
  }
  return ones + rest;
}

#define CUZK_GPU_MSM_INSTANTIATE(C)                                                           \
  template Jacobian<C> msm_pippenger<C>(const Affine<C>*, const Fr*, const uint32_t*, size_t, \
                                        MsmWorkspace&, cudaStream_t, unsigned, MsmStats*);    \
  template Jacobian<C> batch_add<C>(const Affine<C>*, const uint32_t*, size_t, MsmWorkspace&, \
                                    cudaStream_t);                                            \
  template Jacobian<C> msm_split<C>(const Affine<C>*, const Fr*, size_t, const uint64_t*,     \
                                    MsmWorkspace&, cudaStream_t, MsmStats*);
CUZK_GPU_MSM_INSTANTIATE(G1Curve)
CUZK_GPU_MSM_INSTANTIATE(G2Curve)
#undef CUZK_GPU_MSM_INSTANTIATE

}  // namespace cuzk::gpu
