#include "gpu/backend_factory.hpp"

#include <stdexcept>
#include <string>

#if defined(CUZK_HAVE_CUDA)
#include "gpu/device_info.hpp"
#include "gpu/gpu_backend.hpp"
#endif

namespace cuzk::groth16 {

namespace {

int parse_ordinal(std::string_view kind) {
  if (kind == "gpu") return 0;
  const std::string digits(kind.substr(4));
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument("backend: bad device ordinal in '" + std::string(kind) + "'");
  return std::stoi(digits);
}

}  // namespace

bool gpu_backend_compiled() {
#if defined(CUZK_HAVE_CUDA)
  return true;
#else
  return false;
#endif
}

std::unique_ptr<ProverBackend> make_backend(std::string_view kind, ThreadPool& pool,
                                            std::string* note) {
  const auto say = [&](const std::string& s) {
    if (note != nullptr) *note = s;
  };
  if (kind == "cpu") {
    say("cpu: requested");
    return std::make_unique<CpuBackend>(pool);
  }
  const bool gpu = kind == "gpu" || kind.starts_with("gpu:");
  if (!gpu && kind != "auto")
    throw std::invalid_argument("backend: '" + std::string(kind) + "' (want cpu, gpu[:N], auto)");
#if defined(CUZK_HAVE_CUDA)
  if (gpu) {
    auto b = std::make_unique<gpu::GpuBackend>(parse_ordinal(kind));
    say(b->name() + ": requested");
    return b;
  }
  if (gpu::device_count() > 0) {
    auto b = std::make_unique<gpu::GpuBackend>(0);
    say(b->name() + ": auto, a CUDA device is present");
    return b;
  }
  say("cpu: auto, no CUDA device found");
  return std::make_unique<CpuBackend>(pool);
#else
  if (gpu) {
    (void)parse_ordinal(kind);
    throw std::runtime_error(
        "backend: this build has no CUDA support (configure with CUZK_CUDA=ON)");
  }
  say("cpu: auto, built without CUDA");
  return std::make_unique<CpuBackend>(pool);
#endif
}

}  // namespace cuzk::groth16
