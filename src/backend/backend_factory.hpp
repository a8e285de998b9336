// make_backend: the prover backend chosen at run time (`--backend cpu|gpu|auto`). Compiled in both
// configurations: without CUDA (CUZK_HAVE_CUDA undefined) "gpu" throws and "auto" is the CPU.
// The backend layer sits above groth16 (CpuBackend, the ProverBackend interface) and gpu
// (GpuBackend), the one place that names both; the functions keep groth16's namespace because
// what they make and throw is the groth16 prover interface's (groth16::ProverBackend).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "groth16/backend.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

// kind: "cpu"; "gpu" or "gpu:N" (device ordinal N, default 0; std::runtime_error when the build
// has no CUDA or the device is missing); "auto" (device 0 when present, else the CPU).
// std::invalid_argument for anything else. `note` (optional) says what was chosen and why.
// gpu_memory_limit: device bytes a GPU backend may use (0: the device's; [gpus] memory_limit);
// the GPU backend uses `pool` for streamed bases' host copies and its CPU SpMV fallback.
std::unique_ptr<ProverBackend> make_backend(std::string_view kind, ThreadPool& pool,
                                            std::string* note = nullptr,
                                            uint64_t gpu_memory_limit = 0);

// "gpu" asked for and no device to use (none found, or the build has no CUDA): the machine's
// state rather than a bad configuration, so the daemon stays up and reports it (NOT_SERVING).
class NoGpuError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The provers a configuration asks for, as make_backend kinds: "gpu:N" for each device to use
// (`gpus`, or every device present), else {"cpu"}. The one place the backend is chosen: the
// engine's workers, `cuzk porep c2 --backend` and make_backend("auto") all come here.
// NoGpuError for "gpu" without a device (or without CUDA in the build); std::invalid_argument
// for an ordinal that does not exist or a backend other than cpu, gpu, auto.
std::vector<std::string> plan_provers(std::string_view backend, std::span<const int> gpus,
                                      std::string* note = nullptr);

// Checks, without making a backend, that make_backend(kind) can succeed: "cpu" and "auto" always;
// "gpu" or "gpu:N" only with that device present. NoGpuError naming why not (no device, or a
// build without CUDA), std::invalid_argument for a kind that is none of these. The commands call
// it before reading their inputs, so a missing GPU fails at once.
void require_backend(std::string_view kind);

// Whether this build contains the CUDA backend.
bool gpu_backend_compiled();

}  // namespace cuzk::groth16
