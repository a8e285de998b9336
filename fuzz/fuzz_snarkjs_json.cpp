// snarkjs JSON (verification_key.json, proof.json, public.json): accepted keys and proofs print
// back to JSON that reads to the same value.
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "groth16/snarkjs_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const groth16::VerifyingKey vk = groth16::parse_verifying_key_json(text, "vk.json");
    fuzz::require(
        groth16::parse_verifying_key_json(groth16::write_verifying_key_json(vk), "again") == vk,
        "verifying key JSON round trip");
  } catch (const std::runtime_error& e) {
    fuzz::require_utf8_message(e.what());
  }
  try {
    const groth16::Proof p = groth16::parse_proof_json(text, "proof.json");
    fuzz::require(groth16::parse_proof_json(groth16::write_proof_json(p), "again") == p,
                  "proof JSON round trip");
  } catch (const std::runtime_error& e) {
    fuzz::require_utf8_message(e.what());
  }
  try {
    const std::vector<Fr> v = groth16::parse_public_json(text, "public.json");
    fuzz::require(groth16::parse_public_json(groth16::write_public_json(v), "again") == v,
                  "public JSON round trip");
  } catch (const std::runtime_error& e) {
    fuzz::require_utf8_message(e.what());
  }
  return 0;
}
