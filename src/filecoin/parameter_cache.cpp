#include "filecoin/parameter_cache.hpp"

#include <fcntl.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "filecoin/hash/blake2b.hpp"
#include "filecoin/hash/sha256.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/params_file.hpp"
#include "util/bounded_json.hpp"
#include "util/read_only_file.hpp"
#include "util/text.hpp"
#include "util/utf8.hpp"

namespace cuzk::filecoin {

namespace {

std::string file_name(std::string_view cache_id, const char* ext) {
  return "v" + std::to_string(kParameterCacheVersion) + "-" + std::string(cache_id) + "." + ext;
}

std::string hex16(const Blake2b512Digest& d) {
  return to_hex(std::span(d).first(16));
}

// 64 MiB chunks, three in flight: the reader stays a chunk or two ahead of the hasher, so the
// hash runs at BLAKE2b's single-core rate when the disk (or the page cache) is faster than that.
constexpr size_t kDigestChunk = size_t{64} << 20;
constexpr size_t kDigestSlots = 3;

std::string hash_file(const ReadOnlyFile& f, const DigestProgress& progress) {
  const std::filesystem::path& file = f.path();
  const uint64_t size = f.size();
  const std::string phase = "digest " + file.filename().string();
  Blake2b512 h;
  if (size <= kDigestChunk) {
    std::vector<uint8_t> buf(static_cast<size_t>(size));
    const size_t n = f.read_at(0, buf);
    h.update(std::span(buf.data(), n));
    return hex16(h.finish());
  }
  struct Slot {
    std::vector<uint8_t> bytes;
    size_t n = 0;
    bool full = false;
  };
  std::vector<Slot> slots(kDigestSlots);
  for (Slot& s : slots)
    s.bytes.resize(kDigestChunk);
  std::mutex mu;
  std::condition_variable cv;
  bool stop = false, done = false;
  std::exception_ptr error;
  std::thread reader([&] {
    try {
      for (uint64_t i = 0, offset = 0;; ++i, offset += kDigestChunk) {
        Slot& s = slots[i % kDigestSlots];
        {
          std::unique_lock<std::mutex> lock(mu);
          cv.wait(lock, [&] { return !s.full || stop; });
          if (stop) return;
        }
        const size_t n = f.read_at(offset, s.bytes);
        std::lock_guard<std::mutex> lock(mu);
        s.n = n;
        s.full = true;
        if (n < kDigestChunk) done = true;
        cv.notify_all();
        if (done) return;
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      error = std::current_exception();
      cv.notify_all();
    }
  });
  std::exception_ptr hash_error;
  try {
    for (uint64_t i = 0;; ++i) {
      Slot& s = slots[i % kDigestSlots];
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return s.full || error != nullptr; });
        if (!s.full) break;
      }
      h.update(std::span(s.bytes.data(), s.n));
      if (progress) progress(phase, std::min(size, (i + 1) * kDigestChunk), size);
      const bool last = s.n < kDigestChunk;
      std::lock_guard<std::mutex> lock(mu);
      s.full = false;
      cv.notify_all();
      if (last) break;
    }
  } catch (...) {
    hash_error = std::current_exception();
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    stop = true;
    cv.notify_all();
  }
  reader.join();
  if (error) std::rethrow_exception(error);
  if (hash_error) std::rethrow_exception(hash_error);
  return hex16(h.finish());
}

bool present(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::exists(p, ec);
}

std::string read_small_file(const std::filesystem::path& p, size_t max_bytes) {
  const ReadOnlyFile f(p);
  if (f.size() > max_bytes) {
    throw ParameterFileError(p.string() + ": " + std::to_string(f.size()) +
                             " bytes, more than a parameter .meta can be (" +
                             std::to_string(max_bytes) + ")");
  }
  std::string out(static_cast<size_t>(f.size()), '\0');
  out.resize(f.read_at(0, std::span(reinterpret_cast<uint8_t*>(out.data()), out.size())));
  return out;
}

void check_digest(const ReadOnlyFile& file, std::string_view published, DigestTiming* timing,
                  const ProgressFn& progress = nullptr) {
  const std::string actual = parameter_file_digest(file, timing, progress);
  if (actual != published) {
    throw ParameterFileError(file.path().string() + ": BLAKE2b digest " + actual +
                             " differs from the published " + std::string(published) +
                             " (parameters.json); the file is corrupt or not Filecoin's; nothing "
                             "loaded");
  }
}

}  // namespace

