#include "oracle/bls_vectors.hpp"

#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "ec/encoding.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ec/msm_naive.hpp"
#include "ec/pairing.hpp"
#include "ff/fp12.hpp"
#include "ff/fr.hpp"

namespace cuzk::oracle {

using json = nlohmann::json;
namespace fs = std::filesystem;

void CheckReport::expect(bool ok, const std::string& what) {
  ++checked;
  if (ok) return;
  ++failed;
  if (failures.size() < 16) failures.push_back(what);
}

fs::path default_vectors_dir() {
  if (const char* env = std::getenv("CUZK_VECTORS_DIR"); env != nullptr && *env != '\0') return env;
  return fs::path(CUZK_SOURCE_DIR) / ".." / "shared" / "vectors" / "bls12_381";
}

namespace {

json load(const fs::path& dir, const char* name) {
  const fs::path path = dir / name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("vector file missing or unreadable: " + path.string());
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error("vector file " + path.string() + " is not valid JSON: " + e.what());
  }
}

// ---- parsing (values are canonical big-endian hex, never Montgomery form) ----
template <class F>
F parse_prime(const json& j) {
  const auto v = F::from_canonical(F::Int::from_hex(j.get<std::string>()));
  if (!v) throw std::runtime_error("vector value not canonical: " + j.get<std::string>());
  return *v;
}

template <class T>
T parse(const json& j);
template <>
Fp parse<Fp>(const json& j) {
  return parse_prime<Fp>(j);
}
template <>
Fr parse<Fr>(const json& j) {
  return parse_prime<Fr>(j);
}
template <>
Fp2 parse<Fp2>(const json& j) {
  return {parse<Fp>(j.at("c0")), parse<Fp>(j.at("c1"))};
}
template <>
Fp6 parse<Fp6>(const json& j) {
  return {parse<Fp2>(j.at("c0")), parse<Fp2>(j.at("c1")), parse<Fp2>(j.at("c2"))};
}
// Flat array: index 2 (3 i + j) + k holds the coefficient of u^k v^j w^i.
template <>
Fp12 parse<Fp12>(const json& j) {
  if (!j.is_array() || j.size() != 12) throw std::runtime_error("Fp12 vector is not 12 values");
  Fp12 r;
  Fp6* halves[2] = {&r.c0, &r.c1};
  for (int i = 0; i < 2; ++i) {
    Fp2* slots[3] = {&halves[i]->c0, &halves[i]->c1, &halves[i]->c2};
    for (int s = 0; s < 3; ++s) {
      slots[s]->c0 = parse<Fp>(j[2 * (3 * i + s)]);
      slots[s]->c1 = parse<Fp>(j[2 * (3 * i + s) + 1]);
    }
  }
  return r;
}
template <>
G1Affine parse<G1Affine>(const json& j) {
  if (j.value("infinity", false)) return G1Affine::identity();
  return G1Affine::from_xy(parse<Fp>(j.at("x")), parse<Fp>(j.at("y")));
}
template <>
G2Affine parse<G2Affine>(const json& j) {
  if (j.value("infinity", false)) return G2Affine::identity();
  return G2Affine::from_xy(parse<Fp2>(j.at("x")), parse<Fp2>(j.at("y")));
}

BigInt<4> parse_scalar(const json& j) {
  return BigInt<4>::from_hex(j.get<std::string>());
}
BigInt<8> parse_exponent(const json& j) {
  return BigInt<8>::from_hex(j.get<std::string>());
}

std::vector<uint8_t> parse_bytes(const json& j) {
  const std::string s = j.get<std::string>();
  if (s.size() % 2 != 0) throw std::runtime_error("odd-length hex byte string");
  std::vector<uint8_t> out(s.size() / 2);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<uint8_t>(std::stoul(s.substr(2 * i, 2), nullptr, 16));
  return out;
}

std::string label(const json& c, size_t i) {
  std::string l = "#" + std::to_string(i);
  for (const char* key : {"note", "name", "a_name"}) {
    if (c.contains(key)) {
      l += " (" + c[key].get<std::string>();
      if (c.contains("b_name")) l += ", " + c["b_name"].get<std::string>();
      l += ")";
      break;
    }
  }
  return l;
}

// ---- fields ----
// Checks whichever of the usual op keys a case carries.
template <class F>
void check_field_case(CheckReport& rep, const json& c, const std::string& where) {
  const F a = parse<F>(c.at("a"));
  if (c.contains("b")) {
    const F b = parse<F>(c.at("b"));
    if (c.contains("add")) rep.expect(a + b == parse<F>(c["add"]), where + " add");
    if (c.contains("sub")) rep.expect(a - b == parse<F>(c["sub"]), where + " sub");
    if (c.contains("mul")) rep.expect(a * b == parse<F>(c["mul"]), where + " mul");
  }
  if (c.contains("sqr")) rep.expect(a.sqr() == parse<F>(c["sqr"]), where + " sqr");
  if (c.contains("neg")) rep.expect(-a == parse<F>(c["neg"]), where + " neg");
  if (c.contains("inv")) {
    if (c["inv"].is_null()) {
      rep.expect(a.is_zero() && a.inv().is_zero(), where + " inv of zero");
    } else {
      rep.expect(a.inv() == parse<F>(c["inv"]), where + " inv");
    }
  }
  if constexpr (requires { a.pow(BigInt<8>{}); }) {
    if (c.contains("e") && c.contains("pow")) {
      rep.expect(a.pow(parse_exponent(c["e"])) == parse<F>(c["pow"]), where + " pow");
    }
  }
  if constexpr (requires { a.conjugate(); }) {
    if (c.contains("conjugate"))
      rep.expect(a.conjugate() == parse<F>(c["conjugate"]), where + " conjugate");
  }
  if constexpr (requires { a.mul_by_nonresidue(); }) {
    if (c.contains("mul_by_nonresidue")) {
      rep.expect(a.mul_by_nonresidue() == parse<F>(c["mul_by_nonresidue"]),
                 where + " mul_by_nonresidue");
    }
  }
  if constexpr (requires { a.frobenius(1u); }) {
    for (unsigned k : {1u, 2u, 3u, 6u}) {
      const std::string key = "frobenius_" + std::to_string(k);
      if (c.contains(key)) rep.expect(a.frobenius(k) == parse<F>(c[key]), where + " " + key);
    }
  }
}

template <class F>
void check_sqrt_cases(CheckReport& rep, const json& cases) {
  for (size_t i = 0; i < cases.size(); ++i) {
    const json& c = cases[i];
    const std::string where = "sqrt " + label(c, i);
    const F a = parse<F>(c.at("a"));
    const auto root = a.sqrt();
    const bool square = c.at("is_square").get<bool>();
    rep.expect(root.has_value() == square, where + " squareness");
    rep.expect(a.legendre() == (a.is_zero() ? 0 : (square ? 1 : -1)), where + " legendre");
    if (!square || !root) continue;
    const F s = parse<F>(c.at("sqrt"));
    const F other = parse<F>(c.at("sqrt_other"));
    rep.expect(*root == s || *root == other, where + " root");
    rep.expect(
        s.is_lexicographically_largest() == c.at("sqrt_is_lexicographically_largest").get<bool>(),
        where + " lexicographic order");
  }
}

template <class F>
void check_montgomery_constants(CheckReport& rep, const json& j) {
  rep.expect(F::kModulus == F::Int::from_hex(j.at("modulus").get<std::string>()), "modulus");
  const json& m = j.at("montgomery");
  rep.expect(F::kR == F::Int::from_hex(m.at("R").get<std::string>()), "montgomery R");
  rep.expect(F::kR2 == F::Int::from_hex(m.at("R2").get<std::string>()), "montgomery R^2");
  rep.expect(F::kInv == BigInt<1>::from_hex(m.at("inv64").get<std::string>()).w[0],
             "montgomery inv64");
}

// Every case of the named sections of a field's file, each named "<section> <case>".
template <class F>
void check_field_sections(CheckReport& rep, const json& j,
                          std::initializer_list<const char*> sections) {
  for (const char* section : sections) {
    const json& cases = j.at(section);
    for (size_t i = 0; i < cases.size(); ++i)
      check_field_case<F>(rep, cases[i], std::string(section) + " " + label(cases[i], i));
  }
}

template <class F>
CheckReport check_prime_field_file(const fs::path& dir, const char* name) {
  const json j = load(dir, name);
  CheckReport rep;
  rep.file = name;
  check_montgomery_constants<F>(rep, j);
  check_field_sections<F>(rep, j, {"ops", "edge", "pow_edge"});
  check_sqrt_cases<F>(rep, j.at("sqrt"));
  return rep;
}

// ---- points ----
template <class Curve>
struct CurveOps;
// The G1 and G2 entry points of ec/ under one name each, so check_curve_file is written once.
template <>
struct CurveOps<G1Curve> {
  using A = G1Affine;
  static A parse_point(const json& j) { return parse<G1Affine>(j); }
  static Jacobian<G1Curve> mul(const Jacobian<G1Curve>& p, const BigInt<4>& k) {
    return g1_mul(p, k);
  }
  static bool in_subgroup(const A& p) { return g1_is_in_subgroup(p); }
  static Jacobian<G1Curve> clear(const Jacobian<G1Curve>& p) { return g1_clear_cofactor(p); }
  static Result<A, PointDecodeError> decode(std::span<const uint8_t> b, SubgroupCheck c) {
    return decode_g1(b, c);
  }
};
template <>
struct CurveOps<G2Curve> {
  using A = G2Affine;
  static A parse_point(const json& j) { return parse<G2Affine>(j); }
  static Jacobian<G2Curve> mul(const Jacobian<G2Curve>& p, const BigInt<4>& k) {
    return g2_mul(p, k);
  }
  static bool in_subgroup(const A& p) { return g2_is_in_subgroup(p); }
  static Jacobian<G2Curve> clear(const Jacobian<G2Curve>& p) { return g2_clear_cofactor(p); }
  static Result<A, PointDecodeError> decode(std::span<const uint8_t> b, SubgroupCheck c) {
    return decode_g2(b, c);
  }
};

template <class Curve>
void check_point_encodings(CheckReport& rep, const json& j, const Affine<Curve>& p,
                           const std::string& where) {
  using Ops = CurveOps<Curve>;
  for (const char* key : {"compressed", "uncompressed"}) {
    if (!j.contains(key)) continue;
    const std::vector<uint8_t> bytes = parse_bytes(j[key]);
    const bool compressed = std::string(key) == "compressed";
    std::vector<uint8_t> ours;
    if (compressed) {
      const auto e = encode_compressed(p);
      ours.assign(e.begin(), e.end());
    } else {
      const auto e = encode_uncompressed(p);
      ours.assign(e.begin(), e.end());
    }
    rep.expect(ours == bytes, where + " encode " + key);
    const auto decoded = Ops::decode(bytes, SubgroupCheck::kCheck);
    rep.expect(decoded.has_value() && *decoded == p, where + " decode " + key);
  }
}

// Which check the vectors' reason says must fail.
PointDecodeError expected_error(const std::string& reason, std::span<const uint8_t> bytes) {
  using E = PointDecodeError;
  const auto has = [&](const char* s) { return reason.find(s) != std::string::npos; };
  if (has("wrong length") || has("empty")) return E::kBadLength;
  if (has("not in the prime-order subgroup")) return E::kNotInSubgroup;
  if (has(">= p") || has("x = p")) return E::kNonCanonicalCoordinate;
  if (has("not a square") || has("not on the curve") || has("is not on")) return E::kNotOnCurve;
  if (has("infinity flag with a non-zero")) return E::kBadInfinity;
  // A real point with the infinity flag added: a flag error when its sort bit is also set.
  if (has("infinity flag also set"))
    return (bytes[0] & 0x20) && (bytes[0] & 0x80) ? E::kBadFlags : E::kBadInfinity;
  return E::kBadFlags;  // compression/sort flag misuse, length/flag mismatch
}

template <class Curve>
CheckReport check_curve_file(const fs::path& dir, const char* name) {
  using Ops = CurveOps<Curve>;
  using J = Jacobian<Curve>;
  using X = Xyzz<Curve>;
  using A = Affine<Curve>;
  const json j = load(dir, name);
  CheckReport rep;
  rep.file = name;

  const A g = Ops::parse_point(j.at("generator"));
  rep.expect(g == A::generator(), "generator");
  check_point_encodings<Curve>(rep, j["generator"], g, "generator");
  check_point_encodings<Curve>(rep, j.at("infinity"), A::identity(), "infinity");

  for (const char* section : {"scalar_mul_generator", "scalar_mul_point"}) {
    const json& cases = j.at(section);
    for (size_t i = 0; i < cases.size(); ++i) {
      const json& c = cases[i];
      const std::string where = std::string(section) + " " + label(c, i);
      const A p = c.contains("p") ? Ops::parse_point(c["p"]) : g;
      const BigInt<4> k = parse_scalar(c.at("k"));
      const A expect = Ops::parse_point(c.at("result"));
      rep.expect(Ops::mul(J::from_affine(p), k) == expect, where + " endomorphism mul");
      rep.expect(scalar_mul_wnaf(J::from_affine(p), k) == expect, where + " wnaf mul");
      check_point_encodings<Curve>(rep, c["result"], expect, where + " result");
    }
  }

  const auto check_ops = [&](const json& cases, const char* section) {
    for (size_t i = 0; i < cases.size(); ++i) {
      const json& c = cases[i];
      const std::string where = std::string(section) + " " + label(c, i);
      const A p = Ops::parse_point(c.at("p"));
      const A q = Ops::parse_point(c.at("q"));
      const J pj = J::from_affine(p), qj = J::from_affine(q);
      if (c.contains("add")) {
        const A sum = Ops::parse_point(c["add"]);
        rep.expect((pj + qj).to_affine() == sum, where + " jacobian add");
        rep.expect(pj.add_mixed(q).to_affine() == sum, where + " jacobian mixed add");
        rep.expect((X::from_affine(p) + X::from_affine(q)).to_affine() == sum, where + " xyzz add");
        rep.expect(X::from_affine(p).add_mixed(q).to_affine() == sum, where + " xyzz mixed add");
        rep.expect((pj.dbl() + qj.dbl()) == J::from_affine(sum).dbl(),
                   where + " add of non-normalized");
      }
      if (c.contains("sub"))
        rep.expect((pj - qj).to_affine() == Ops::parse_point(c["sub"]), where + " sub");
      if (c.contains("double_p")) {
        const A d = Ops::parse_point(c["double_p"]);
        rep.expect(pj.dbl().to_affine() == d, where + " jacobian double");
        rep.expect(X::from_affine(p).dbl().to_affine() == d, where + " xyzz double");
        check_point_encodings<Curve>(rep, c["double_p"], d, where + " double");
      }
      if (c.contains("neg_p")) rep.expect(-p == Ops::parse_point(c["neg_p"]), where + " neg");
      check_point_encodings<Curve>(rep, c["p"], p, where + " p");
    }
  };
  check_ops(j.at("point_ops"), "point_ops");
  check_ops(j.at("point_ops_special"), "point_ops_special");

  const json& outside = j.at("non_subgroup_points");
  for (size_t i = 0; i < outside.size(); ++i) {
    const json& c = outside[i];
    const std::string where = "non_subgroup_points " + label(c, i);
    const A p = Ops::parse_point(c);
    rep.expect(p.is_on_curve(), where + " on curve");
    rep.expect(!Ops::in_subgroup(p), where + " subgroup check rejects");
    for (const char* key : {"compressed", "uncompressed"}) {
      if (!c.contains(key)) continue;
      const auto bytes = parse_bytes(c[key]);
      const auto checked = Ops::decode(bytes, SubgroupCheck::kCheck);
      rep.expect(!checked && checked.error() == PointDecodeError::kNotInSubgroup,
                 where + " decode rejects " + key);
      const auto trusted = Ops::decode(bytes, SubgroupCheck::kSkipTrusted);
      rep.expect(trusted && *trusted == p, where + " trusted decode " + key);
    }
    rep.expect(Ops::in_subgroup(Ops::clear(J::from_affine(p)).to_affine()),
               where + " cofactor clearing");
  }

  const json& invalid = j.at("invalid_encodings");
  for (size_t i = 0; i < invalid.size(); ++i) {
    const json& c = invalid[i];
    const std::string reason = c.at("reason").get<std::string>();
    const auto bytes = parse_bytes(c.at("encoding"));
    const auto r = Ops::decode(bytes, SubgroupCheck::kCheck);
    const PointDecodeError want = expected_error(reason, bytes);
    rep.expect(!r && r.error() == want,
               "invalid encoding #" + std::to_string(i) + " (" + reason + "): want " +
                   describe(want) + ", got " +
                   (r ? std::string("accepted") : std::string(describe(r.error()))));
  }
  return rep;
}

template <class Curve>
void check_msm_cases(CheckReport& rep, const json& cases, const std::string& curve) {
  using Ops = CurveOps<Curve>;
  for (size_t i = 0; i < cases.size(); ++i) {
    const json& c = cases[i];
    std::vector<Affine<Curve>> points;
    std::vector<BigInt<4>> scalars;
    for (const json& p : c.at("points"))
      points.push_back(Ops::parse_point(p));
    for (const json& s : c.at("scalars"))
      scalars.push_back(parse_scalar(s));
    const auto got = msm_naive<Curve, 4>(points, scalars);
    rep.expect(got == Ops::parse_point(c.at("result")),
               curve + " msm " + label(c, i) + " n=" + std::to_string(points.size()));
  }
}

std::vector<std::pair<G1Affine, G2Affine>> parse_pairs(const json& pairs) {
  std::vector<std::pair<G1Affine, G2Affine>> out;
  for (const json& p : pairs)
    out.emplace_back(parse<G1Affine>(p.at("g1")), parse<G2Affine>(p.at("g2")));
  return out;
}

}  // namespace

