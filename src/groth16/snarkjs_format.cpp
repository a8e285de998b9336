#include "groth16/snarkjs_format.hpp"

#include <map>
#include <utility>

#include "groth16/bellperson_format.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::groth16 {
namespace {

// Little-endian cursor over one iden3 "binfile" section (or the file header).
class Cursor {
 public:
  Cursor(std::span<const uint8_t> file, uint64_t begin, uint64_t end, const std::string& name)
      : file_(file), off_(begin), end_(end), name_(name) {}

  uint64_t offset() const { return off_; }
  uint64_t end() const { return end_; }
  uint64_t remaining() const { return end_ - off_; }
  [[noreturn]] void fail(uint64_t at, const std::string& what) const {
    throw FormatError(name_, at, what);
  }

  std::span<const uint8_t> take(uint64_t n, const char* what) {
    if (remaining() < n) {
      fail(off_, std::string("truncated ") + what + ": need " + std::to_string(n) + " bytes, " +
                     std::to_string(remaining()) + " left");
    }
    const auto s = file_.subspan(off_, n);
    off_ += n;
    return s;
  }
  uint32_t u32(const char* what) {
    const auto b = take(4, what);
    return uint32_t{b[0]} | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24);
  }
  uint64_t u64(const char* what) {
    const uint64_t lo = u32(what);
    return lo | (uint64_t{u32(what)} << 32);
  }
  template <size_t N>
  BigInt<N> le_int(const char* what) {
    const auto b = take(8 * N, what);
    BigInt<N> v;
    for (size_t i = 0; i < 8 * N; ++i)
      v.w[i / 8] |= uint64_t{b[i]} << (8 * (i % 8));
    return v;
  }
  // A canonical Fr in 32 little-endian bytes.
  Fr fr(const char* what) {
    const uint64_t at = off_;
    const auto v = Fr::from_canonical(le_int<4>(what));
    if (!v) fail(at, std::string(what) + ": value not below the scalar field modulus");
    return *v;
  }
  // An Fq in 48-byte little-endian Montgomery form (x * 2^384 mod p), i.e. our limbs.
  Fp fq_mont(const char* what) {
    const uint64_t at = off_;
    const auto v = le_int<6>(what);
    if (cmp(v, Fp::kModulus) >= 0)
      fail(at, std::string(what) + ": coordinate not below the field modulus");
    return Fp::from_mont(v);
  }
  void expect_end(const char* what) const {
    if (off_ != end_)
      fail(off_, std::string(what) + ": " + std::to_string(end_ - off_) + " unexpected bytes");
  }

 private:
  std::span<const uint8_t> file_;
  uint64_t off_, end_;
  std::string name_;
};

struct Section {
  uint64_t begin, size;
};

// Header "magic | u32 version | u32 n | n x (u32 id | u64 size | data)"; sections by id.
std::map<uint32_t, Section> read_sections(std::span<const uint8_t> file, const std::string& name,
                                          const char magic[4], uint32_t version) {
  Cursor c(file, 0, file.size(), name);
  const auto m = c.take(4, "magic");
  if (!std::equal(m.begin(), m.end(), magic)) {
    c.fail(0, std::string("not a ") + std::string(magic, 4) + " file (bad magic)");
  }
  const uint32_t v = c.u32("version");
  if (v != version)
    c.fail(4, "unsupported version " + std::to_string(v) + " (expected " + std::to_string(version) +
                  ")");
  const uint32_t n = c.u32("section count");
  std::map<uint32_t, Section> sections;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t at = c.offset();
    const uint32_t id = c.u32("section id");
    const uint64_t size = c.u64("section size");
    const uint64_t begin = c.offset();
    c.take(size, "section data");
    if (!sections.emplace(id, Section{begin, size}).second)
      c.fail(at, "duplicate section " + std::to_string(id));
  }
  c.expect_end("file");
  return sections;
}

Cursor section(std::span<const uint8_t> file, const std::map<uint32_t, Section>& s, uint32_t id,
               const std::string& name) {
  const auto it = s.find(id);
  if (it == s.end()) throw FormatError(name, 0, "missing section " + std::to_string(id));
  return Cursor(file, it->second.begin, it->second.begin + it->second.size, name);
}

