// Shared read-write memory maps of sealing files (layer files, tree files, the replica), so that
// sector-sized outputs are written in place: what is resident is the kernel's page cache, not a
// process buffer, which keeps PC1/PC2 memory bounded the way rust-fil-proofs' mmap'd DiskStores
// and replica file do (storage-proofs-porep/src/stacked/vanilla/proof.rs, filecoin-proofs
// api/seal.rs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace cuzk::filecoin {

class WritableMap {
 public:
  // Opens (creating when absent) `path`, sets its length to `size` bytes (new bytes read as zero)
  // and maps it shared. Throws std::runtime_error naming the file on any I/O error.
  WritableMap(const std::filesystem::path& path, uint64_t size);
  ~WritableMap();
  WritableMap(const WritableMap&) = delete;
  WritableMap& operator=(const WritableMap&) = delete;

  std::span<uint8_t> bytes() { return {data_, size_}; }
  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// Drops the whole pages inside `bytes` of a read-only private file mapping from the resident set
// (madvise DONTNEED: a later access reads them back from the file). For data streamed once.
void drop_pages(std::span<const uint8_t> bytes);
// Advises random access on a mapping (a hint against read-ahead; errors are ignored).
void advise_random(std::span<const uint8_t> bytes);

}  // namespace cuzk::filecoin
