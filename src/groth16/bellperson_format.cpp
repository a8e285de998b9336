#include "groth16/bellperson_format.hpp"

#include <algorithm>
#include <fstream>
#include <type_traits>

#include "util/mapped_file.hpp"

namespace cuzk::groth16 {

FormatError::FormatError(const std::string& file, uint64_t offset, const std::string& what)
    : std::runtime_error(file + ": at byte " + std::to_string(offset) + ": " + what),
      offset_(offset) {}

namespace {

// ---- writing ----
void put_u32_be(std::vector<uint8_t>& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8)
    out.push_back(static_cast<uint8_t>(v >> s));
}
template <class P>
void put_point(std::vector<uint8_t>& out, const P& p) {
  const auto b = encode_uncompressed(p);
  out.insert(out.end(), b.begin(), b.end());
}
template <class P>
void put_vector(std::vector<uint8_t>& out, const std::vector<P>& v) {
  if (v.size() > UINT32_MAX) throw std::length_error("parameter vector longer than 2^32 - 1");
  put_u32_be(out, static_cast<uint32_t>(v.size()));
  for (const P& p : v)
    put_point(out, p);
}

// ---- reading ----
template <class P>
constexpr size_t point_size() {
  return std::is_same_v<P, G1Affine> ? kG1UncompressedBytes : kG2UncompressedBytes;
}

template <class P>
P decode_point(std::span<const uint8_t> b, uint64_t at, const char* what, const std::string& name,
               SubgroupCheck check) {
  Result<P, PointDecodeError> r = [&] {
    if constexpr (std::is_same_v<P, G1Affine>) {
      return decode_g1(b, check);
    } else {
      return decode_g2(b, check);
    }
  }();
  if (!r) throw FormatError(name, at, std::string(what) + ": " + describe(r.error()));
  return *r;
}

// decode_points decodes in place: a point takes exactly its encoding's bytes.
static_assert(sizeof(G1Affine) == kG1UncompressedBytes && sizeof(G2Affine) == kG2UncompressedBytes);

template <class P>
void decode_points_of(std::span<const uint8_t> src, std::span<P> out, uint64_t file_offset,
                      const char* what, const std::string& name, SubgroupCheck check,
                      ThreadPool* pool, ProgressCounter* progress) {
  constexpr size_t sz = point_size<P>();
  if (src.size() % sz != 0 || src.size() / sz != out.size()) {
    throw std::invalid_argument(std::string("decode_points: ") + std::to_string(src.size()) +
                                " bytes for " + std::to_string(out.size()) + " points of " + what);
  }
  const auto body = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      // Decoded whole into a local first: out[i] may be the very bytes it is decoded from.
      const P p = decode_point<P>(src.subspan(i * sz, sz), file_offset + i * sz, what, name, check);
      out[i] = p;
    }
    if (progress != nullptr) progress->add(end - begin);
  };
  if (pool != nullptr) {
    pool->parallel_for(out.size(), body, 1024);
  } else if (!out.empty()) {
    body(0, out.size());
  }
}

class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  uint64_t offset() const { return off_; }
  uint64_t remaining() const { return bytes_.size() - off_; }
  const std::string& name() const { return name_; }
  [[noreturn]] void fail(uint64_t at, const std::string& what) const {
    throw FormatError(name_, at, what);
  }

  std::span<const uint8_t> take(size_t n, const char* what) {
    if (bytes_.size() - off_ < n) {
      fail(off_, std::string("truncated: need ") + std::to_string(n) + " bytes for " + what + ", " +
                     std::to_string(bytes_.size() - off_) + " left");
    }
    auto s = bytes_.subspan(off_, n);
    off_ += n;
    return s;
  }
  uint32_t u32_be(const char* what) {
    const auto b = take(4, what);
    return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
  }
  template <class P>
  P point(const char* what, SubgroupCheck check = SubgroupCheck::kCheck) {
    const uint64_t at = off_;
    return decode_point<P>(take(point_size<P>(), what), at, what, name_, check);
  }
  // A vector's u32 length, bounded by the bytes left, and where its points lie; they are taken
  // but not decoded.
  template <class P>
  SectionLayout skip_vector(const char* what) {
    const uint64_t len_at = off_;
    const uint32_t n = u32_be(what);
    if ((bytes_.size() - off_) / point_size<P>() < n) {
      fail(len_at,
           std::string(what) + ": length " + std::to_string(n) + " runs past the end of the file");
    }
    const SectionLayout at{n, off_};
    take(size_t{n} * point_size<P>(), what);
    return at;
  }
  // u32 length + points, decoded in parallel, a slab at a time; each slab's bytes are handed to
  // `consumed` once decoded.
  template <class P>
  std::vector<P> vector(const char* what, SubgroupCheck check, ThreadPool& pool,
                        const ConsumedFn& consumed, const ProgressFn& progress) {
    const SectionLayout at = skip_vector<P>(what);
    const size_t n = static_cast<size_t>(at.count), sz = point_size<P>();
    const auto all = bytes_.subspan(static_cast<size_t>(at.offset), n * sz);
    std::vector<P> out(n);
    ProgressCounter counter(
        progress, std::string(what) + (check == SubgroupCheck::kCheck ? " + subgroup check" : ""),
        n);
    constexpr size_t kSlab = size_t{1} << 22;  // points: 0.4 GB of G1, 0.8 GB of G2
    for (size_t first = 0; first < n; first += kSlab) {
      const size_t count = std::min<size_t>(kSlab, n - first);
      const auto slab = all.subspan(first * sz, count * sz);
      decode_points_of<P>(slab, std::span(out).subspan(first, count), at.offset + first * sz, what,
                          name_, check, &pool, &counter);
      if (consumed) consumed(slab);
    }
    return out;
  }
  void expect_end() const {
    if (off_ != bytes_.size())
      fail(off_, std::to_string(bytes_.size() - off_) + " unexpected trailing bytes");
  }

 private:
  std::span<const uint8_t> bytes_;
  std::string name_;
  uint64_t off_ = 0;
};

