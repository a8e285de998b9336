// `cuzk-bench kernels --only chain-copy`: the H chain at 2^27 (3 iNTT, 3 coset NTT, a*b-c,
// coset iNTT, resident) alone and with a copy of the capped H MSM's first chunk (2^24 G1
// points, 1.61 GB) from page-locked host memory running beside it on another stream, as the
// capped front does (BaseStreamer::prefetch_first). Session 26's daemon measured the chain +29
// ms a partition with that copy and msm_h -40 ms (H100, 24 GiB); this says whether the copy
// alone slows the chain, and by how much, with no prover around it. Medians of `reps` runs after
// a warm-up, CUDA events on the chain's stream; the copy alone timed on its own stream.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/ntt/ntt.hpp"
#include "gpu/ntt/quotient.hpp"
#include "gpu_kernels/bench_data.hpp"
#include "kernels_cmd.hpp"
#include "poly/evaluation_domain.hpp"

namespace cuzk::bench {

void run_chain_copy_rows(const KernelsOptions& o) {
  // (at least 2^10: the copy is a 2^(log-3) chunk, and --max-log may be anything)
  const unsigned log = std::clamp(o.max_log, 10u, 27u);
  const EvaluationDomain d(log);
  const size_t copy_bytes = (size_t{1} << (log - 3)) * 96;  // a 2^(log-3) chunk of G1 points
  gpu::Stream s, copy;
  gpu::NttEngine ntt(s.get());
  gpu::DeviceBuffer<Fr> da(d.size()), db(d.size()), dc(d.size());
  gpu::fill_random_fr(da.get(), d.size(), 1, s.get());
  gpu::fill_random_fr(db.get(), d.size(), 2, s.get());
  gpu::fill_random_fr(dc.get(), d.size(), 3, s.get());
  gpu::PinnedBuffer<uint8_t> host(copy_bytes);
  gpu::DeviceBuffer<uint8_t> slot(copy_bytes);
  gpu::Event start, stop, copy_start, copied;
  // mode 0: the chain alone; 1: the chain with the copy queued just before it on `copy`; 2: the
  // copy alone (timed on its stream).
  const auto run = [&](int mode) {
    s.sync();
    copy.sync();
    if (mode == 2) {
      copy_start.record(copy.get());
      CUZK_CUDA_CHECK(
          cudaMemcpyAsync(slot.get(), host.get(), copy_bytes, cudaMemcpyHostToDevice, copy.get()));
      copied.record(copy.get());
      copied.sync();
      return copied.ms_since(copy_start);
    }
    start.record(s.get());
    if (mode == 1) {
      // (queued after `start`, so that the copy cannot finish before the chain begins)
      CUZK_CUDA_CHECK(cudaStreamWaitEvent(copy.get(), start.get(), 0));
      CUZK_CUDA_CHECK(
          cudaMemcpyAsync(slot.get(), host.get(), copy_bytes, cudaMemcpyHostToDevice, copy.get()));
    }
    gpu::quotient_in_place(da.get(), db.get(), dc.get(), d, ntt);
    stop.record(s.get());
    stop.sync();
    copy.sync();
    return stop.ms_since(start);
  };
  const char* what[] = {"H chain alone", "H chain with the copy beside it",
                        "the copy alone (page-locked host to device)"};
  std::printf("\n| chain-copy, 2^%u, copy %.2f GB | ms (median of %u) | runs |\n", log,
              static_cast<double>(copy_bytes) / 1e9, std::max(o.reps, 1u));
  std::printf("|---|---|---|\n");
  // Interleaved, so that clocks and temperature drift alike over the three.
  std::vector<double> ms[3];
  for (int mode = 0; mode < 3; ++mode)
    run(mode);  // warm-up
  for (unsigned rep = 0; rep < std::max(o.reps, 1u); ++rep) {
    for (int mode = 0; mode < 3; ++mode)
      ms[mode].push_back(run(mode));
  }
  for (int mode = 0; mode < 3; ++mode) {
    std::string runs;
    for (const double m : ms[mode]) {
      char b[16];
      std::snprintf(b, sizeof b, "%s%.1f", runs.empty() ? "" : " ", m);
      runs += b;
    }
    std::printf("| %s | %.2f | %s |\n", what[mode], median(ms[mode]), runs.c_str());
  }
}

}  // namespace cuzk::bench
