#include "engine/resources/payload_spool.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace cuzk::engine {

namespace {

constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'S', 'P', 'L', '2'};

// The header (magic, the fixed fields, five length-prefixed ones) + the payload's layout.
uint64_t file_bytes_of(const ProofRequest& r) {
  const uint64_t header = sizeof kMagic + 3 * 4 + 4 * 8 + 5 * 8 + r.request_id.size() +
                          r.randomness.size() + r.comm_r_old.size() + r.comm_r_new.size() +
                          r.comm_d_new.size();
  return header + 16 + payload_size(r) + 8 * r.vanilla_proofs.size();
}

template <class T>
void write_int(std::ofstream& out, T v) {
  out.write(reinterpret_cast<const char*>(&v), sizeof v);
}

template <class Bytes>
void write_bytes(std::ofstream& out, const Bytes& b) {
  const uint64_t n = b.size();
  out.write(reinterpret_cast<const char*>(&n), sizeof n);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(n));
}

template <class T>
T read_int(std::ifstream& in, uint64_t& left) {
  T v{};
  if (left < sizeof v || !in.read(reinterpret_cast<char*>(&v), sizeof v))
    throw std::runtime_error("truncated");
  left -= sizeof v;
  return v;
}

// A length field is bounded by the bytes left in the file before anything is allocated.
std::vector<uint8_t> read_bytes(std::ifstream& in, uint64_t& left) {
  uint64_t n = 0;
  if (left < sizeof n || !in.read(reinterpret_cast<char*>(&n), sizeof n))
    throw std::runtime_error("truncated");
  left -= sizeof n;
  if (n > left)
    throw std::runtime_error("a length of " + std::to_string(n) + " bytes past the end");
  std::vector<uint8_t> b(n);
  if (!in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(n)))
    throw std::runtime_error("truncated");
  left -= n;
  return b;
}

// The request's fields before the payload.
void read_header(std::ifstream& in, uint64_t& left, ProofRequest& r) {
  char magic[sizeof kMagic];
  if (left < sizeof magic || !in.read(magic, sizeof magic) ||
      !std::equal(magic, magic + sizeof magic, kMagic)) {
    throw std::runtime_error("not a cuzk spool file (no CUZKSPL2 header)");
  }
  left -= sizeof magic;
  r.kind = static_cast<ProofKind>(read_int<uint32_t>(in, left));
  r.priority = static_cast<Priority>(read_int<uint32_t>(in, left));
  r.sector_size = read_int<uint64_t>(in, left);
  r.registered_proof = read_int<uint64_t>(in, left);
  r.sector_number = read_int<uint64_t>(in, left);
  r.miner_id = read_int<uint64_t>(in, left);
  r.partition_index = read_int<uint32_t>(in, left);
  const std::vector<uint8_t> id = read_bytes(in, left);
  r.request_id.assign(id.begin(), id.end());
  r.randomness = read_bytes(in, left);
  r.comm_r_old = read_bytes(in, left);
  r.comm_r_new = read_bytes(in, left);
  r.comm_d_new = read_bytes(in, left);
}

}  // namespace

uint64_t payload_size(const ProofRequest& r) {
  uint64_t n = r.vanilla_proof.size();
  for (const auto& p : r.vanilla_proofs)
    n += p.size();
  return n;
}

PayloadSpool::PayloadSpool(std::filesystem::path dir, uint64_t max_bytes)
    : dir_(std::move(dir)), max_bytes_(max_bytes) {
  if (dir_.empty()) {
    own_dir_ = true;
    dir_ = std::filesystem::temp_directory_path() /
           ("cuzk-spool-" + std::to_string(::getpid()) + "-" +
            std::to_string(reinterpret_cast<uintptr_t>(this)));
    return;
  }
  // A configured directory is checked and locked now: its files are jobs this spool resumes,
  // and a second engine on it would resume (and prove) the first one's queued jobs, or a
  // directory that cannot be listed would lose them without a word (issue 29).
  const std::string where = "[spool] dir " + dir_.string();
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(where + ": cannot create it (" + ec.message() + ")");
  if (std::filesystem::directory_iterator probe(dir_, ec); ec) {
    throw std::runtime_error(where + ": cannot be read (" + ec.message() + ")");
  }
  const std::filesystem::path lock = dir_ / "cuzk-spool.lock";
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd_ < 0) {
    throw std::runtime_error(where + ": cannot open " + lock.string() + " (" +
                             std::strerror(errno) + ")");
  }
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(lock_fd_);
    throw std::runtime_error(
        err == EWOULDBLOCK
            ? where + " is in use by another cuzk-daemon (it holds " + lock.string() + ")"
            : where + ": cannot lock " + lock.string() + " (" + std::strerror(err) + ")");
  }
}

