// msm_pippenger instantiated for G2.
#include "ec/g2.hpp"
#include "msm/msm_impl.hpp"

namespace cuzk {

template Jacobian<G2Curve> msm_pippenger<G2Curve>(std::span<const Affine<G2Curve>>,
                                                  std::span<const Fr>, ThreadPool&,
                                                  const MsmConfig&);
template Jacobian<G2Curve> msm_pippenger<G2Curve>(std::span<const Affine<G2Curve>>,
                                                  std::span<const BigInt<4>>, ThreadPool&,
                                                  const MsmConfig&);
template Jacobian<G2Curve> msm_pippenger<G2Curve>(std::span<const Affine<G2Curve>>,
                                                  const DensityTracker&, std::span<const Fr>,
                                                  ThreadPool&, const MsmConfig&);
template Jacobian<G2Curve> msm_pippenger<G2Curve>(std::span<const Affine<G2Curve>>,
                                                  const DensityTracker&, std::span<const BigInt<4>>,
                                                  ThreadPool&, const MsmConfig&);

}  // namespace cuzk
