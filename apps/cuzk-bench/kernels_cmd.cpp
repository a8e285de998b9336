// `cuzk-bench kernels`: the checks (kernel_checks.cpp), then issue #4's timing table.
//
// Every row is the median of --reps runs after one warm-up, timed with CUDA events on the
// stream the work runs on. "resident": inputs already in device memory (as sppark's resident
// columns in ../shared/reference/gpu-anchors.md); MSM rows include the host's final Horner
// combination of the window sums and the synchronisations between steps. Bases are 2^16 distinct
// random points tiled over the whole array (the gathers still span the whole array); scalars are
// pseudo-random full-width field elements made on the device. Each MSM result is checked on the
// CPU by folding the scalars of equal points (a 2^16-point CPU MSM).
#include "kernels_cmd.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/device/device_info.hpp"
#include "gpu/msm/msm.hpp"
#include "gpu/ntt/ntt.hpp"
#include "gpu/ntt/quotient.hpp"
#include "gpu/prover/gpu_backend.hpp"
#include "gpu_kernels/arith_rates.hpp"
#include "gpu_kernels/bench_data.hpp"
#include "gpu_kernels/event_timing.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_prover.hpp"
#include "groth16/verifier.hpp"
#include "kernels_util.hpp"
#include "msm/msm.hpp"
#include "msm_test_util.hpp"
#include "poly/fft.hpp"
#include "random_circuit.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::bench {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

