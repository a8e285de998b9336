// StackedDrg partition synthesis: the metric count of a whole 32 GiB partition (the circuit-size
// oracle of facts sheet 7.1, with and without the A/B density bitmaps), witness synthesis of
// 2 KiB and 8 MiB partitions from synthetic C1s into the prover's ProvingAssignment and into the
// metric CS, and the native public inputs of a 32 GiB partition (18 challenges, their parents).
// A 32 GiB ProvingAssignment needs ~17 GiB (rows x 3 + aux Fr values): run cuzk-bench synth-only
// on a machine with the memory for it.
#include <benchmark/benchmark.h>

#include <map>

#include "cs/metric_cs.hpp"
#include "cs/proving_assignment.hpp"
#include "porep/circuit_metrics.hpp"
#include "porep/public_inputs.hpp"
#include "porep/stacked_circuit.hpp"
#include "porep/vanilla/synthetic_c1.hpp"

namespace cuzk::porep {
namespace {

using filecoin::RegisteredSealProof;

void BM_MetricPartition32GiB(benchmark::State& state) {
  const PublicParams pp = PublicParams::for_proof(RegisteredSealProof::kStackedDrg32GiBV1_1);
  const bool density = state.range(0) != 0;
  CircuitMetrics m;
  for (auto _ : state)
    m = measure_circuit(pp, density);
  state.counters["constraints"] = static_cast<double>(m.constraints);
  state.counters["aux"] = static_cast<double>(m.aux);
  state.counters["inputs"] = static_cast<double>(m.inputs);
  if (density) {
    state.counters["a_aux_density"] = static_cast<double>(m.a_aux_density);
    state.counters["b_aux_density"] = static_cast<double>(m.b_aux_density);
  }
}
BENCHMARK(BM_MetricPartition32GiB)->Arg(0)->Arg(1)->Unit(benchmark::kSecond)->Iterations(1);

const filecoin::SealCommitPhase1Output& synthetic(RegisteredSealProof p) {
  static std::map<RegisteredSealProof, filecoin::SealCommitPhase1Output> cache;
  auto it = cache.find(p);
  if (it == cache.end()) {
    filecoin::SyntheticC1Params params;
    params.seed = 1;
    it = cache.emplace(p, filecoin::make_synthetic_c1(filecoin::porep_config(p), params).c1).first;
  }
  return it->second;
}

size_t rows_of(const ProvingAssignment& cs) {
  return cs.a.size();
}
size_t rows_of(const MetricCS& cs) {
  return cs.num_constraints();
}

template <class CS>
void BM_SynthesizePartition(benchmark::State& state) {
  const auto proof = static_cast<RegisteredSealProof>(state.range(0));
  const PublicParams pp = PublicParams::for_proof(proof);
  const StackedCircuit circuit = StackedCircuit::from_c1(synthetic(proof), pp, 0);
  size_t rows = 0;
  for (auto _ : state) {
    CS cs;
    circuit.synthesize(cs);
    rows = rows_of(cs);
  }
  state.counters["constraints"] = static_cast<double>(rows);
  state.counters["constraints/s"] =
      benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_SynthesizePartition<ProvingAssignment>)
    ->Arg(static_cast<int>(RegisteredSealProof::kStackedDrg2KiBV1_1))
    ->Arg(static_cast<int>(RegisteredSealProof::kStackedDrg8MiBV1_1))
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SynthesizePartition<MetricCS>)
    ->Arg(static_cast<int>(RegisteredSealProof::kStackedDrg2KiBV1_1))
    ->Arg(static_cast<int>(RegisteredSealProof::kStackedDrg8MiBV1_1))
    ->Unit(benchmark::kMillisecond);

void BM_PublicInputs32GiB(benchmark::State& state) {
  const PublicParams pp = PublicParams::for_proof(RegisteredSealProof::kStackedDrg32GiBV1_1);
  const filecoin::StackedGraph graph = pp.graph();
  PorepPublicInputs in;
  in.replica_id[0] = 1;
  in.comm_d[0] = 2;
  in.comm_r[0] = 3;
  in.seed = filecoin::ChallengeSeed{};
  (*in.seed)[0] = 4;
  unsigned k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(public_inputs(pp, in, k, &graph));
    k = (k + 1) % pp.partitions;
  }
}
BENCHMARK(BM_PublicInputs32GiB)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk::porep