void expect_prime(Cursor& c, uint32_t n8, const char* what) {
  const uint64_t at = c.offset();
  if (n8 != 32)
    c.fail(at,
           std::string(what) + ": field size " + std::to_string(n8) + " is not 32 (BLS12-381 Fr)");
  if (c.le_int<4>("prime") != Fr::kModulus)
    c.fail(at, std::string(what) + ": prime is not the BLS12-381 scalar field");
}

Variable wire_variable(uint32_t wire, uint32_t n_public) {
  return wire <= n_public ? Variable::input(wire) : Variable::aux(wire - n_public - 1);
}

template <class P>
P point_from(Cursor& c, const char* what, SubgroupCheck check) {
  const uint64_t at = c.offset();
  P p;
  if constexpr (std::is_same_v<P, G1Affine>) {
    const Fp x = c.fq_mont(what), y = c.fq_mont(what);
    p = (x.is_zero() && y.is_zero()) ? G1Affine::identity() : G1Affine::from_xy(x, y);
  } else {
    const Fp x0 = c.fq_mont(what), x1 = c.fq_mont(what), y0 = c.fq_mont(what), y1 = c.fq_mont(what);
    const Fp2 x{x0, x1}, y{y0, y1};
    p = (x.is_zero() && y.is_zero()) ? G2Affine::identity() : G2Affine::from_xy(x, y);
  }
  if (!p.is_on_curve()) c.fail(at, std::string(what) + ": point not on the curve");
  if (check == SubgroupCheck::kCheck && !p.is_identity()) {
    bool ok;
    if constexpr (std::is_same_v<P, G1Affine>) {
      ok = g1_is_in_subgroup(p);
    } else {
      ok = g2_is_in_subgroup(p);
    }
    if (!ok) c.fail(at, std::string(what) + ": point not in the prime-order subgroup");
  }
  return p;
}

template <class P>
constexpr uint64_t zkey_point_bytes() {
  return std::is_same_v<P, G1Affine> ? 2 * 48 : 4 * 48;
}

// A section of exactly `count` points (the header's counts, checked against the section's size
// before anything is allocated), decoded and checked in parallel when a pool is given.
template <class P>
std::vector<P> points_section(std::span<const uint8_t> file, const std::map<uint32_t, Section>& s,
                              uint32_t id, uint64_t count, const char* what, SubgroupCheck check,
                              const std::string& name, ThreadPool* pool) {
  const Cursor whole = section(file, s, id, name);
  const uint64_t sz = zkey_point_bytes<P>();
  if (whole.remaining() / sz != count || whole.remaining() % sz != 0) {
    whole.fail(whole.offset(), std::string(what) +
                                   " section: " + std::to_string(whole.remaining()) +
                                   " bytes, the header's " + std::to_string(count) +
                                   " points need " + std::to_string(count * sz));
  }
  std::vector<P> out(static_cast<size_t>(count));
  const auto decode = [&](size_t begin, size_t end) {
    Cursor c(file, whole.offset() + begin * sz, whole.offset() + end * sz, name);
    for (size_t i = begin; i < end; ++i)
      out[i] = point_from<P>(c, what, check);
  };
  if (pool != nullptr) {
    pool->parallel_for(out.size(), decode, 1024);
  } else {
    decode(0, out.size());
  }
  return out;
}

}  // namespace

R1cs SnarkjsR1cs::with_input_rows() const {
  R1cs out = r1cs;
  for (size_t i = 0; i < out.num_inputs; ++i) {
    out.a.push_back({static_cast<uint32_t>(out.num_constraints++),
                     Variable::input(static_cast<uint32_t>(i)), Fr::one()});
  }
  return out;
}

