// Poseidon parameters exactly as neptune (argumentcomputer/neptune, used by rust-fil-proofs through
// filecoin-hashers/src/poseidon_types.rs) derives them for BLS12-381 Fr; facts sheet 3.4.
//
//   width t = arity + 1, S-box x^5, R_F = 8 full rounds (4 before and 4 after) and R_P partial
//   rounds from the Poseidon paper's security inequalities (round_numbers.rs);
//   round constants from the Grain LFSR in self-shrinking mode (round_constants.rs);
//   MDS = Cauchy matrix M[i][j] = 1 / (i + (t + j)) (mds.rs `generate_mds`), symmetric.
//
// PoseidonConstants also precomputes the data of the optimized permutation (poseidon.cpp says how
// it is derived). Everything is immutable after construction, so one object can be shared by any
// number of threads. Construction costs milliseconds (arity 36: ~2500 constants), so callers keep
// it: either their own object, or the lazily built process-wide one from standard().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::filecoin {

enum class PoseidonStrength {
  kStandard,      // what Filecoin uses (neptune DEFAULT_STRENGTH)
  kStrengthened,  // R_P * 1.25 rounded up
};

struct PoseidonRounds {
  size_t full = 0;
  size_t partial = 0;
  bool operator==(const PoseidonRounds&) const = default;
};

// round_numbers.rs `calc_round_numbers`: the (R_F, R_P) minimising t * R_F + R_P among the pairs
// meeting the paper's inequalities for 128-bit security with n = 256, evaluated in single
// precision like upstream; with security_margin, R_F += 2 and R_P = ceil(1.075 * R_P).
PoseidonRounds poseidon_calc_round_numbers(size_t width, bool security_margin);
// neptune `round_numbers(arity, strength)`.
PoseidonRounds poseidon_round_numbers(size_t arity,
                                      PoseidonStrength strength = PoseidonStrength::kStandard);

// round_constants.rs `generate_constants(field = 1, sbox = 1, 255, t, R_F, R_P)`:
// (R_F + R_P) * t constants in consumption order.
std::vector<Fr> poseidon_grain_round_constants(size_t width, size_t full_rounds,
                                               size_t partial_rounds);

// Row-major t x t Cauchy MDS matrix.
std::vector<Fr> poseidon_cauchy_mds(size_t width);

class PoseidonConstants {
 public:
  // Throws std::invalid_argument for arity 0 or arity > kMaxArity.
  explicit PoseidonConstants(size_t arity, PoseidonStrength strength = PoseidonStrength::kStandard);

  static constexpr size_t kMaxArity = 64;

  // A process-wide immutable instance with standard strength, built on first use under
  // std::call_once (one slot per arity) and kept until exit.
  static const PoseidonConstants& standard(size_t arity);

  size_t arity() const { return arity_; }
  size_t width() const { return arity_ + 1; }
  PoseidonStrength strength() const { return strength_; }
  size_t full_rounds() const { return rounds_.full; }
  size_t partial_rounds() const { return rounds_.partial; }
  std::span<const Fr> round_constants() const { return round_constants_; }
  const Fr& mds(size_t row, size_t col) const { return mds_[row * width() + col]; }
  // The MerkleTree domain tag 2^arity - 1 (neptune `Arity::tag`).
  const Fr& merkle_tag() const { return merkle_tag_; }

  // Data of the optimized permutation (see poseidon.cpp for the derivation).
  struct Optimized {
    std::vector<Fr> full_constants;     // R_F rows of t; row R_F/2 absorbs the folded constants
    std::vector<Fr> partial_constants;  // R_P scalars added to s[0]
    Fr m00;                             // M[0][0]
    std::vector<Fr> sparse_row;         // R_P rows of t-1: first row of the sparse factor
    std::vector<Fr> sparse_col;         // R_P rows of t-1: first column of the sparse factor
    std::vector<Fr> tail_matrix;        // (t-1)^2: Mhat^R_P applied to s[1..] after the partials
  };
  const Optimized& optimized() const { return opt_; }

 private:
  size_t arity_;
  PoseidonStrength strength_;
  PoseidonRounds rounds_;
  std::vector<Fr> round_constants_;
  std::vector<Fr> mds_;
  Fr merkle_tag_;
  Optimized opt_;
};

}  // namespace cuzk::filecoin
