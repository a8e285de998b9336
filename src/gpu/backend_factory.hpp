// make_backend: the prover backend chosen at run time (`--backend cpu|gpu|auto`). Compiled in both
// configurations: without CUDA (CUZK_HAVE_CUDA undefined) "gpu" throws and "auto" is the CPU.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "groth16/backend.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

// kind: "cpu"; "gpu" or "gpu:N" (device ordinal N, default 0; std::runtime_error when the build
// has no CUDA or the device is missing); "auto" (device 0 when present, else the CPU).
// std::invalid_argument for anything else. `note` (optional) says what was chosen and why.
std::unique_ptr<ProverBackend> make_backend(std::string_view kind, ThreadPool& pool,
                                            std::string* note = nullptr);

// Whether this build contains the CUDA backend.
bool gpu_backend_compiled();

}  // namespace cuzk::groth16
