// A parameter set read from its .params file (no host copy of the points) on the device: it
// fills the device by warm steps and proves the CPU's bytes from the host set, whole MSMs or
// chunked under a cap that keeps every base resident; a plan that streams bases from the host
// asks for the host points (HostPointsNeeded).
#include <gtest/gtest.h>

#include "capped_fixture.hpp"
#include "common/temp_dir.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/params_file.hpp"
#include "groth16/point_source.hpp"

namespace cuzk::gpu {
namespace {

using testing::CappedGpuProof;
using testing::options;
using testing::pool;
using testing::randomness;

// The set written to a .params file and opened without its points: the device forecasts it
// proves from the file uncapped, fills every base from the file by steps of 4 KiB, holds the
// set, keeps nothing page-locked, and proves the CPU's bytes (from the host set); a backend that
// had no steps reads the file at the proof. The same file opened again is the same set on the
// device (its identity is the file's): nothing is read again.
TEST_F(CappedGpuProof, ASetReadFromItsFileFillsTheDeviceByStepsAndProvesTheCpusBytes) {
  cuzk::testing::TempDir dir("gpu-source");
  groth16::write_parameters(dir.path() / "set.params", params_);
  const groth16::Parameters sourced =
      groth16::open_parameters(dir.path() / "set.params", SubgroupCheck::kCheck);
  ASSERT_FALSE(groth16::has_host_points(sourced));
  const uint64_t bases = bases_bytes(params_);
  GpuBackendOptions o = options(0, kMaxChunkScalars);
  o.warm_source_step_bytes = 4096;
  GpuBackend gpu(0, o);
  EXPECT_TRUE(gpu.proves_from_source(sourced, rc_.get()));
  EXPECT_FALSE(gpu.proves_from_source(sourced, nullptr));  // no shape before a witness
  EXPECT_TRUE(gpu.lock_streamed_points(sourced, input()).handles.empty());
  size_t steps = 0;
  while (gpu.warm_step(sourced, input()))
    ASSERT_LT(++steps, 1000000u);
  EXPECT_GE(steps, bases / 4096);
  EXPECT_GE(gpu.h2d_bytes(), bases);
  EXPECT_TRUE(gpu.holds(sourced));
  EXPECT_FALSE(gpu.holds(params_));  // the host set is another set to the caches
  const groth16::ProofRandomness r = randomness(31);
  EXPECT_EQ(groth16::encode_proof(gpu.prove(sourced, input(), r, nullptr)), cpu_proof(r));
  EXPECT_TRUE(gpu.last_plan().all_resident);
  const std::optional<groth16::DeviceHolding> held = gpu.device_holding();
  EXPECT_TRUE(held && !held->streams && held->bases_bytes >= bases);

  const uint64_t read_before = gpu.h2d_bytes();
  const groth16::Parameters again =
      groth16::open_parameters(dir.path() / "set.params", SubgroupCheck::kCheck);
  EXPECT_TRUE(gpu.holds(again));
  EXPECT_FALSE(gpu.warm_step(again, input()));
  EXPECT_EQ(groth16::encode_proof(gpu.prove(again, input(), randomness(32), nullptr)),
            cpu_proof(randomness(32)));
  EXPECT_EQ(gpu.h2d_bytes(), read_before);

  GpuBackend cold(0, options(0, kMaxChunkScalars));
  EXPECT_EQ(groth16::encode_proof(cold.prove(sourced, input(), r, nullptr)), cpu_proof(r));
  EXPECT_TRUE(cold.holds(sourced));
}

// Just under the resident peak the plan chunks the MSMs and batches partitions but keeps every
// base resident: the set still proves from its file (warm steps fill it), through prove and
// through the batch's halves, with the CPU's bytes and under the cap.
TEST_F(CappedGpuProof, ASetReadFromItsFileProvesInChunksWhileEveryBaseIsResident) {
  cuzk::testing::TempDir dir("gpu-source-chunked");
  groth16::write_parameters(dir.path() / "set.params", params_);
  const groth16::Parameters sourced =
      groth16::open_parameters(dir.path() / "set.params", SubgroupCheck::kCheck);
  GpuBackendOptions o = options(resident_ - 1);
  o.warm_source_step_bytes = 4096;
  GpuBackend gpu(0, o);
  const MemoryPlan plan = gpu.plan_for(sourced, input());
  ASSERT_FALSE(plan.all_resident) << plan.summary();
  ASSERT_FALSE(plan.streams()) << plan.summary();
  EXPECT_TRUE(gpu.proves_from_source(sourced, rc_.get()));
  size_t steps = 0;
  while (gpu.warm_step(sourced, input()))
    ASSERT_LT(++steps, 1000000u);
  EXPECT_GE(steps, bases_bytes(params_) / 4096);
  EXPECT_TRUE(gpu.holds(sourced));
  const groth16::ProofRandomness r = randomness(34);
  EXPECT_EQ(groth16::encode_proof(gpu.prove(sourced, input(), r, nullptr)), cpu_proof(r));
  groth16::ProverTiming t;
  groth16::MsmSums sums = gpu.prove_front(sourced, input(), &t);
  const groth16::PartitionInput in = input();
  for (const groth16::AuxSection section : groth16::kAuxSections)
    gpu.aux_msm(sourced, section, {&in, 1}, {&sums, 1}, {&t, 1});
  EXPECT_EQ(groth16::encode_proof(groth16::assemble_proof(sourced.vk, sums, randomness(35))),
            cpu_proof(randomness(35)));
  EXPECT_LE(gpu.memory_peak(), resident_ - 1);
}

// Where the plan streams sections from host memory, which a set read from its file does not
// have: the forecast says so, and the warm step, the proof and the batch's halves throw
// HostPointsNeeded (the engine proves again with the host copy) naming the file; the host set
// proves under the same plan.
TEST_F(CappedGpuProof, ASetReadFromItsFileOnAStreamingPlanNeedsTheHostPoints) {
  cuzk::testing::TempDir dir("gpu-source-streamed");
  groth16::write_parameters(dir.path() / "set.params", params_);
  const groth16::Parameters sourced =
      groth16::open_parameters(dir.path() / "set.params", SubgroupCheck::kCheck);
  // The largest cap (in 32nds of the resident peak) whose own plan streams a section.
  uint64_t cap = 0;
  for (uint64_t k = 31; k >= 1 && cap == 0; --k) {
    GpuBackend probe(0, options(resident_ * k / 32));
    if (probe.plan_for(params_, input()).streams()) cap = resident_ * k / 32;
  }
  ASSERT_NE(cap, 0u);
  GpuBackend gpu(0, options(cap));
  EXPECT_FALSE(gpu.proves_from_source(sourced, rc_.get()));
  EXPECT_THROW(gpu.warm_step(sourced, input()), groth16::HostPointsNeeded);
  try {
    (void)gpu.prove(sourced, input(), randomness(33), nullptr);
    FAIL() << "a streaming plan proved a set with no host points";
  } catch (const groth16::HostPointsNeeded& e) {
    EXPECT_NE(std::string(e.what()).find("set.params"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)gpu.prove_front(sourced, input(), nullptr), groth16::HostPointsNeeded);
  EXPECT_EQ(groth16::encode_proof(gpu.prove(params_, input(), randomness(33), nullptr)),
            cpu_proof(randomness(33)));
}

}  // namespace
}  // namespace cuzk::gpu
