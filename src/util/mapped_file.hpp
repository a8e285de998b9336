// MappedFile: a read-only memory map of a whole file (RAII). Errors name the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace cuzk {

class ReadOnlyFile;

class MappedFile {
 public:
  explicit MappedFile(const std::filesystem::path& path);  // throws std::runtime_error
  // The file `file` holds open, its size as of its open (the map outlives neither's need).
  explicit MappedFile(const ReadOnlyFile& file);
  ~MappedFile();
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&&) = delete;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  // Drops the whole pages inside `part` (a part of bytes()) from this process's memory: a reader
  // that is done with them keeps its RSS to what it decoded, not the file as well (a 47 GB
  // .params mapped whole while it is decoded doubled the daemon's peak, perf-log). The pages read
  // back from the file if touched again.
  void release(std::span<const uint8_t> part) const;
  const std::filesystem::path& path() const { return path_; }

 private:
  void map(int fd, size_t size);

  std::filesystem::path path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace cuzk
