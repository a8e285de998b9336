#include "circuits/poseidon_circuit_constants.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace cuzk::circuits {

namespace {

// Square matrices over Fr, row-major n x n.
struct Matrix {
  size_t n = 0;
  std::vector<Fr> m;

  explicit Matrix(size_t size) : n(size), m(size * size) {}
  Fr& at(size_t i, size_t j) { return m[i * n + j]; }
  const Fr& at(size_t i, size_t j) const { return m[i * n + j]; }
};

Matrix identity(size_t n) {
  Matrix r(n);
  for (size_t i = 0; i < n; ++i)
    r.at(i, i) = Fr::one();
  return r;
}

Matrix mat_mul(const Matrix& a, const Matrix& b) {
  Matrix c(a.n);
  for (size_t i = 0; i < a.n; ++i)
    for (size_t k = 0; k < a.n; ++k) {
      const Fr aik = a.at(i, k);
      for (size_t j = 0; j < a.n; ++j)
        c.at(i, j) += aik * b.at(k, j);
    }
  return c;
}

// neptune matrix.rs `apply_matrix`: out[j] = sum_i m[i][j] * v[i].
std::vector<Fr> apply_matrix(const Matrix& m, const std::vector<Fr>& v) {
  std::vector<Fr> out(m.n);
  for (size_t j = 0; j < m.n; ++j)
    for (size_t i = 0; i < m.n; ++i)
      out[j] += m.at(i, j) * v[i];
  return out;
}

// The inverse is unique, so any elimination order gives neptune's matrix.
Matrix invert(Matrix a) {
  const size_t n = a.n;
  Matrix inv = identity(n);
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    while (pivot < n && a.at(pivot, col).is_zero())
      ++pivot;
    if (pivot == n) throw std::logic_error("Poseidon circuit constants: singular matrix");
    if (pivot != col) {
      for (size_t j = 0; j < n; ++j) {
        std::swap(a.at(pivot, j), a.at(col, j));
        std::swap(inv.at(pivot, j), inv.at(col, j));
      }
    }
    const Fr scale = a.at(col, col).inv();
    for (size_t j = 0; j < n; ++j) {
      a.at(col, j) *= scale;
      inv.at(col, j) *= scale;
    }
    for (size_t i = 0; i < n; ++i) {
      if (i == col || a.at(i, col).is_zero()) continue;
      const Fr f = a.at(i, col);
      for (size_t j = 0; j < n; ++j) {
        a.at(i, j) -= f * a.at(col, j);
        inv.at(i, j) -= f * inv.at(col, j);
      }
    }
  }
  return inv;
}

// mds.rs `minor(m, 0, 0)`.
Matrix minor00(const Matrix& m) {
  Matrix r(m.n - 1);
  for (size_t i = 1; i < m.n; ++i)
    for (size_t j = 1; j < m.n; ++j)
      r.at(i - 1, j - 1) = m.at(i, j);
  return r;
}

// mds.rs `make_prime`: diag(1, m_hat).
Matrix make_prime(const Matrix& m) {
  Matrix r(m.n);
  r.at(0, 0) = Fr::one();
  for (size_t i = 1; i < m.n; ++i)
    for (size_t j = 1; j < m.n; ++j)
      r.at(i, j) = m.at(i, j);
  return r;
}

// mds.rs `make_double_prime`: first row of m, first column [m00, w_hat] with
// w_hat = apply_matrix(m_hat^-1, w), w = m[1..][0]; identity elsewhere.
Matrix make_double_prime(const Matrix& m) {
  const Matrix m_hat_inv = invert(minor00(m));
  std::vector<Fr> w(m.n - 1);
  for (size_t i = 1; i < m.n; ++i)
    w[i - 1] = m.at(i, 0);
  const std::vector<Fr> w_hat = apply_matrix(m_hat_inv, w);
  Matrix r(m.n);
  for (size_t j = 0; j < m.n; ++j)
    r.at(0, j) = m.at(0, j);
  for (size_t i = 1; i < m.n; ++i) {
    r.at(i, 0) = w_hat[i - 1];
    r.at(i, i) = Fr::one();
  }
  return r;
}

}  // namespace

