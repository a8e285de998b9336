#include "gpu_kernels/field_twins.hpp"

#include <stdexcept>

#include "gpu/arith/curves.cuh"
#include "gpu/arith/mont_f64.cuh"
#include "gpu/device/device_buffer.hpp"

namespace cuzk::gpu::twins {

namespace {

template <class F>
struct DeviceFieldOf;
template <>
struct DeviceFieldOf<Fr> {
  using type = FrD;
};
template <>
struct DeviceFieldOf<Fp> {
  using type = FpD;
};
template <>
struct DeviceFieldOf<Fp2> {
  using type = Fp2D;
};

template <class FD>
__global__ void field_ops_kernel(const FD* a, const FD* b, size_t n, FD* out) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const FD x = a[i], y = b[i];
  out[4 * i] = x + y;
  out[4 * i + 1] = x - y;
  out[4 * i + 2] = x * y;
  out[4 * i + 3] = x.sqr();
}

template <class F>
__global__ void field_ops_f64_kernel(const Mont32<F>* a, const Mont32<F>* b, size_t n,
                                     Mont32<F>* out) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const MontF64<F> x = MontF64<F>::from_mont32(a[i]), y = MontF64<F>::from_mont32(b[i]);
  out[5 * i] = (x + y).to_mont32();
  out[5 * i + 1] = (x - y).to_mont32();
  out[5 * i + 2] = (x * y).to_mont32();
  out[5 * i + 3] = x.sqr().to_mont32();
  out[5 * i + 4] = MontF64<F>::mul_karatsuba(x, y).to_mont32();
}

template <class CurveD>
__global__ void point_ops_kernel(const Affine<CurveD>* p, const Affine<CurveD>* q, size_t n,
                                 Xyzz<CurveD>* out) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const Xyzz<CurveD> P = Xyzz<CurveD>::from_affine(p[i]);
  const Xyzz<CurveD> Q = Xyzz<CurveD>::from_affine(q[i]);
  out[4 * i] = P + Q;
  out[4 * i + 1] = P.add_mixed(q[i]);
  out[4 * i + 2] = P.dbl();
  out[4 * i + 3] = P.add_mixed(-q[i]);
}

template <class T>
void check_sizes(std::span<const T> a, std::span<const T> b) {
  if (a.size() != b.size()) throw std::invalid_argument("gpu twins: operands differ in length");
}

}  // namespace

template <class F>
std::vector<F> field_ops(std::span<const F> a, std::span<const F> b) {
  check_sizes(a, b);
  using FD = typename DeviceFieldOf<F>::type;
  static_assert(sizeof(FD) == sizeof(F));
  const size_t n = a.size();
  std::vector<F> out(4 * n);
  if (n == 0) return out;
  Stream s;
  DeviceBuffer<F> d_a(n), d_b(n), d_out(4 * n);
  d_a.upload(a, s.get());
  d_b.upload(b, s.get());
  field_ops_kernel<FD><<<(n + 127) / 128, 128, 0, s.get()>>>(reinterpret_cast<const FD*>(d_a.get()),
                                                             reinterpret_cast<const FD*>(d_b.get()),
                                                             n, reinterpret_cast<FD*>(d_out.get()));
  CUZK_CUDA_CHECK_LAUNCH();
  d_out.download(out, s.get());
  s.sync();
  return out;
}

template <class F>
std::vector<F> field_ops_f64(std::span<const F> a, std::span<const F> b) {
  check_sizes(a, b);
  static_assert(sizeof(Mont32<F>) == sizeof(F));
  const size_t n = a.size();
  std::vector<F> out(5 * n);
  if (n == 0) return out;
  Stream s;
  DeviceBuffer<F> d_a(n), d_b(n), d_out(5 * n);
  d_a.upload(a, s.get());
  d_b.upload(b, s.get());
  field_ops_f64_kernel<F><<<(n + 127) / 128, 128, 0, s.get()>>>(
      reinterpret_cast<const Mont32<F>*>(d_a.get()), reinterpret_cast<const Mont32<F>*>(d_b.get()),
      n, reinterpret_cast<Mont32<F>*>(d_out.get()));
  CUZK_CUDA_CHECK_LAUNCH();
  d_out.download(out, s.get());
  s.sync();
  return out;
}

template <class Curve>
std::vector<Xyzz<Curve>> point_ops(std::span<const Affine<Curve>> p,
                                   std::span<const Affine<Curve>> q) {
  check_sizes(p, q);
  using CurveD = typename DeviceCurveOf<Curve>::type;
  const size_t n = p.size();
  std::vector<Xyzz<Curve>> out(4 * n);
  if (n == 0) return out;
  Stream s;
  DeviceBuffer<Affine<Curve>> d_p(n), d_q(n);
  DeviceBuffer<Xyzz<Curve>> d_out(4 * n);
  d_p.upload(p, s.get());
  d_q.upload(q, s.get());
  point_ops_kernel<CurveD>
      <<<(n + 63) / 64, 64, 0, s.get()>>>(reinterpret_cast<const Affine<CurveD>*>(d_p.get()),
                                          reinterpret_cast<const Affine<CurveD>*>(d_q.get()), n,
                                          reinterpret_cast<Xyzz<CurveD>*>(d_out.get()));
  CUZK_CUDA_CHECK_LAUNCH();
  d_out.download(out, s.get());
  s.sync();
  return out;
}

template std::vector<Fr> field_ops<Fr>(std::span<const Fr>, std::span<const Fr>);
template std::vector<Fp> field_ops<Fp>(std::span<const Fp>, std::span<const Fp>);
template std::vector<Fp2> field_ops<Fp2>(std::span<const Fp2>, std::span<const Fp2>);
template std::vector<Fr> field_ops_f64<Fr>(std::span<const Fr>, std::span<const Fr>);
template std::vector<Fp> field_ops_f64<Fp>(std::span<const Fp>, std::span<const Fp>);
template std::vector<Xyzz<G1Curve>> point_ops<G1Curve>(std::span<const Affine<G1Curve>>,
                                                       std::span<const Affine<G1Curve>>);
template std::vector<Xyzz<G2Curve>> point_ops<G2Curve>(std::span<const Affine<G2Curve>>,
                                                       std::span<const Affine<G2Curve>>);

}  // namespace cuzk::gpu::twins
