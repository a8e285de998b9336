#include "filecoin/hash/poseidon_constants.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

// ---- round numbers (round_numbers.rs) ----

constexpr float kPrimeBits = 256.0f;  // n: 255-bit Fr rounded up to whole bytes, as upstream
constexpr float kSecurityBits = 128.0f;

// Rust's `f32 as usize` saturates (negative and NaN give 0); a C++ cast would be undefined.
size_t ceil_to_size(float x) {
  const float c = std::ceil(x);
  if (!(c > 0.0f)) return 0;
  return static_cast<size_t>(c);
}

bool round_numbers_are_secure(size_t t_in, size_t rf, size_t rp_in) {
  const float rp = static_cast<float>(rp_in);
  const float t = static_cast<float>(t_in);
  const float n = kPrimeBits, m = kSecurityBits;
  const float rf_stat = m <= (n - 3.0f) * (t + 1.0f) ? 6.0f : 10.0f;
  const float rf_interp = 0.43f * m + std::log2(t) - rp;
  const float rf_grob_1 = 0.21f * n - rp;
  const float rf_grob_2 = (0.14f * n - 1.0f - rp) / (t - 1.0f);
  size_t rf_max = 0;
  for (float x : {rf_stat, rf_interp, rf_grob_1, rf_grob_2})
    rf_max = std::max(rf_max, ceil_to_size(x));
  return rf >= rf_max;
}

// ---- Grain LFSR (round_constants.rs) ----

class Grain {
 public:
  // The 80 initial bits, each field written most significant bit first.
  Grain(size_t width, size_t full_rounds, size_t partial_rounds) {
    append(1, 2);     // field: prime field
    append(1, 4);     // S-box: x^alpha
    append(255, 12);  // field size in bits
    append(width, 12);
    append(full_rounds, 10);
    append(partial_rounds, 10);
    append((uint64_t{1} << 30) - 1, 30);
    for (int i = 0; i < 160; ++i)
      step();
  }

  // Self-shrinking output: pairs (x, y) of LFSR bits; emit y when x = 1, else drop the pair.
  bool next() {
    for (;;) {
      const bool x = step();
      const bool y = step();
      if (x) return y;
    }
  }

 private:
  // Bit k of state_ holds b_{i+k}; b_{i+80} = b_{i+62} ^ b_{i+51} ^ b_{i+38} ^ b_{i+23} ^
  // b_{i+13} ^ b_i.
  bool step() {
    const unsigned __int128 s = state_;
    const bool b = ((s >> 62) ^ (s >> 51) ^ (s >> 38) ^ (s >> 23) ^ (s >> 13) ^ s) & 1;
    state_ = (s >> 1) | (static_cast<unsigned __int128>(b) << 79);
    return b;
  }
  void append(uint64_t value, unsigned bits) {
    for (unsigned i = bits; i-- > 0;) {
      if ((value >> i) & 1) state_ |= static_cast<unsigned __int128>(1) << filled_;
      ++filled_;
    }
  }

  unsigned __int128 state_ = 0;
  unsigned filled_ = 0;
};

// ---- small dense matrices over Fr (row-major, n x n) ----

using Matrix = std::vector<Fr>;

Matrix identity(size_t n) {
  Matrix m(n * n);
  for (size_t i = 0; i < n; ++i)
    m[i * n + i] = Fr::one();
  return m;
}

Matrix mat_mul(const Matrix& a, const Matrix& b, size_t n) {
  Matrix c(n * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < n; ++k) {
      const Fr aik = a[i * n + k];
      for (size_t j = 0; j < n; ++j)
        c[i * n + j] += aik * b[k * n + j];
    }
  return c;
}

