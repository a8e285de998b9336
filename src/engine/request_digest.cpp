#include "engine/request_digest.hpp"

#include <span>

#include "filecoin/hash/sha256.hpp"

namespace cuzk::engine {
namespace {

void add_u64(filecoin::Sha256& h, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; ++i)
    b[i] = static_cast<uint8_t>(v >> (8 * i));
  h.update(b);
}

void add_bytes(filecoin::Sha256& h, std::span<const uint8_t> bytes) {
  add_u64(h, bytes.size());
  h.update(bytes);
}

}  // namespace

// The fields one by one, as payload_spool.cpp writes a request, but not one list with it: the
// digest leaves out request_id and priority (see the header) and feeds a hash, not a file.
RequestDigest request_digest(const ProofRequest& r) {
  filecoin::Sha256 h;
  add_u64(h, static_cast<uint64_t>(r.kind));
  add_u64(h, r.sector_size);
  add_u64(h, r.registered_proof);
  add_u64(h, r.sector_number);
  add_u64(h, r.miner_id);
  add_u64(h, r.partition_index);
  add_bytes(h, r.randomness);
  add_bytes(h, r.comm_r_old);
  add_bytes(h, r.comm_r_new);
  add_bytes(h, r.comm_d_new);
  add_bytes(h, r.vanilla_proof);
  add_u64(h, r.vanilla_proofs.size());
  for (const std::vector<uint8_t>& p : r.vanilla_proofs)
    add_bytes(h, p);
  return h.finish();
}

}  // namespace cuzk::engine