std::string parameter_cache_id(std::string_view prefix, std::string_view identifier) {
  const Sha256Digest d =
      sha256(std::span(reinterpret_cast<const uint8_t*>(identifier.data()), identifier.size()));
  return std::string(prefix) + "-" + to_hex(d);
}

ParameterFiles parameter_files(const std::filesystem::path& dir, std::string_view cache_id) {
  return {dir / file_name(cache_id, "params"), dir / file_name(cache_id, "vk"),
          dir / file_name(cache_id, "meta")};
}

std::filesystem::path default_parameter_dir() {
  if (const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE"); env != nullptr && *env != 0) {
    return env;
  }
  return "/var/tmp/filecoin-proof-parameters";
}

std::string fetch_parameters_hint(uint64_t sector_size) {
  return "fetch Filecoin's published parameters with `curio fetch-params " +
         binary_size_name(sector_size) +
         "` (into $FIL_PROOFS_PARAMETER_CACHE, default /var/tmp/filecoin-proof-parameters)";
}

std::string parameter_metadata_json(const ParameterMetadata& meta) {
  // Compact and in this order, as serde_json writes CacheEntryMetadata (then our two fields).
  std::string out = "{\"sector_size\":" + std::to_string(meta.sector_size);
  if (meta.insecure) {
    out += ",\"insecure\":true,\"seed\":" + nlohmann::json(escape_invalid_utf8(meta.seed)).dump();
  }
  return out + "}";
}

ParameterMetadata parse_parameter_metadata(std::string_view text, const std::string& name) {
  nlohmann::json j;
  try {
    j = parse_json_bounded(text, 1);  // an object of scalars
  } catch (const JsonLimitError& e) {
    throw ParameterFileError(name + ": not a parameter .meta (" + e.what() + ")");
  }
  const auto bad = [&](const std::string& what) { throw ParameterFileError(name + ": " + what); };
  if (!j.is_object()) bad("expected a JSON object");
  ParameterMetadata m;
  if (const auto it = j.find("sector_size"); it != j.end()) {
    if (!it->is_number_unsigned()) bad("sector_size is not an unsigned integer");
    m.sector_size = it->get<uint64_t>();
  } else {
    bad("missing sector_size");
  }
  if (const auto it = j.find("insecure"); it != j.end()) {
    if (!it->is_boolean()) bad("insecure is not true or false");
    m.insecure = it->get<bool>();
  }
  if (const auto it = j.find("seed"); it != j.end() && it->is_string()) {
    m.seed = it->get<std::string>();
  }
  return m;
}

std::string parameter_file_digest(const std::filesystem::path& file, DigestTiming* timing,
                                  const DigestProgress& progress) {
  return parameter_file_digest(ReadOnlyFile(file), timing, progress);
}

