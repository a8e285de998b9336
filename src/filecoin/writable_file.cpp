#include "filecoin/writable_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const char* what, int err) {
  throw std::runtime_error(path.string() + ": cannot " + what + ": " + std::strerror(err));
}

uintptr_t page_size() {
  return static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace

WritableMap::WritableMap(const std::filesystem::path& path, uint64_t size)
    : path_(path), size_(static_cast<size_t>(size)) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "open for writing", errno);
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    const int err = errno;
    ::close(fd);
    fail(path, "set the length", err);
  }
  if (size_ > 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      fail(path, "mmap", err);
    }
    data_ = static_cast<uint8_t*>(p);
  }
  ::close(fd);
}

WritableMap::~WritableMap() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

void drop_pages(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return;
  const uintptr_t page = page_size();
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(bytes.data()) + page - 1) & ~(page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(bytes.data()) + bytes.size()) & ~(page - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

void advise_random(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return;
  const uintptr_t page = page_size();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(bytes.data()) & ~(page - 1);
  ::madvise(reinterpret_cast<void*>(begin),
            reinterpret_cast<uintptr_t>(bytes.data()) + bytes.size() - begin, MADV_RANDOM);
}

}  // namespace cuzk::filecoin
