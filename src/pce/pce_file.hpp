// The PCE file: one recorded circuit on disk, so a daemon records each circuit shape once and
// reads it afterwards. Versioned and checksummed; read whole into anonymous memory (FileCopy),
// where the matrices are used in place and a capped device page-locks them.
//
// Layout (little-endian; every section at a 4096-byte boundary):
//   header   "CUZKPCE\0", format version, header bytes, file bytes, the CircuitIdentity, the
//            counts, a table of (offset, bytes) for each section, the chunk size and one SHA-256
//            per chunk of everything after the header, and the SHA-256 of the header itself;
//   sections the coefficients (32-byte canonical little-endian), A, B and C (row_ptr u32, cols
//            u32, coefficient indices u16), the density bitmaps (u64 words).
// A file is refused, naming the file and what did not match, when it is truncated, of another
// format version, of another circuit identity, inconsistent (an entry out of range), or when a
// checksum fails: a stale or damaged file never yields a wrong proof.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "pce/recorded_circuit.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::pce {

inline constexpr uint32_t kPceFormatVersion = 1;

class PceFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "<identity>.pce" in `dir`.
std::filesystem::path pce_file_path(const std::filesystem::path& dir, const CircuitIdentity& id);

// Writes `rc` to `path` atomically (a temporary file beside it, then rename: a reader never sees
// a partial file). Replaces an existing file (the cache's own, recorded again). Returns the
// bytes written. std::runtime_error naming the file on I/O errors.
uint64_t write_pce_file(const std::filesystem::path& path, const RecordedCircuit& rc,
                        ThreadPool& pool);

// Reads and checks `path`: PceFileError when it does not hold a valid recording of `expected`.
RecordedCircuit read_pce_file(const std::filesystem::path& path, const CircuitIdentity& expected,
                              ThreadPool& pool);

// The header alone (identity and counts), checked but without the body checksums (`cuzk pce
// info --file`). PceFileError as above.
struct PceFileInfo {
  CircuitIdentity identity;
  uint64_t num_inputs = 0, num_aux = 0, num_rows = 0;
  uint64_t nnz_a = 0, nnz_b = 0, nnz_c = 0, coefficients = 0;
  uint64_t file_bytes = 0;
};
PceFileInfo read_pce_header(const std::filesystem::path& path);

}  // namespace cuzk::pce
