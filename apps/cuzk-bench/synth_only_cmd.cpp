#include "synth_only_cmd.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "cs/metric_cs.hpp"
#include "cs/proving_assignment.hpp"
#include "filecoin/c1_wrapper.hpp"
#include "porep/stacked_circuit.hpp"

namespace cuzk::bench {
namespace {

double peak_rss_gib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / (1024.0 * 1024.0);  // ru_maxrss is in KiB
}

}  // namespace

void add_synth_only_command(CLI::App& app, SynthOnlyOptions& o, bool& selected) {
  CLI::App* c = app.add_subcommand(
      "synth-only", "Synthesize one PoRep partition of a C1 N times: time, counts, peak memory");
  c->add_option("--c1", o.c1, "c1.json (cuzk wrapper or bare SealCommitPhase1Output)")
      ->required()
      ->check(CLI::ExistingFile);
  c->add_option("--partition", o.partition, "partition k (default 0)");
  c->add_option("-i,--iterations", o.iterations, "iterations (default 1)");
  c->add_flag("--metric", o.metric, "count only (MetricCS with densities), no witness storage");
  c->add_flag("--reserve", o.reserve,
              "reserve the assignment's vectors from a metric pass first (not timed)");
  c->callback([&] { selected = true; });
}

int run_synth_only(const SynthOnlyOptions& o) {
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  const filecoin::SealCommitPhase1Output c1 = filecoin::read_c1_file(o.c1).c1;
  const porep::PublicParams pp = porep::PublicParams::for_proof(c1.registered_proof);
  if (o.partition >= pp.partitions) {
    throw std::invalid_argument("partition " + std::to_string(o.partition) + " out of range (" +
                                std::to_string(pp.partitions) + " partitions)");
  }
  const porep::StackedCircuit circuit = porep::StackedCircuit::from_c1(c1, pp, o.partition);
  std::printf(
      "C1 %s: %.*s, partition %u of %u, %u challenges; read + circuit in %.3f s\n", o.c1.c_str(),
      static_cast<int>(filecoin::seal_proof_info(c1.registered_proof).name.size()),
      filecoin::seal_proof_info(c1.registered_proof).name.data(), o.partition, pp.partitions,
      pp.challenges_per_partition, std::chrono::duration<double>(Clock::now() - t0).count());
  std::printf("mode: %s (single thread)\n",
              o.metric ? "metric (count only)" : "proving assignment");
  for (unsigned it = 0; it < o.iterations; ++it) {
    t0 = Clock::now();
    size_t rows = 0, inputs = 0, aux = 0, a_aux = 0, b_in = 0, b_aux = 0;
    if (o.metric) {
      MetricCS cs(/*track_density=*/true);
      circuit.synthesize(cs);
      rows = cs.num_constraints() + cs.num_inputs();
      inputs = cs.num_inputs();
      aux = cs.num_aux();
      a_aux = cs.a_aux_density().popcount();
      b_in = cs.b_input_density().popcount();
      b_aux = cs.b_aux_density().popcount();
    } else {
      ProvingAssignment pa;
      if (o.reserve) {
        MetricCS shape(/*track_density=*/false);
        circuit.synthesize(shape);
        pa.reserve(shape.num_constraints() + shape.num_inputs(), shape.num_inputs(),
                   shape.num_aux());
        t0 = Clock::now();
      }
      circuit.synthesize(pa);
      pa.add_input_constraints();
      rows = pa.a.size();
      inputs = pa.input_assignment.size();
      aux = pa.aux_assignment.size();
      a_aux = pa.a_aux_density.popcount();
      b_in = pa.b_input_density.popcount();
      b_aux = pa.b_aux_density.popcount();
      if (const auto& bad = pa.first_unsatisfied()) {
        std::printf("warning: constraint %zu ('%s') is not satisfied\n", bad->index,
                    bad->name.c_str());
      }
    }
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf(
        "iteration %u: synthesis %.3f s | rows %zu (with input rows) | inputs %zu | aux %zu | "
        "density A aux %zu, B input %zu, B aux %zu | peak RSS %.2f GiB\n",
        it + 1, s, rows, inputs, aux, a_aux, b_in, b_aux, peak_rss_gib());
  }
  return 0;
}

}  // namespace cuzk::bench
