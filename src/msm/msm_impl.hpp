// Definitions of the msm_pippenger templates; included only by the per-curve instantiation files.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "msm/bucket_affine.hpp"
#include "msm/bucket_xyzz.hpp"
#include "msm/msm.hpp"
#include "msm/msm_plan.hpp"
#include "msm/scalar_split.hpp"
#include "msm/signed_windows.hpp"

namespace cuzk::msm_detail {

// The bucket method over the scalars that survived split_scalars.
template <class Curve>
Jacobian<Curve> bucket_method(std::span<const Affine<Curve>> bases, SplitScalars<Curve>& split,
                              ThreadPool& pool, const MsmConfig& cfg) {
  const size_t n = split.scalars.size();
  if (n == 0) return {};
  if (split.scalar_bits > SignedWindows::kMaxScalarBits)
    throw std::invalid_argument("msm: scalars must be below 2^255");
  MsmCostModel model;
  model.xyzz_bucket_bytes = sizeof(Xyzz<Curve>);
  model.affine_bucket_bytes = sizeof(Affine<Curve>) + sizeof(uint32_t);
  const MsmPlan plan = plan_msm(n, split.scalar_bits, pool.size(), cfg, model);
  const SignedWindows sw(plan.window_bits, split.scalar_bits);

  pool.parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      split.scalars[i] = sw.prepare(split.scalars[i]);
  });

  // One task per (window, chunk); windows in increasing order put the lighter top window last,
  // where it fills the gaps of the final round.
  const unsigned windows = sw.num_windows();
  const size_t chunks = plan.chunks;
  const size_t step = (n + chunks - 1) / chunks;
  std::vector<Xyzz<Curve>> partial(windows * chunks);
  const std::span<const BigInt<4>> scalars(split.scalars);
  const std::span<const uint32_t> index(split.base_index);
  pool.run(partial.size(), [&](size_t t) {
    const unsigned w = static_cast<unsigned>(t / chunks);
    const size_t begin = std::min(n, (t % chunks) * step);
    const size_t len = std::min(n, begin + step) - begin;
    if (plan.buckets == BucketMode::kBatchAffine) {
      partial[t] = window_sum_batch_affine<Curve>(sw, w, scalars.subspan(begin, len),
                                                  index.subspan(begin, len), bases);
    } else {
      partial[t] = window_sum_xyzz<Curve>(sw, w, scalars.subspan(begin, len),
                                          index.subspan(begin, len), bases);
    }
  });

  // Horner over the windows: result = sum_w 2^(wc) S_w.
  Jacobian<Curve> acc;
  for (unsigned w = windows; w-- > 0;) {
    for (unsigned k = 0; k < sw.window_bits(); ++k)
      acc = acc.dbl();
    for (size_t ch = 0; ch < chunks; ++ch)
      acc += partial[w * chunks + ch].to_jacobian();
  }
  return acc;
}

template <class Curve, class Scalar>
Jacobian<Curve> run(std::span<const Affine<Curve>> bases, std::span<const Scalar> scalars,
                    const uint64_t* density, ThreadPool& pool, const MsmConfig& cfg) {
  SplitScalars<Curve> split =
      split_scalars<Curve, Scalar>(bases, scalars, density, cfg.trivial_fast_path, pool);
  return bucket_method<Curve>(bases, split, pool, cfg) + split.ones;
}

template <class Curve, class Scalar>
Jacobian<Curve> run_full(std::span<const Affine<Curve>> bases, std::span<const Scalar> scalars,
                         ThreadPool& pool, const MsmConfig& cfg) {
  if (bases.size() != scalars.size())
    throw std::invalid_argument("msm_pippenger: bases and scalars differ in length");
  return run<Curve, Scalar>(bases, scalars, nullptr, pool, cfg);
}

template <class Curve, class Scalar>
Jacobian<Curve> run_density(std::span<const Affine<Curve>> bases, const DensityTracker& density,
                            std::span<const Scalar> scalars, ThreadPool& pool,
                            const MsmConfig& cfg) {
  if (scalars.size() != density.size())
    throw std::invalid_argument("msm_pippenger: scalars.size() != density.size()");
  if (bases.size() != density.popcount())
    throw std::invalid_argument("msm_pippenger: bases.size() != density.popcount()");
  return run<Curve, Scalar>(bases, scalars, density.words().data(), pool, cfg);
}

}  // namespace cuzk::msm_detail

namespace cuzk {

template <class Curve>
Jacobian<Curve> msm_pippenger(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars,
                              ThreadPool& pool, const MsmConfig& cfg) {
  return msm_detail::run_full<Curve, Fr>(bases, scalars, pool, cfg);
}
template <class Curve>
Jacobian<Curve> msm_pippenger(std::span<const Affine<Curve>> bases,
                              std::span<const BigInt<4>> scalars, ThreadPool& pool,
                              const MsmConfig& cfg) {
  return msm_detail::run_full<Curve, BigInt<4>>(bases, scalars, pool, cfg);
}
template <class Curve>
Jacobian<Curve> msm_pippenger(std::span<const Affine<Curve>> bases, const DensityTracker& density,
                              std::span<const Fr> scalars, ThreadPool& pool, const MsmConfig& cfg) {
  return msm_detail::run_density<Curve, Fr>(bases, density, scalars, pool, cfg);
}
template <class Curve>
Jacobian<Curve> msm_pippenger(std::span<const Affine<Curve>> bases, const DensityTracker& density,
                              std::span<const BigInt<4>> scalars, ThreadPool& pool,
                              const MsmConfig& cfg) {
  return msm_detail::run_density<Curve, BigInt<4>>(bases, density, scalars, pool, cfg);
}

}  // namespace cuzk
