// The device half of the MSM instantiated for G2: msm_g1.cu's list for the other curve, in a
// translation unit of its own so that nvcc compiles the two curves' kernels in parallel.
#include "gpu/msm/msm_impl.cuh"

namespace cuzk::gpu::msm_detail {

template std::vector<Xyzz<G2Curve>> pippenger_window_sums<G2Curve>(const Affine<G2Curve>*,
                                                                   const Fr*, const uint32_t*,
                                                                   size_t, unsigned, TableShape,
                                                                   MsmWorkspace&, cudaStream_t,
                                                                   MsmStats*);
template BucketShape accumulate_buckets<G2Curve>(const Affine<G2Curve>*, const Fr*, const uint32_t*,
                                                 size_t, unsigned, TableShape, bool, MsmWorkspace&,
                                                 cudaStream_t, MsmStats*);
template std::vector<Xyzz<G2Curve>> reduce_buckets<G2Curve>(BucketShape, MsmWorkspace&,
                                                            cudaStream_t, MsmStats*);
template void precompute_table<G2Curve>(const Affine<G2Curve>*, size_t, unsigned, unsigned,
                                        Affine<G2Curve>*, cudaStream_t);
template Xyzz<G2Curve> batch_add_sum<G2Curve>(const Affine<G2Curve>*, const uint32_t*, size_t,
                                              MsmWorkspace&, cudaStream_t);

}  // namespace cuzk::gpu::msm_detail
