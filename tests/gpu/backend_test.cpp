// GpuBackend as a whole: proofs byte-identical to CpuBackend's for the same circuit, parameters
// and r, s (and verifying); the backend factory; device discovery and error reporting.
#include <gtest/gtest.h>

#include <random>

#include "backend/backend_factory.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/prover/gpu_backend.hpp"
#include "gpu_test_util.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "pce/recording_cs.hpp"
#include "pce/witness_cs.hpp"
#include "random_circuit.hpp"

namespace cuzk::gpu {
namespace {

using cuzk::testing::RandomCircuit;
using groth16::CpuBackend;
using testing::GpuTest;
using testing::pool;

TEST(BackendFactory, AutoPicksTheDeviceWhenPresent) {
  std::string note;
  const auto a = groth16::make_backend("auto", pool(), &note);
  EXPECT_EQ(a->name() != "cpu", device_available()) << note;
  if (!device_available()) {
    EXPECT_THROW(groth16::make_backend("gpu", pool()), std::runtime_error);
  }
}

TEST(DeviceDiscovery, CountAndListAgree) {
  const std::vector<DeviceInfo> devices = list_devices();
  EXPECT_EQ(static_cast<int>(devices.size()), device_count());
  for (const DeviceInfo& d : devices) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.total_bytes, 0u);
    std::cout << "device " << d.ordinal << ": " << describe(d) << "\n";
  }
}

TEST(GpuBackendErrors, MissingDeviceIsAClearError) {
  try {
    GpuBackend b(device_count() + 3);
    FAIL() << "constructed a backend on a missing device";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("device"), std::string::npos) << e.what();
  }
}

using GpuErrors = GpuTest;

TEST_F(GpuErrors, OutOfMemoryIsReportedNotFatal) {
  try {
    DeviceBuffer<uint8_t> huge(size_t{1} << 50);  // 1 PiB
    FAIL() << "allocated 1 PiB";
  } catch (const CudaError& e) {
    EXPECT_TRUE(e.out_of_memory()) << e.what();
    EXPECT_NE(std::string(e.what()).find("out of memory"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cudaMalloc"), std::string::npos) << e.what();
  }
  // The device is still usable afterwards.
  DeviceBuffer<uint8_t> small(1024);
  small.zero(nullptr);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
}

groth16::ProofRandomness fixed_randomness(uint64_t seed) {
  std::mt19937_64 rng(seed);
  return {Fr::random(rng), Fr::random(rng)};
}

class GpuProof : public GpuTest, public ::testing::WithParamInterface<int> {};

TEST_P(GpuProof, BytesEqualCpuBackendAndVerify) {
  const size_t n = size_t{1} << GetParam();
  const RandomCircuit circuit(n, 3, 500 + GetParam());
  const groth16::Parameters params = groth16::generate_parameters_insecure(
      circuit, groth16::ToxicWaste::insecure_from_seed("gpu backend"), pool());
  const groth16::ProofRandomness rand = fixed_randomness(GetParam());
  CpuBackend cpu(pool());
  GpuBackend gpu;
  const groth16::Proof want = groth16::prove(params, circuit, rand, cpu, nullptr);
  groth16::ProverTiming t;
  const groth16::Proof got = groth16::prove(params, circuit, rand, gpu, &t);
  EXPECT_EQ(groth16::encode_proof(got), groth16::encode_proof(want));
  EXPECT_TRUE(groth16::verify_proof(groth16::prepare_verifying_key(params.vk), got,
                                    circuit.public_inputs()));
  // A second proof reuses the cached points and tables.
  const groth16::ProofRandomness rand2 = fixed_randomness(GetParam() + 100);
  EXPECT_EQ(groth16::encode_proof(groth16::prove(params, circuit, rand2, gpu, nullptr)),
            groth16::encode_proof(groth16::prove(params, circuit, rand2, cpu, nullptr)));
}
INSTANTIATE_TEST_SUITE_P(Sizes, GpuProof, ::testing::Values(2, 5, 8, 11, 14));

// The production path: witness-only synthesis against the recording, a, b, c by SpMV on the
// device. Same bytes as the CPU backend on the same path and as the classic path.
TEST_P(GpuProof, RecordedCircuitProofsEqualCpuAndClassic) {
  const size_t n = size_t{1} << GetParam();
  const RandomCircuit circuit(n, 4, 900 + GetParam());
  const groth16::Parameters params = groth16::generate_parameters_insecure(
      circuit, groth16::ToxicWaste::insecure_from_seed("gpu recorded"), pool());
  pce::RecordingCS rec;
  circuit.synthesize(rec);
  const pce::RecordedCircuit rc = std::move(rec).finish({"random", n, "any", 1});
  const groth16::ProofRandomness rand = fixed_randomness(GetParam() + 7);
  CpuBackend cpu(pool());
  GpuBackend gpu;
  groth16::ProverTiming t;
  const auto got =
      groth16::encode_proof(groth16::prove_recorded(params, rc, circuit, rand, gpu, pool(), &t));
  EXPECT_EQ(got, groth16::encode_proof(
                     groth16::prove_recorded(params, rc, circuit, rand, cpu, pool(), nullptr)));
  EXPECT_EQ(got, groth16::encode_proof(groth16::prove(params, circuit, rand, cpu, nullptr)));
  EXPECT_GT(t.spmv_s, 0.0);
}

TEST_F(GpuTest, RecordedCircuitWithABrokenWitnessIsRefusedBeforeTheMsms) {
  const RandomCircuit circuit(3000, 3, 5);
  const groth16::Parameters params = groth16::generate_parameters_insecure(
      circuit, groth16::ToxicWaste::insecure_from_seed("gpu broken"), pool());
  pce::RecordingCS rec;
  circuit.synthesize(rec);
  const pce::RecordedCircuit rc = std::move(rec).finish({"random", 3000, "any", 1});
  pce::WitnessCS wcs(&pool());
  circuit.synthesize(wcs);
  pce::CompactWitness w = std::move(wcs).finish();
  w.aux_values[w.aux_values.size() / 2] += Fr::one();
  GpuBackend gpu;
  try {
    gpu.prove(params, groth16::PartitionInput::recorded(w, rc), fixed_randomness(1), nullptr);
    FAIL() << "proved a broken witness";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.kind(), SynthesisError::Kind::kUnsatisfiable);
    EXPECT_NE(std::string(e.what()).find("row"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::gpu
