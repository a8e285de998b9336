// msm_pippenger instantiated for G2.
#include "ec/g2.hpp"
#include "msm/msm_impl.hpp"

// The four instantiations of msm_g1.cpp for G2, line for line: an explicit instantiation
// spells each signature out per curve, and a file per curve compiles the two in parallel.
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
