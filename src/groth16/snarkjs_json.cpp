#include "groth16/snarkjs_json.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "util/bounded_json.hpp"
#include "util/utf8.hpp"

namespace cuzk::groth16 {
namespace {

using json = nlohmann::json;

// A key's IC entry is two ~115-digit numbers and "1": a few hundred bytes even pretty-printed.
constexpr size_t kMaxJsonBytes = (kMaxJsonPublicInputs + 16) * 512;

std::string too_large(size_t bytes) {
  return std::to_string(bytes) + " bytes, more than a key or proof with " +
         std::to_string(kMaxJsonPublicInputs) + " public inputs can take (" +
         std::to_string(kMaxJsonBytes) + ")";
}

// "field[i]"
std::string sub(const std::string& field, size_t i) {
  std::string s = field;
  s += '[';
  s += std::to_string(i);
  s += ']';
  return s;
}

class JsonReader {
 public:
  explicit JsonReader(const std::string& name) : name_(name) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw std::runtime_error(name_ + ": " + field + ": " + what);
  }
  // The deepest snarkjs value (vk_alphabeta_12) is 5 levels down.
  json parse(std::string_view text) const {
    try {
      return parse_json_bounded(text, 8);
    } catch (const JsonLimitError& e) {
      throw std::runtime_error(name_ + ": " + e.what());
    }
  }
  const json& at(const json& j, const char* key, const std::string& field) const {
    if (!j.is_object() || !j.contains(key)) fail(field, std::string("missing \"") + key + "\"");
    return j.at(key);
  }
  template <class F>
  F number(const json& j, const std::string& field) const {
    if (!j.is_string()) fail(field, "expected a decimal string");
    const std::string s = j.get<std::string>();
    if (s.size() > 1 && s[0] == '0') fail(field, "leading zero in \"" + quote_bytes(s) + "\"");
    const auto v = from_decimal<F::kLimbs>(s);
    if (!v) fail(field, "not a decimal number: \"" + quote_bytes(s) + "\"");
    const auto f = F::from_canonical(*v);
    if (!f) fail(field, "value not below the field modulus: " + quote_bytes(s));
    return *f;
  }
  G1Affine g1(const json& j, const std::string& field) const {
    if (!j.is_array() || (j.size() != 3 && j.size() != 2)) fail(field, "expected [x, y, z]");
    const Fp x = number<Fp>(j[0], sub(field, 0)), y = number<Fp>(j[1], sub(field, 1));
    const Fp z = j.size() == 3 ? number<Fp>(j[2], sub(field, 2)) : Fp::one();
    if (z.is_zero()) return G1Affine::identity();
    if (!z.is_one()) fail(field, "z must be 1 (or 0 for infinity)");
    const G1Affine p = G1Affine::from_xy(x, y);
    if (!p.is_on_curve()) fail(field, "point not on the curve");
    if (!g1_is_in_subgroup(p)) fail(field, "point not in the prime-order subgroup");
    return p;
  }
  // g2 below is g1 over Fp2 (snarkjs writes [x, y, z] both ways); only the z message differs.
  Fp2 fp2(const json& j, const std::string& field) const {
    if (!j.is_array() || j.size() != 2) fail(field, "expected [c0, c1]");
    return {number<Fp>(j[0], sub(field, 0)), number<Fp>(j[1], sub(field, 1))};
  }
  G2Affine g2(const json& j, const std::string& field) const {
    if (!j.is_array() || (j.size() != 3 && j.size() != 2)) fail(field, "expected [[x], [y], [z]]");
    const Fp2 x = fp2(j[0], sub(field, 0)), y = fp2(j[1], sub(field, 1));
    const Fp2 z = j.size() == 3 ? fp2(j[2], sub(field, 2)) : Fp2::one();
    if (z.is_zero()) return G2Affine::identity();
    if (!z.is_one()) fail(field, "z must be [1, 0] (or zero for infinity)");
    const G2Affine p = G2Affine::from_xy(x, y);
    if (!p.is_on_curve()) fail(field, "point not on the curve");
    if (!g2_is_in_subgroup(p)) fail(field, "point not in the prime-order subgroup");
    return p;
  }

 private:
  std::string name_;
};

std::string dec(const Fp& v) {
  return to_decimal(v.to_canonical());
}
std::string dec(const Fr& v) {
  return to_decimal(v.to_canonical());
}

json g1_json(const G1Affine& p) {
  if (p.is_identity()) return json::array({"0", "1", "0"});
  return json::array({dec(p.x), dec(p.y), "1"});
}
json g2_json(const G2Affine& p) {
  if (p.is_identity())
    return json::array({json::array({"0", "0"}), json::array({"1", "0"}), json::array({"0", "0"})});
  return json::array({json::array({dec(p.x.c0), dec(p.x.c1)}),
                      json::array({dec(p.y.c0), dec(p.y.c1)}), json::array({"1", "0"})});
}
json fp12_json(const Fp12& f) {
  json out = json::array();
  for (const Fp6* half : {&f.c0, &f.c1}) {
    json j6 = json::array();
    for (const Fp2* c : {&half->c0, &half->c1, &half->c2})
      j6.push_back(json::array({dec(c->c0), dec(c->c1)}));
    out.push_back(j6);
  }
  return out;
}

}  // namespace

