// Filecoin primitive microbenchmarks: SHA-256 nodes and trees, Fr32 padding, Poseidon (optimized
// and reference, by arity), ChaCha8 as the DRG uses it, BLAKE2b-512 as the Feistel network uses
// it. Single-op benchmarks are latency chained: each iteration consumes the previous result.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "filecoin/chacha.hpp"
#include "filecoin/fr32.hpp"
#include "filecoin/hash/blake2b.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/hash/sha256_tree.hpp"

namespace cuzk::filecoin {
namespace {

std::vector<uint8_t> random_bytes(size_t n) {
  std::mt19937_64 rng(1);
  std::vector<uint8_t> v(n);
  for (auto& b : v)
    b = static_cast<uint8_t>(rng());
  return v;
}

void BM_Sha256Node(benchmark::State& state) {
  Sha256 h;
  Domain a{}, b{};
  b[0] = 1;
  for (auto _ : state) {
    a = h.node(a, b);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Sha256Node);

void BM_Sha256TreeRoot(benchmark::State& state) {
  const std::vector<uint8_t> leaves = random_bytes(size_t{1} << 20);
  const unsigned threads = static_cast<unsigned>(state.range(0));
  ThreadPool pool(threads);
  for (auto _ : state)
    benchmark::DoNotOptimize(sha256_tree_root(leaves, threads > 1 ? &pool : nullptr));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * leaves.size()));
}
BENCHMARK(BM_Sha256TreeRoot)->Arg(1)->Arg(2)->UseRealTime();

void BM_Fr32Pad(benchmark::State& state) {
  const std::vector<uint8_t> in = random_bytes(127 * 8192);
  std::vector<uint8_t> out(fr32_padded_len(in.size()));
  for (auto _ : state) {
    fr32_pad(in, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_Fr32Pad);

void BM_Fr32Unpad(benchmark::State& state) {
  const std::vector<uint8_t> padded = fr32_pad(random_bytes(127 * 8192));
  std::vector<uint8_t> out(127 * 8192);
  for (auto _ : state) {
    fr32_unpad(padded, 0, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * out.size()));
}
BENCHMARK(BM_Fr32Unpad);

// Baseline for the Poseidon numbers: one chained Fr product.
void BM_FrMul(benchmark::State& state) {
  std::mt19937_64 rng(3);
  Fr a = Fr::random(rng);
  const Fr b = Fr::random(rng);
  for (auto _ : state) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_FrMul);

// ns per hash = ns per iteration; the output feeds the next input.
template <bool kReference>
void BM_PoseidonHash(benchmark::State& state) {
  const PoseidonConstants& c = PoseidonConstants::standard(static_cast<size_t>(state.range(0)));
  std::mt19937_64 rng(2);
  std::vector<Fr> in(c.arity());
  for (Fr& x : in)
    x = Fr::random(rng);
  for (auto _ : state) {
    in[0] =
        kReference ? poseidon_hash_reference_with_tag(c, c.merkle_tag(), in) : poseidon_hash(c, in);
    benchmark::DoNotOptimize(in[0]);
  }
}
BENCHMARK(BM_PoseidonHash<false>)
    ->Name("BM_PoseidonHash")
    ->Arg(2)
    ->Arg(4)
    ->Arg(8)
    ->Arg(11)
    ->Arg(16)
    ->Arg(24)
    ->Arg(36);
BENCHMARK(BM_PoseidonHash<true>)->Name("BM_PoseidonHashReference")->Arg(2)->Arg(8)->Arg(11);

void BM_PoseidonConstantsBuild(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(PoseidonConstants(static_cast<size_t>(state.range(0))));
}
BENCHMARK(BM_PoseidonConstantsBuild)->Arg(11)->Arg(36)->Unit(benchmark::kMillisecond);

// One DRG node: a fresh ChaCha8Rng per node and 10 next_u64 (drgraph.rs parents()).
void BM_ChaCha8DrgNode(benchmark::State& state) {
  ChaChaKey seed{};
  uint64_t acc = 0;
  uint32_t v = 2;
  for (auto _ : state) {
    seed[28] = static_cast<uint8_t>(v);
    seed[29] = static_cast<uint8_t>(v >> 8);
    ChaCha8Rng rng(seed);
    for (int i = 0; i < 10; ++i)
      acc += rng.next_u64();
    ++v;
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_ChaCha8DrgNode);

void BM_ChaCha20IetfKeystream(benchmark::State& state) {
  ChaCha20Ietf c(ChaChaKey{}, {});
  std::vector<uint8_t> buf(1 << 16);
  for (auto _ : state) {
    c.seek(0);
    c.apply_keystream(buf);
    benchmark::DoNotOptimize(buf.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * buf.size()));
}
BENCHMARK(BM_ChaCha20IetfKeystream);

// The Feistel round function input: u64_be(R) || u64_be(key), 16 bytes.
void BM_Blake2b512Feistel(benchmark::State& state) {
  Blake2b512 h;
  uint8_t msg[16] = {};
  for (auto _ : state) {
    const Blake2b512Digest d = h.digest(msg);
    msg[0] ^= d[0];
    benchmark::DoNotOptimize(msg);
  }
}
BENCHMARK(BM_Blake2b512Feistel);

}  // namespace
}  // namespace cuzk::filecoin