VerifyingKey read_vk_fields(Reader& r) {
  VerifyingKey vk;
  vk.alpha_g1 = r.point<G1Affine>("vk alpha_g1");
  vk.beta_g1 = r.point<G1Affine>("vk beta_g1");
  vk.beta_g2 = r.point<G2Affine>("vk beta_g2");
  vk.gamma_g2 = r.point<G2Affine>("vk gamma_g2");
  vk.delta_g1 = r.point<G1Affine>("vk delta_g1");
  vk.delta_g2 = r.point<G2Affine>("vk delta_g2");
  const uint64_t at = r.offset();
  const uint32_t n = r.u32_be("vk ic length");
  if (n == 0) r.fail(at, "vk ic is empty (it needs at least the point for ONE)");
  if (r.remaining() / point_size<G1Affine>() < n) {
    r.fail(at, "vk ic length " + std::to_string(n) + " runs past the end of the file (" +
                   std::to_string(r.remaining()) + " bytes left)");
  }
  vk.ic.reserve(n);
  for (uint32_t i = 0; i < n; ++i)
    vk.ic.push_back(r.point<G1Affine>("vk ic"));
  return vk;
}

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open");
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path.string() + ": cannot create");
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error(path.string() + ": write failed");
}

}  // namespace

// Field by field in bellperson's order (VerifyingKey::write, Parameters::write); the order is
// the format, so writers of other formats here read alike line by line.
std::vector<uint8_t> serialize_verifying_key(const VerifyingKey& vk) {
  std::vector<uint8_t> out;
  put_point(out, vk.alpha_g1);
  put_point(out, vk.beta_g1);
  put_point(out, vk.beta_g2);
  put_point(out, vk.gamma_g2);
  put_point(out, vk.delta_g1);
  put_point(out, vk.delta_g2);
  put_vector(out, vk.ic);
  return out;
}

std::vector<uint8_t> serialize_parameters(const Parameters& params) {
  require_host_points(params, "serialize_parameters");
  std::vector<uint8_t> out = serialize_verifying_key(params.vk);
  put_vector(out, params.h);
  put_vector(out, params.l);
  put_vector(out, params.a);
  put_vector(out, params.b_g1);
  put_vector(out, params.b_g2);
  return out;
}

VerifyingKey parse_verifying_key(std::span<const uint8_t> bytes, const std::string& name) {
  Reader r(bytes, name);
  VerifyingKey vk = read_vk_fields(r);
  r.expect_end();
  return vk;
}

Parameters parse_parameters(std::span<const uint8_t> bytes, const std::string& name,
                            SubgroupCheck check, ThreadPool& pool, const ConsumedFn& consumed,
                            const ProgressFn& progress) {
  Reader r(bytes, name);
  Parameters p;
  p.vk = read_vk_fields(r);
  p.h = r.vector<G1Affine>("h", check, pool, consumed, progress);
  p.l = r.vector<G1Affine>("l", check, pool, consumed, progress);
  p.a = r.vector<G1Affine>("a", check, pool, consumed, progress);
  p.b_g1 = r.vector<G1Affine>("b_g1", check, pool, consumed, progress);
  p.b_g2 = r.vector<G2Affine>("b_g2", check, pool, consumed, progress);
  r.expect_end();
  return p;
}

ParametersLayout scan_parameters(std::span<const uint8_t> bytes, const std::string& name) {
  Reader r(bytes, name);
  ParametersLayout out;
  out.vk = read_vk_fields(r);
  out.h = r.skip_vector<G1Affine>("h");
  out.l = r.skip_vector<G1Affine>("l");
  out.a = r.skip_vector<G1Affine>("a");
  out.b_g1 = r.skip_vector<G1Affine>("b_g1");
  out.b_g2 = r.skip_vector<G2Affine>("b_g2");
  r.expect_end();
  out.file_bytes = bytes.size();
  return out;
}

void decode_points(std::span<const uint8_t> src, std::span<G1Affine> out, uint64_t file_offset,
                   const char* what, const std::string& name, SubgroupCheck check, ThreadPool* pool,
                   ProgressCounter* progress) {
  decode_points_of(src, out, file_offset, what, name, check, pool, progress);
}
void decode_points(std::span<const uint8_t> src, std::span<G2Affine> out, uint64_t file_offset,
                   const char* what, const std::string& name, SubgroupCheck check, ThreadPool* pool,
                   ProgressCounter* progress) {
  decode_points_of(src, out, file_offset, what, name, check, pool, progress);
}

void write_verifying_key(const std::filesystem::path& path, const VerifyingKey& vk) {
  write_file(path, serialize_verifying_key(vk));
}
void write_parameters(const std::filesystem::path& path, const Parameters& params) {
  write_file(path, serialize_parameters(params));
}

VerifyingKey read_verifying_key(const std::filesystem::path& path) {
  const auto bytes = read_file(path);
  return parse_verifying_key(bytes, path.string());
}

Parameters read_parameters(const std::filesystem::path& path, SubgroupCheck check, ThreadPool& pool,
                           const ProgressFn& progress) {
  const MappedFile file(path);
  return parse_parameters(
      file.bytes(), path.string(), check, pool,
      [&file](std::span<const uint8_t> part) { file.release(part); }, progress);
}

ParametersLayout read_parameters_layout(const std::filesystem::path& path) {
  const MappedFile file(path);
  return scan_parameters(file.bytes(), path.string());
}

}  // namespace cuzk::groth16