std::string parameter_file_digest(const ReadOnlyFile& f, DigestTiming* timing,
                                  const DigestProgress& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  ::posix_fadvise(f.fd(), 0, 0, POSIX_FADV_SEQUENTIAL);
  const std::string digest = hash_file(f, progress);
  if (timing != nullptr) {
    timing->bytes = f.size();
    timing->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return digest;
}

std::optional<std::string_view> published_digest(
    std::string_view file_name, std::span<const PublishedParameterFile> published) {
  for (const PublishedParameterFile& f : published)
    if (f.name == file_name) return f.digest;
  return std::nullopt;
}

namespace {

// check_parameter_set, the .params hashed through `held` when given (else opened by its path).
ParameterVerdict check_set(const ParameterFiles& files, const ParameterChecks& checks,
                           bool want_params, std::span<const PublishedParameterFile> published,
                           const ReadOnlyFile* held) {
  ParameterVerdict v;
  if (present(files.meta)) {
    v.meta = parse_parameter_metadata(read_small_file(files.meta, 4096), files.meta.string());
  }
  if (v.meta && v.meta->insecure) {
    if (!checks.allow_insecure) {
      throw ParameterFileError(
          files.meta.string() + " marks this parameter set INSECURE (test parameters from seed \"" +
          escape_invalid_utf8(v.meta->seed) +
          "\": anyone who knows it can forge proofs); refused. Set [srs] allow_insecure_params = "
          "true (daemon) or pass --allow-insecure-params to use them for tests");
    }
    v.insecure = true;
    v.bulk_check = checks.check_bulk_points ? SubgroupCheck::kCheck : SubgroupCheck::kSkipTrusted;
    return v;  // our own setup's output: no published digest can match
  }
  if (const auto d = published_digest(files.vk.filename().string(), published);
      d && present(files.vk)) {
    check_digest(ReadOnlyFile(files.vk), *d, nullptr);
    v.vk_digest_verified = true;
  }
  if (want_params && checks.verify_params_digest) {
    const auto d = published_digest(files.params.filename().string(), published);
    if (!d) {
      throw ParameterFileError(files.params.string() +
                               ": no published digest for this name (verify_digests is on)");
    }
    if (held != nullptr) {
      check_digest(*held, *d, &v.params_hash, checks.progress);
    } else {
      check_digest(ReadOnlyFile(files.params), *d, &v.params_hash, checks.progress);
    }
    v.params_digest_verified = true;
  }
  v.bulk_check = checks.check_bulk_points && !v.params_digest_verified
                     ? SubgroupCheck::kCheck
                     : SubgroupCheck::kSkipTrusted;
  return v;
}

}  // namespace

ParameterVerdict check_parameter_set(const ParameterFiles& files, const ParameterChecks& checks,
                                     bool want_params,
                                     std::span<const PublishedParameterFile> published) {
  return check_set(files, checks, want_params, published, nullptr);
}

void write_parameter_set(
    const ParameterFiles& files, const ParameterMetadata& meta, Overwrite mode,
    const std::function<groth16::VerifyingKey(AtomicFileWriter&)>& write_params) {
  std::filesystem::create_directories(files.params.parent_path());
  // Refuse before writing anything: a half-replaced set would mix two setups.
  if (mode == Overwrite::kRefuse) {
    for (const auto* p : {&files.params, &files.vk, &files.meta}) {
      if (present(*p) || std::filesystem::is_symlink(*p)) throw FileExistsError(*p);
    }
  }
  AtomicFileWriter p(files.params, mode), vk(files.vk, mode), m(files.meta, mode);
  vk.write(groth16::serialize_verifying_key(write_params(p)));
  m.write(parameter_metadata_json(meta));
  // The .meta last: a set is marked once its points are in place.
  p.commit();
  vk.commit();
  m.commit();
}

void write_parameter_set(const ParameterFiles& files, const groth16::Parameters& params,
                         const ParameterMetadata& meta, Overwrite mode) {
  write_parameter_set(files, meta, mode, [&](AtomicFileWriter& w) {
    w.write(groth16::serialize_parameters(params));
    return params.vk;
  });
}

groth16::Parameters read_parameter_set(const ParameterFiles& files, const ParameterChecks& checks,
                                       ThreadPool& pool, ParameterVerdict* verdict) {
  if (!present(files.params)) throw std::runtime_error(files.params.string() + " is missing");
  ParameterVerdict v = check_parameter_set(files, checks, true);
  groth16::Parameters out =
      groth16::read_parameters(files.params, v.bulk_check, pool, checks.progress);
  if (verdict != nullptr) *verdict = std::move(v);
  return out;
}

groth16::Parameters open_parameter_set(const ParameterFiles& files, const ParameterChecks& checks,
                                       ParameterVerdict* verdict,
                                       std::span<const PublishedParameterFile> published) {
  if (!present(files.params)) throw std::runtime_error(files.params.string() + " is missing");
  // Opened first: the descriptor the digest is taken through is the one the points are read by.
  ReadOnlyFile held(files.params);
  ParameterVerdict v = check_set(files, checks, true, published, &held);
  auto source = std::make_shared<const groth16::ParamsFileSource>(std::move(held), v.bulk_check);
  groth16::Parameters out;
  out.vk = source->layout().vk;
  out.source = std::move(source);
  if (verdict != nullptr) *verdict = std::move(v);
  return out;
}

groth16::VerifyingKey read_verifying_key_set(const ParameterFiles& files,
                                             const ParameterChecks& checks,
                                             ParameterVerdict* verdict) {
  if (!present(files.vk)) throw std::runtime_error(files.vk.string() + " is missing");
  ParameterVerdict v = check_parameter_set(files, checks, false);
  groth16::VerifyingKey vk = groth16::read_verifying_key(files.vk);
  if (verdict != nullptr) *verdict = std::move(v);
  return vk;
}

}  // namespace cuzk::filecoin