CheckReport check_fr(const fs::path& dir) {
  CheckReport rep = check_prime_field_file<Fr>(dir, "fr.json");
  const json j = load(dir, "fr.json");
  const json& roots = j.at("roots_of_unity");
  rep.expect(roots.at("two_adicity").get<size_t>() == Fr::kTwoAdicity, "two-adicity");
  rep.expect(Fr::kOddPart == BigInt<4>::from_hex(roots.at("t").get<std::string>()), "odd part t");
  for (const auto& [key, generator] :
       {std::pair{"g7", FrParams::kGenerator}, std::pair{"g5_snarkjs", uint64_t{5}}}) {
    const json& set = roots.at(key);
    const Fr top = Fr::from_u64(generator).pow(Fr::kOddPart);
    rep.expect(top == parse<Fr>(set.at("omega_2_32")), std::string(key) + " omega_2_32");
    if (generator == FrParams::kGenerator) rep.expect(top == kFrTwoAdicRoot, "kFrTwoAdicRoot");
    for (const json& e : set.at("omega_by_log2_size")) {
      const size_t log2n = e.at("log2_n").get<size_t>();
      Fr w = top;
      for (size_t s = log2n; s < 32; ++s)
        w = w.sqr();
      rep.expect(w == parse<Fr>(e.at("omega")),
                 std::string(key) + " omega_2^" + std::to_string(log2n));
    }
  }
  return rep;
}

