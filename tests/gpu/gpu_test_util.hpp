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
#include "field_edges.hpp"
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

}  // namespace cuzk::gpu::testing

namespace cuzk {
inline void PrintTo(const Fr& f, std::ostream* os) {
  *os << f.to_hex();
}
}  // namespace cuzk
