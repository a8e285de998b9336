#include "synth_only_cmd.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "cs/metric_cs.hpp"
#include "cs/proving_assignment.hpp"
#include "pce/pce_file.hpp"
#include "pce/recording_cs.hpp"
#include "pce/spmv.hpp"
#include "pce/witness_cs.hpp"
#include "porep/stacked_circuit.hpp"
#include "porep/vanilla/c1_wrapper.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "gpu/device/device_info.hpp"
#include "gpu/spmv/spmv.hpp"
#endif

namespace cuzk::bench {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double peak_rss_gib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / (1024.0 * 1024.0);  // ru_maxrss is in KiB
}

struct Job {
  filecoin::SealCommitPhase1Output c1;
  porep::PublicParams pp;
  std::vector<unsigned> partitions;
};

void run_metric(const Job& job, unsigned it) {
  for (unsigned k : job.partitions) {
    const porep::StackedCircuit circuit = porep::StackedCircuit::from_c1(job.c1, job.pp, k);
    const auto t0 = Clock::now();
    MetricCS cs(/*track_density=*/true);
    circuit.synthesize(cs);
    std::printf(
        "iteration %u partition %u: metric %.3f s | rows %zu (with input rows) | inputs %zu | aux "
        "%zu | density A aux %zu, B input %zu, B aux %zu | peak RSS %.2f GiB\n",
        it, k, since(t0), cs.num_constraints() + cs.num_inputs(), cs.num_inputs(), cs.num_aux(),
        cs.a_aux_density().popcount(), cs.b_input_density().popcount(),
        cs.b_aux_density().popcount(), peak_rss_gib());
  }
}

void run_classic(const Job& job, const SynthOnlyOptions& o, unsigned it) {
  for (unsigned k : job.partitions) {
    const porep::StackedCircuit circuit = porep::StackedCircuit::from_c1(job.c1, job.pp, k);
    ProvingAssignment pa;
    if (o.reserve) {
      MetricCS shape(/*track_density=*/false);
      circuit.synthesize(shape);
      pa.reserve(shape.num_constraints() + shape.num_inputs(), shape.num_inputs(), shape.num_aux());
    }
    const auto t0 = Clock::now();
    circuit.synthesize(pa);
    pa.add_input_constraints();
    const double s = since(t0);
    if (const auto& bad = pa.first_unsatisfied()) {
      std::printf("warning: constraint %zu ('%s') is not satisfied\n", bad->index,
                  bad->name.c_str());
    }
    std::printf(
        "iteration %u partition %u: classic synthesis %.3f s (one thread) | rows %zu | inputs %zu "
        "| aux %zu | peak RSS %.2f GiB\n",
        it, k, s, pa.a.size(), pa.input_assignment.size(), pa.aux_assignment.size(),
        peak_rss_gib());
    if (o.digest != "none")
      std::printf("abc sha256 %s\n", pce::abc_sha256_hex(pa.a, pa.b, pa.c).c_str());
    std::fflush(stdout);
  }
}

pce::RecordedCircuit recorded_circuit(const Job& job, const SynthOnlyOptions& o, ThreadPool& pool) {
  const pce::CircuitIdentity id{"porep", job.pp.sector_size(), "any",
                                porep::kStackedCircuitVersion};
  const auto t0 = Clock::now();
  if (!o.pce_dir.empty()) {
    const auto path = pce::pce_file_path(o.pce_dir, id);
    if (std::filesystem::exists(path)) {
      pce::RecordedCircuit rc = pce::read_pce_file(path, id, pool);
      std::printf("pce: loaded %s (%.2f GB) in %.2f s\n", path.c_str(),
                  static_cast<double>(rc.storage_bytes) / 1e9, since(t0));
      return rc;
    }
  }
  pce::RecordingCS rec;
  porep::StackedCircuit::blank(job.pp).synthesize(rec);
  pce::RecordedCircuit rc = std::move(rec).finish(id);
  std::printf(
      "pce: recorded %s in %.2f s: %zu rows, nnz %zu (A %zu, B %zu, C %zu), %zu "
      "coefficients, %.2f GB, peak RSS %.2f GiB\n",
      id.to_string().c_str(), since(t0), rc.num_rows, rc.nnz(), rc.a.nnz(), rc.b.nnz(), rc.c.nnz(),
      rc.coefficients.size(), static_cast<double>(rc.storage_bytes) / 1e9, peak_rss_gib());
  if (!o.pce_dir.empty()) {
    const auto t1 = Clock::now();
    const auto path = pce::pce_file_path(o.pce_dir, id);
    const uint64_t bytes = pce::write_pce_file(path, rc, pool);
    std::printf("pce: wrote %s (%llu bytes) in %.2f s\n", path.c_str(),
                static_cast<unsigned long long>(bytes), since(t1));
    return pce::read_pce_file(path, id, pool);
  }
  return rc;
}

