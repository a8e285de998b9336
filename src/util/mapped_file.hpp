// MappedFile: a read-only memory map of a whole file (RAII). Errors name the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace cuzk {

class MappedFile {
 public:
  explicit MappedFile(const std::filesystem::path& path);  // throws std::runtime_error
  ~MappedFile();
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&&) = delete;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace cuzk