PayloadSpool::~PayloadSpool() {
  std::error_code ec;
  if (own_dir_) std::filesystem::remove_all(dir_, ec);
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

std::filesystem::path PayloadSpool::write(const std::string& name, const ProofRequest& r) {
  const uint64_t size = file_bytes_of(r);
  if (max_bytes_ != 0 && bytes_ + size > max_bytes_) {
    throw std::runtime_error("the payload spool is full (" + std::to_string(bytes_) + " of " +
                             std::to_string(max_bytes_) + " bytes; this payload needs " +
                             std::to_string(size) + ")");
  }
  std::filesystem::create_directories(dir_);
  const std::filesystem::path file = dir_ / (name + ".payload");
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(kMagic, sizeof kMagic);
    write_int<uint32_t>(out, static_cast<uint32_t>(r.kind));
    write_int<uint32_t>(out, static_cast<uint32_t>(r.priority));
    write_int<uint64_t>(out, r.sector_size);
    write_int<uint64_t>(out, r.registered_proof);
    write_int<uint64_t>(out, r.sector_number);
    write_int<uint64_t>(out, r.miner_id);
    write_int<uint32_t>(out, r.partition_index);
    write_bytes(out, r.request_id);
    write_bytes(out, r.randomness);
    write_bytes(out, r.comm_r_old);
    write_bytes(out, r.comm_r_new);
    write_bytes(out, r.comm_d_new);
    write_bytes(out, r.vanilla_proof);
    const uint64_t count = r.vanilla_proofs.size();
    out.write(reinterpret_cast<const char*>(&count), sizeof count);
    for (const auto& p : r.vanilla_proofs)
      write_bytes(out, p);
    out.close();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(file, ec);
      throw std::runtime_error("cannot write " + file.string());
    }
  }
  bytes_ += size;
  return file;
}

void PayloadSpool::read(const std::filesystem::path& file, ProofRequest& r) {
  std::error_code ec;
  uint64_t left = std::filesystem::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  if (ec || !in) throw std::runtime_error("cannot open " + file.string());
  read_header(in, left, r);
  r.vanilla_proof = read_bytes(in, left);
  uint64_t count = 0;
  if (left < sizeof count || !in.read(reinterpret_cast<char*>(&count), sizeof count))
    throw std::runtime_error("truncated");
  left -= sizeof count;
  if (count > left / 8) throw std::runtime_error("a count past the end");
  r.vanilla_proofs.clear();
  for (uint64_t i = 0; i < count; ++i)
    r.vanilla_proofs.push_back(read_bytes(in, left));
}

std::vector<PayloadSpool::Leftover> PayloadSpool::leftovers() {
  std::vector<Leftover> out;
  std::error_code ec;
  if (own_dir_) return out;  // a configured one was found readable when the spool was made
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    if (!entry.is_regular_file(ec) || entry.path().extension() != ".payload") continue;
    Leftover l;
    l.job_id = entry.path().stem().string();
    l.file = entry.path();
    try {
      uint64_t left = std::filesystem::file_size(l.file);
      std::ifstream in(l.file, std::ios::binary);
      if (!in) throw std::runtime_error("cannot open");
      read_header(in, left, l.request);
      bytes_ += std::filesystem::file_size(l.file);
    } catch (const std::exception& e) {
      l.error = e.what();
    }
    out.push_back(std::move(l));
  }
  return out;
}

void PayloadSpool::remove(const std::filesystem::path& file) {
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(file, ec);
  if (!ec) bytes_ -= std::min(bytes_, size);
  std::filesystem::remove(file, ec);
}

}  // namespace cuzk::engine