CheckReport check_fp(const fs::path& dir) {
  return check_prime_field_file<Fp>(dir, "fp.json");
}

CheckReport check_fp2(const fs::path& dir) {
  const json j = load(dir, "fp2.json");
  CheckReport rep;
  rep.file = "fp2.json";
  rep.expect(parse<Fp2>(j.at("nonresidue_xi")) == Fp2::one().mul_by_nonresidue(),
             "nonresidue xi = u + 1");
  check_field_sections<Fp2>(rep, j, {"ops", "edge"});
  check_sqrt_cases<Fp2>(rep, j.at("sqrt"));
  return rep;
}

// Fp6 and Fp12 files hold operations only.
template <class F>
CheckReport check_ops_file(const fs::path& dir, const char* name) {
  const json j = load(dir, name);
  CheckReport rep;
  rep.file = name;
  check_field_sections<F>(rep, j, {"ops"});
  return rep;
}

CheckReport check_fp6(const fs::path& dir) {
  return check_ops_file<Fp6>(dir, "fp6.json");
}

CheckReport check_fp12(const fs::path& dir) {
  return check_ops_file<Fp12>(dir, "fp12.json");
}

CheckReport check_g1(const fs::path& dir) {
  return check_curve_file<G1Curve>(dir, "g1.json");
}
CheckReport check_g2(const fs::path& dir) {
  return check_curve_file<G2Curve>(dir, "g2.json");
}

