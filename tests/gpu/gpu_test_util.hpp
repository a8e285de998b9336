// Shared helpers of the gpu tests: the skip-without-device fixture, host <-> device vectors,
// printers, and seeded random inputs.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <span>
#include <vector>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ff/fr.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/device/device_info.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu::testing {

// Tests derived from this skip themselves when CUDA finds no device.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!device_available()) GTEST_SKIP() << "no CUDA device";
  }
};

ThreadPool& pool();

template <class T>
DeviceBuffer<T> to_device(std::span<const T> host) {
  DeviceBuffer<T> d(host.size());
  d.upload(host, nullptr);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  return d;
}

template <class T>
std::vector<T> to_host(const DeviceBuffer<T>& d, size_t n) {
  std::vector<T> out(n);
  d.download(out, nullptr);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  return out;
}

std::vector<Fr> random_frs(size_t n, std::mt19937_64& rng);

// The edge table for field tests: 0, 1, 2, p - 1, R, R^2, values at 32- and 64-bit limb
// boundaries.
template <class F>
std::vector<F> edge_values() {
  std::vector<F> v = {F::zero(), F::one(), F::from_u64(2), -F::one(), -F::from_u64(2),
                      F::from_mont(F::kR), F::from_mont(F::kR2),
                      // The largest and smallest Montgomery limbs: the carry chains' extremes.
                      F::from_mont(sub_u64(F::kModulus, 1)), F::from_mont(typename F::Int{{1}})};
  for (unsigned bit : {31u, 32u, 63u, 64u, 127u, 128u, 191u, 192u}) {
    typename F::Int x;
    x.w[bit / 64] = uint64_t{1} << (bit % 64);
    if (const auto f = F::from_canonical(x)) v.push_back(*f);
    if (const auto f = F::from_canonical(sub_u64(x, 1))) v.push_back(*f);
  }
  return v;
}

}  // namespace cuzk::gpu::testing

namespace cuzk {
inline void PrintTo(const Fr& f, std::ostream* os) {
  *os << f.to_hex();
}
}  // namespace cuzk