SnarkjsR1cs parse_r1cs(std::span<const uint8_t> bytes, const std::string& name) {
  const auto s = read_sections(bytes, name, "r1cs", 1);
  SnarkjsR1cs out;
  {
    Cursor h = section(bytes, s, 1, name);
    expect_prime(h, h.u32("header n8"), "r1cs header");
    out.n_wires = h.u32("nWires");
    out.n_pub_out = h.u32("nPubOut");
    out.n_pub_in = h.u32("nPubIn");
    out.n_prv_in = h.u32("nPrvIn");
    out.n_labels = h.u64("nLabels");
    out.n_constraints = h.u32("nConstraints");
    h.expect_end("r1cs header");
    // In 64 bits: nPubOut + nPubIn + 1 wraps in 32.
    const uint64_t inputs = uint64_t{out.n_pub_out} + out.n_pub_in + 1;
    if (out.n_wires == 0 || inputs > out.n_wires) {
      h.fail(h.offset(), "wire counts inconsistent (nWires " + std::to_string(out.n_wires) +
                             ", nPubOut " + std::to_string(out.n_pub_out) + ", nPubIn " +
                             std::to_string(out.n_pub_in) + ")");
    }
  }
  out.r1cs.num_inputs = out.n_public() + 1;
  out.r1cs.num_aux = out.n_wires - out.n_public() - 1;
  out.r1cs.num_constraints = out.n_constraints;
  Cursor c = section(bytes, s, 2, name);
  // A row is at least its three term counts; a term is a wire id and a 32-byte coefficient.
  if (c.remaining() / 12 < out.n_constraints) {
    c.fail(c.offset(), std::to_string(out.n_constraints) + " constraints cannot fit in the " +
                           std::to_string(c.remaining()) + "-byte constraints section");
  }
  for (uint32_t row = 0; row < out.n_constraints; ++row) {
    for (auto* matrix : {&out.r1cs.a, &out.r1cs.b, &out.r1cs.c}) {
      const uint64_t terms_at = c.offset();
      const uint32_t terms = c.u32("term count");
      if (c.remaining() / 36 < terms) {
        c.fail(terms_at, std::to_string(terms) + " terms cannot fit in the " +
                             std::to_string(c.remaining()) + " bytes left");
      }
      for (uint32_t t = 0; t < terms; ++t) {
        const uint64_t at = c.offset();
        const uint32_t wire = c.u32("wire id");
        if (wire >= out.n_wires) c.fail(at, "wire id " + std::to_string(wire) + " out of range");
        matrix->push_back({row, wire_variable(wire, out.n_public()), c.fr("coefficient")});
      }
    }
  }
  c.expect_end("constraints section");
  return out;
}

std::vector<Fr> parse_wtns(std::span<const uint8_t> bytes, const std::string& name) {
  const auto s = read_sections(bytes, name, "wtns", 2);
  Cursor h = section(bytes, s, 1, name);
  expect_prime(h, h.u32("header n8"), "wtns header");
  const uint32_t n = h.u32("nWitness");
  h.expect_end("wtns header");
  Cursor c = section(bytes, s, 2, name);
  if (c.remaining() != uint64_t{n} * 32) {
    c.fail(c.offset(), "nWitness " + std::to_string(n) + " needs " +
                           std::to_string(uint64_t{n} * 32) + " bytes, the witness section has " +
                           std::to_string(c.remaining()));
  }
  std::vector<Fr> w;
  w.reserve(n);
  for (uint32_t i = 0; i < n; ++i)
    w.push_back(c.fr("witness value"));
  c.expect_end("witness section");
  if (n == 0 || !w[0].is_one())
    throw FormatError(name, 0, "witness value 0 (the constant wire) is not 1");
  return w;
}

