#include "gpu_test_util.hpp"

namespace cuzk::gpu::testing {

ThreadPool& pool() {
  static ThreadPool p(0);
  return p;
}

std::vector<Fr> random_frs(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v)
    x = Fr::random(rng);
  return v;
}

}  // namespace cuzk::gpu::testing
