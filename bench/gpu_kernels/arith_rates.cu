#include "gpu_kernels/arith_rates.hpp"

#include <stdexcept>
#include <type_traits>

#include "gpu/arith/curves.cuh"
#include "gpu/arith/fields.cuh"
#include "gpu/arith/mont_f64.cuh"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu_kernels/event_timing.hpp"

namespace cuzk::gpu {

namespace {

constexpr unsigned kThreads = 128;

enum class FieldOp { kMul, kSqr, kMulKaratsuba };  // the last: MontF64 only

// io holds two elements per thread; the chain a <- a * b (or a^2) runs `iters` times.
template <class FD, FieldOp kOp>
__global__ void field_chain_kernel(FD* io, uint32_t iters) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  FD a = io[2 * i];
  const FD b = io[2 * i + 1];
  for (uint32_t k = 0; k < iters; ++k)
    if constexpr (kOp == FieldOp::kMulKaratsuba)
      a = FD::mul_karatsuba(a, b);
    else
      a = kOp == FieldOp::kMul ? a * b : a.sqr();
  io[2 * i] = a;
}

// Two independent chains a thread (a <- a b, c <- c b): twice the instruction-level parallelism
// of field_chain_kernel at the cost of its registers. A product that waits on its pipes'
// latency (few warps resident a scheduler) runs faster here; one at its pipes' throughput
// bound does not.
template <class FD>
__global__ void field_chain2_kernel(FD* io, uint32_t iters) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  FD a = io[2 * i];
  const FD b = io[2 * i + 1];
  FD c = b;
  for (uint32_t k = 0; k < iters; ++k) {
    a = a * b;
    c = c * b;
  }
  io[2 * i] = a + c;
}

// The multiplier pipes' issue ceilings: kChains independent chains of one instruction per thread
// (x <- x m + c), enough to cover its latency at full occupancy. DFMA: the FP64 pipe (m = 0.5,
// c = 1: the chains converge to 2, no overflow or subnormals); IMAD: the integer multiplier.
constexpr int kChains = 8;

__global__ void dfma_chain_kernel(double* io, uint32_t iters) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  const double m = io[2 * i], c = io[2 * i + 1];
  double x[kChains];
  for (int k = 0; k < kChains; ++k)
    x[k] = m + k;
  for (uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int k = 0; k < kChains; ++k)
      x[k] = __fma_rn(x[k], m, c);
  }
  double sum = 0;
  for (int k = 0; k < kChains; ++k)
    sum += x[k];
  io[2 * i] = sum;
}

__global__ void imad_chain_kernel(uint32_t* io, uint32_t iters) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  const uint32_t m = io[2 * i], c = io[2 * i + 1];
  uint32_t x[kChains];
  for (int k = 0; k < kChains; ++k)
    x[k] = m + k;
  for (uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int k = 0; k < kChains; ++k)
      x[k] = x[k] * m + c;
  }
  uint32_t sum = 0;
  for (int k = 0; k < kChains; ++k)
    sum ^= x[k];
  io[2 * i] = sum;
}

// A Mont32 and a MontF64 product chain side by side in each thread: the product-level hybrid
// (mont_f64.cuh), two products an iteration, one on each multiplier pipe. Capping its registers
// for 5 or 6 blocks an SM (126 registers, 4 blocks, uncapped) was measured slower (session 16,
// H100: 2.35e10 and 2.27e10 against 2.62e10 Fp products/s; docs/perf-log.md).
template <class F>
__global__ void pair_chain_kernel(Mont32<F>* io32, MontF64<F>* io64, uint32_t iters) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  Mont32<F> a = io32[2 * i];
  const Mont32<F> b = io32[2 * i + 1];
  MontF64<F> c = io64[2 * i];
  const MontF64<F> d = io64[2 * i + 1];
  for (uint32_t k = 0; k < iters; ++k) {
    a = a * b;
    c = c * d;
  }
  io32[2 * i] = a;
  io64[2 * i] = c;
}

// acc <- acc + table[j] (mixed XYZZ + affine) with j from a per-thread LCG over the table.
template <class CurveD>
__global__ void madd_chain_kernel(const Affine<CurveD>* __restrict__ table, uint32_t mask,
                                  uint32_t iters, Xyzz<CurveD>* out) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  uint32_t j = static_cast<uint32_t>(i) * 2654435761u;
  Xyzz<CurveD> acc = Xyzz<CurveD>::from_affine(table[j & mask]);
  for (uint32_t k = 0; k < iters; ++k) {
    j = j * 1664525u + 1013904223u;
    acc = acc.add_mixed(table[(j >> 7) & mask]);
  }
  out[i] = acc;
}

unsigned sm_count() {
  int dev = 0, sms = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&dev));
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return static_cast<unsigned>(sms);
}