namespace {

constexpr size_t kDistinctLog = 16;  // distinct bases, tiled

struct Row {
  std::string what, size;
  double ms = 0;
  double sppark_ms = -1;  // gpu-anchors.md, same H200; < 0: no anchor
  std::string note;
};

double wall_ms(const std::function<void()>& f, unsigned reps) {
  std::vector<double> t;
  for (unsigned r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(t);
}

// Field products and curve additions against the measured ceilings (gpu-anchors.md).
void arith_table(const KernelsOptions& o) {
  std::mt19937_64 rng(5);
  const auto g1 = msm_test::random_bases<G1Curve>(1024, rng);
  const auto g2 = msm_test::random_bases<G2Curve>(256, rng);
  gpu::Stream s;
  constexpr size_t kLarge = size_t{1} << 22;  // 436 MB of G1 points: gathers miss the 60 MB L2
  gpu::DeviceBuffer<Affine<G1Curve>> d_g1(kLarge);
  gpu::DeviceBuffer<Affine<G2Curve>> d_g2(g2.size());
  d_g1.upload(g1, s.get());
  gpu::tile_device(d_g1.get(), sizeof(Affine<G1Curve>), g1.size(), kLarge, s.get());
  d_g2.upload(g2, s.get());
  const auto rates = gpu::measure_arith_rates(d_g1.get(), g1.size(), d_g1.get(), kLarge, d_g2.get(),
                                              g2.size(), o.reps, s.get());
  std::printf("\n| operation | rate (/s) | ceiling (/s) | of ceiling |\n|---|---|---|---|\n");
  for (const auto& r : rates) {
    if (r.ceiling > 0)
      std::printf("| %s | %.3g | %.3g | %.0f%% |\n", r.what.c_str(), r.per_s, r.ceiling,
                  100 * r.per_s / r.ceiling);
    else
      std::printf("| %s | %.3g | - | - |\n", r.what.c_str(), r.per_s);
  }
  std::fflush(stdout);
}

void ntt_rows(const KernelsOptions& o, std::vector<Row>& rows, ThreadPool& pool) {
  const struct {
    unsigned log;
    double fwd, inv, cfwd, cinv;
  } anchors[] = {
      {20, 0.28, 0.30, 0.32, 0.34}, {24, 4.74, 5.00, 5.34, 5.59}, {27, 44.4, 47.0, 49.2, 51.7}};
  gpu::Stream s;
  gpu::NttEngine ntt(s.get());
  for (const auto& a : anchors) {
    if (a.log > o.max_log) continue;
    const EvaluationDomain d(a.log);
    gpu::DeviceBuffer<Fr> dv(d.size());
    gpu::fill_random_fr(dv.get(), d.size(), 7 + a.log, s.get());
    std::string note = "resident, in place";
    if (a.log == 20) {  // one larger check against poly/fft
      std::vector<Fr> want(d.size()), got(d.size());
      dv.download(want, s.get());
      s.sync();
      ntt.fft(dv.get(), d);
      dv.download(got, s.get());
      s.sync();
      fft(want, d, pool);
      note += got == want ? "; == poly/fft" : "; MISMATCH vs poly/fft";
    }
    rows.push_back({"NTT forward", pow2(a.log),
                    gpu::median_event_ms([&] { ntt.fft(dv.get(), d); }, o.reps, s.get()), a.fwd,
                    note});
    rows.push_back({"NTT inverse", pow2(a.log),
                    gpu::median_event_ms([&] { ntt.ifft(dv.get(), d); }, o.reps, s.get()), a.inv,
                    note});
    rows.push_back({"NTT coset forward", pow2(a.log),
                    gpu::median_event_ms([&] { ntt.coset_fft(dv.get(), d); }, o.reps, s.get()),
                    a.cfwd, note});
    rows.push_back({"NTT coset inverse", pow2(a.log),
                    gpu::median_event_ms([&] { ntt.icoset_fft(dv.get(), d); }, o.reps, s.get()),
                    a.cinv, note});
    std::fflush(stdout);
  }
  for (unsigned log : {24u, 27u}) {
    if (log > o.max_log) continue;
    const EvaluationDomain d(log);
    gpu::DeviceBuffer<Fr> da(d.size()), db(d.size()), dc(d.size());
    gpu::fill_random_fr(da.get(), d.size(), 1, s.get());
    gpu::fill_random_fr(db.get(), d.size(), 2, s.get());
    gpu::fill_random_fr(dc.get(), d.size(), 3, s.get());
    const double ms = gpu::median_event_ms(
        [&] { gpu::quotient_in_place(da.get(), db.get(), dc.get(), d, ntt); }, o.reps, s.get());
    rows.push_back({"H chain (3 iNTT, 3 coset NTT, a*b-c, coset iNTT)", pow2(log), ms, -1,
                    "resident; 7 transforms"});
  }
}

// Precomputed bases: for each size and window width c, a table of as many copies 2^(j c) P as the
// device's free memory holds next to the MSM's scratch (up to one per window), its build time
// (wall clock, once), and the MSM over it.
template <class Curve>
void table_rows(const KernelsOptions& o, std::vector<Row>& rows, ThreadPool& pool,
                const std::vector<std::pair<unsigned, double>>& sizes, const char* name,
                const std::vector<Affine<Curve>>& distinct,
                const gpu::DeviceBuffer<Affine<Curve>>& d_bases,
                const gpu::DeviceBuffer<Fr>& d_scalars, uint64_t seed, gpu::MsmWorkspace& ws) {
  gpu::Stream s;
  for (const auto& [log, anchor] : sizes) {
    if (log > o.max_log || log < 20) continue;
    const size_t n = size_t{1} << log;
    for (unsigned c : o.table_windows) {
      if (c < 2 || c > gpu::kMsmMaxTableWindowBits) continue;
      ws.release();
      size_t free_bytes = 0, total_bytes = 0;
      CUZK_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
      // Per point of each copy: the point and the sort's key and two payload words; per digit
      // window of each set (padded to sets x copies): a digit and an entry; per set: buckets and
      // task partials (XYZZ); 2 GiB for CUB and the rest.
      const auto need = [&](unsigned k) {
        const unsigned sets = (gpu::msm_windows(c) + k - 1) / k;
        return static_cast<double>(n) * k * (sizeof(Affine<Curve>) + 12.0 + 8.0 * sets) +
               2.0 * sets * (double{1} * (1u << (c - 1))) * sizeof(Xyzz<Curve>) +
               static_cast<double>(size_t{2} << 30);
      };
      unsigned copies = std::min(gpu::msm_windows(c), gpu::kMsmMaxTableCopies);
      if (o.table_max_copies != 0) copies = std::min(copies, o.table_max_copies);
      while (copies > 0 && (need(copies) > static_cast<double>(free_bytes) ||
                            size_t{copies} * n >= (size_t{1} << 31)))
        --copies;
      if (copies < 2) {
        rows.push_back({std::string("MSM ") + name + " precomputed bases", pow2(log), 0, -1,
                        "c=" + std::to_string(c) + ": not run, fewer than 2 copies fit"});
        continue;
      }
      gpu::DeviceBuffer<Affine<Curve>> d_table(size_t{copies} * n);
      const auto t0 = std::chrono::steady_clock::now();
      const gpu::MsmBaseTable<Curve> table =
          gpu::precompute_bases<Curve>(d_bases.get(), n, c, copies, d_table.get(), s.get());
      const double build_s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      Jacobian<Curve> result;
      gpu::MsmStats st;
      const double ms = gpu::median_event_ms(
          [&] {
            result =
                gpu::msm_pippenger<Curve>(table, d_scalars.get(), nullptr, n, ws, s.get(), &st);
          },
          log >= 26 ? std::min(o.reps, 3u) : o.reps, s.get());
      const bool ok = result.to_affine() == folded_cpu_msm<Curve>(distinct, n, seed, pool);
      const unsigned sets = (gpu::msm_windows(c) + copies - 1) / copies;
      char what[160];
      std::snprintf(what, sizeof(what),
                    "c=%u, %u copies (%.1f GB, built in %.2f s), %u bucket set%s; ", c, copies,
                    static_cast<double>(copies) * n * sizeof(Affine<Curve>) / 1e9, build_s, sets,
                    sets == 1 ? "" : "s");
      rows.push_back({std::string("MSM ") + name + " precomputed bases", pow2(log), ms, anchor,
                      std::string("resident; ") + what + phases(st) +
                          (ok ? "; == CPU (folded)" : "; MISMATCH vs CPU")});
      std::fflush(stdout);
    }
  }
  ws.release();
}

template <class Curve>
void msm_rows(const KernelsOptions& o, std::vector<Row>& rows, ThreadPool& pool,
              const std::vector<std::pair<unsigned, double>>& sizes, const char* name) {
  unsigned top = 0;
  for (const auto& [log, anchor] : sizes)
    if (log <= o.max_log) top = std::max(top, log);
  if (top == 0) return;
  std::mt19937_64 rng(99);
  const std::vector<Affine<Curve>> distinct =
      msm_test::random_bases<Curve>(size_t{1} << std::min<size_t>(kDistinctLog, top), rng);
  gpu::Stream s;
  const size_t max_n = size_t{1} << top;
  gpu::DeviceBuffer<Affine<Curve>> d_bases(max_n);
  d_bases.upload(distinct, s.get());
  gpu::tile_device(d_bases.get(), sizeof(Affine<Curve>), distinct.size(), max_n, s.get());
  gpu::DeviceBuffer<Fr> d_scalars(max_n);
  const uint64_t seed = 4242;
  gpu::fill_random_fr(d_scalars.get(), max_n, seed, s.get());
  gpu::MsmWorkspace ws;
  for (const auto& [log, anchor] : sizes) {
    if (log > o.max_log) continue;
    const size_t n = size_t{1} << log;
    Jacobian<Curve> result;
    gpu::MsmStats st;
    const double ms = gpu::median_event_ms(
        [&] {
          result = gpu::msm_pippenger<Curve>(d_bases.get(), d_scalars.get(), nullptr, n, ws,
                                             s.get(), 0, &st);
        },
        log >= 26 ? std::min(o.reps, 3u) : o.reps, s.get());
    const bool ok = result.to_affine() == folded_cpu_msm<Curve>(distinct, n, seed, pool);
    rows.push_back({std::string("MSM ") + name + " (full scalars)", pow2(log), ms, anchor,
                    "resident; c=" + std::to_string(st.window_bits) + "; " + phases(st) +
                        (ok ? "; == CPU (folded)" : "; MISMATCH vs CPU")});
    std::fflush(stdout);
  }
  // Window sweep: the planner's choice against its neighbours (tuning data); up to 4 bits wider,
  // since the planner caps the window below 2^25 scalars.
  for (unsigned log : o.sweep_logs) {
    if (log > top) continue;
    for (unsigned c = std::max(2u, gpu::msm_window_bits(size_t{1} << log) - 3);
         c <= std::min(gpu::kMsmMaxWindowBits, gpu::msm_window_bits(size_t{1} << log) + 4); ++c) {
      gpu::MsmStats st;
      const double ms = gpu::median_event_ms(
          [&] {
            gpu::msm_pippenger<Curve>(d_bases.get(), d_scalars.get(), nullptr, size_t{1} << log, ws,
                                      s.get(), c, &st);
          },
          2, s.get());
      rows.push_back({std::string("window sweep MSM ") + name, pow2(log), ms, -1,
                      "c=" + std::to_string(c) + "; " + phases(st)});
    }
  }
  table_rows<Curve>(o, rows, pool, sizes, name, distinct, d_bases, d_scalars, seed, ws);
  // The 0/1 sums, up to a 32 GiB partition's sizes: L and A over ~130 M G1 points (2^27), B over
  // ~33 M G2 points (2^25).
  for (unsigned log :
       std::is_same_v<Curve, G1Curve> ? std::vector<unsigned>{26, 27} : std::vector<unsigned>{25}) {
    if (log > top) continue;
    const size_t n = size_t{1} << log;
    gpu::DeviceBuffer<uint32_t> d_bits(n / 32);
    gpu::fill_random_bits(d_bits.get(), n, 50, 77, s.get());
    const double ms = gpu::median_event_ms(
        [&] { gpu::batch_add<Curve>(d_bases.get(), d_bits.get(), n, ws, s.get()); }, o.reps,
        s.get());
    rows.push_back({std::string("batch addition ") + name + " (0/1 scalars)", pow2(log), ms, -1,
                    "resident bitmap, 50% set"});
  }
  if (std::is_same_v<Curve, G1Curve> && o.max_log >= 22) {
    // A Filecoin-like witness: half zeros, 40% ones, 10% full-width values.
    const size_t n = size_t{1} << 22;
    std::vector<Fr> mix(n);
    for (size_t i = 0; i < n; ++i) {
      const unsigned k = rng() % 10;
      mix[i] = k < 5 ? Fr::zero() : k < 9 ? Fr::one() : host_random_fr(i, 5);
    }
    gpu::DeviceBuffer<Fr> d_mix(n);
    d_mix.upload(mix, s.get());
    gpu::MsmStats st;
    Jacobian<Curve> split, plain;
    const double ms_split = gpu::median_event_ms(
        [&] {
          split = gpu::msm_split<Curve>(d_bases.get(), d_mix.get(), n, nullptr, ws, s.get(), &st);
        },
        o.reps, s.get());
    const double ms_plain = gpu::median_event_ms(
        [&] {
          plain = gpu::msm_pippenger<Curve>(d_bases.get(), d_mix.get(), nullptr, n, ws, s.get());
        },
        o.reps, s.get());
    const bool same = split.to_affine() == plain.to_affine();
    rows.push_back({"split MSM G1 (50% 0, 40% 1, 10% full)", "2^22", ms_split, -1,
                    "0/1 batch add + Pippenger tail" + std::string(same ? "" : "; MISMATCH")});
    rows.push_back({"same scalars, all through Pippenger", "2^22", ms_plain, -1, "resident"});
  }
}

void prove_rows(const KernelsOptions& o, std::vector<Row>& rows, ThreadPool& pool) {
  if (o.prove_log == 0) return;
  const testing::RandomCircuit circuit(size_t{1} << o.prove_log, 3, 1);
  const auto t0 = std::chrono::steady_clock::now();
  const groth16::Parameters params = groth16::generate_parameters_insecure(
      circuit, groth16::ToxicWaste::insecure_from_seed("cuzk-bench"), pool);
  std::printf("setup of the 2^%u RandomCircuit: %.1f s\n", o.prove_log,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  const groth16::ProofRandomness rand{Fr::from_u64(11), Fr::from_u64(12)};
  groth16::CpuBackend cpu(pool);
  gpu::GpuBackend gpu;
  groth16::Proof pc, pg;
  groth16::ProverTiming tg;
  pg = groth16::prove(params, circuit, rand, gpu, nullptr);  // warm-up: uploads the key
  const unsigned reps = std::min(o.reps, 3u);
  const double ms_gpu =
      wall_ms([&] { pg = groth16::prove(params, circuit, rand, gpu, &tg); }, reps);
  const double ms_cpu =
      wall_ms([&] { pc = groth16::prove(params, circuit, rand, cpu, nullptr); }, 1);
  const bool same = groth16::encode_proof(pg) == groth16::encode_proof(pc);
  const bool verifies =
      groth16::verify_proof(groth16::prepare_verifying_key(params.vk), pg, circuit.public_inputs());
  const std::string note = std::string(same ? "bytes == CPU" : "BYTES DIFFER") +
                           (verifies ? ", verifies" : ", DOES NOT VERIFY");
  rows.push_back({"prove RandomCircuit, GPU backend", pow2(o.prove_log), ms_gpu, -1,
                  note + "; wall clock, synthesis included, key resident"});
  rows.push_back({"prove RandomCircuit, CPU backend (" + std::to_string(pool.size()) + " threads)",
                  pow2(o.prove_log), ms_cpu, -1, "wall clock, one run"});
  std::printf(
      "GPU prove phases (s): synthesis %.3f quotient %.3f H %.3f L %.3f A %.3f B1 %.3f "
      "B2 %.3f assemble %.3f\n",
      tg.synthesis_s, tg.quotient_s, tg.msm_h_s, tg.msm_l_s, tg.msm_a_s, tg.msm_b_g1_s,
      tg.msm_b_g2_s, tg.assemble_s);
}

void zkey_rows(const KernelsOptions& o, std::vector<Row>& rows, ThreadPool& pool) {
  if (o.zkey.empty() || o.wtns.empty()) return;
  const MappedFile zf(o.zkey), wf(o.wtns);
  const groth16::Zkey zkey = groth16::parse_zkey(zf.bytes(), o.zkey, SubgroupCheck::kSkipTrusted);
  const std::vector<Fr> w = groth16::parse_wtns(wf.bytes(), o.wtns);
  const groth16::ProofRandomness rand{Fr::from_u64(21), Fr::from_u64(22)};
  gpu::GpuBackend gpu;
  groth16::Proof pg, pc;
  pg = groth16::prove_zkey(zkey, w, rand, gpu);  // warm-up
  const double ms_gpu = wall_ms([&] { pg = groth16::prove_zkey(zkey, w, rand, gpu); }, o.reps);
  const double ms_cpu = wall_ms([&] { pc = groth16::prove_zkey(zkey, w, rand, pool); }, 3);
  const std::vector<Fr> inputs(w.begin() + 1, w.begin() + 1 + zkey.n_public);
  const bool same = groth16::encode_proof(pg) == groth16::encode_proof(pc);
  const bool ok =
      groth16::verify_proof(groth16::prepare_verifying_key(zkey.verifying_key()), pg, inputs);
  const std::string size = std::to_string(zkey.domain_size) + " (domain)";
  rows.push_back({"prove circom bench zkey, GPU", size, ms_gpu, -1,
                  std::string(same ? "bytes == CPU" : "BYTES DIFFER") +
                      (ok ? ", verifies" : ", DOES NOT VERIFY") + "; wall clock, key resident"});
  rows.push_back({"prove circom bench zkey, CPU (" + std::to_string(pool.size()) + " threads)",
                  size, ms_cpu, -1, "wall clock, median of 3"});
}

}  // namespace

bool KernelsOptions::runs(const std::string& section) const {
  return only.empty() || names(section);
}

bool KernelsOptions::names(const std::string& section) const {
  return std::find(only.begin(), only.end(), section) != only.end();
}

int run_kernels(const KernelsOptions& o) {
  const std::vector<gpu::DeviceInfo> devices = gpu::list_devices();
  if (devices.empty()) {
    std::fprintf(stderr, "cuzk-bench kernels: no CUDA device\n");
    return 3;
  }
  for (const gpu::DeviceInfo& d : devices)
    std::printf("device %d: %s\n", d.ordinal, gpu::describe(d).c_str());
  int failed = 0;
  if (!o.skip_checks) failed = run_kernel_checks(o.threads);
  ThreadPool pool(o.threads);
  std::vector<Row> rows;
  if (o.runs("arith")) arith_table(o);
  if (o.runs("ntt")) ntt_rows(o, rows, pool);
  if (o.runs("g1"))
    msm_rows<G1Curve>(o, rows, pool,
                      {{20, 20.3}, {22, 52.8}, {24, 154.1}, {26, 556.0}, {27, 1096.0}}, "G1");
  if (o.runs("g2")) msm_rows<G2Curve>(o, rows, pool, {{20, 46.2}, {24, 445.8}, {25, -1}}, "G2");
  if (o.runs("prove")) {
    prove_rows(o, rows, pool);
    zkey_rows(o, rows, pool);
  }
  // Opt-in: 40+ GB of device memory and its own table (a visit's tools/gpu-32g-run.sh msm-split).
  if (o.names("msm-chunks")) failed += run_msm_chunk_rows(o, pool);
  if (o.names("alloc")) run_alloc_rows();
  if (o.names("chain-copy")) run_chain_copy_rows(o);

  if (!rows.empty()) {  // (arith, msm-chunks, alloc and chain-copy print their own tables)
    std::printf("\n| kernel | size | ms (median) | sppark ms | ratio | notes |\n");
    std::printf("|---|---|---|---|---|---|\n");
  }
  for (const Row& r : rows) {
    char anchor[32] = "-", ratio[32] = "-";
    if (r.sppark_ms > 0) {
      std::snprintf(anchor, sizeof(anchor), "%.2f", r.sppark_ms);
      std::snprintf(ratio, sizeof(ratio), "%.2fx", r.ms / r.sppark_ms);
    }
    std::printf("| %s | %s | %.2f | %s | %s | %s |\n", r.what.c_str(), r.size.c_str(), r.ms, anchor,
                ratio, r.note.c_str());
  }
  std::printf("\nchecks failed: %d\n", failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace cuzk::bench
