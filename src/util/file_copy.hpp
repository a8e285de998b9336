// FileCopy: a whole file read into private anonymous memory (RAII, page-aligned). Unlike a
// MappedFile's pages, these can be page-locked in place for a device to read by DMA: on the
// H100 host (a Firecracker VM, 2026-12-06) cudaHostRegister of a 5.9 GB read-only file mapping
// did not return in 150 s, where the same bytes in anonymous memory registered in 0.36 s.
// Errors name the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

#include "util/thread_pool.hpp"

namespace cuzk {

class FileCopy {
 public:
  static constexpr size_t kPieceBytes = size_t{64} << 20;
  // Reads `path` whole, a pread of at most `piece_bytes` at a time, the pieces spread over `pool`
  // when given. std::runtime_error naming the file when it cannot be opened or read, is not a
  // regular file, or ends short of the size it had when opened.
  explicit FileCopy(const std::filesystem::path& path, ThreadPool* pool = nullptr,
                    size_t piece_bytes = kPieceBytes);
  ~FileCopy();
  FileCopy(FileCopy&& o) noexcept;
  FileCopy& operator=(FileCopy&&) = delete;
  FileCopy(const FileCopy&) = delete;
  FileCopy& operator=(const FileCopy&) = delete;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace cuzk
