#include "pce/pce_file.hpp"

#include <openssl/evp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include "util/file_copy.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::pce {

namespace {

constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'P', 'C', 'E', '\0'};
constexpr uint64_t kAlign = 4096;
// 256 MiB chunks: a 32 GiB PoRep file has ~24, hashed in parallel when it is read.
constexpr uint64_t kChunkBytes = uint64_t{256} << 20;
constexpr size_t kSections = 13;
constexpr size_t kMaxNameBytes = 64;
using Digest = std::array<uint8_t, 32>;

uint64_t align_up(uint64_t x) {
  return (x + kAlign - 1) / kAlign * kAlign;
}
uint64_t words_of(uint64_t bits) {
  return (bits + 63) / 64;
}

Digest sha256_of(std::span<const uint8_t> data) {
  static EVP_MD* md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  Digest d{};
  unsigned len = 0;
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (md == nullptr || ctx == nullptr || EVP_DigestInit_ex2(ctx.get(), md, nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), data.data(), data.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), d.data(), &len) != 1) {
    throw std::runtime_error("pce: OpenSSL SHA-256 failed");
  }
  return d;
}

std::vector<Digest> chunk_digests(std::span<const uint8_t> body, ThreadPool& pool) {
  std::vector<Digest> out((body.size() + kChunkBytes - 1) / kChunkBytes);
  pool.run(out.size(), [&](size_t i) {
    const uint64_t begin = i * kChunkBytes;
    out[i] = sha256_of(body.subspan(begin, std::min<uint64_t>(kChunkBytes, body.size() - begin)));
  });
  return out;
}

struct Section {
  uint64_t offset = 0, bytes = 0;
};

// The fixed part of the header, in file order.
struct Header {
  uint32_t version = kPceFormatVersion;
  uint64_t header_bytes = 0, file_bytes = 0;
  CircuitIdentity identity;
  uint64_t num_inputs = 0, num_aux = 0, num_rows = 0, num_coefficients = 0;
  uint64_t nnz[3] = {};
  Section sections[kSections];
  std::vector<Digest> chunks;
};

