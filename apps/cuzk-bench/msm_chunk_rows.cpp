// `cuzk-bench kernels --only msm-chunks`: the H MSM of a 32 GiB PoRep partition under `[gpus]
// memory_limit` (2^27 G1 scalars, issue 30), taken apart. Under a cap BaseStreamer::msm
// (gpu/msm/msm_stream.cpp) adds the scalars chunk by chunk into one MsmAccumulator, whose buckets
// have the whole count's window width (c = 20 at 2^27); the H200 measured 1.11 s a partition
// against ~0.93 s predicted, and the uncapped msm_split of the same 2^27 scalars 0.86 s. These
// rows run the same accumulator from device-resident bases and scalars (nothing streams, so a
// row is the kernels and the host's waits alone), in chunks of 2^24 and 2^25 (--msm-chunk-logs),
// and the whole count through one msm_split (the uncapped path) for comparison.
//
// Per row: the CUDA-event median of --reps runs after a warm-up, the chunk count, the window
// width and windows, and the phase split summed over the chunks (MsmStats: sort and accumulate
// per chunk, reduce once); "other" is the rest of the total: each chunk's 0/1 classification
// (the tail's compaction; random scalars have no 0/1 part), the host's waits and the Horner sum.
// The workspace is freed before each row, so its scratch (cudaMemGetInfo's difference) is the
// row's own, as under the cap. Bases: 2^16 distinct random points tiled over the array; scalars:
// pseudo-random full-width values made on the device (fixed seed). Then the first chunk size
// again through BaseStreamer::msm (the capped path itself) with the bases in host memory, two
// rows: pageable (each chunk copied on the pool into a pinned slot, then uploaded: how the
// daemon streamed until 2026-12-05) and page-locked in place (HostPageLock: each chunk uploaded
// from where it lies, as the engine now locks a streamed parameter set); their difference from
// the resident row is what streaming costs (no synthesis competes for the cores here, so the
// pageable row is its best case); the page-locked row once more with the workspace freed before
// each run (its cudaMalloc and cudaFree, which the daemon pays every partition). Every row's
// point is checked
// against the CPU (folded over the distinct bases) and against the one-call point: a broken row
// says MISMATCH and the command fails.
#include <cuda_profiler_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ec/g1.hpp"
#include "ec/xyzz.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/msm/msm.hpp"
#include "gpu/msm/msm_stream.hpp"
#include "gpu/plan/memory_plan.hpp"
#include "gpu_kernels/bench_data.hpp"
#include "gpu_kernels/event_timing.hpp"
#include "kernels_cmd.hpp"
#include "kernels_util.hpp"
#include "msm_test_util.hpp"

