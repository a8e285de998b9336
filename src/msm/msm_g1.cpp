// msm_pippenger instantiated for G1.
#include "ec/g1.hpp"
#include "msm/msm_impl.hpp"

namespace cuzk {

template Jacobian<G1Curve> msm_pippenger<G1Curve>(std::span<const Affine<G1Curve>>,
                                                  std::span<const Fr>, ThreadPool&,
                                                  const MsmConfig&);
template Jacobian<G1Curve> msm_pippenger<G1Curve>(std::span<const Affine<G1Curve>>,
                                                  std::span<const BigInt<4>>, ThreadPool&,
                                                  const MsmConfig&);
template Jacobian<G1Curve> msm_pippenger<G1Curve>(std::span<const Affine<G1Curve>>,
                                                  const DensityTracker&, std::span<const Fr>,
                                                  ThreadPool&, const MsmConfig&);
template Jacobian<G1Curve> msm_pippenger<G1Curve>(std::span<const Affine<G1Curve>>,
                                                  const DensityTracker&, std::span<const BigInt<4>>,
                                                  ThreadPool&, const MsmConfig&);

}  // namespace cuzk
