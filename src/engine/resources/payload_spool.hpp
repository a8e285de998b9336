// PayloadSpool: queued jobs' payloads (C1 JSON, vanilla proofs) that do not fit the in-memory
// share of the budget wait on disk until their job starts, in a directory of the engine's (the
// configured one, or one it makes under the system's temporary directory and removes at the end).
// The disk it may use is bounded too: a payload that would exceed max_bytes is refused.
//
// A spooled job survives its daemon: in a configured directory, a new spool finds the files a
// previous one left (leftovers()) and the engine resumes those jobs. So a file holds the whole
// request, the payload last.
//
// File layout (integers little-endian as the host writes them; this is a local file): "CUZKSPL2";
// u32 kind, u32 priority, u64 sector_size, u64 registered_proof, u64 sector_number, u64 miner_id,
// u32 partition_index; [u64 length][bytes] each of request_id, randomness, comm_r_old,
// comm_r_new, comm_d_new; then the payload: [u64 length][bytes] of vanilla_proof, [u64 count],
// count x [u64 length][bytes].
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/types.hpp"

namespace cuzk::engine {

// Owns its directory and its lock: neither copied nor moved.
class PayloadSpool {
 public:
  // dir empty: a fresh directory under the system's temporary directory (removed on
  // destruction). A configured dir is made if missing, must be readable, and is locked
  // (cuzk-spool.lock, an flock held while this lives): std::runtime_error saying which of these
  // failed, another engine holding the lock included. max_bytes 0: no limit.
  PayloadSpool(std::filesystem::path dir, uint64_t max_bytes);
  ~PayloadSpool();
  PayloadSpool(const PayloadSpool&) = delete;
  PayloadSpool& operator=(const PayloadSpool&) = delete;

  // Writes the payload of `r` as <name>.payload; std::runtime_error when the disk share is full
  // (nothing written) or on I/O errors (the partial file removed). Returns the file.
  std::filesystem::path write(const std::string& name, const ProofRequest& r);
  // Reads a spooled request back into `r`, payload included; std::runtime_error when it is
  // unreadable or truncated.
  static void read(const std::filesystem::path& file, ProofRequest& r);

  // What a previous spool left in this (configured) directory: per file, the job id it was
  // written for (its name), the request without its payload (still on disk, read() brings it),
  // or why the file is unreadable. Readable files count in bytes() from here on. Empty for a
  // directory of the spool's own making.
  struct Leftover {
    std::string job_id;
    std::filesystem::path file;
    ProofRequest request;
    std::string error;  // non-empty: unreadable (the caller removes it)
  };
  std::vector<Leftover> leftovers();
  // Deletes a spooled payload (its bytes no longer count).
  void remove(const std::filesystem::path& file);

  uint64_t bytes() const { return bytes_; }

 private:
  std::filesystem::path dir_;
  bool own_dir_ = false;
  int lock_fd_ = -1;
  uint64_t max_bytes_ = 0, bytes_ = 0;
};

// Bytes of a request's payload fields.
uint64_t payload_size(const ProofRequest& r);

}  // namespace cuzk::engine
