// The device half of the MSM instantiated for G1.
#include "gpu/msm/msm_impl.cuh"

namespace cuzk::gpu::msm_detail {

template std::vector<Xyzz<G1Curve>> pippenger_window_sums<G1Curve>(const Affine<G1Curve>*,
                                                                   const Fr*, const uint32_t*,
                                                                   size_t, unsigned, TableShape,
                                                                   MsmWorkspace&, cudaStream_t,
                                                                   MsmStats*);
template BucketShape accumulate_buckets<G1Curve>(const Affine<G1Curve>*, const Fr*, const uint32_t*,
                                                 size_t, unsigned, TableShape, bool, MsmWorkspace&,
                                                 cudaStream_t, MsmStats*);
template std::vector<Xyzz<G1Curve>> reduce_buckets<G1Curve>(BucketShape, MsmWorkspace&,
                                                            cudaStream_t, MsmStats*);
template void precompute_table<G1Curve>(const Affine<G1Curve>*, size_t, unsigned, unsigned,
                                        Affine<G1Curve>*, cudaStream_t);
template Xyzz<G1Curve> batch_add_sum<G1Curve>(const Affine<G1Curve>*, const uint32_t*, size_t,
                                              MsmWorkspace&, cudaStream_t);

}  // namespace cuzk::gpu::msm_detail
