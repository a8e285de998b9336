// Circuit gadget synthesis microbenchmarks: how long one Poseidon hash (by arity), one PoR of
// the 32 GiB tree_c / tree_r_last shape and one SDR label take to synthesize into the prover's
// ProvingAssignment (witness and a/b/c evaluations) and into the shape-only MetricCS. These are
// the building blocks whose sum is a StackedDrg partition's synthesis time.
#include <benchmark/benchmark.h>

#include <bit>
#include <random>
#include <vector>

#include "circuits/bits.hpp"
#include "circuits/create_label.hpp"
#include "circuits/label_native.hpp"
#include "circuits/por.hpp"
#include "circuits/poseidon_circuit.hpp"
#include "cs/density.hpp"
#include "cs/metric_cs.hpp"
#include "cs/proving_assignment.hpp"
#include "gadgets/uint32.hpp"
#include "pce/witness_cs.hpp"

namespace cuzk::circuits {
namespace {

std::vector<Fr> random_frs(size_t n) {
  std::mt19937_64 rng(1);
  std::vector<Fr> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back(Fr::random(rng));
  return v;
}

template <class CS>
void BM_PoseidonCircuit(benchmark::State& state) {
  const size_t arity = static_cast<size_t>(state.range(0));
  const std::vector<Fr> vals = random_frs(arity);
  PoseidonCircuitConstants::standard(arity);
  for (auto _ : state) {
    CS cs;
    std::vector<AllocatedNum> nums;
    for (const Fr& v : vals)
      nums.push_back(AllocatedNum::alloc(cs, v));
    benchmark::DoNotOptimize(poseidon_hash_circuit(cs, nums));
  }
}
BENCHMARK(BM_PoseidonCircuit<ProvingAssignment>)->Arg(2)->Arg(8)->Arg(11);
BENCHMARK(BM_PoseidonCircuit<MetricCS>)->Arg(2)->Arg(8)->Arg(11);
// Witness-only synthesis (the engine's PCE path, WindowPoSt's hot loop): the values alone.
BENCHMARK(BM_PoseidonCircuit<pce::WitnessCS>)->Arg(2)->Arg(8)->Arg(11);

// One inclusion proof in an 8-8-0 tree (values are arbitrary: synthesis cost does not depend on
// whether the path is honest).
template <class CS>
void BM_PoR880(benchmark::State& state) {
  const TreeArity arity{8, 8, 0};
  const std::vector<Fr> vals = random_frs(8);
  std::vector<PathElement> levels;
  for (int i = 0; i < 3; ++i)
    levels.push_back({{vals[1], vals[2], vals[3], vals[4], vals[5], vals[6], vals[7]}, 5});
  const AuthPath path(arity, levels);
  for (auto _ : state) {
    CS cs;
    por_circuit(cs, TreeHasher::kPoseidon, Root::val(vals[0]), path, Root::val(vals[1]), true);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_PoR880<ProvingAssignment>);
BENCHMARK(BM_PoR880<pce::WitnessCS>);

// One WindowPoSt sector of the 32 GiB shape (10 challenges, 8-8-0 paths of 11 levels over 2^30
// leaves), witness-only: a 32 GiB partition is 2,349 of them.
void BM_WindowPostSectorWitness(benchmark::State& state) {
  const TreeArity arity{8, 8, 0};
  const size_t leaves = size_t{1} << 30;
  const std::vector<Fr> vals = random_frs(8);
  std::vector<PathElement> levels;
  for (size_t i = 0; i < base_path_length(arity, leaves) + 1; ++i)
    levels.push_back({{vals[1], vals[2], vals[3], vals[4], vals[5], vals[6], vals[7]}, i % 8});
  const AuthPath path(arity, levels);
  for (auto _ : state) {
    pce::WitnessCS cs;
    for (int c = 0; c < 10; ++c)
      por_circuit(cs, TreeHasher::kPoseidon, Root::val(vals[0]), path, Root::val(vals[1]), true);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_WindowPostSectorWitness)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PoR880<MetricCS>);

// One label of a later layer with allocated parent labels, as the StackedDrg circuit builds it.
template <class CS>
void BM_CreateLabel(benchmark::State& state) {
  const std::vector<Fr> vals = random_frs(15);
  for (auto _ : state) {
    CS cs;
    const AllocatedNum id = AllocatedNum::alloc(cs, vals[0]);
    const std::vector<Boolean> id_bits = reverse_bit_numbering(id.to_bits_le(cs));
    std::vector<std::vector<Boolean>> parents;
    for (size_t i = 1; i < 15; ++i)
      parents.push_back(reverse_bit_numbering(AllocatedNum::alloc(cs, vals[i]).to_bits_le(cs)));
    const UInt64 node = UInt64::alloc(cs, 1234);
    benchmark::DoNotOptimize(
        create_label_circuit(cs, id_bits, expand_label_parents<std::vector<Boolean>>(parents, 2),
                             gadgets::UInt32::constant(2), node));
  }
}
BENCHMARK(BM_CreateLabel<ProvingAssignment>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CreateLabel<MetricCS>)->Unit(benchmark::kMillisecond);

// A 32 GiB partition's density (2^27 bits) counted as every prover entry point's fit check does
// (DensityTracker::popcount, the CPU's bit-count instruction where it has one), against the
// portable bit count it replaced.
std::vector<uint64_t> density_words() {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> words(size_t{1} << 21);
  for (uint64_t& w : words)
    w = rng();
  return words;
}

void BM_DensityPopcount(benchmark::State& state) {
  const DensityTracker d = DensityTracker::from_words(density_words(), size_t{1} << 27);
  for (auto _ : state)
    benchmark::DoNotOptimize(d.popcount());
}
BENCHMARK(BM_DensityPopcount)->Unit(benchmark::kMillisecond);

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CUZK_PORTABLE_BIT_COUNT __attribute__((target("no-popcnt")))
#else
#define CUZK_PORTABLE_BIT_COUNT
#endif

CUZK_PORTABLE_BIT_COUNT size_t portable_bit_count(const std::vector<uint64_t>& words) {
  size_t n = 0;
  for (const uint64_t w : words)
    n += static_cast<size_t>(std::popcount(w));
  return n;
}

void BM_DensityPopcountPortable(benchmark::State& state) {
  const std::vector<uint64_t> words = density_words();
  for (auto _ : state)
    benchmark::DoNotOptimize(portable_bit_count(words));
}
BENCHMARK(BM_DensityPopcountPortable)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk::circuits