// Blocks of kThreads that fill every SM kWaves times at the occupancy `kernel`'s registers
// allow, so that no row pays for a partial last wave (the old fixed 16 blocks an SM gave MontF64
// Fp mul, 80 registers and 6 blocks an SM, 2.67 waves; on whole waves it measured 1% faster,
// 2.24e10 -> 2.26e10 on an H100, session 16).
constexpr unsigned kWaves = 4;
template <class Kernel>
unsigned whole_waves(Kernel kernel) {
  int per_sm = 0;
  CUZK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0));
  if (per_sm <= 0) throw std::runtime_error("arith rates: a kernel that no SM can hold");
  return static_cast<unsigned>(per_sm) * sm_count() * kWaves;
}

// Seconds of one launch: the median over reps after a warm-up; every launch checked.
template <class F>
double time_s(F&& launch, unsigned reps, cudaStream_t s) {
  return median_event_ms(
             [&] {
               launch();
               CUZK_CUDA_CHECK_LAUNCH();
             },
             reps, s) /
         1e3;
}

// n chain operands: R mod p (one) with the low limb varied per element, still below p (its top
// limb is well below p's, for Mont32 and MontF64 alike); the chains' instruction stream does not
// depend on the values.
template <class FD>
std::vector<FD> chain_operands(size_t n) {
  std::vector<FD> host(n, FD::one());
  for (size_t k = 0; k < host.size(); ++k)
    host[k].l[0] ^= static_cast<uint32_t>(k);
  return host;
}

template <class FD, FieldOp kOp>
double field_rate(uint32_t iters, unsigned reps, cudaStream_t s) {
  const unsigned blocks = whole_waves(field_chain_kernel<FD, kOp>);
  const size_t threads = size_t{blocks} * kThreads;
  DeviceBuffer<FD> io(2 * threads);
  const std::vector<FD> host = chain_operands<FD>(2 * threads);  // alive until the timing syncs
  io.upload(host, s);
  const double sec = time_s(
      [&] { field_chain_kernel<FD, kOp><<<blocks, kThreads, 0, s>>>(io.get(), iters); }, reps, s);
  return static_cast<double>(threads) * iters / sec;
}

// Products per second of field_chain2_kernel (both chains counted).
template <class FD>
double field2_rate(uint32_t iters, unsigned reps, cudaStream_t s) {
  const unsigned blocks = whole_waves(field_chain2_kernel<FD>);
  const size_t threads = size_t{blocks} * kThreads;
  DeviceBuffer<FD> io(2 * threads);
  const std::vector<FD> host = chain_operands<FD>(2 * threads);
  io.upload(host, s);
  const double sec = time_s(
      [&] { field_chain2_kernel<FD><<<blocks, kThreads, 0, s>>>(io.get(), iters); }, reps, s);
  return 2.0 * static_cast<double>(threads) * iters / sec;
}

// Products per second of pair_chain_kernel (both chains counted).
template <class F>
double pair_rate(uint32_t iters, unsigned reps, cudaStream_t s) {
  const auto kernel = pair_chain_kernel<F>;
  const unsigned blocks = whole_waves(kernel);
  const size_t threads = size_t{blocks} * kThreads;
  DeviceBuffer<Mont32<F>> io32(2 * threads);
  DeviceBuffer<MontF64<F>> io64(2 * threads);
  const std::vector<Mont32<F>> host32 = chain_operands<Mont32<F>>(2 * threads);
  const std::vector<MontF64<F>> host64 = chain_operands<MontF64<F>>(2 * threads);
  io32.upload(host32, s);
  io64.upload(host64, s);
  const double sec =
      time_s([&] { kernel<<<blocks, kThreads, 0, s>>>(io32.get(), io64.get(), iters); }, reps, s);
  return 2.0 * static_cast<double>(threads) * iters / sec;
}

// Instructions per second of dfma_chain_kernel (double) or imad_chain_kernel (uint32_t).
template <class T>
double pipe_rate(uint32_t iters, unsigned reps, cudaStream_t s) {
  const unsigned blocks =
      std::is_same_v<T, double> ? whole_waves(dfma_chain_kernel) : whole_waves(imad_chain_kernel);
  const size_t threads = size_t{blocks} * kThreads;
  DeviceBuffer<T> io(2 * threads);
  std::vector<T> host(2 * threads);
  for (size_t k = 0; k < threads; ++k) {
    host[2 * k] = std::is_same_v<T, double> ? T(0.5) : T(2654435761u + 2 * k);
    host[2 * k + 1] = T(1);
  }
  io.upload(host, s);
  const double sec = time_s(
      [&] {
        if constexpr (std::is_same_v<T, double>)
          dfma_chain_kernel<<<blocks, kThreads, 0, s>>>(io.get(), iters);
        else
          imad_chain_kernel<<<blocks, kThreads, 0, s>>>(io.get(), iters);
      },
      reps, s);
  return static_cast<double>(threads) * iters * kChains / sec;
}

