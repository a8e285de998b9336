// The device half of the MSM instantiated for G2 (Fp2 coordinates; the B query of the proof).
#include "gpu/msm_impl.cuh"

namespace cuzk::gpu::msm_detail {

template std::vector<Xyzz<G2Curve>> pippenger_window_sums<G2Curve>(const Affine<G2Curve>*,
                                                                   const Fr*, const uint32_t*,
                                                                   size_t, unsigned, MsmWorkspace&,
                                                                   cudaStream_t, MsmStats*);
template Xyzz<G2Curve> batch_add_sum<G2Curve>(const Affine<G2Curve>*, const uint32_t*, size_t,
                                              MsmWorkspace&, cudaStream_t);

}  // namespace cuzk::gpu::msm_detail