void run_pce(const Job& job, const SynthOnlyOptions& o, ThreadPool& pool,
             const pce::RecordedCircuit& rc, unsigned it) {
  // Witnesses of every requested partition at once (the engine's shape of the work: partitions
  // and their pieces share the pool).
  const size_t parts = job.partitions.size();
  std::vector<std::optional<pce::CompactWitness>> witness(parts);
  auto t0 = Clock::now();
  pool.run(parts, [&](size_t i) {
    const porep::StackedCircuit circuit =
        porep::StackedCircuit::from_c1(job.c1, job.pp, job.partitions[i]);
    pce::WitnessCS cs(&pool);
    cs.reserve(rc.num_inputs, rc.num_aux);
    circuit.synthesize(cs);
    witness[i] = std::move(cs).finish();
  });
  const double witness_s = since(t0);
  uint64_t witness_bytes = 0;
  for (const auto& w : witness)
    witness_bytes += w->bytes();
  std::printf(
      "iteration %u: witness of %zu partition(s) in %.3f s on %u threads (%.1f MB compact, "
      "%zu of %zu aux not 0/1 in the first) | peak RSS %.2f GiB\n",
      it, parts, witness_s, pool.size(), static_cast<double>(witness_bytes) / 1e6,
      witness[0]->aux_values.size(), witness[0]->num_aux, peak_rss_gib());

  std::vector<Fr> a(rc.num_rows), b(rc.num_rows), c(rc.num_rows);
  double spmv_total = 0;
#if defined(CUZK_HAVE_CUDA)
  std::optional<gpu::DeviceCircuit> dc;
  gpu::DeviceBuffer<Fr> d_w, d_a, d_b, d_c;
  gpu::WitnessScratch scratch;
  gpu::DeviceBuffer<unsigned long long> flag;
  std::optional<gpu::Stream> stream;
  if (o.gpu_spmv) {
    stream.emplace();
    t0 = Clock::now();
    dc.emplace();
    dc->upload(rc, stream->get());
    std::printf("gpu: recorded circuit uploaded (%.2f GB) in %.3f s\n",
                static_cast<double>(dc->bytes()) / 1e9, since(t0));
    d_w.allocate(rc.num_columns());
    d_a.allocate(rc.num_rows);
    d_b.allocate(rc.num_rows);
    d_c.allocate(rc.num_rows);
  }
#endif
  for (size_t i = 0; i < parts; ++i) {
    const pce::CompactWitness& w = *witness[i];
    t0 = Clock::now();
    std::optional<size_t> bad;
    const char* where = "cpu";
#if defined(CUZK_HAVE_CUDA)
    if (o.gpu_spmv) {
      where = "gpu";
      const cudaStream_t s = stream->get();
      gpu::upload_witness(w, d_w.get(), scratch, s);
      gpu::spmv(*dc, d_w.get(), d_a.get(), d_b.get(), d_c.get(), s);
      const size_t r =
          gpu::first_unsatisfied_row(d_a.get(), d_b.get(), d_c.get(), rc.num_rows, flag, s);
      if (r != rc.num_rows) bad = r;
    }
#endif
    if (!o.gpu_spmv) {
      pce::evaluate(rc, w, a, b, c, pool);
      bad = pce::first_unsatisfied_row(a, b, c, pool);
    }
    const double s = since(t0);
    spmv_total += s;
    const bool digest = o.digest == "all" || (o.digest == "first" && i == 0);
#if defined(CUZK_HAVE_CUDA)
    if (o.gpu_spmv && digest) {  // for the digest only (not timed)
      d_a.download(a, stream->get());
      d_b.download(b, stream->get());
      d_c.download(c, stream->get());
      stream->sync();
    }
#endif
    std::printf("iteration %u partition %u: spmv + row check %.3f s (%s) | %s\n", it,
                job.partitions[i], s, where,
                bad ? ("UNSATISFIED row " + std::to_string(*bad)).c_str() : "satisfied");
    if (digest) std::printf("abc sha256 %s\n", pce::abc_sha256_hex(a, b, c).c_str());
    std::fflush(stdout);
  }
  std::printf(
      "iteration %u: witness + a/b/c of %zu partition(s): %.3f s (witness %.3f, spmv "
      "%.3f) | peak RSS %.2f GiB\n",
      it, parts, witness_s + spmv_total, witness_s, spmv_total, peak_rss_gib());
}

}  // namespace

