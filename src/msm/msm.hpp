// Multi-scalar multiplication on the CPU: sum_i scalars[i] * bases[i] over G1 or G2.
//
// Pippenger's bucket method with signed c-bit windows (2^(c-1) buckets per window), buckets
// accumulated either in XYZZ coordinates or in batch-affine form, reduced by running sums and
// combined by doubling. Work is spread over the pool by window and, for large inputs, by chunks
// of points with their own buckets. Scalars equal to 0 are skipped and scalars equal to 1 summed
// directly before the windows (MsmConfig::trivial_fast_path).
//
// Instantiated for G1Curve and G2Curve (msm_g1.cpp, msm_g2.cpp); call as msm_pippenger<G1Curve>.
// The calling thread works with the pool's workers; do not call from inside a task of the same
// pool, nor from two threads on one pool at once (ThreadPool::run is neither reentrant nor
// shared). Results are the same point for any thread count and any MsmConfig.
// Identity bases are allowed anywhere. Bases need not be in the prime-order subgroup: the result
// is the plain integer combination, the same as msm_naive.
#pragma once

#include <span>

#include "cs/density.hpp"
#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ff/bigint.hpp"
#include "ff/fr.hpp"
#include "msm/msm_config.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

// Full density: bases.size() == scalars.size() (std::invalid_argument otherwise).
// Fr scalars are in Montgomery form and are converted to canonical limbs internally.
template <class Curve>
Jacobian<Curve> msm_pippenger(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars,
                              ThreadPool& pool, const MsmConfig& cfg = {});
// Canonical little-endian limbs; every value must be below 2^255 (std::invalid_argument
// otherwise). Values >= r are allowed and multiply as the integers they are.
template <class Curve>
Jacobian<Curve> msm_pippenger(std::span<const Affine<Curve>> bases,
                              std::span<const BigInt<4>> scalars, ThreadPool& pool,
                              const MsmConfig& cfg = {});

// Density-filtered, as bellperson's multiexp with a DensityTracker:
//   scalars.size() == density.size() and bases.size() == density.popcount()
// (std::invalid_argument otherwise). Scalar i is used iff density.get(i), and the used scalars
// take the bases in order: the k-th used scalar multiplies bases[k]. Unused scalars are ignored
// whatever their value. (bellperson's base sources may hold more points than the mask uses;
// pass the prefix bases.first(density.popcount()) for that.)
template <class Curve>
Jacobian<Curve> msm_pippenger(std::span<const Affine<Curve>> bases, const DensityTracker& density,
                              std::span<const Fr> scalars, ThreadPool& pool,
                              const MsmConfig& cfg = {});
template <class Curve>
Jacobian<Curve> msm_pippenger(std::span<const Affine<Curve>> bases, const DensityTracker& density,
                              std::span<const BigInt<4>> scalars, ThreadPool& pool,
                              const MsmConfig& cfg = {});

}  // namespace cuzk
