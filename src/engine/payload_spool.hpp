// PayloadSpool: queued jobs' payloads (C1 JSON, vanilla proofs) that do not fit the in-memory
// share of the budget wait on disk until their job starts, in a directory of the engine's (the
// configured one, or one it makes under the system's temporary directory and removes at the end).
// The disk it may use is bounded too: a payload that would exceed max_bytes is refused.
//
// File layout: [u64 length][bytes] of vanilla_proof, [u64 count], count x [u64 length][bytes].
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "engine/types.hpp"

namespace cuzk::engine {

class PayloadSpool {
 public:
  // dir empty: a fresh directory under the system's temporary directory (removed on
  // destruction). max_bytes 0: no limit.
  PayloadSpool(std::filesystem::path dir, uint64_t max_bytes);
  ~PayloadSpool();
  PayloadSpool(const PayloadSpool&) = delete;
  PayloadSpool& operator=(const PayloadSpool&) = delete;

  // Writes the payload of `r` as <name>.payload; std::runtime_error when the disk share is full
  // (nothing written) or on I/O errors (the partial file removed). Returns the file.
  std::filesystem::path write(const std::string& name, const ProofRequest& r);
  // Reads a spooled payload back into `r`'s payload fields; std::runtime_error when it is
  // unreadable or truncated.
  static void read(const std::filesystem::path& file, ProofRequest& r);
  // Deletes a spooled payload (its bytes no longer count).
  void remove(const std::filesystem::path& file);

  uint64_t bytes() const { return bytes_; }

 private:
  std::filesystem::path dir_;
  bool own_dir_ = false;
  uint64_t max_bytes_ = 0, bytes_ = 0;
};

// Bytes of a request's payload fields.
uint64_t payload_size(const ProofRequest& r);

}  // namespace cuzk::engine
