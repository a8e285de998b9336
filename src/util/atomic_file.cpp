#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>

namespace cuzk {
namespace {

[[noreturn]] void io_error(const std::filesystem::path& p, const char* what, int err) {
  throw std::runtime_error(p.string() + ": cannot " + what + ": " + std::strerror(err));
}

std::filesystem::path temporary_beside(const std::filesystem::path& path) {
  static std::atomic<uint64_t> counter{0};
  std::filesystem::path t = path;
  t += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  return t;
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::filesystem::path path, Overwrite mode)
    : path_(std::move(path)), tmp_(temporary_beside(path_)), mode_(mode) {
  std::error_code ec;
  if (mode_ == Overwrite::kRefuse &&
      std::filesystem::exists(std::filesystem::symlink_status(path_, ec))) {
    throw FileExistsError(path_);
  }
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) io_error(tmp_, "create", errno);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(tmp_.c_str());
}

void AtomicFileWriter::write(std::span<const uint8_t> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      io_error(tmp_, "write", errno);
    }
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
}

void AtomicFileWriter::write(std::string_view text) {
  write(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void AtomicFileWriter::commit() {
  if (::fsync(fd_) != 0) io_error(tmp_, "sync", errno);
  if (::close(fd_) != 0) {
    fd_ = -1;
    io_error(tmp_, "close", errno);
  }
  fd_ = -1;
  if (mode_ == Overwrite::kForce) {
    if (::rename(tmp_.c_str(), path_.c_str()) != 0) io_error(path_, "rename into place", errno);
  } else {
    // link() refuses an existing name atomically; the temporary is then dropped.
    if (::link(tmp_.c_str(), path_.c_str()) != 0) {
      const int err = errno;
      if (err == EEXIST) throw FileExistsError(path_);
      io_error(path_, "link into place", err);
    }
    ::unlink(tmp_.c_str());
  }
  committed_ = true;
}

void write_file_atomically(const std::filesystem::path& path, std::span<const uint8_t> bytes,
                           Overwrite mode) {
  AtomicFileWriter w(path, mode);
  w.write(bytes);
  w.commit();
}

}  // namespace cuzk
