// The proving key's runs of points as the resident path reads them and the warm steps fill
// them: one cache entry each (gpu_backend.cpp, gpu_backend_warm.cpp).
#pragma once

#include <cstdint>

#include "gpu/prover/bases_cache.hpp"
#include "groth16/backend.hpp"
#include "groth16/point_source.hpp"

namespace cuzk::gpu {

// The proving key's runs of points as prove_resident reads them (one cache entry each).
struct ResidentRuns {
  PointRun<G1Curve> h, l, a_inputs, a_aux, b1_inputs, b1_aux;
  PointRun<G2Curve> b2_inputs, b2_aux;
};

inline ResidentRuns resident_runs(const groth16::Parameters& params,
                                  const groth16::PartitionInput& in) {
  using groth16::Section;
  const groth16::SectionCounts c = groth16::section_counts(params);
  const uint64_t inputs = in.witness->inputs.size();
  const uint64_t b_inputs = in.b_input_density->popcount();
  return {point_run<G1Curve>(params, Section::kH, 0, c.h),
          point_run<G1Curve>(params, Section::kL, 0, c.l),
          point_run<G1Curve>(params, Section::kA, 0, inputs),
          point_run<G1Curve>(params, Section::kA, inputs, c.a - inputs),
          point_run<G1Curve>(params, Section::kBG1, 0, b_inputs),
          point_run<G1Curve>(params, Section::kBG1, b_inputs, c.b_g1 - b_inputs),
          point_run<G2Curve>(params, Section::kBG2, 0, b_inputs),
          point_run<G2Curve>(params, Section::kBG2, b_inputs, c.b_g2 - b_inputs)};
}

}  // namespace cuzk::gpu
