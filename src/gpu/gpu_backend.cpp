#include "gpu/gpu_backend.hpp"

#include <stdexcept>

#include "gpu/cuda_check.hpp"
#include "gpu/quotient.hpp"

namespace cuzk::gpu {

GpuBackend::GpuBackend(int device) {
  const int count = device_count();
  if (count == 0) {
    throw std::runtime_error("GpuBackend: no CUDA device (cudaGetDeviceCount found none)");
  }
  if (device < 0 || device >= count) {
    throw std::runtime_error("GpuBackend: device " + std::to_string(device) + " requested, " +
                             std::to_string(count) + " present");
  }
  info_ = list_devices().at(static_cast<size_t>(device));
  activate();
  stream_ = std::make_unique<Stream>();
  ntt_ = std::make_unique<NttEngine>(stream_->get());
}

GpuBackend::~GpuBackend() {
  // Buffers free on the device they were allocated on.
  cudaSetDevice(info_.ordinal);
}

void GpuBackend::activate() const {
  CUZK_CUDA_CHECK(cudaSetDevice(info_.ordinal));
}

std::string GpuBackend::name() const {
  return "gpu:" + std::to_string(info_.ordinal) + " (" + info_.name + ")";
}

void GpuBackend::clear_caches() {
  std::lock_guard lock(mu_);
  activate();
  g1_bases_.clear();
  g2_bases_.clear();
  ntt_->release_tables();
  ws_.release();
  d_scalars_.release();
  d_density_.release();
}

std::vector<Fr> GpuBackend::groth16_quotient(std::span<const Fr> a, std::span<const Fr> b,
                                             std::span<const Fr> c, const EvaluationDomain& domain,
                                             QuotientTiming* timing) {
  std::lock_guard lock(mu_);
  activate();
  return gpu::groth16_quotient(a, b, c, domain, *ntt_, timing);
}

std::vector<Fr> GpuBackend::coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b,
                                             std::vector<Fr> c, const EvaluationDomain& domain,
                                             QuotientTiming* timing) {
  std::lock_guard lock(mu_);
  activate();
  return gpu::coset_ab_minus_c(a, b, c, domain, *ntt_, timing);
}

template <class Curve>
Jacobian<Curve> GpuBackend::msm(BasesCache<Curve>& cache, std::span<const Affine<Curve>> bases,
                                const DensityTracker* density, std::span<const Fr> scalars) {
  if (density == nullptr && bases.size() != scalars.size())
    throw std::invalid_argument("gpu msm: bases and scalars differ in length");
  if (density != nullptr) {
    if (scalars.size() != density->size())
      throw std::invalid_argument("gpu msm: scalars.size() != density.size()");
    if (bases.size() != density->popcount())
      throw std::invalid_argument("gpu msm: bases.size() != density.popcount()");
  }
  std::lock_guard lock(mu_);
  last_msm_ = MsmStats{};
  if (scalars.empty() || bases.empty()) return Jacobian<Curve>::identity();
  activate();
  const cudaStream_t s = stream_->get();
  const Affine<Curve>* d_bases = cache.get(bases, s);
  d_scalars_.reserve(scalars.size());
  d_scalars_.upload(scalars, s);
  const uint64_t* d_density = nullptr;
  if (density != nullptr) {
    const std::vector<uint64_t>& words = density->words();
    d_density_.reserve(words.size());
    d_density_.upload(words, s);
    d_density = d_density_.get();
  }
  return msm_split<Curve>(d_bases, d_scalars_.get(), scalars.size(), d_density, ws_, s, &last_msm_);
}

G1Jacobian GpuBackend::msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) {
  return msm<G1Curve>(g1_bases_, bases, nullptr, scalars);
}
G2Jacobian GpuBackend::msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) {
  return msm<G2Curve>(g2_bases_, bases, nullptr, scalars);
}
G1Jacobian GpuBackend::msm_g1(std::span<const G1Affine> bases, const DensityTracker& density,
                              std::span<const Fr> scalars) {
  return msm<G1Curve>(g1_bases_, bases, &density, scalars);
}
G2Jacobian GpuBackend::msm_g2(std::span<const G2Affine> bases, const DensityTracker& density,
                              std::span<const Fr> scalars) {
  return msm<G2Curve>(g2_bases_, bases, &density, scalars);
}

}  // namespace cuzk::gpu