void add_synth_only_command(CLI::App& app, SynthOnlyOptions& o, bool& selected) {
  CLI::App* c = app.add_subcommand(
      "synth-only",
      "Synthesize PoRep partitions of a C1: phase times, counts, peak memory, abc sha256");
  c->add_option("--c1", o.c1, "c1.json (cuzk wrapper or bare SealCommitPhase1Output)")
      ->required()
      ->check(CLI::ExistingFile);
  c->add_option("--mode", o.mode, "classic | pce | metric (default classic)")
      ->check(CLI::IsMember({"classic", "pce", "metric"}));
  c->add_option("--partition", o.partition, "partition k (default 0)");
  c->add_flag("--all-partitions", o.all_partitions, "every partition of the C1");
  c->add_option("-i,--iterations", o.iterations, "iterations (default 1)");
  c->add_option("--threads", o.threads, "pce: threads (default: all cores)");
  c->add_flag("--reserve", o.reserve,
              "classic: reserve the assignment's vectors from a metric pass first (not timed)");
  c->add_flag("--gpu-spmv", o.gpu_spmv, "pce: a, b, c on the device");
  c->add_option("--digest", o.digest, "abc sha256 of all | first | none (default all)")
      ->check(CLI::IsMember({"all", "first", "none"}));
  c->add_option("--pce-dir", o.pce_dir, "pce: load the recording from here (written if absent)");
  c->callback([&] { selected = true; });
}

int run_synth_only(const SynthOnlyOptions& o) {
  auto t0 = Clock::now();
  Job job{filecoin::read_c1_file(o.c1).c1, {}, {}};
  job.pp = porep::PublicParams::for_proof(job.c1.registered_proof);
  if (o.all_partitions) {
    for (unsigned k = 0; k < job.pp.partitions; ++k)
      job.partitions.push_back(k);
  } else {
    if (o.partition >= job.pp.partitions) {
      throw std::invalid_argument("partition " + std::to_string(o.partition) + " out of range (" +
                                  std::to_string(job.pp.partitions) + " partitions)");
    }
    job.partitions.push_back(o.partition);
  }
#if !defined(CUZK_HAVE_CUDA)
  if (o.gpu_spmv) throw std::invalid_argument("--gpu-spmv: this build has no CUDA");
#else
  if (o.gpu_spmv && gpu::device_count() == 0)
    throw std::invalid_argument("--gpu-spmv: no CUDA device");
#endif
  const auto& name = filecoin::seal_proof_info(job.c1.registered_proof).name;
  std::printf("C1 %s: %.*s, %zu of %u partitions, %u challenges each; read in %.3f s\nmode: %s\n",
              o.c1.c_str(), static_cast<int>(name.size()), name.data(), job.partitions.size(),
              job.pp.partitions, job.pp.challenges_per_partition, since(t0), o.mode.c_str());
  if (o.mode == "metric") {
    for (unsigned it = 1; it <= o.iterations; ++it)
      run_metric(job, it);
    return 0;
  }
  if (o.mode == "classic") {
    for (unsigned it = 1; it <= o.iterations; ++it)
      run_classic(job, o, it);
    return 0;
  }
  ThreadPool pool(o.threads);
  const pce::RecordedCircuit rc = recorded_circuit(job, o, pool);
  for (unsigned it = 1; it <= o.iterations; ++it)
    run_pce(job, o, pool, rc, it);
  return 0;
}

}  // namespace cuzk::bench
