#include "util/mapped_file.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "util/read_only_file.hpp"

namespace cuzk {

MappedFile::MappedFile(const std::filesystem::path& path) : path_(path) {
  const ReadOnlyFile file(path);
  map(file.fd(), static_cast<size_t>(file.size()));
}

MappedFile::MappedFile(const ReadOnlyFile& file) : path_(file.path()) {
  map(file.fd(), static_cast<size_t>(file.size()));
}

void MappedFile::map(int fd, size_t size) {
  size_ = size;
  if (size_ == 0) return;
  void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) {
    throw std::runtime_error(path_.string() + ": cannot mmap: " + std::strerror(errno));
  }
  data_ = static_cast<const uint8_t*>(p);
}

void MappedFile::release(std::span<const uint8_t> part) const {
  if (part.empty()) return;
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(part.data()) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(part.data()) + part.size()) / page * page;
  // Advice only: a refusal leaves the pages mapped, which costs memory but not correctness.
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
}

MappedFile::MappedFile(MappedFile&& o) noexcept
    : path_(std::move(o.path_)),
      data_(std::exchange(o.data_, nullptr)),
      size_(std::exchange(o.size_, 0)) {}

}  // namespace cuzk