CheckReport check_msm(const fs::path& dir) {
  const json j = load(dir, "msm.json");
  CheckReport rep;
  rep.file = "msm.json";
  check_msm_cases<G1Curve>(rep, j.at("g1"), "g1");
  check_msm_cases<G2Curve>(rep, j.at("g2"), "g2");
  return rep;
}

CheckReport check_pairing(const fs::path& dir) {
  const json j = load(dir, "pairing.json");
  CheckReport rep;
  rep.file = "pairing.json";
  rep.expect(parse<Fp12>(j.at("gt_one")) == Fp12::one(), "gt_one layout");
  rep.expect(BigInt<1>::from_hex(j.at("bls_x").get<std::string>().substr(1)).w[0] == kBlsXAbs,
             "bls_x");

  const json& pairs = j.at("pairs");
  for (size_t i = 0; i < pairs.size(); ++i) {
    const json& c = pairs[i];
    const std::string where = "pairs " + label(c, i);
    const G1Affine p = parse<G1Affine>(c.at("g1"));
    const G2Affine q = parse<G2Affine>(c.at("g2"));
    const Gt gt = parse<Fp12>(c.at("gt"));
    rep.expect(pairing(p, q) == gt, where + " pairing");
    rep.expect(gt == parse<Fp12>(c.at("gt_textbook")).pow(BigInt<1>::from_u64(3)),
               where + " gt = gt_textbook^3");
    if (i < 3)
      rep.expect(final_exponentiation(miller_loop_reference(p, q)) == gt,
                 where + " reference Miller loop");
  }

  const json& bil = j.at("bilinearity");
  for (size_t i = 0; i < bil.size(); ++i) {
    const json& c = bil[i];
    const std::string where = "bilinearity " + label(c, i);
    const BigInt<4> a = parse_scalar(c.at("a")), b = parse_scalar(c.at("b")),
                    ab = parse_scalar(c.at("ab"));
    const Gt gt = parse<Fp12>(c.at("gt"));
    const G1Jacobian g1 = G1Jacobian::generator();
    const G2Jacobian g2 = G2Jacobian::generator();
    rep.expect(pairing(g1_mul(g1, a).to_affine(), g2_mul(g2, b).to_affine()) == gt,
               where + " e(aG1, bG2)");
    rep.expect(pairing(g1_mul(g1, ab).to_affine(), g2.to_affine()) == gt, where + " e(abG1, G2)");
    rep.expect(pairing(g1.to_affine(), g2_mul(g2, ab).to_affine()) == gt, where + " e(G1, abG2)");
    rep.expect(pairing(g1.to_affine(), g2.to_affine()).pow(ab) == gt, where + " e(G1, G2)^ab");
  }

  const json& multi = j.at("multi_pairing");
  for (size_t i = 0; i < multi.size(); ++i) {
    const json& c = multi[i];
    const std::string where = "multi_pairing " + label(c, i);
    const Gt got = multi_pairing(parse_pairs(c.at("pairs")));
    rep.expect(got == parse<Fp12>(c.at("final_exp_of_miller_loop_product")), where + " value");
    rep.expect(got.is_one() == c.at("product_is_one").get<bool>(), where + " product is one");
  }

  const json& fe = j.at("final_exponentiation");
  for (size_t i = 0; i < fe.size(); ++i) {
    const json& c = fe[i];
    rep.expect(final_exponentiation(parse<Fp12>(c.at("f"))) == parse<Fp12>(c.at("final_exp")),
               "final_exponentiation " + label(c, i));
  }
  return rep;
}

std::vector<CheckReport> check_all(const fs::path& dir) {
  return {check_fr(dir), check_fp(dir), check_fp2(dir), check_fp6(dir),    check_fp12(dir),
          check_g1(dir), check_g2(dir), check_msm(dir), check_pairing(dir)};
}

}  // namespace cuzk::oracle
