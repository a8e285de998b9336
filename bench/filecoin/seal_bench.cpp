// Sealing benchmarks: the SDR label hash (SHA-NI block form against OpenSSL over the 37 repeated
// parents), PC1 labeling of every layer for 8 MiB and 512 MiB sectors (with one thread and with
// the producer thread; parent cache generated once beforehand and not timed), synthetic C1 of a
// 32 GiB sector, its vanilla verification and its JSON.
//
// Files go to $CUZK_BENCH_DIR (default /var/tmp/cuzk-bench): the 512 MiB run needs ~2 GiB there
// (896 MiB parent cache, two 512 MiB layers). maxrss_MiB is the process's peak resident set
// (getrusage) after the benchmark, so run the 512 MiB case alone (--benchmark_filter) to read its
// own peak; mapped layer pages count in it.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "filecoin/graph/parent_cache.hpp"
#include "porep/vanilla/c1_json.hpp"
#include "porep/vanilla/porep_config.hpp"
#include "porep/vanilla/porep_verify.hpp"
#include "porep/vanilla/sdr_label.hpp"
#include "porep/vanilla/sdr_labeler.hpp"
#include "porep/vanilla/synthetic_c1.hpp"

namespace cuzk::filecoin {
namespace {

std::filesystem::path bench_dir() {
  const char* d = std::getenv("CUZK_BENCH_DIR");
  return (d != nullptr && *d != '\0') ? d : "/var/tmp/cuzk-bench";
}

double max_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

void BM_SdrLabel(benchmark::State& state) {
  const size_t parents = static_cast<size_t>(state.range(0));
  std::mt19937_64 rng(1);
  std::vector<uint8_t> distinct(parents * 32);
  for (auto& b : distinct)
    b = static_cast<uint8_t>(rng() & 0x3f);
  Domain replica_id{};
  uint64_t node = 1;
  for (auto _ : state) {
    const Domain d = sdr_label(replica_id, parents == 6 ? 1 : 2, node++, distinct);
    std::copy(d.begin(), d.end(), distinct.begin());  // chain the iterations
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_SdrLabel)->Arg(6)->Arg(14);

void BM_SdrLabelOpenSsl(benchmark::State& state) {
  std::mt19937_64 rng(1);
  std::vector<Domain> distinct(14);
  for (auto& d : distinct)
    for (auto& b : d)
      b = static_cast<uint8_t>(rng() & 0x3f);
  const std::vector<Domain> q = repeat_label_parents(distinct);
  Domain replica_id{};
  uint64_t node = 1;
  for (auto _ : state) {
    replica_id = create_label(replica_id, 2, node++, q);
    benchmark::DoNotOptimize(replica_id);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_SdrLabelOpenSsl);

// PC1 labels of a sector of range(0) MiB with range(1) threads (1: hashing only; 2: with the
// producer thread gathering parents).
void BM_Pc1(benchmark::State& state) {
  const uint64_t size = uint64_t(state.range(0)) << 20;
  const unsigned threads = static_cast<unsigned>(state.range(1));
  const PorepConfig cfg = porep_config(seal_proof_for(size, std::nullopt));
  const std::filesystem::path dir = bench_dir();
  std::filesystem::create_directories(dir / "parents");
  ThreadPool pool(2);
  const std::filesystem::path parents =
      ensure_parent_cache(dir / "parents", cfg.graph(), false, &pool);
  const std::filesystem::path cache = dir / ("pc1-" + std::to_string(state.range(0)) + "MiB");
  std::filesystem::create_directories(cache);
  Domain replica_id{};
  replica_id[0] = 7;
  LabelingOptions o;
  o.threads = threads;
  for (auto _ : state)
    generate_sdr_labels(parents, cfg.nodes(), cfg.layers(), replica_id, cache, o);
  state.counters["labels_per_s"] = benchmark::Counter(
      static_cast<double>(cfg.nodes() * cfg.layers()) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["maxrss_MiB"] = max_rss_mib();
  std::filesystem::remove_all(cache);
}
BENCHMARK(BM_Pc1)
    ->Args({8, 1})
    ->Args({8, 2})
    ->Args({512, 1})
    ->Args({512, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

const SyntheticC1& synthetic_32gib(ThreadPool* pool) {
  static const SyntheticC1 s = [&] {
    SyntheticC1Params p;
    p.seed = 1;
    return make_synthetic_c1(porep_config(RegisteredSealProof::kStackedDrg32GiBV1_1), p, pool);
  }();
  return s;
}

void BM_SyntheticC1_32GiB(benchmark::State& state) {
  ThreadPool pool(static_cast<unsigned>(state.range(0)));
  SyntheticC1Params p;
  for (auto _ : state) {
    ++p.seed;
    benchmark::DoNotOptimize(
        make_synthetic_c1(porep_config(RegisteredSealProof::kStackedDrg32GiBV1_1), p, &pool));
  }
}
BENCHMARK(BM_SyntheticC1_32GiB)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_C1Verify_32GiB(benchmark::State& state) {
  ThreadPool pool(static_cast<unsigned>(state.range(0)));
  const SyntheticC1& s = synthetic_32gib(&pool);
  PorepVerifyOptions o;
  o.prover_id = s.prover_id;
  o.sector_id = s.sector_id;
  o.pool = &pool;
  for (auto _ : state)
    verify_seal_commit_phase1(s.c1, o);
}
BENCHMARK(BM_C1Verify_32GiB)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_C1JsonWrite_32GiB(benchmark::State& state) {
  ThreadPool pool(2);
  const SyntheticC1& s = synthetic_32gib(&pool);
  size_t bytes = 0;
  for (auto _ : state)
    bytes = seal_commit_phase1_to_json(s.c1).size();
  state.SetBytesProcessed(static_cast<int64_t>(bytes * state.iterations()));
}
BENCHMARK(BM_C1JsonWrite_32GiB)->Unit(benchmark::kMillisecond);

void BM_C1JsonParse_32GiB(benchmark::State& state) {
  ThreadPool pool(2);
  const std::string json = seal_commit_phase1_to_json(synthetic_32gib(&pool).c1);
  for (auto _ : state)
    benchmark::DoNotOptimize(seal_commit_phase1_from_json(json));
  state.SetBytesProcessed(static_cast<int64_t>(json.size() * state.iterations()));
}
BENCHMARK(BM_C1JsonParse_32GiB)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk::filecoin
