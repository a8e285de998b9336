// Device NTT and MSM microbenchmarks with CUDA-event manual timing (resident inputs). Size:
// BENCH_NPOW (default 16). Skips itself without a device.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>

#include "gpu/device/device_buffer.hpp"
#include "gpu/device/device_info.hpp"
#include "gpu/msm/msm.hpp"
#include "gpu/ntt/ntt.hpp"
#include "gpu_kernels/bench_data.hpp"
#include "msm_test_util.hpp"

namespace cuzk::gpu {
namespace {

unsigned npow() {
  const char* e = std::getenv("BENCH_NPOW");
  return e != nullptr ? static_cast<unsigned>(std::atoi(e)) : 16u;
}

template <class F>
void run_timed(benchmark::State& state, cudaStream_t s, F&& f) {
  for (auto _ : state) {
    Event e0, e1;
    e0.record(s);
    f();
    e1.record(s);
    e1.sync();
    state.SetIterationTime(e1.ms_since(e0) / 1e3);
  }
}

void BM_NttForward(benchmark::State& state) {
  if (!device_available()) return state.SkipWithError("no CUDA device");
  Stream s;
  NttEngine ntt(s.get());
  const EvaluationDomain d(npow());
  DeviceBuffer<Fr> v(d.size());
  fill_random_fr(v.get(), d.size(), 1, s.get());
  ntt.fft(v.get(), d);
  run_timed(state, s.get(), [&] { ntt.fft(v.get(), d); });
}
BENCHMARK(BM_NttForward)->UseManualTime()->Unit(benchmark::kMillisecond);

template <class Curve>
void BM_Msm(benchmark::State& state) {
  if (!device_available()) return state.SkipWithError("no CUDA device");
  Stream s;
  const size_t n = size_t{1} << npow();
  std::mt19937_64 rng(1);
  const auto distinct = msm_test::random_bases<Curve>(std::min<size_t>(n, 1 << 12), rng);
  DeviceBuffer<Affine<Curve>> b(n);
  b.upload(distinct, s.get());
  tile_device(b.get(), sizeof(Affine<Curve>), distinct.size(), n, s.get());
  DeviceBuffer<Fr> k(n);
  fill_random_fr(k.get(), n, 2, s.get());
  MsmWorkspace ws;
  msm_pippenger<Curve>(b.get(), k.get(), nullptr, n, ws, s.get());
  run_timed(state, s.get(),
            [&] { msm_pippenger<Curve>(b.get(), k.get(), nullptr, n, ws, s.get()); });
}
BENCHMARK(BM_Msm<G1Curve>)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Msm<G2Curve>)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk::gpu
