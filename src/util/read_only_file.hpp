// ReadOnlyFile: a file held open for reading (O_CLOEXEC) until this goes, with what fstat said of
// it when it was opened, and positional reads of it. Reads through the held descriptor keep
// reading the inode that was opened, even once the path names another file (a replaced set). A
// parameter file's digest and its points are read through one such descriptor, so that what was
// hashed is what is read. Errors name the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace cuzk {

// What identifies the file's content as of the open: the same inode, size and times mean the
// same bytes (a change in place moves the modification time; a change of the times by hand
// moves the status-change time, which nobody sets).
struct FileStamp {
  uint64_t device = 0, inode = 0, size = 0;
  int64_t modified_ns = 0, changed_ns = 0;

  bool operator==(const FileStamp&) const = default;
};

class ReadOnlyFile {
 public:
  explicit ReadOnlyFile(const std::filesystem::path& path);  // std::runtime_error naming it
  ~ReadOnlyFile();
  ReadOnlyFile(ReadOnlyFile&& o) noexcept;
  ReadOnlyFile& operator=(ReadOnlyFile&&) = delete;
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;

  int fd() const { return fd_; }
  uint64_t size() const { return stamp_.size; }  // as of the open
  const FileStamp& stamp() const { return stamp_; }
  const std::filesystem::path& path() const { return path_; }

  // Reads [offset, offset + out.size()) into `out` and returns the bytes read: all of them, or
  // fewer only where the file ends. Thread-safe (pread). std::runtime_error on a read error.
  size_t read_at(uint64_t offset, std::span<uint8_t> out) const;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  FileStamp stamp_;
};

}  // namespace cuzk