namespace cuzk::bench {

namespace {

using Point = Affine<G1Curve>;
constexpr size_t kDistinct = size_t{1} << 16;  // distinct bases, tiled
constexpr uint64_t kSeed = 2727;

struct Inputs {
  std::vector<Point> distinct;  // the CPU check's bases (and the upload's source)
  gpu::DeviceBuffer<Point> bases;
  gpu::DeviceBuffer<Fr> scalars;
};

Inputs make_inputs(size_t n, cudaStream_t s) {
  std::mt19937_64 rng(27);
  Inputs in;
  in.distinct = msm_test::random_bases<G1Curve>(std::min(n, kDistinct), rng);
  in.bases = gpu::DeviceBuffer<Point>(n);
  in.bases.upload(in.distinct, s);
  gpu::tile_device(in.bases.get(), sizeof(Point), in.distinct.size(), n, s);
  in.scalars = gpu::DeviceBuffer<Fr>(n);
  gpu::fill_random_fr(in.scalars.get(), n, kSeed, s);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  return in;
}

size_t free_device_bytes() {
  size_t free_bytes = 0, total_bytes = 0;
  CUZK_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

// Outside a profiler these do nothing; an error from them (older runtimes' "profiler disabled")
// is not the MSM's, so it is cleared rather than thrown.
void profiler(bool on) {
  if ((on ? cudaProfilerStart() : cudaProfilerStop()) != cudaSuccess) (void)cudaGetLastError();
}

// The first `added` scalars into an accumulator sized for `total` (its window width), in chunks
// as BaseStreamer::msm cuts them; with `traced`, chunk 1 (the first that adds to written
// buckets, as 7 of 8 do) and the reduction run between cudaProfilerStart and Stop.
Jacobian<G1Curve> accumulate(const Inputs& in, size_t total, size_t added, size_t chunk,
                             gpu::MsmWorkspace& ws, cudaStream_t s, gpu::MsmStats& st,
                             bool traced = false) {
  gpu::MsmAccumulator<G1Curve> acc(total, ws, s);
  for (size_t k = 0, s0 = 0; s0 < added; ++k, s0 += chunk) {
    const bool profiled = traced && (k == 1 || chunk >= added);
    if (profiled) profiler(true);
    acc.add(in.bases.get() + s0, in.scalars.get() + s0, std::min(chunk, added - s0), nullptr);
    if (profiled) profiler(false);
  }
  if (traced) profiler(true);
  const Jacobian<G1Curve> sum = acc.sum();
  if (traced) profiler(false);
  st = acc.stats();  // summed over the chunks (msm.hpp)
  return sum;
}

struct ChunkRow {
  std::string what;
  size_t chunks = 1;
  double ms = 0, scratch_gb = 0;
  gpu::MsmStats st;
  Point point;
};

// One row: the median of o.reps runs of `run` (which fills the stats of its run) after a
// warm-up, from a freed workspace.
template <class F>
ChunkRow time_row(std::string what, size_t chunks, const KernelsOptions& o, gpu::MsmWorkspace& ws,
                  cudaStream_t s, F&& run) {
  ChunkRow r;
  r.what = std::move(what);
  r.chunks = chunks;
  ws.release();
  const size_t free0 = free_device_bytes();
  Jacobian<G1Curve> p;
  r.ms = gpu::median_event_ms([&] { p = run(r.st); }, o.reps, s);
  const size_t free1 = free_device_bytes();
  r.scratch_gb = free0 > free1 ? static_cast<double>(free0 - free1) / 1e9 : 0;
  r.point = p.to_affine();
  ws.release();
  return r;
}

void print_header(unsigned log) {
  std::printf(
      "\n| H MSM, G1 2^%u (bases resident unless the row says) | chunks | c | windows | "
      "ms (median) | sort | accumulate | reduce | other | scratch GB | notes |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n",
      log);
}

// Prints the row; returns 1 if its point is wrong.
int print_row(const ChunkRow& r, const Point& cpu, const Point* one_call) {
  const gpu::MsmStats& st = r.st;
  const double phases_ms = st.sort_ms + st.accumulate_ms + st.reduce_ms;
  // Bucket entries (one mixed addition each, but for the few zero digits) per second of the
  // accumulation: falls where per-task or per-bucket work binds (short buckets, hypothesis a).
  const double entries = static_cast<double>(st.pippenger) * st.windows;
  const double rate = st.accumulate_ms > 0 ? entries / (st.accumulate_ms / 1e3) : 0;
  const auto per_chunk = static_cast<double>(r.chunks);
  const bool cpu_ok = r.point == cpu;
  const bool same = one_call == nullptr || r.point == *one_call;
  std::string vs_one_call;
  if (one_call != nullptr) vs_one_call = same ? ", == one call" : ", MISMATCH vs one call";
  char notes[320];
  std::snprintf(notes, sizeof(notes),
                "per chunk: sort %.2f + accumulate %.2f ms; %.3g entries/s accumulated; %s; max "
                "tasks %u; %s%s",
                st.sort_ms / per_chunk, st.accumulate_ms / per_chunk, rate,
                st.radix_sorted ? "radix sort" : "scatter", st.max_tasks,
                cpu_ok ? "== CPU (folded)" : "MISMATCH vs CPU", vs_one_call.c_str());
  std::printf("| %s | %zu | %u | %u | %.2f | %.1f | %.1f | %.1f | %.1f | %.2f | %s |\n",
              r.what.c_str(), r.chunks, st.window_bits, st.windows, r.ms, st.sort_ms,
              st.accumulate_ms, st.reduce_ms, r.ms - phases_ms, r.scratch_gb, notes);
  std::fflush(stdout);
  return cpu_ok && same ? 0 : 1;
}

// The ncu target: the first chunk size's first two chunks of the whole count's accumulator (the
// buckets and window width are the whole count's, the data only what is added).
int profile_pass(const KernelsOptions& o, gpu::MsmWorkspace& ws, cudaStream_t s) {
  const size_t total = size_t{1} << o.msm_chunks_log;
  const size_t chunk = size_t{1} << std::min(o.msm_chunk_logs.front(), o.msm_chunks_log);
  const size_t added = std::min(total, 2 * chunk);
  const Inputs in = make_inputs(added, s);
  gpu::MsmStats st;
  accumulate(in, total, added, chunk, ws, s, st, true);
  std::printf(
      "msm-chunks profile: chunk %d of 2^%u scalars (%zu of %zu chunks added) into the buckets "
      "of 2^%u scalars (c = %u, %u windows), then the reduction, between cudaProfilerStart and "
      "Stop; phase times under a profiler (not timings): %s\n",
      added > chunk ? 1 : 0, std::min(o.msm_chunk_logs.front(), o.msm_chunks_log),
      (added + chunk - 1) / chunk, (total + chunk - 1) / chunk, o.msm_chunks_log, st.window_bits,
      st.windows, phases(st).c_str());
  return 0;
}

}  // namespace

int run_msm_chunk_rows(const KernelsOptions& o, ThreadPool& pool) {
  const unsigned log = o.msm_chunks_log;
  if (log < 12 || log > 30) throw std::invalid_argument("--msm-chunks-log: 12..30");
  if (o.msm_chunk_logs.empty()) throw std::invalid_argument("--msm-chunk-logs: none given");
  for (unsigned k : o.msm_chunk_logs)
    if (k < 10 || k > 30) throw std::invalid_argument("--msm-chunk-logs: each 10..30");
  gpu::Stream stream;
  const cudaStream_t s = stream.get();
  gpu::MsmWorkspace ws;
  if (o.msm_chunks_profile) return profile_pass(o, ws, s);

  const size_t n = size_t{1} << log;
  // The one-call MSM needs the most: the bases, the scalars and msm_split's scratch at n (the
  // memory plan's bound, every scalar in the tail). 2^27: ~14 + 4.3 + ~24 GB.
  const double inputs_gb = static_cast<double>(n) * (sizeof(Point) + sizeof(Fr)) / 1e9;
  const double one_call_gb =
      static_cast<double>(gpu::msm_workspace_bytes(n, sizeof(Xyzz<G1Curve>))) / 1e9;
  const double free_gb = static_cast<double>(free_device_bytes()) / 1e9;
  std::printf(
      "msm-chunks: 2^%u G1 scalars; inputs %.1f GB, one-call scratch bound %.1f GB, "
      "device free %.1f GB\n",
      log, inputs_gb, one_call_gb, free_gb);
  const Inputs in = make_inputs(n, s);
  const Point cpu = folded_cpu_msm<G1Curve>(in.distinct, n, kSeed, pool);

  print_header(log);
  int failed = 0;
  Point one_call;
  const bool have_one_call = inputs_gb + one_call_gb < free_gb;
  if (have_one_call) {
    const ChunkRow r =
        time_row("msm_split, one call (uncapped path)", 1, o, ws, s, [&](gpu::MsmStats& st) {
          st = gpu::MsmStats();
          return gpu::msm_split<G1Curve>(in.bases.get(), in.scalars.get(), n, nullptr, ws, s, &st);
        });
    failed += print_row(r, cpu, nullptr);
    one_call = r.point;
  } else {
    std::printf(
        "| msm_split, one call | - | - | - | - | - | - | - | - | - | not run: %.1f GB "
        "needed, %.1f free |\n",
        inputs_gb + one_call_gb, free_gb);
  }
  for (unsigned k : o.msm_chunk_logs) {
    const size_t chunk = size_t{1} << std::min(k, log);
    const ChunkRow r =
        time_row("MsmAccumulator, chunks of " + pow2(std::min(k, log)), (n + chunk - 1) / chunk, o,
                 ws, s, [&](gpu::MsmStats& st) { return accumulate(in, n, n, chunk, ws, s, st); });
    failed += print_row(r, cpu, have_one_call ? &one_call : nullptr);
  }
  // The same accumulator fed by the streamer from host copies of the bases.
  const unsigned k = std::min(o.msm_chunk_logs.front(), log);
  const size_t chunk = size_t{1} << k;
  std::vector<Point> host(n);
  in.bases.download(host, s);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  gpu::BaseStreamer streamer(0, &pool);
  streamer.reserve(chunk * sizeof(Point));
  gpu::ChunkedMsmInput<G1Curve> streamed;
  streamed.host_bases = host;
  streamed.d_scalars = in.scalars.get();
  streamed.n = n;
  // fresh_scratch: the workspace freed before each run, so that the run allocates it again (as
  // the capped daemon's H MSM does every partition: the chain needs the room between them).
  const auto stream_row = [&](const std::string& from, bool fresh_scratch = false) {
    const ChunkRow r = time_row("BaseStreamer::msm, chunks of " + pow2(k) + ", bases " + from,
                                (n + chunk - 1) / chunk, o, ws, s, [&](gpu::MsmStats& st) {
                                  if (fresh_scratch) ws.release();
                                  return streamer.msm(streamed, chunk, ws, s, &st);
                                });
    failed += print_row(r, cpu, have_one_call ? &one_call : nullptr);
  };
  stream_row("pageable (staged on the pool)");
  {
    const auto t0 = std::chrono::steady_clock::now();
    const gpu::HostPageLock locked(host.data(), host.size() * sizeof(Point));
    const double lock_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("msm-chunks: %.1f GB of host bases page-locked in place in %.2f s\n",
                static_cast<double>(locked.size()) / 1e9, lock_s);
    stream_row("page-locked in place");
    stream_row("page-locked in place, scratch allocated in each run", true);
  }
  return failed;
}

}  // namespace cuzk::bench
