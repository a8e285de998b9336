// Arithmetic throughput of the device fields and curve additions, to set the kernels against the
// H200's measured ceilings (../shared/reference/gpu-anchors.md): when an MSM runs at a fraction
// of the XYZZ + affine ceiling, these rates say whether the field product or the kernel around it
// is what is missing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "ec/affine.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"

namespace cuzk::gpu {

struct ArithRate {
  std::string what;
  double per_s = 0;     // operations per second, whole device
  double ceiling = -1;  // gpu-anchors.md's measured ceiling; < 0: none given
};

// Times dependent chains of each operation, one chain per thread over a full grid (CUDA events,
// median of `reps`). The additions gather their affine operands from the given device tables:
// g1_small (L1/L2-resident), g1_large (random gathers from HBM) and g2_small; sizes are powers of
// two.
std::vector<ArithRate> measure_arith_rates(const Affine<G1Curve>* g1_small, size_t n_g1_small,
                                           const Affine<G1Curve>* g1_large, size_t n_g1_large,
                                           const Affine<G2Curve>* g2_small, size_t n_g2_small,
                                           unsigned reps, cudaStream_t s);

}  // namespace cuzk::gpu