class Writer {
 public:
  template <class T>
  void put(T v) {
    put_bytes({reinterpret_cast<const uint8_t*>(&v), sizeof v});
  }
  // resize + memcpy rather than insert: gcc 12 reports a bogus overflow for the insert.
  void put_bytes(std::span<const uint8_t> b) {
    const size_t at = bytes_.size();
    bytes_.resize(at + b.size());
    if (!b.empty()) std::memcpy(bytes_.data() + at, b.data(), b.size());
  }
  void put_string(const std::string& s) {
    put<uint32_t>(static_cast<uint32_t>(s.size()));
    put_bytes({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
  }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

std::vector<uint8_t> encode_header(const Header& h) {
  Writer w;
  w.put_bytes({reinterpret_cast<const uint8_t*>(kMagic), sizeof kMagic});
  w.put<uint32_t>(h.version);
  w.put<uint64_t>(h.header_bytes);
  w.put<uint64_t>(h.file_bytes);
  w.put_string(h.identity.kind);
  w.put<uint64_t>(h.identity.sector_size);
  w.put_string(h.identity.api_version);
  w.put<uint32_t>(h.identity.circuit_version);
  for (uint64_t v :
       {h.num_inputs, h.num_aux, h.num_rows, h.num_coefficients, h.nnz[0], h.nnz[1], h.nnz[2]})
    w.put<uint64_t>(v);
  w.put<uint32_t>(kSections);
  for (const Section& s : h.sections) {
    w.put<uint64_t>(s.offset);
    w.put<uint64_t>(s.bytes);
  }
  w.put<uint64_t>(kChunkBytes);
  w.put<uint32_t>(static_cast<uint32_t>(h.chunks.size()));
  for (const Digest& d : h.chunks)
    w.put_bytes(d);
  return std::move(w.bytes());
}

// Bytes of the encoded header for `chunks` digests (the strings are bounded by kMaxNameBytes).
uint64_t header_bytes_for(const CircuitIdentity& id, size_t chunks) {
  const uint64_t fixed = 8 + 4 + 8 + 8 + 4 + id.kind.size() + 8 + 4 + id.api_version.size() + 4 +
                         7 * 8 + 4 + kSections * 16 + 8 + 4 + chunks * 32 + 32;
  return align_up(fixed);
}

class Reader {
 public:
  Reader(std::span<const uint8_t> b, const std::string& file) : b_(b), file_(file) {}
  template <class T>
  T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }
  std::span<const uint8_t> get_bytes(size_t n) {
    need(n);
    auto s = b_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  std::string get_string(const char* what) {
    const auto n = get<uint32_t>();
    if (n > kMaxNameBytes) throw PceFileError(file_ + ": the " + what + " name is too long");
    const auto s = get_bytes(n);
    return {reinterpret_cast<const char*>(s.data()), s.size()};
  }

 private:
  void need(size_t n) const {
    if (b_.size() - pos_ < n) throw PceFileError(file_ + ": the header is truncated");
  }
  std::span<const uint8_t> b_;
  size_t pos_ = 0;
  const std::string& file_;
};

// Parses and checks the header of a file of `file_size` bytes (its first bytes in `head`).
Header decode_header(std::span<const uint8_t> head, uint64_t file_size, const std::string& file) {
  if (head.size() < 16 || std::memcmp(head.data(), kMagic, sizeof kMagic) != 0)
    throw PceFileError(file + ": not a cuzk PCE file (bad magic)");
  Reader r(head, file);
  r.get_bytes(sizeof kMagic);
  Header h;
  h.version = r.get<uint32_t>();
  if (h.version != kPceFormatVersion) {
    throw PceFileError(file + ": PCE format version " + std::to_string(h.version) +
                       ", this build reads version " + std::to_string(kPceFormatVersion));
  }
  h.header_bytes = r.get<uint64_t>();
  if (h.header_bytes < kAlign || h.header_bytes > head.size() || h.header_bytes % kAlign != 0) {
    throw PceFileError(file + ": bad header size " + std::to_string(h.header_bytes) +
                       " (truncated?)");
  }
  Digest stored{};
  std::memcpy(stored.data(), head.data() + h.header_bytes - 32, 32);
  if (sha256_of(head.first(h.header_bytes - 32)) != stored)
    throw PceFileError(file + ": the header checksum does not match (the file is damaged)");
  h.file_bytes = r.get<uint64_t>();
  if (h.file_bytes != file_size) {
    throw PceFileError(file + ": " + std::to_string(file_size) + " bytes, the header says " +
                       std::to_string(h.file_bytes) + " (truncated or appended to)");
  }
  h.identity.kind = r.get_string("kind");
  h.identity.sector_size = r.get<uint64_t>();
  h.identity.api_version = r.get_string("API version");
  h.identity.circuit_version = r.get<uint32_t>();
  h.num_inputs = r.get<uint64_t>();
  h.num_aux = r.get<uint64_t>();
  h.num_rows = r.get<uint64_t>();
  h.num_coefficients = r.get<uint64_t>();
  for (uint64_t& n : h.nnz)
    n = r.get<uint64_t>();
  if (r.get<uint32_t>() != kSections) throw PceFileError(file + ": unexpected section count");
  for (Section& s : h.sections) {
    s.offset = r.get<uint64_t>();
    s.bytes = r.get<uint64_t>();
  }
  if (r.get<uint64_t>() != kChunkBytes) throw PceFileError(file + ": unexpected chunk size");
  const auto chunks = r.get<uint32_t>();
  const uint64_t body_bytes = file_size - h.header_bytes;
  if (chunks != (body_bytes + kChunkBytes - 1) / kChunkBytes)
    throw PceFileError(file + ": the chunk table does not cover the file");
  h.chunks.resize(chunks);
  for (Digest& d : h.chunks) {
    const auto b = r.get_bytes(32);
    std::copy(b.begin(), b.end(), d.begin());
  }
  // Counts the sections must agree with (32-bit offsets and columns: the format's limits).
  if (h.num_inputs == 0 || h.num_inputs + h.num_aux > UINT32_MAX || h.num_rows >= UINT32_MAX ||
      h.num_coefficients == 0 || h.num_coefficients > kMaxCoefficients) {
    throw PceFileError(file + ": counts out of range");
  }
  for (uint64_t n : h.nnz)
    if (n > UINT32_MAX) throw PceFileError(file + ": counts out of range");
  const uint64_t want[kSections] = {h.num_coefficients * 32,
                                    (h.num_rows + 1) * 4,
                                    h.nnz[0] * 4,
                                    h.nnz[0] * 2,
                                    (h.num_rows + 1) * 4,
                                    h.nnz[1] * 4,
                                    h.nnz[1] * 2,
                                    (h.num_rows + 1) * 4,
                                    h.nnz[2] * 4,
                                    h.nnz[2] * 2,
                                    words_of(h.num_aux) * 8,
                                    words_of(h.num_inputs) * 8,
                                    words_of(h.num_aux) * 8};
  uint64_t end = h.header_bytes;
  for (size_t i = 0; i < kSections; ++i) {
    const Section& s = h.sections[i];
    if (s.bytes != want[i] || s.offset % kAlign != 0 || s.offset < end || s.offset > file_size ||
        file_size - s.offset < s.bytes) {
      throw PceFileError(file + ": section " + std::to_string(i) + " is out of place");
    }
    end = s.offset + s.bytes;
  }
  return h;
}

template <class T>
std::span<const T> view(std::span<const uint8_t> file, const Section& s) {
  return {reinterpret_cast<const T*>(file.data() + s.offset), s.bytes / sizeof(T)};
}

DensityTracker density_from(std::span<const uint64_t> words, uint64_t bits,
                            const std::string& file) {
  if (bits % 64 != 0 && !words.empty() && (words.back() >> (bits % 64)) != 0)
    throw PceFileError(file + ": a density bitmap has bits past its end");
  return DensityTracker::from_words({words.begin(), words.end()}, bits);
}

void check_matrix(const CsrMatrix& m, uint64_t columns, uint64_t coefficients, const char* name,
                  const std::string& file, ThreadPool& pool) {
  if (m.row_ptr.front() != 0 || m.row_ptr.back() != m.nnz())
    throw PceFileError(file + ": matrix " + name + " has inconsistent row offsets");
  std::atomic<bool> bad{false};
  pool.parallel_for(m.rows(), [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end && !bad.load(std::memory_order_relaxed); ++r) {
      if (m.row_ptr[r] > m.row_ptr[r + 1]) {
        bad = true;
        return;
      }
      for (uint32_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
        if (m.cols[k] >= columns || m.coeffs[k] >= coefficients) {
          bad = true;
          return;
        }
      }
    }
  });
  if (bad) throw PceFileError(file + ": matrix " + name + " has an entry out of range");
}

// The header alone, read from the file's first MiB and checked (its own SHA-256, sizes, section
// table) without the body.
Header read_header(const std::filesystem::path& path, uint64_t& size) {
  const std::string file = path.string();
  std::error_code ec;
  size = std::filesystem::file_size(path, ec);
  if (ec) throw PceFileError(file + ": cannot read: " + ec.message());
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> head(std::min<uint64_t>(size, 1u << 20));
  in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  if (!in) throw PceFileError(file + ": cannot read the header");
  return decode_header(head, size, file);
}

}  // namespace

std::filesystem::path pce_file_path(const std::filesystem::path& dir, const CircuitIdentity& id) {
  return dir / (id.to_string() + ".pce");
}

uint64_t write_pce_file(const std::filesystem::path& path, const RecordedCircuit& rc,
                        ThreadPool& pool) {
  if (rc.identity.kind.size() > kMaxNameBytes || rc.identity.api_version.size() > kMaxNameBytes)
    throw std::invalid_argument("pce: identity names are limited to 64 bytes");
  Header h;
  h.identity = rc.identity;
  h.num_inputs = rc.num_inputs;
  h.num_aux = rc.num_aux;
  h.num_rows = rc.num_rows;
  h.num_coefficients = rc.coefficients.size();
  const CsrMatrix* mats[3] = {&rc.a, &rc.b, &rc.c};
  for (int k = 0; k < 3; ++k)
    h.nnz[k] = mats[k]->nnz();

  // The sections' bytes, in file order.
  std::vector<uint8_t> coeff_bytes(rc.coefficients.size() * 32);
  for (size_t i = 0; i < rc.coefficients.size(); ++i) {
    const auto le = rc.coefficients[i].to_bytes_le();
    std::copy(le.begin(), le.end(), coeff_bytes.begin() + static_cast<ptrdiff_t>(i * 32));
  }
  const auto bytes_of = [](const auto& span) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(span.data()),
                                    span.size_bytes());
  };
  const std::vector<uint64_t>* densities[3] = {
      &rc.a_aux_density.words(), &rc.b_input_density.words(), &rc.b_aux_density.words()};
  std::span<const uint8_t> parts[kSections] = {coeff_bytes,
                                               bytes_of(rc.a.row_ptr),
                                               bytes_of(rc.a.cols),
                                               bytes_of(rc.a.coeffs),
                                               bytes_of(rc.b.row_ptr),
                                               bytes_of(rc.b.cols),
                                               bytes_of(rc.b.coeffs),
                                               bytes_of(rc.c.row_ptr),
                                               bytes_of(rc.c.cols),
                                               bytes_of(rc.c.coeffs),
                                               bytes_of(std::span<const uint64_t>(*densities[0])),
                                               bytes_of(std::span<const uint64_t>(*densities[1])),
                                               bytes_of(std::span<const uint64_t>(*densities[2]))};
  // Offsets first: the header's size depends on the number of chunks of the body after it.
  uint64_t body = 0;
  for (size_t i = 0; i < kSections; ++i) {
    body = align_up(body);
    h.sections[i].offset = body;  // relative to the body for now
    h.sections[i].bytes = parts[i].size();
    body += parts[i].size();
  }
  body = align_up(body);
  const size_t chunks = (body + kChunkBytes - 1) / kChunkBytes;
  h.header_bytes = header_bytes_for(h.identity, chunks);
  h.file_bytes = h.header_bytes + body;
  for (Section& s : h.sections)
    s.offset += h.header_bytes;

  const std::filesystem::path tmp = path.string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                                    std::to_string(reinterpret_cast<uintptr_t>(&h) & 0xffffff);
  std::filesystem::create_directories(path.parent_path().empty() ? "." : path.parent_path());
  try {
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) throw std::runtime_error(tmp.string() + ": cannot create");
      const std::vector<char> zeros(kAlign, 0);
      uint64_t pos = 0;
      const auto pad_to = [&](uint64_t at) {
        while (pos < at) {
          const uint64_t n = std::min<uint64_t>(at - pos, zeros.size());
          out.write(zeros.data(), static_cast<std::streamsize>(n));
          pos += n;
        }
      };
      pad_to(h.header_bytes);
      for (size_t i = 0; i < kSections; ++i) {
        pad_to(h.sections[i].offset);
        out.write(reinterpret_cast<const char*>(parts[i].data()),
                  static_cast<std::streamsize>(parts[i].size()));
        pos += parts[i].size();
      }
      pad_to(h.file_bytes);
      out.close();
      if (!out) throw std::runtime_error(tmp.string() + ": write failed");
    }
    {
      const MappedFile written(tmp);
      h.chunks = chunk_digests(written.bytes().subspan(h.header_bytes), pool);
    }
    std::vector<uint8_t> head = encode_header(h);
    head.resize(h.header_bytes - 32, 0);
    const Digest hd = sha256_of(head);
    head.insert(head.end(), hd.begin(), hd.end());
    {
      std::fstream out(tmp, std::ios::binary | std::ios::in | std::ios::out);
      out.seekp(0);
      out.write(reinterpret_cast<const char*>(head.data()),
                static_cast<std::streamsize>(head.size()));
      out.flush();
      if (!out) throw std::runtime_error(tmp.string() + ": header write failed");
    }
    std::filesystem::rename(tmp, path);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
  return h.file_bytes;
}

