#include "engine/payload_spool.hpp"

#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <vector>

namespace cuzk::engine {

namespace {

// 8 for the length + the file layout's per-vector overhead.
uint64_t file_bytes_of(const ProofRequest& r) {
  return 16 + payload_size(r) + 8 * r.vanilla_proofs.size();
}

void write_bytes(std::ofstream& out, const std::vector<uint8_t>& b) {
  const uint64_t n = b.size();
  out.write(reinterpret_cast<const char*>(&n), sizeof n);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(n));
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
  }
}

PayloadSpool::~PayloadSpool() {
  std::error_code ec;
  if (own_dir_) std::filesystem::remove_all(dir_, ec);
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

void PayloadSpool::remove(const std::filesystem::path& file) {
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(file, ec);
  if (!ec) bytes_ -= std::min(bytes_, size);
  std::filesystem::remove(file, ec);
}

}  // namespace cuzk::engine
