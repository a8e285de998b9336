// Groth16 keys and proofs over BLS12-381 (the shapes bellperson uses).
#pragma once

#include <memory>
#include <vector>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ec/pairing.hpp"

namespace cuzk::groth16 {

class PointSource;

struct VerifyingKey {
  G1Affine alpha_g1;
  G1Affine beta_g1;
  G2Affine beta_g2;
  G2Affine gamma_g2;
  G1Affine delta_g1;
  G2Affine delta_g2;
  // One point per public input, ONE first: (beta u_i(tau) + alpha v_i(tau) + w_i(tau)) / gamma.
  std::vector<G1Affine> ic;

  bool operator==(const VerifyingKey&) const = default;
};

// The proving key. a, b_g1 and b_g2 hold points only for variables that occur in the A (resp. B)
// query: identity points are dropped, and the prover re-associates points to variables through
// its density bitmaps (inputs first, then aux).
//
// `source` null: the five vectors hold the points. Otherwise the vectors are empty and the points
// are read from the source (groth16/point_source.hpp: section_counts, has_host_points), as a
// device is filled from a .params file without a host copy; what reads the vectors refuses such a
// set. Equal sets with sources compare equal only when they share the source.
struct Parameters {
  VerifyingKey vk;
  std::vector<G1Affine> h;     // tau^i t(tau) / delta, i < domain size - 1
  std::vector<G1Affine> l;     // (beta u_i + alpha v_i + w_i) / delta for every aux variable
  std::vector<G1Affine> a;     // u_i(tau)
  std::vector<G1Affine> b_g1;  // v_i(tau)
  std::vector<G2Affine> b_g2;  // v_i(tau)
  std::shared_ptr<const PointSource> source;

  bool operator==(const Parameters&) const = default;
};

// What verification needs, computed once per key.
struct PreparedVerifyingKey {
  Gt alpha_g1_beta_g2;
  G2Affine neg_gamma_g2;
  G2Affine neg_delta_g2;
  std::vector<G1Affine> ic;
};

struct Proof {
  G1Affine a;
  G2Affine b;
  G1Affine c;

  bool operator==(const Proof&) const = default;
};

}  // namespace cuzk::groth16
