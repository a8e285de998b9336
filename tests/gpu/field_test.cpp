// Device field and curve arithmetic against the host twins: Mont32's portable path (here, no
// device needed) and the PTX path (in a kernel) must produce the bytes of ff/ and ec/.
#include <gtest/gtest.h>

#include <random>

#include "ec/scalar_mul.hpp"
#include "gpu/arith/fields.cuh"
#include "gpu/arith/mont_f64.cuh"
#include "gpu_kernels/field_twins.hpp"
#include "gpu_test_util.hpp"

namespace cuzk::gpu {
namespace {

using testing::edge_values;
using testing::GpuTest;

template <class F>
std::pair<std::vector<F>, std::vector<F>> operands(std::mt19937_64& rng, size_t randoms) {
  const std::vector<F> edges = edge_values<F>();
  std::vector<F> a, b;
  for (const F& x : edges) {
    for (const F& y : edges) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  for (size_t i = 0; i < randoms; ++i) {
    a.push_back(F::random(rng));
    b.push_back(i % 3 == 0 ? edges[i % edges.size()] : F::random(rng));
  }
  return {a, b};
}

template <class F, class D>
void expect_host_twin_matches(std::mt19937_64& rng) {
  const auto [a, b] = operands<F>(rng, 2000);
  for (size_t i = 0; i < a.size(); ++i) {
    const D x = D::from_host(a[i]), y = D::from_host(b[i]);
    ASSERT_EQ((x + y).to_host(), a[i] + b[i]) << i;
    ASSERT_EQ((x - y).to_host(), a[i] - b[i]) << i;
    ASSERT_EQ((x * y).to_host(), a[i] * b[i]) << i;
    ASSERT_EQ(x.sqr().to_host(), a[i].sqr()) << i;
    ASSERT_EQ((-x).to_host(), -a[i]) << i;
  }
  EXPECT_EQ(D::one().to_host(), F::one());
}

TEST(Mont32, PortablePathMatchesHostFrAndFp) {
  std::mt19937_64 rng(1);
  expect_host_twin_matches<Fr, FrD>(rng);
  expect_host_twin_matches<Fp, FpD>(rng);
}

template <class F>
void expect_device_matches(std::mt19937_64& rng) {
  const auto [a, b] = operands<F>(rng, 5000);
  const std::vector<F> out = twins::field_ops<F>(a, b);
  ASSERT_EQ(out.size(), 4 * a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(out[4 * i], a[i] + b[i]) << "add " << i;
    ASSERT_EQ(out[4 * i + 1], a[i] - b[i]) << "sub " << i;
    ASSERT_EQ(out[4 * i + 2], a[i] * b[i]) << "mul " << i;
    ASSERT_EQ(out[4 * i + 3], a[i].sqr()) << "sqr " << i;
  }
}

using DeviceField = GpuTest;

TEST_F(DeviceField, FrOpsMatchHostOnEdgesAndRandoms) {
  std::mt19937_64 rng(2);
  expect_device_matches<Fr>(rng);
}

TEST_F(DeviceField, FpOpsMatchHostOnEdgesAndRandoms) {
  std::mt19937_64 rng(3);
  expect_device_matches<Fp>(rng);
}

// MontF64 on the device against the host: the operands above plus values at MontF64's own
// 51-bit limb boundaries (2^(51 t) and 2^(51 t) - 1 as its raw limbs).
template <class F>
void expect_device_f64_matches(std::mt19937_64& rng) {
  auto [a, b] = operands<F>(rng, 5000);
  using D = MontF64<F>;
  std::vector<F> limb_edges;
  for (int t = 0; t < D::K; ++t) {
    D x = D::zero();  // 2^(51 t)
    x.l[t] = 1;
    limb_edges.push_back(x.to_host());
    D y = D::zero();  // 2^(51 t) - 1
    for (int s = 0; s < t; ++s)
      y.l[s] = f64_detail::kMask;
    limb_edges.push_back(y.to_host());
  }
  for (const F& x : limb_edges) {
    for (const F& y : limb_edges) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  const std::vector<F> out = twins::field_ops_f64<F>(a, b);
  ASSERT_EQ(out.size(), 5 * a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(out[5 * i], a[i] + b[i]) << "add " << i;
    ASSERT_EQ(out[5 * i + 1], a[i] - b[i]) << "sub " << i;
    ASSERT_EQ(out[5 * i + 2], a[i] * b[i]) << "mul " << i;
    ASSERT_EQ(out[5 * i + 3], a[i].sqr()) << "sqr " << i;
    ASSERT_EQ(out[5 * i + 4], a[i] * b[i]) << "mul_karatsuba " << i;
  }
}

TEST_F(DeviceField, FrF64OpsMatchHostOnEdgesAndRandoms) {
  std::mt19937_64 rng(7);
  expect_device_f64_matches<Fr>(rng);
}

TEST_F(DeviceField, FpF64OpsMatchHostOnEdgesAndRandoms) {
  std::mt19937_64 rng(8);
  expect_device_f64_matches<Fp>(rng);
}

TEST_F(DeviceField, Fp2OpsMatchHost) {
  std::mt19937_64 rng(4);
  const std::vector<Fp> e = edge_values<Fp>();
  std::vector<Fp2> a, b;
  for (size_t i = 0; i < e.size(); ++i) {
    a.push_back({e[i], e[(i + 1) % e.size()]});
    b.push_back({e[(i + 3) % e.size()], e[i]});
  }
  for (int i = 0; i < 2000; ++i) {
    a.push_back(Fp2::random(rng));
    b.push_back(Fp2::random(rng));
  }
  const std::vector<Fp2> out = twins::field_ops<Fp2>(a, b);
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(out[4 * i], a[i] + b[i]) << i;
    ASSERT_EQ(out[4 * i + 1], a[i] - b[i]) << i;
    ASSERT_EQ(out[4 * i + 2], a[i] * b[i]) << i;
    ASSERT_EQ(out[4 * i + 3], a[i].sqr()) << i;
  }
}

// P + Q, P + Q mixed, 2P, P - Q for random pairs, equal pairs (the doubling branch), opposite
// pairs (identity), and identities on either side.
template <class Curve>
void expect_points_match(std::mt19937_64& rng) {
  using J = Jacobian<Curve>;
  using A = Affine<Curve>;
  std::vector<A> p, q;
  const J g = J::generator();
  for (int i = 0; i < 64; ++i) {
    BigInt<4> k1, k2;
    for (auto& w : k1.w)
      w = rng();
    for (auto& w : k2.w)
      w = rng();
    k1.w[3] >>= 2;
    k2.w[3] >>= 2;
    const A a = scalar_mul_wnaf(g, k1).to_affine();
    const A b = scalar_mul_wnaf(g, k2).to_affine();
    p.push_back(a);
    switch (i % 6) {
      case 0:
        q.push_back(a);  // P + P
        break;
      case 1:
        q.push_back(-a);  // P - P
        break;
      case 2:
        q.push_back(A::identity());
        break;
      case 3:
        p.back() = A::identity();
        q.push_back(b);
        break;
      default:
        q.push_back(b);
    }
  }
  const std::vector<Xyzz<Curve>> out = twins::point_ops<Curve>(p, q);
  for (size_t i = 0; i < p.size(); ++i) {
    const J P = J::from_affine(p[i]), Q = J::from_affine(q[i]);
    ASSERT_EQ(out[4 * i].to_jacobian().to_affine(), (P + Q).to_affine()) << i;
    ASSERT_EQ(out[4 * i + 1].to_jacobian().to_affine(), (P + Q).to_affine()) << i;
    ASSERT_EQ(out[4 * i + 2].to_jacobian().to_affine(), P.dbl().to_affine()) << i;
    ASSERT_EQ(out[4 * i + 3].to_jacobian().to_affine(), (P - Q).to_affine()) << i;
  }
}

using DeviceCurve = GpuTest;

TEST_F(DeviceCurve, G1XyzzFormulasMatchHost) {
  std::mt19937_64 rng(5);
  expect_points_match<G1Curve>(rng);
}

TEST_F(DeviceCurve, G2XyzzFormulasMatchHost) {
  std::mt19937_64 rng(6);
  expect_points_match<G2Curve>(rng);
}

}  // namespace
}  // namespace cuzk::gpu