PceFileInfo read_pce_header(const std::filesystem::path& path) {
  uint64_t size = 0;
  const Header h = read_header(path, size);
  return {h.identity, h.num_inputs, h.num_aux,          h.num_rows, h.nnz[0],
          h.nnz[1],   h.nnz[2],     h.num_coefficients, size};
}

RecordedCircuit read_pce_file(const std::filesystem::path& path, const CircuitIdentity& expected,
                              ThreadPool& pool) {
  const std::string file = path.string();
  const auto check_identity = [&](const Header& h) {
    if (h.identity != expected) {
      throw PceFileError(file + ": recorded for " + h.identity.to_string() + ", expected " +
                         expected.to_string());
    }
  };
  // The header first: a file of another circuit, or with a damaged header, is refused before
  // its body (5.9 GB at 32 GiB PoRep) is read.
  uint64_t size = 0;
  check_identity(read_header(path, size));
  // Read, not mapped: a capped device page-locks the matrices in place, where registering a file
  // mapping hung (FileCopy). The checksums below read every byte anyway. The header is decoded
  // again from what was read (the file may have been replaced in between).
  std::shared_ptr<FileCopy> copy;
  try {
    copy = std::make_shared<FileCopy>(path, &pool);
  } catch (const std::exception& e) {
    throw PceFileError(e.what());
  }
  const auto bytes = copy->bytes();
  const Header h = decode_header(bytes, bytes.size(), file);
  check_identity(h);
  if (chunk_digests(bytes.subspan(h.header_bytes), pool) != h.chunks)
    throw PceFileError(file + ": a body checksum does not match (the file is damaged)");

  struct Storage {
    std::shared_ptr<FileCopy> copy;
    std::vector<Fr> coefficients;
  };
  auto storage = std::make_shared<Storage>();
  storage->copy = copy;
  const auto coeff = view<uint8_t>(bytes, h.sections[0]);
  storage->coefficients.resize(h.num_coefficients);
  for (size_t i = 0; i < h.num_coefficients; ++i) {
    const auto c = Fr::from_bytes_le(std::span<const uint8_t, 32>(coeff.data() + i * 32, 32));
    if (!c) throw PceFileError(file + ": coefficient " + std::to_string(i) + " is not in Fr");
    storage->coefficients[i] = *c;
  }
  RecordedCircuit rc;
  rc.identity = h.identity;
  rc.num_inputs = h.num_inputs;
  rc.num_aux = h.num_aux;
  rc.num_rows = h.num_rows;
  rc.coefficients = storage->coefficients;
  CsrMatrix* mats[3] = {&rc.a, &rc.b, &rc.c};
  const char* names[3] = {"A", "B", "C"};
  for (int k = 0; k < 3; ++k) {
    *mats[k] = {view<uint32_t>(bytes, h.sections[1 + 3 * k]),
                view<uint32_t>(bytes, h.sections[2 + 3 * k]),
                view<CoefficientIndex>(bytes, h.sections[3 + 3 * k])};
    check_matrix(*mats[k], h.num_inputs + h.num_aux, h.num_coefficients, names[k], file, pool);
  }
  rc.a_aux_density = density_from(view<uint64_t>(bytes, h.sections[10]), h.num_aux, file);
  rc.b_input_density = density_from(view<uint64_t>(bytes, h.sections[11]), h.num_inputs, file);
  rc.b_aux_density = density_from(view<uint64_t>(bytes, h.sections[12]), h.num_aux, file);
  rc.storage_bytes = bytes.size();
  rc.storage = std::move(storage);
  return rc;
}

}  // namespace cuzk::pce