PoseidonCircuitConstants::PoseidonCircuitConstants(const filecoin::PoseidonConstants& base)
    : base_(base) {
  const size_t t = base.width(), half = base.full_rounds() / 2, rp = base.partial_rounds();
  if (half == 0 || rp == 0) {
    throw std::invalid_argument("Poseidon circuit constants: need full and partial rounds");
  }
  Matrix mds(t);
  for (size_t i = 0; i < t; ++i)
    for (size_t j = 0; j < t; ++j)
      mds.at(i, j) = base.mds(i, j);
  const Matrix mds_inv = invert(mds);

  const std::span<const Fr> rc = base.round_constants();
  const auto round_keys = [&](size_t r) {
    return std::vector<Fr>(rc.begin() + static_cast<ptrdiff_t>(r * t),
                           rc.begin() + static_cast<ptrdiff_t>((r + 1) * t));
  };
  const auto append = [&](const std::vector<Fr>& v) {
    compressed_.insert(compressed_.end(), v.begin(), v.end());
  };

  // preprocessing.rs `compress_round_constants(.., partial_preprocessed = R_P)`.
  append(round_keys(0));
  for (size_t r = 0; r + 1 < half; ++r)
    append(apply_matrix(mds_inv, round_keys(r + 1)));
  const size_t final_round = half + rp;
  std::vector<Fr> acc = round_keys(final_round);
  std::vector<Fr> partial_keys;  // in reverse round order
  for (size_t i = 0; i < rp; ++i) {
    std::vector<Fr> inverted = apply_matrix(mds_inv, acc);
    partial_keys.push_back(inverted[0]);
    inverted[0] = Fr::zero();
    const std::vector<Fr> previous = round_keys(final_round - i - 1);
    for (size_t k = 0; k < t; ++k)
      inverted[k] += previous[k];
    acc = std::move(inverted);
  }
  append(apply_matrix(mds_inv, acc));
  compressed_.insert(compressed_.end(), partial_keys.rbegin(), partial_keys.rend());
  for (size_t r = 1; r < half; ++r)
    append(apply_matrix(mds_inv, round_keys(final_round + r)));
  if (compressed_.size() != t * base.full_rounds() + rp) {
    throw std::logic_error("Poseidon circuit constants: wrong compressed constant count");
  }

  // mds.rs `factor_to_sparse_matrices(M, R_P)`.
  Matrix cur = mds;
  std::vector<Matrix> double_primes;
  for (size_t i = 0; i < rp; ++i) {
    double_primes.push_back(make_double_prime(cur));
    cur = mat_mul(mds, make_prime(cur));
  }
  pre_sparse_ = std::move(cur.m);
  for (size_t i = rp; i-- > 0;) {
    const Matrix& m = double_primes[i];
    PoseidonSparseMatrix s;
    for (size_t r = 0; r < t; ++r)
      s.w_hat.push_back(m.at(r, 0));
    for (size_t c = 1; c < t; ++c)
      s.v_rest.push_back(m.at(0, c));
    sparse_.push_back(std::move(s));
  }
}

const PoseidonCircuitConstants& PoseidonCircuitConstants::standard(size_t arity) {
  constexpr size_t kSlots = filecoin::PoseidonConstants::kMaxArity + 1;
  static std::array<std::once_flag, kSlots> once;
  static std::array<std::unique_ptr<PoseidonCircuitConstants>, kSlots> slots;
  if (arity == 0 || arity >= kSlots) {
    throw std::invalid_argument("PoseidonCircuitConstants::standard: arity " +
                                std::to_string(arity));
  }
  std::call_once(once[arity], [&] {
    slots[arity] =
        std::make_unique<PoseidonCircuitConstants>(filecoin::PoseidonConstants::standard(arity));
  });
  return *slots[arity];
}

}  // namespace cuzk::circuits
