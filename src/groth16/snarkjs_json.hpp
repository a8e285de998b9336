// snarkjs JSON for BLS12-381 Groth16: verification_key.json, proof.json, public.json.
// Numbers are canonical decimal strings; G1 = ["x", "y", "1"], G2 = [[x.c0, x.c1], [y.c0, y.c1],
// ["1", "0"]] (real part first), infinity ["0", "1", "0"]. Readers check every point (curve and
// subgroup) and reject non-canonical numbers, naming the file and the field.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "groth16/types.hpp"

namespace cuzk::groth16 {

// The most public inputs a JSON key or public.json may have (Filecoin's largest circuit,
// WindowPoSt at 32 GiB, has about 26,000); larger files are refused before any point is decoded.
inline constexpr size_t kMaxJsonPublicInputs = size_t{1} << 16;

std::string write_proof_json(const Proof& proof);
std::string write_verifying_key_json(const VerifyingKey& vk);  // includes vk_alphabeta_12
std::string write_public_json(std::span<const Fr> inputs);

// `name` labels errors (a file name). Only alpha_g1, beta_g2, gamma_g2, delta_g2 and ic are
// present in snarkjs keys; beta_g1 and delta_g1 come back as the identity.
Proof parse_proof_json(std::string_view text, const std::string& name);
VerifyingKey parse_verifying_key_json(std::string_view text, const std::string& name);
std::vector<Fr> parse_public_json(std::string_view text, const std::string& name);

}  // namespace cuzk::groth16