std::vector<Fr> mat_vec(const Matrix& a, const std::vector<Fr>& v, size_t n) {
  std::vector<Fr> r(n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      r[i] += a[i * n + j] * v[j];
  return r;
}

// Gauss-Jordan; the Cauchy minor is always invertible, so a missing pivot is a logic error.
Matrix invert(Matrix a, size_t n) {
  Matrix inv = identity(n);
  for (size_t col = 0; col < n; ++col) {
    size_t piv = col;
    while (piv < n && a[piv * n + col].is_zero())
      ++piv;
    if (piv == n) throw std::logic_error("Poseidon: MDS minor is singular");
    if (piv != col) {
      for (size_t j = 0; j < n; ++j) {
        std::swap(a[piv * n + j], a[col * n + j]);
        std::swap(inv[piv * n + j], inv[col * n + j]);
      }
    }
    const Fr s = a[col * n + col].inv();
    for (size_t j = 0; j < n; ++j) {
      a[col * n + j] *= s;
      inv[col * n + j] *= s;
    }
    for (size_t r = 0; r < n; ++r) {
      if (r == col || a[r * n + col].is_zero()) continue;
      const Fr f = a[r * n + col];
      for (size_t j = 0; j < n; ++j) {
        a[r * n + j] -= f * a[col * n + j];
        inv[r * n + j] -= f * inv[col * n + j];
      }
    }
  }
  return inv;
}

Matrix mat_pow(Matrix base, size_t e, size_t n) {
  Matrix r = identity(n);
  while (e != 0) {
    if (e & 1) r = mat_mul(r, base, n);
    e >>= 1;
    if (e != 0) base = mat_mul(base, base, n);
  }
  return r;
}

}  // namespace

PoseidonRounds poseidon_calc_round_numbers(size_t width, bool security_margin) {
  PoseidonRounds best;
  size_t best_cost = std::numeric_limits<size_t>::max();
  for (size_t rf0 = 2; rf0 <= 1000; rf0 += 2) {
    for (size_t rp0 = 4; rp0 < 200; ++rp0) {
      if (!round_numbers_are_secure(width, rf0, rp0)) continue;
      size_t rf = rf0, rp = rp0;
      if (security_margin) {
        rf += 2;
        rp = ceil_to_size(1.075f * static_cast<float>(rp));
      }
      const size_t cost = width * rf + rp;
      if (cost < best_cost || (cost == best_cost && rf < best.full)) {
        best = {rf, rp};
        best_cost = cost;
      }
    }
  }
  return best;
}

PoseidonRounds poseidon_round_numbers(size_t arity, PoseidonStrength strength) {
  PoseidonRounds r = poseidon_calc_round_numbers(arity + 1, true);
  if (strength == PoseidonStrength::kStrengthened) {
    // round_numbers_strengthened: ceil(R_P * 1.25) in double precision.
    r.partial = static_cast<size_t>(std::ceil(static_cast<double>(r.partial) * 1.25));
  }
  return r;
}

std::vector<Fr> poseidon_grain_round_constants(size_t width, size_t full_rounds,
                                               size_t partial_rounds) {
  Grain grain(width, full_rounds, partial_rounds);
  const size_t count = (full_rounds + partial_rounds) * width;
  std::vector<Fr> out;
  out.reserve(count);
  while (out.size() < count) {
    // 255 output bits, first bit most significant; values >= r are skipped (from_repr fails).
    BigInt<4> v;
    for (int i = 254; i >= 0; --i)
      if (grain.next()) v.w[i / 64] |= uint64_t{1} << (i % 64);
    if (const auto f = Fr::from_canonical(v)) out.push_back(*f);
  }
  return out;
}

std::vector<Fr> poseidon_cauchy_mds(size_t width) {
  std::vector<Fr> m(width * width);
  for (size_t i = 0; i < width; ++i)
    for (size_t j = 0; j < width; ++j)
      m[i * width + j] = Fr::from_u64(i + width + j).inv();  // x_i = i, y_j = t + j
  return m;
}

