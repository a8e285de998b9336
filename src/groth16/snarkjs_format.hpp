// snarkjs / iden3 binary files for BLS12-381 Groth16 (layouts: shared/fixtures/circom-bls12381/
// README.md): .r1cs v1 and .wtns v2 (normal form), .zkey v1 (Fq in 48-byte LE Montgomery form,
// coefficients stored times R^2). Errors name the file and byte offset.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "cs/r1cs.hpp"
#include "ec/encoding.hpp"
#include "groth16/types.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

// A circom constraint system. Wire 0 is ONE, wires 1..n_public are public (outputs, then
// inputs), the rest private. As an R1cs: inputs = wires 0..n_public, aux = the rest in order.
struct SnarkjsR1cs {
  uint32_t n_wires = 0;
  uint32_t n_pub_out = 0, n_pub_in = 0, n_prv_in = 0;
  uint64_t n_labels = 0;
  uint32_t n_constraints = 0;
  R1cs r1cs;  // without input rows; see with_input_rows()

  uint32_t n_public() const { return n_pub_out + n_pub_in; }
  // The system plus one input_i * 0 = 0 row per input (the Groth16 convention of bellperson).
  R1cs with_input_rows() const;
};

struct ZkeyCoefficient {
  uint32_t matrix;  // 0 = A, 1 = B
  uint32_t row;
  uint32_t signal;
  Fr value;  // the coefficient (decoded from its coef * R^2 storage)
};

// A Groth16 proving key as snarkjs stores it. Points of wires that never occur are identities.
struct Zkey {
  uint32_t n_vars = 0;
  uint32_t n_public = 0;
  uint32_t domain_size = 0;
  G1Affine alpha_g1, beta_g1, delta_g1;
  G2Affine beta_g2, gamma_g2, delta_g2;
  std::vector<G1Affine> ic;  // n_public + 1
  std::vector<ZkeyCoefficient> coefficients;
  std::vector<G1Affine> a, b1;  // n_vars each
  std::vector<G2Affine> b2;     // n_vars
  std::vector<G1Affine> c;      // n_vars - n_public - 1 (private wires)
  std::vector<G1Affine> h;  // domain_size: Lagrange basis of the 2n domain at odd points / delta

  VerifyingKey verifying_key() const;
};

SnarkjsR1cs parse_r1cs(std::span<const uint8_t> bytes, const std::string& name);
std::vector<Fr> parse_wtns(std::span<const uint8_t> bytes, const std::string& name);
// Every count of the header is checked against its section's size before anything is allocated.
// Verifying-key points are fully checked; `bulk_check` applies to the large point sections
// (A, B1, B2, C, H), decoded and checked in parallel over `pool` when one is given.
Zkey parse_zkey(std::span<const uint8_t> bytes, const std::string& name, SubgroupCheck bulk_check,
                ThreadPool* pool = nullptr);

SnarkjsR1cs read_r1cs(const std::filesystem::path& path);
std::vector<Fr> read_wtns(const std::filesystem::path& path);
// Bulk points are subgroup-checked unless the caller vouches for the file (kSkipTrusted).
Zkey read_zkey(const std::filesystem::path& path, SubgroupCheck bulk_check = SubgroupCheck::kCheck,
               ThreadPool* pool = nullptr);

}  // namespace cuzk::groth16
