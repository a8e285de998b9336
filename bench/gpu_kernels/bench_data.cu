#include "gpu_kernels/bench_data.hpp"

#include <algorithm>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/grid.hpp"

namespace cuzk::gpu {

namespace {

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

__global__ void fill_fr_kernel(uint64_t* out, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x) {
    const uint64_t base = splitmix64(seed ^ (i * 4));
    for (int k = 0; k < 4; ++k)
      out[4 * i + k] = splitmix64(base + k);
    out[4 * i + 3] >>= 2;  // < 2^254 < r
  }
}

__global__ void fill_bits_kernel(uint32_t* out, size_t n, unsigned percent, uint64_t seed) {
  const size_t words = (n + 31) / 32;
  for (size_t w = blockIdx.x * size_t{blockDim.x} + threadIdx.x; w < words;
       w += size_t{gridDim.x} * blockDim.x) {
    uint32_t word = 0;
    for (unsigned b = 0; b < 32; ++b) {
      const size_t i = w * 32 + b;
      if (i < n && splitmix64(seed ^ i) % 100 < percent) word |= 1u << b;
    }
    out[w] = word;
  }
}

}  // namespace

void fill_random_fr(Fr* d_out, size_t n, uint64_t seed, cudaStream_t s) {
  fill_fr_kernel<<<grid_for(n, 256), 256, 0, s>>>(reinterpret_cast<uint64_t*>(d_out), n, seed);
  CUZK_CUDA_CHECK_LAUNCH();
}

void fill_random_bits(uint32_t* d_words, size_t n, unsigned percent, uint64_t seed,
                      cudaStream_t s) {
  fill_bits_kernel<<<grid_for((n + 31) / 32, 256), 256, 0, s>>>(d_words, n, percent, seed);
  CUZK_CUDA_CHECK_LAUNCH();
}

void tile_device(void* d, size_t bytes, size_t have, size_t total, cudaStream_t s) {
  auto* p = static_cast<uint8_t*>(d);
  for (size_t filled = have; filled < total;) {
    const size_t chunk = std::min(filled, total - filled);
    CUZK_CUDA_CHECK(
        cudaMemcpyAsync(p + filled * bytes, p, chunk * bytes, cudaMemcpyDeviceToDevice, s));
    filled += chunk;
  }
}

}  // namespace cuzk::gpu
