#include "util/file_copy.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace cuzk {

namespace {

std::runtime_error file_error(const std::filesystem::path& path, const char* what, int err) {
  return std::runtime_error(path.string() + ": " + what + ": " + std::strerror(err));
}

}  // namespace

FileCopy::FileCopy(const std::filesystem::path& path, ThreadPool* pool, size_t piece_bytes) {
  if (piece_bytes == 0) throw std::invalid_argument("FileCopy: pieces of 0 bytes");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw file_error(path, "cannot open", errno);
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw file_error(path, "cannot stat", errno);
  if (!S_ISREG(st.st_mode)) throw std::runtime_error(path.string() + ": not a regular file");
  const size_t size = static_cast<size_t>(st.st_size);
  if (size == 0) return;
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw file_error(path, "cannot allocate memory for it", errno);
  data_ = static_cast<uint8_t*>(p);
  size_ = size;
  // The first error a piece met (errno, or -1 for a file that ended early).
  std::atomic<int> failed{0};
  const auto read_pieces = [&](size_t first, size_t last) {
    for (size_t k = first; k < last && failed.load(std::memory_order_relaxed) == 0; ++k) {
      size_t at = k * piece_bytes;
      const size_t end = std::min(size, at + piece_bytes);
      while (at < end) {
        const ssize_t got = ::pread(fd, data_ + at, end - at, static_cast<off_t>(at));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
          int expected = 0;
          failed.compare_exchange_strong(expected, got < 0 ? errno : -1);
          return;
        }
        at += static_cast<size_t>(got);
      }
    }
  };
  const size_t pieces = (size + piece_bytes - 1) / piece_bytes;
  try {
    if (pool != nullptr) {
      pool->parallel_for(pieces, read_pieces, 1, 1);
    } else {
      read_pieces(0, pieces);
    }
    const int err = failed.load();
    if (err < 0) throw std::runtime_error(path.string() + ": the file ended while it was read");
    if (err > 0) throw file_error(path, "cannot read", err);
  } catch (...) {  // (no destructor runs for a constructor that throws)
    ::munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
    throw;
  }
}

FileCopy::~FileCopy() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

FileCopy::FileCopy(FileCopy&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

}  // namespace cuzk
