#include "backend/backend_factory.hpp"

#include <stdexcept>
#include <string>

#if defined(CUZK_HAVE_CUDA)
#include "gpu/device/device_info.hpp"
#include "gpu/prover/gpu_backend.hpp"
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

std::vector<std::string> plan_provers(std::string_view backend, std::span<const int> gpus,
                                      std::string* note) {
  const auto say = [&](const std::string& s) {
    if (note != nullptr) *note = s;
  };
  if (backend != "cpu" && backend != "gpu" && backend != "auto") {
    throw std::invalid_argument("backend must be cpu, gpu or auto (got \"" + std::string(backend) +
                                "\")");
  }
  if (backend == "cpu") {
    say("cpu: requested");
    return {"cpu"};
  }
  int count = 0;
#if defined(CUZK_HAVE_CUDA)
  count = gpu::device_count();
#endif
  std::vector<std::string> out;
  if (gpus.empty()) {
    for (int i = 0; i < count; ++i)
      out.push_back("gpu:" + std::to_string(i));
  } else {
    for (int g : gpus) {
      if (g < 0 || g >= count) {
        throw std::invalid_argument("GPU " + std::to_string(g) + " does not exist (" +
                                    std::to_string(count) + " device(s))");
      }
      out.push_back("gpu:" + std::to_string(g));
    }
  }
  if (out.empty()) {
    if (backend == "gpu") {
      throw NoGpuError(gpu_backend_compiled() ? "backend gpu: no CUDA device found"
                                              : "backend gpu: this build has no CUDA backend");
    }
    say(gpu_backend_compiled() ? "cpu: auto, no CUDA device found"
                               : "cpu: auto, built without CUDA");
    return {"cpu"};
  }
  say(std::string(backend) + ": " + std::to_string(out.size()) + " device(s)");
  return out;
}

void require_backend(std::string_view kind) {
  if (kind == "cpu" || kind == "auto") return;
  if (kind != "gpu" && !kind.starts_with("gpu:"))
    throw std::invalid_argument("backend: '" + std::string(kind) + "' (want cpu, gpu[:N], auto)");
  const int ordinal = parse_ordinal(kind);
  if (!gpu_backend_compiled()) {
    throw NoGpuError("backend " + std::string(kind) +
                     ": this cuzk was built without CUDA (configure with CUZK_CUDA=ON)");
  }
  try {
    if (kind == "gpu") {  // any device: none is "no CUDA device found"
      plan_provers("gpu", {});
      return;
    }
    const int gpus[] = {ordinal};
    plan_provers("gpu", gpus);
  } catch (const NoGpuError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    // The ordinal is not there: as good as no GPU for this command.
    throw NoGpuError(std::string("backend ") + std::string(kind) + ": " + e.what());
  }
}

std::unique_ptr<ProverBackend> make_backend(std::string_view kind, ThreadPool& pool,
                                            std::string* note, uint64_t gpu_memory_limit) {
  const auto say = [&](const std::string& s) {
    if (note != nullptr) *note = s;
  };
  if (kind == "auto") {
    std::string why;
    const std::string chosen = plan_provers("auto", {}, &why).front();
    auto b = make_backend(chosen, pool, nullptr, gpu_memory_limit);
    say(b->name() + ": auto (" + why + ")");
    return b;
  }
  if (kind == "cpu") {
    say("cpu: requested");
    return std::make_unique<CpuBackend>(pool);
  }
  if (kind != "gpu" && !kind.starts_with("gpu:"))
    throw std::invalid_argument("backend: '" + std::string(kind) + "' (want cpu, gpu[:N], auto)");
  const int ordinal = parse_ordinal(kind);
#if defined(CUZK_HAVE_CUDA)
  gpu::GpuBackendOptions options;
  options.memory_limit = gpu_memory_limit;
  options.pool = &pool;
  auto b = std::make_unique<gpu::GpuBackend>(ordinal, options);
  say(b->name() + ": requested" +
      (gpu_memory_limit != 0 ? ", memory_limit " + std::to_string(gpu_memory_limit) + " bytes"
                             : std::string()));
  return b;
#else
  (void)ordinal;
  (void)gpu_memory_limit;
  throw std::runtime_error("backend: this build has no CUDA support (configure with CUZK_CUDA=ON)");
#endif
}

}  // namespace cuzk::groth16