template <class Curve>
double madd_rate(const Affine<Curve>* table, size_t n, uint32_t iters, unsigned reps,
                 cudaStream_t s) {
  using CurveD = typename DeviceCurveOf<Curve>::type;
  const unsigned blocks = whole_waves(madd_chain_kernel<CurveD>);
  if (n == 0 || (n & (n - 1)) != 0) throw std::invalid_argument("arith rates: table size");
  const size_t threads = size_t{blocks} * kThreads;
  DeviceBuffer<Xyzz<CurveD>> out(threads);
  const auto* t = reinterpret_cast<const Affine<CurveD>*>(table);
  const double sec = time_s(
      [&] {
        madd_chain_kernel<CurveD>
            <<<blocks, kThreads, 0, s>>>(t, static_cast<uint32_t>(n - 1), iters, out.get());
      },
      reps, s);
  return static_cast<double>(threads) * iters / sec;
}

}  // namespace

std::vector<ArithRate> measure_arith_rates(const Affine<G1Curve>* g1_small, size_t n_g1_small,
                                           const Affine<G1Curve>* g1_large, size_t n_g1_large,
                                           const Affine<G2Curve>* g2_small, size_t n_g2_small,
                                           unsigned reps, cudaStream_t s) {
  std::vector<ArithRate> r;
  r.push_back({"Fr mul", field_rate<FrD, FieldOp::kMul>(8192, reps, s), 5.93e10});
  r.push_back({"Fp mul", field_rate<FpD, FieldOp::kMul>(2048, reps, s), 2.69e10});
  r.push_back({"Fp sqr", field_rate<FpD, FieldOp::kSqr>(2048, reps, s), 3.24e10});
  // FP64 products (MontF64, 51-bit limbs; not yet in the kernels) against the same chains on
  // Mont32 above, and both multiplier pipes' issue ceilings (instructions/s).
  r.push_back(
      {"Fr mul, FP64 (MontF64)", field_rate<MontF64<Fr>, FieldOp::kMul>(8192, reps, s), -1});
  r.push_back({"Fr mul, FP64 Karatsuba (MontF64)",
               field_rate<MontF64<Fr>, FieldOp::kMulKaratsuba>(8192, reps, s), -1});
  r.push_back(
      {"Fr sqr, FP64 (MontF64)", field_rate<MontF64<Fr>, FieldOp::kSqr>(8192, reps, s), -1});
  r.push_back(
      {"Fp mul, FP64 (MontF64)", field_rate<MontF64<Fp>, FieldOp::kMul>(2048, reps, s), -1});
  r.push_back({"Fp mul, FP64 Karatsuba (MontF64)",
               field_rate<MontF64<Fp>, FieldOp::kMulKaratsuba>(2048, reps, s), -1});
  r.push_back(
      {"Fp sqr, FP64 (MontF64)", field_rate<MontF64<Fp>, FieldOp::kSqr>(2048, reps, s), -1});
  // Latency or throughput (issue 32): the same products, two independent chains a thread.
  r.push_back({"Fp mul, two chains a thread", field2_rate<FpD>(1024, reps, s), -1});
  r.push_back(
      {"Fp mul, FP64 (MontF64), two chains a thread", field2_rate<MontF64<Fp>>(1024, reps, s), -1});
  r.push_back(
      {"Fr mul, FP64 (MontF64), two chains a thread", field2_rate<MontF64<Fr>>(4096, reps, s), -1});
  r.push_back({"Fr mul, Mont32 and MontF64 side by side", pair_rate<Fr>(4096, reps, s), -1});
  r.push_back({"Fp mul, Mont32 and MontF64 side by side", pair_rate<Fp>(1024, reps, s), -1});
  r.push_back({"DFMA, FP64 pipe ceiling", pipe_rate<double>(4096, reps, s), -1});
  r.push_back({"IMAD, integer multiplier ceiling", pipe_rate<uint32_t>(4096, reps, s), 1.67e13});
  r.push_back({"G1 XYZZ + affine, L2-resident table",
               madd_rate<G1Curve>(g1_small, n_g1_small, 256, reps, s), 2.64e9});
  r.push_back({"G1 XYZZ + affine, gathers from HBM",
               madd_rate<G1Curve>(g1_large, n_g1_large, 256, reps, s), 2.52e9});
  r.push_back({"G2 XYZZ + affine, L2-resident table",
               madd_rate<G2Curve>(g2_small, n_g2_small, 64, reps, s), -1});
  return r;
}

}  // namespace cuzk::gpu