Zkey parse_zkey(std::span<const uint8_t> bytes, const std::string& name, SubgroupCheck bulk_check,
                ThreadPool* pool) {
  const auto s = read_sections(bytes, name, "zkey", 1);
  {
    Cursor p = section(bytes, s, 1, name);
    const uint32_t protocol = p.u32("protocol");
    if (protocol != 1) p.fail(0, "protocol " + std::to_string(protocol) + " is not Groth16 (1)");
  }
  Zkey z;
  {
    Cursor h = section(bytes, s, 2, name);
    const uint64_t at = h.offset();
    if (h.u32("n8q") != 48 || h.le_int<6>("q") != Fp::kModulus)
      h.fail(at, "base field is not BLS12-381 Fq");
    expect_prime(h, h.u32("n8r"), "zkey header");
    z.n_vars = h.u32("nVars");
    z.n_public = h.u32("nPublic");
    z.domain_size = h.u32("domainSize");
    z.alpha_g1 = point_from<G1Affine>(h, "alpha_1", SubgroupCheck::kCheck);
    z.beta_g1 = point_from<G1Affine>(h, "beta_1", SubgroupCheck::kCheck);
    z.beta_g2 = point_from<G2Affine>(h, "beta_2", SubgroupCheck::kCheck);
    z.gamma_g2 = point_from<G2Affine>(h, "gamma_2", SubgroupCheck::kCheck);
    z.delta_g1 = point_from<G1Affine>(h, "delta_1", SubgroupCheck::kCheck);
    z.delta_g2 = point_from<G2Affine>(h, "delta_2", SubgroupCheck::kCheck);
    h.expect_end("zkey header");
    // In 64 bits: nPublic + 1 wraps in 32.
    if (uint64_t{z.n_public} + 1 > z.n_vars || z.domain_size == 0 ||
        (z.domain_size & (z.domain_size - 1)) != 0) {
      h.fail(at, "inconsistent header (nVars " + std::to_string(z.n_vars) + ", nPublic " +
                     std::to_string(z.n_public) + ", domainSize " + std::to_string(z.domain_size) +
                     ")");
    }
  }
  z.ic = points_section<G1Affine>(bytes, s, 3, uint64_t{z.n_public} + 1, "IC",
                                  SubgroupCheck::kCheck, name, pool);
  {
    Cursor c = section(bytes, s, 4, name);
    const uint64_t count_at = c.offset();
    const uint32_t n = c.u32("coefficient count");
    if (c.remaining() != uint64_t{n} * 44) {  // matrix, row, signal, a 32-byte value
      c.fail(count_at, "coefficient count " + std::to_string(n) + " needs " +
                           std::to_string(uint64_t{n} * 44) + " bytes, the section has " +
                           std::to_string(c.remaining()));
    }
    z.coefficients.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t at = c.offset();
      ZkeyCoefficient k;
      k.matrix = c.u32("matrix");
      k.row = c.u32("row");
      k.signal = c.u32("signal");
      if (k.matrix > 1 || k.row >= z.domain_size || k.signal >= z.n_vars) {
        c.fail(at, "coefficient entry out of range (matrix " + std::to_string(k.matrix) + ", row " +
                       std::to_string(k.row) + ", signal " + std::to_string(k.signal) + ")");
      }
      // Stored as v = coef * R^2 mod r. Our limbs of coef are coef * R = v * R^-1: one
      // Montgomery reduction of v (reading v as limbs and leaving Montgomery form).
      const uint64_t value_at = c.offset();
      const BigInt<4> v = c.le_int<4>("coefficient value");
      if (cmp(v, Fr::kModulus) >= 0)
        c.fail(value_at, "coefficient value not below the scalar field modulus");
      k.value = Fr::from_mont(Fr::from_mont(v).to_canonical());
      z.coefficients.push_back(k);
    }
    c.expect_end("coefficients section");
  }
  z.a = points_section<G1Affine>(bytes, s, 5, z.n_vars, "A", bulk_check, name, pool);
  z.b1 = points_section<G1Affine>(bytes, s, 6, z.n_vars, "B1", bulk_check, name, pool);
  z.b2 = points_section<G2Affine>(bytes, s, 7, z.n_vars, "B2", bulk_check, name, pool);
  z.c = points_section<G1Affine>(bytes, s, 8, uint64_t{z.n_vars} - z.n_public - 1, "C", bulk_check,
                                 name, pool);
  z.h = points_section<G1Affine>(bytes, s, 9, z.domain_size, "H", bulk_check, name, pool);
  return z;
}

VerifyingKey Zkey::verifying_key() const {
  return {alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, ic};
}

SnarkjsR1cs read_r1cs(const std::filesystem::path& path) {
  const MappedFile f(path);
  return parse_r1cs(f.bytes(), path.string());
}
std::vector<Fr> read_wtns(const std::filesystem::path& path) {
  const MappedFile f(path);
  return parse_wtns(f.bytes(), path.string());
}
Zkey read_zkey(const std::filesystem::path& path, SubgroupCheck bulk_check, ThreadPool* pool) {
  const MappedFile f(path);
  return parse_zkey(f.bytes(), path.string(), bulk_check, pool);
}

}  // namespace cuzk::groth16
