// Shared helpers of the poly benchmarks: seeded inputs, the size list and the pool size.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "ff/fr.hpp"

namespace cuzk {

inline std::vector<Fr> random_vector(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> v(n);
  for (auto& x : v)
    x = Fr::random(rng);
  return v;
}

// log2 sizes: 16 and 20, plus BENCH_NPOW when set (e.g. 24 or 27 on a machine with the memory).
inline void sizes(benchmark::internal::Benchmark* b) {
  b->Arg(16)->Arg(20);
  if (const char* env = std::getenv("BENCH_NPOW"); env != nullptr && *env != '\0')
    b->Arg(std::atoi(env));
}

// All hardware threads unless BENCH_THREADS says otherwise.
inline unsigned pool_threads() {
  const char* env = std::getenv("BENCH_THREADS");
  return env != nullptr ? static_cast<unsigned>(std::atoi(env)) : 0u;
}

}  // namespace cuzk
