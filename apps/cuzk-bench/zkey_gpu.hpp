// The snarkjs zkey prover (groth16/snarkjs_prover.cpp) with its transforms and MSMs on the GPU:
// the same steps and the same assembly, so the proof equals prove_zkey's for the same r, s.
#pragma once

#include <span>

#include "gpu/gpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/snarkjs_format.hpp"

namespace cuzk::bench {

groth16::Proof prove_zkey_gpu(const groth16::Zkey& zkey, std::span<const Fr> witness,
                              const groth16::ProofRandomness& rand, gpu::GpuBackend& backend,
                              groth16::ProverTiming* timing = nullptr);

}  // namespace cuzk::bench
