// SDR graph, parent cache and Merkle tree benchmarks (<threads> 0 = one per hardware thread).
//   BM_ParentCacheGenerate/<size>/<threads>: whole parent cache of a published V1_1 graph
//     (2 KiB id 5, 8 MiB id 6, 512 MiB id 7) streamed through SHA-256 (no file), one iteration;
//     counters: digest_ok (1 = the manifest digest), peak_rss_MiB (process peak, run the 512 MiB
//     case alone to attribute it), MiB/s of cache output.
//   BM_PoseidonTreeBuild/<threads>: a Poseidon arity-8 base tree over 8 MiB of leaves
//     (262 144 leaves, 37 449 node hashes); bytes/s of leaves.
//   BM_StackedGraphNode: all 14 parents of one node of the 32 GiB V1_1 graph.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <random>
#include <vector>

#include "filecoin/graph/parent_cache.hpp"
#include "filecoin/merkle/merkle_tree.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {
namespace {

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

void BM_ParentCacheGenerate(benchmark::State& state) {
  const uint64_t sector_size = static_cast<uint64_t>(state.range(0));
  const uint32_t id = sector_size == 2048 ? 5 : (sector_size == (8 << 20) ? 6 : 7);
  const StackedGraph graph(sector_size / 32, porep_id(id, 0), ApiVersion::kV1_1_0);
  ThreadPool pool(static_cast<unsigned>(state.range(1)));
  const auto* entry = find_parent_cache_manifest_entry(parent_cache_file_stem(graph));
  bool ok = true;
  uint64_t bytes = 0;
  for (auto _ : state) {
    const Sha256Digest d = generate_parent_cache(
        graph, [&](std::span<const uint8_t> c) { bytes += c.size(); }, &pool);
    ok = ok && entry != nullptr && to_hex(d) == entry->digest;
  }
  state.counters["digest_ok"] = ok ? 1 : 0;
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_ParentCacheGenerate)
    ->Args({2048, 1})
    ->Args({8 << 20, 1})
    ->Args({8 << 20, 2})
    ->Args({512 << 20, 2})
    ->Args({512 << 20, 0})  // 0: one thread per hardware thread
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kSecond);

void BM_PoseidonTreeBuild(benchmark::State& state) {
  const size_t leaves = size_t{1} << 18;  // 8 MiB
  std::mt19937_64 rng(1);
  std::vector<uint8_t> data(leaves * 32);
  for (auto& b : data)
    b = static_cast<uint8_t>(rng());
  for (size_t i = 0; i < leaves; ++i)
    data[32 * i + 31] &= 0x3f;
  const unsigned threads = static_cast<unsigned>(state.range(0));
  ThreadPool pool(threads);
  for (auto _ : state)
    benchmark::DoNotOptimize(
        BaseTree::build(data, 8, TreeHasher::kPoseidon, threads != 1 ? &pool : nullptr).root());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
  state.counters["hashes_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * (leaves - 1) / 7), benchmark::Counter::kIsRate);
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(BM_PoseidonTreeBuild)
    ->Arg(1)
    ->Arg(2)
    ->Arg(0)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_StackedGraphNode(benchmark::State& state) {
  const StackedGraph graph(uint64_t{1} << 30, porep_id(8, 0), ApiVersion::kV1_1_0);
  std::array<uint32_t, kTotalDegree> parents;
  uint64_t v = 123456789;
  for (auto _ : state) {
    graph.parents(v, parents);
    v = (v + parents[7]) & ((uint64_t{1} << 30) - 1);
    benchmark::DoNotOptimize(parents);
  }
}
BENCHMARK(BM_StackedGraphNode);

void BM_FeistelRound(benchmark::State& state) {
  uint64_t r = 1;
  for (auto _ : state) {
    r = feistel_round(r, 0x1234567890abcdef, (uint64_t{1} << 17) - 1) + 1;
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_FeistelRound);

}  // namespace
}  // namespace cuzk::filecoin
