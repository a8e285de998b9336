// The device parameter generator against its CPU twin: for the same recorded circuit and seed the
// .params bytes are identical (and so the verifying key), for several shapes and sizes.
#include "gpu/setup/setup.hpp"

#include <gtest/gtest.h>

#include "gpu_test_util.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/setup.hpp"
#include "pce/piece_circuit.hpp"
#include "pce/recording_cs.hpp"
#include "random_circuit.hpp"

namespace cuzk::gpu {
namespace {

using testing::GpuTest;
using testing::pool;

class MemorySink final : public ParamsSink {
 public:
  void write(std::span<const uint8_t> b) override { bytes.insert(bytes.end(), b.begin(), b.end()); }
  std::vector<uint8_t> bytes;
};

pce::RecordedCircuit record(const Circuit& c) {
  pce::RecordingCS rec;
  c.synthesize(rec);
  return std::move(rec).finish({"test", 0, "any", 1});
}

void expect_device_equals_cpu(const pce::RecordedCircuit& rc, const std::string& seed) {
  const groth16::ToxicWaste tw = groth16::ToxicWaste::insecure_from_seed(seed);
  const groth16::Parameters cpu = groth16::generate_parameters_insecure(rc, tw, pool());
  const std::vector<uint8_t> want = groth16::serialize_parameters(cpu);
  MemorySink sink;
  DeviceSetupTiming t;
  uint64_t reported = 0;
  const groth16::VerifyingKey vk = generate_parameters_on_device(
      rc, tw, sink, pool(), [&](const char*, uint64_t done, uint64_t) { reported = done; }, &t);
  EXPECT_EQ(vk, cpu.vk);
  ASSERT_EQ(sink.bytes.size(), want.size());
  // The first differing byte, if any, says which vector is off.
  const auto diff = std::mismatch(sink.bytes.begin(), sink.bytes.end(), want.begin());
  EXPECT_TRUE(diff.first == sink.bytes.end())
      << "first difference at byte " << (diff.first - sink.bytes.begin()) << " of " << want.size();
  EXPECT_EQ(reported, cpu.b_g2.size());  // the last phase's last report
  EXPECT_GT(t.device_peak_bytes, 0u);
}

using DeviceSetup = GpuTest;

TEST_F(DeviceSetup, RandomCircuitsGiveTheCpuTwinsBytes) {
  for (size_t n : {size_t{100}, size_t{5000}, size_t{40000}}) {
    const cuzk::testing::RandomCircuit circuit(n, 5, n);
    expect_device_equals_cpu(record(circuit), "device setup " + std::to_string(n));
  }
}

TEST_F(DeviceSetup, NestedPieceCircuitGivesTheCpuTwinsBytes) {
  const cuzk::test::PieceCircuit circuit(3, 6, 2);
  expect_device_equals_cpu(record(circuit), "device setup pieces");
}

// A column with more entries than one thread sums (the heavy path: ONE in B).
TEST_F(DeviceSetup, HeavyColumnsGiveTheCpuTwinsBytes) {
  class ManyBits final : public Circuit {
   public:
    void synthesize(ConstraintSystem& cs) const override {
      for (int i = 0; i < 20000; ++i) {
        const Variable b = cs.alloc([] { return std::string("b"); },
                                    [i] { return (i % 3) == 0 ? Fr::one() : Fr::zero(); });
        cs.enforce(
            [] { return std::string("bool"); }, [&](LinearCombination& lc) { lc += b; },
            [&](LinearCombination& lc) { lc.add(Fr::one(), Variable::one()).add(-Fr::one(), b); },
            [](LinearCombination&) {});
      }
    }
  };
  expect_device_equals_cpu(record(ManyBits()), "device setup heavy");
}

}  // namespace
}  // namespace cuzk::gpu