std::string write_proof_json(const Proof& proof) {
  json j;
  j["pi_a"] = g1_json(proof.a);
  j["pi_b"] = g2_json(proof.b);
  j["pi_c"] = g1_json(proof.c);
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  return j.dump(1) + "\n";
}

std::string write_verifying_key_json(const VerifyingKey& vk) {
  json j;
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  j["nPublic"] = vk.ic.empty() ? 0 : vk.ic.size() - 1;
  j["vk_alpha_1"] = g1_json(vk.alpha_g1);
  j["vk_beta_2"] = g2_json(vk.beta_g2);
  j["vk_gamma_2"] = g2_json(vk.gamma_g2);
  j["vk_delta_2"] = g2_json(vk.delta_g2);
  j["vk_alphabeta_12"] = fp12_json(pairing(vk.alpha_g1, vk.beta_g2));
  json ic = json::array();
  for (const auto& p : vk.ic)
    ic.push_back(g1_json(p));
  j["IC"] = ic;
  return j.dump(1) + "\n";
}

std::string write_public_json(std::span<const Fr> inputs) {
  json j = json::array();
  for (const Fr& v : inputs)
    j.push_back(dec(v));
  return j.dump(1) + "\n";
}

Proof parse_proof_json(std::string_view text, const std::string& name) {
  const JsonReader r(name);
  if (text.size() > kMaxJsonBytes) r.fail("(file)", too_large(text.size()));
  const json j = r.parse(text);
  if (j.contains("protocol") && j["protocol"] != "groth16") r.fail("protocol", "not groth16");
  if (j.contains("curve") && j["curve"] != "bls12381") r.fail("curve", "not bls12381");
  return {r.g1(r.at(j, "pi_a", "pi_a"), "pi_a"), r.g2(r.at(j, "pi_b", "pi_b"), "pi_b"),
          r.g1(r.at(j, "pi_c", "pi_c"), "pi_c")};
}

VerifyingKey parse_verifying_key_json(std::string_view text, const std::string& name) {
  const JsonReader r(name);
  if (text.size() > kMaxJsonBytes) r.fail("(file)", too_large(text.size()));
  const json j = r.parse(text);
  if (j.contains("protocol") && j["protocol"] != "groth16") r.fail("protocol", "not groth16");
  if (j.contains("curve") && j["curve"] != "bls12381") r.fail("curve", "not bls12381");
  VerifyingKey vk;
  // Counts first, then points: a key with a million IC entries is refused before any of its
  // points costs a subgroup check.
  const json& ic = r.at(j, "IC", "IC");
  if (!ic.is_array() || ic.empty()) r.fail("IC", "expected a non-empty array");
  if (ic.size() > kMaxJsonPublicInputs + 1) {
    r.fail("IC", std::to_string(ic.size()) + " entries, more than the " +
                     std::to_string(kMaxJsonPublicInputs) + " public inputs a key may have here");
  }
  if (j.contains("nPublic") &&
      (!j["nPublic"].is_number_unsigned() || j["nPublic"].get<uint64_t>() + 1 != ic.size())) {
    r.fail("nPublic", "does not match IC length - 1");
  }
  vk.alpha_g1 = r.g1(r.at(j, "vk_alpha_1", "vk_alpha_1"), "vk_alpha_1");
  vk.beta_g2 = r.g2(r.at(j, "vk_beta_2", "vk_beta_2"), "vk_beta_2");
  vk.gamma_g2 = r.g2(r.at(j, "vk_gamma_2", "vk_gamma_2"), "vk_gamma_2");
  vk.delta_g2 = r.g2(r.at(j, "vk_delta_2", "vk_delta_2"), "vk_delta_2");
  vk.ic.reserve(ic.size());
  for (size_t i = 0; i < ic.size(); ++i)
    vk.ic.push_back(r.g1(ic[i], sub("IC", i)));
  return vk;
}

std::vector<Fr> parse_public_json(std::string_view text, const std::string& name) {
  const JsonReader r(name);
  if (text.size() > kMaxJsonBytes) r.fail("(file)", too_large(text.size()));
  const json j = r.parse(text);
  if (!j.is_array()) r.fail("(top level)", "expected an array of decimal strings");
  if (j.size() > kMaxJsonPublicInputs) {
    r.fail("(top level)", std::to_string(j.size()) + " public signals, more than " +
                              std::to_string(kMaxJsonPublicInputs));
  }
  std::vector<Fr> out;
  for (size_t i = 0; i < j.size(); ++i)
    out.push_back(r.number<Fr>(j[i], sub("", i)));
  return out;
}

}  // namespace cuzk::groth16
