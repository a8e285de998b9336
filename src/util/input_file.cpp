#include "util/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cuzk {
namespace {

std::string size_text(uint64_t bytes) {
  if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_input_file(const std::filesystem::path& path, uint64_t max_bytes, InputKind kind) {
  const std::string name = path.string();
  // O_NONBLOCK: opening a FIFO nobody writes to would wait; it is cleared again below.
  Fd f{::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (f.fd < 0) throw InputFileError(name + ": cannot open (" + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    throw InputFileError(name + ": cannot stat (" + std::strerror(errno) + ")");
  }
  const bool regular = S_ISREG(st.st_mode);
  if (S_ISDIR(st.st_mode)) throw InputFileError(name + ": is a directory, not a file");
  if (!regular && (kind == InputKind::kRegularOnly || !S_ISFIFO(st.st_mode))) {
    throw InputFileError(
        name + ": not a regular file (" +
        (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file") + ")");
  }
  const auto too_large = [&] {
    return InputFileError(name + ": larger than " + size_text(max_bytes));
  };
  if (regular && static_cast<uint64_t>(st.st_size) > max_bytes) throw too_large();
  ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);

  std::string out;
  if (regular) out.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputFileError(name + ": read error (" + std::strerror(errno) + ")");
    }
    if (n == 0) break;
    if (out.size() + static_cast<size_t>(n) > max_bytes) throw too_large();  // it grew, or a pipe
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

}  // namespace cuzk
