// The constants neptune's Poseidon *circuit* consumes (neptune 11 `PoseidonConstants`:
// `compressed_round_constants`, `pre_sparse_matrix`, `sparse_matrixes`), derived from the plain
// parameters of filecoin/poseidon_constants.hpp exactly as neptune's src/preprocessing.rs
// (`compress_round_constants` with every partial round preprocessed) and src/mds.rs
// (`factor_to_sparse_matrixes`) derive them.
//
// They fix the R1CS coefficients of the circuit, hence Filecoin's Groth16 parameters: the native
// optimized permutation (filecoin/poseidon.cpp) uses an equivalent but different factoring, which
// would hash identically and still produce different constraints. So these are not re-derived
// from that one but follow neptune's own recipe step by step:
//
//   * Matrices are applied as neptune's `apply_matrix(m, v)`: out[j] = sum_i m[i][j] * v[i]
//     (row vector times matrix), which only matters for the non-symmetric factors.
//   * compressed constants, in consumption order: rc(0); then M^-1 rc(r + 1) for r < R_F/2 - 1;
//     then M^-1 acc, where acc folds the partial rounds' constants backwards from round
//     R_F/2 + R_P (at each step v = M^-1 acc, v[0] is that partial round's single constant and
//     v[0] := 0, acc = rc(previous) + v); then the R_P partial constants in forward order; then
//     M^-1 rc(R_F/2 + R_P + r) for r = 1 .. R_F/2 - 1. Total t * R_F + R_P.
//   * sparse factoring: with cur = M, repeat R_P times: record M''(cur) and set
//     cur = M * M'(cur), where M'(cur) = diag(1, cur_hat) and M''(cur) has first row
//     [cur00, cur[0][1..]], first column [cur00, w_hat] with w_hat = apply(cur_hat^-1, cur[1..][0])
//     and the identity below/right; the final cur is the pre-sparse matrix and the recorded M''
//     are used in reverse order.
#pragma once

#include <cstddef>
#include <vector>

#include "ff/fr.hpp"
#include "filecoin/hash/poseidon_constants.hpp"

namespace cuzk::circuits {

// neptune `SparseMatrix`: the first column (w_hat, t entries, w_hat[0] = M''[0][0]) and the rest
// of the first row (v_rest, t - 1 entries); the remaining block is the identity.
struct PoseidonSparseMatrix {
  std::vector<Fr> w_hat;
  std::vector<Fr> v_rest;
};

class PoseidonCircuitConstants {
 public:
  explicit PoseidonCircuitConstants(const filecoin::PoseidonConstants& base);

  // Built on first use from filecoin::PoseidonConstants::standard(arity), kept until exit.
  static const PoseidonCircuitConstants& standard(size_t arity);

  const filecoin::PoseidonConstants& base() const { return base_; }
  size_t arity() const { return base_.arity(); }
  size_t width() const { return base_.width(); }
  size_t full_rounds() const { return base_.full_rounds(); }
  size_t half_full_rounds() const { return base_.full_rounds() / 2; }
  size_t partial_rounds() const { return base_.partial_rounds(); }

  const std::vector<Fr>& compressed_round_constants() const { return compressed_; }
  // Row-major t x t.
  const Fr& mds(size_t row, size_t col) const { return base_.mds(row, col); }
  const Fr& pre_sparse(size_t row, size_t col) const { return pre_sparse_[row * width() + col]; }
  // In application order: partial round i uses sparse(i).
  const PoseidonSparseMatrix& sparse(size_t partial_round) const {
    return sparse_.at(partial_round);
  }

 private:
  const filecoin::PoseidonConstants& base_;
  std::vector<Fr> compressed_;
  std::vector<Fr> pre_sparse_;
  std::vector<PoseidonSparseMatrix> sparse_;
};

}  // namespace cuzk::circuits
