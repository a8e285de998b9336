// The capped-device tests' fixture: a random recorded circuit of 3000 rows (domain 2^12),
// insecure parameters for it, one witness, and its resident peak on the device; GpuBackend
// options with small MSM chunks; seeded r, s.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>

#include "gpu/prover/gpu_backend.hpp"
#include "gpu_test_util.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "pce/recording_cs.hpp"
#include "pce/witness_cs.hpp"
#include "random_circuit.hpp"

namespace cuzk::gpu::testing {

using cuzk::testing::RandomCircuit;

inline GpuBackendOptions options(uint64_t limit, uint64_t max_chunk = 256) {
  GpuBackendOptions o;
  o.memory_limit = limit;
  o.pool = &pool();
  o.max_chunk_scalars = max_chunk;
  return o;
}

inline groth16::ProofRandomness randomness(uint64_t seed) {
  std::mt19937_64 rng(seed);
  return {Fr::random(rng), Fr::random(rng)};
}

class CappedGpuProof : public GpuTest {
 protected:
  static constexpr size_t kRows = 3000;  // domain 2^12: several 256-scalar chunks per MSM
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    circuit_ = std::make_unique<RandomCircuit>(kRows, 4, 77);
    params_ = groth16::generate_parameters_insecure(
        *circuit_, groth16::ToxicWaste::insecure_from_seed("gpu capped"), pool());
    pce::RecordingCS rec;
    circuit_->synthesize(rec);
    rc_ = std::make_unique<pce::RecordedCircuit>(
        std::move(rec).finish({"random", kRows, "capped", 1}));
    pce::WitnessCS wcs(&pool());
    circuit_->synthesize(wcs);
    witness_ = std::move(wcs).finish();
    // The resident peak: what an uncapped backend plans for this partition.
    GpuBackend probe(0, options(0, kMaxChunkScalars));
    resident_ = probe.plan_for(params_, input()).peak();
  }
  groth16::PartitionInput input() const {
    return groth16::PartitionInput::recorded(witness_, *rc_);
  }
  std::array<uint8_t, 192> cpu_proof(const groth16::ProofRandomness& r) {
    groth16::CpuBackend cpu(pool());
    return groth16::encode_proof(cpu.prove(params_, input(), r, nullptr));
  }
  // Proves under `limit` with chunks of at most 256 scalars and `adjust`, checks the bytes
  // against the CPU's and the verifier, twice (the second reuses the layout), and the cap.
  MemoryPlan prove_capped(uint64_t limit, std::function<void(MemoryPlan&)> adjust = nullptr) {
    GpuBackendOptions o = options(limit);
    o.adjust_plan = std::move(adjust);
    GpuBackend gpu(0, o);
    for (uint64_t seed : {11, 12}) {
      const groth16::ProofRandomness r = randomness(seed);
      const groth16::Proof got = gpu.prove(params_, input(), r, nullptr);
      EXPECT_EQ(groth16::encode_proof(got), cpu_proof(r)) << gpu.last_plan().summary();
      EXPECT_TRUE(groth16::verify_proof(groth16::prepare_verifying_key(params_.vk), got,
                                        circuit_->public_inputs()));
    }
    EXPECT_LE(gpu.memory_peak(), limit) << gpu.last_plan().summary();
    // What it says it keeps (the engine's tier, the status page's meter): streaming, a part.
    const std::optional<groth16::DeviceHolding> held = gpu.device_holding();
    EXPECT_TRUE(held && held->streams == gpu.last_plan().streams());
    EXPECT_TRUE(held && held->bases_bytes <= limit);
    return gpu.last_plan();
  }

  static uint64_t bases_bytes(const groth16::Parameters& p) {
    return (p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) * sizeof(G1Affine) +
           p.b_g2.size() * sizeof(G2Affine);
  }

  std::unique_ptr<RandomCircuit> circuit_;
  groth16::Parameters params_;
  std::unique_ptr<pce::RecordedCircuit> rc_;
  pce::CompactWitness witness_;
  uint64_t resident_ = 0;
};

}  // namespace cuzk::gpu::testing
