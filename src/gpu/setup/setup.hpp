// Groth16 parameters on the device, from a recorded circuit: the device twin of
// groth16::generate_parameters_insecure(RecordedCircuit) — the same toxic waste, scalars and
// points, written as bellperson's .params bytes (groth16/bellperson_format.hpp) to a sink as
// they are made, so a 47 GB set (32 GiB PoRep) is never held in host memory at once:
//   Lagrange basis at tau over the domain; u, v, w of every variable as transposed SpMVs of the
//   recorded matrices; the verifying key (IC on the host: a few hundred points); then h, l, a,
//   b_g1 and b_g2 by fixed-base multiplication (8-bit windows, 32 mixed additions a point),
//   normalised to affine in batches, encoded big-endian on the device, and streamed out in
//   chunks through pinned buffers while the next chunk is computed.
// INSECURE BY DESIGN, like every test parameter: whoever knows the seed can forge proofs.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "groth16/setup.hpp"
#include "groth16/types.hpp"
#include "pce/recorded_circuit.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

// Where the .params bytes go, in file order (a file, or memory in tests).
class ParamsSink {
 public:
  virtual ~ParamsSink() = default;
  virtual void write(std::span<const uint8_t> bytes) = 0;
};

struct DeviceSetupTiming {
  double upload_s = 0, lagrange_s = 0, qap_s = 0, vk_s = 0;
  double h_s = 0, l_s = 0, a_s = 0, b_g1_s = 0, b_g2_s = 0;  // points made and written
  double total_s = 0;
  uint64_t device_peak_bytes = 0;  // the generator's own device allocations at their peak
};

// progress(phase, done, total): "h", "l", "a", "b_g1", "b_g2" points as they are written.
using SetupProgress = std::function<void(const char* phase, uint64_t done, uint64_t total)>;

// Writes the whole .params to `sink` and returns its verifying key (the .vk). CudaError on a
// device failure, std::invalid_argument for a circuit the domain cannot hold.
groth16::VerifyingKey generate_parameters_on_device(const pce::RecordedCircuit& rc,
                                                    const groth16::ToxicWaste& tw, ParamsSink& sink,
                                                    ThreadPool& pool,
                                                    const SetupProgress& progress = nullptr,
                                                    DeviceSetupTiming* timing = nullptr);

}  // namespace cuzk::gpu