PoseidonConstants::PoseidonConstants(size_t arity, PoseidonStrength strength)
    : arity_(arity), strength_(strength) {
  if (arity == 0 || arity > kMaxArity) {
    throw std::invalid_argument("PoseidonConstants: arity " + std::to_string(arity) +
                                " is outside 1.." + std::to_string(kMaxArity));
  }
  const size_t t = width();
  rounds_ = poseidon_round_numbers(arity, strength);
  round_constants_ = poseidon_grain_round_constants(t, rounds_.full, rounds_.partial);
  mds_ = poseidon_cauchy_mds(t);
  merkle_tag_ = Fr::from_u64(2).pow(arity) - Fr::one();

  // ---- optimized schedule ----
  const size_t half = rounds_.full / 2, parts = rounds_.partial, n = t - 1;
  auto rc_row = [&](size_t round) {
    return std::vector<Fr>(round_constants_.begin() + static_cast<ptrdiff_t>(round * t),
                           round_constants_.begin() + static_cast<ptrdiff_t>((round + 1) * t));
  };
  opt_.full_constants.reserve(rounds_.full * t);
  for (size_t r = 0; r < rounds_.full; ++r) {
    const std::vector<Fr> row = rc_row(r < half ? r : r + parts);
    opt_.full_constants.insert(opt_.full_constants.end(), row.begin(), row.end());
  }
  // Constant folding: only s[0] of a partial round needs its constant before the S-box; the
  // rest of the round's constants are carried through the linear layer into the next round.
  if (parts > 0) {
    std::vector<Fr> carry = rc_row(half);
    for (size_t i = 0; i < parts; ++i) {
      opt_.partial_constants.push_back(carry[0]);
      carry[0] = Fr::zero();
      const std::vector<Fr> moved = mat_vec(mds_, carry, t);
      carry = rc_row(i + 1 < parts ? half + i + 1 : half + parts);
      for (size_t k = 0; k < t; ++k)
        carry[k] += moved[k];
    }
    std::copy(carry.begin(), carry.end(), opt_.full_constants.begin() + half * t);
  }
  // Sparse factors: with M = [[m00, v^T], [w, Mhat]], the state after partial round i is
  // diag(1, Mhat^(i+1)) * y where y follows y <- [[m00, v_i^T], [w_i, I]] * S0(y + a_i e0),
  // v_i^T = v^T Mhat^i and w_i = Mhat^-(i+1) w; the pending diag(1, Mhat^R_P) is applied once.
  opt_.m00 = mds_[0];
  Matrix mhat(n * n);
  std::vector<Fr> row(n), col(n);
  for (size_t i = 0; i < n; ++i) {
    row[i] = mds_[i + 1];
    col[i] = mds_[(i + 1) * t];
    for (size_t j = 0; j < n; ++j)
      mhat[i * n + j] = mds_[(i + 1) * t + j + 1];
  }
  const Matrix mhat_inv = invert(mhat, n);
  opt_.sparse_row.reserve(parts * n);
  opt_.sparse_col.reserve(parts * n);
  for (size_t i = 0; i < parts; ++i) {
    col = mat_vec(mhat_inv, col, n);
    opt_.sparse_col.insert(opt_.sparse_col.end(), col.begin(), col.end());
    opt_.sparse_row.insert(opt_.sparse_row.end(), row.begin(), row.end());
    std::vector<Fr> next(n);
    for (size_t j = 0; j < n; ++j)
      for (size_t k = 0; k < n; ++k)
        next[k] += row[j] * mhat[j * n + k];
    row = std::move(next);
  }
  opt_.tail_matrix = mat_pow(mhat, parts, n);
}

const PoseidonConstants& PoseidonConstants::standard(size_t arity) {
  if (arity == 0 || arity > kMaxArity) {
    throw std::invalid_argument("PoseidonConstants::standard: arity " + std::to_string(arity) +
                                " is outside 1.." + std::to_string(kMaxArity));
  }
  static std::array<std::once_flag, kMaxArity + 1> once;
  static std::array<std::unique_ptr<const PoseidonConstants>, kMaxArity + 1> slots;
  std::call_once(once[arity],
                 [arity] { slots[arity] = std::make_unique<PoseidonConstants>(arity); });
  return *slots[arity];
}

}  // namespace cuzk::filecoin
