// The parameter-file digest (BLAKE2b-512 of the whole file, parameters.json's rule) as [srs]
// verify_digests pays it on load: the pipelined reader + one hashing core over a file in the
// page cache (Arg: MiB), against BLAKE2b-512 of the same bytes in memory (the hash alone).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "filecoin/hash/blake2b.hpp"
#include "filecoin/parameter_cache.hpp"

namespace cuzk::filecoin {
namespace {

std::vector<uint8_t> pattern(size_t n) {
  std::vector<uint8_t> v(n);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v[i] = static_cast<uint8_t>(x);
  }
  return v;
}

void BM_ParameterFileDigest(benchmark::State& state) {
  const size_t bytes = static_cast<size_t>(state.range(0)) << 20;
  const auto path = std::filesystem::temp_directory_path() / "cuzk-digest-bench.params";
  {
    const std::vector<uint8_t> v = pattern(bytes);
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size()));
  }
  for (auto _ : state)
    benchmark::DoNotOptimize(parameter_file_digest(path));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  std::filesystem::remove(path);
}
BENCHMARK(BM_ParameterFileDigest)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Blake2b512InMemory(benchmark::State& state) {
  const std::vector<uint8_t> v = pattern(static_cast<size_t>(state.range(0)) << 20);
  for (auto _ : state)
    benchmark::DoNotOptimize(blake2b512(v));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * v.size()));
}
BENCHMARK(BM_Blake2b512InMemory)->Arg(256)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk::filecoin
