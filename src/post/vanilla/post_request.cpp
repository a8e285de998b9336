#include "post/vanilla/post_request.hpp"

#include <vector>

#include "filecoin/merkle/merkle_proof.hpp"
#include "filecoin/replica_id.hpp"

namespace cuzk::filecoin {

PoStConfig post_request_config(PoStKind kind, uint64_t registered_proof, uint64_t sector_size) {
  if (registered_proof >= kPoStProofCount) {
    throw PoStRequestError("unknown registered PoSt proof id " + std::to_string(registered_proof));
  }
  const PoStConfig c = post_config(static_cast<uint32_t>(registered_proof));
  const PoStProofInfo& info = post_proof_info(c.registered_proof);
  if (c.kind != kind) {
    throw PoStRequestError("registered proof " + std::to_string(registered_proof) + " (" +
                           std::string(info.name) + ") is not a " + post_kind_name(kind) +
                           " PoSt proof");
  }
  if (sector_size != 0 && sector_size != c.sector_size) {
    throw PoStRequestError("sector_size " + std::to_string(sector_size) +
                           " does not match registered proof " + std::string(info.name) + " (" +
                           std::to_string(c.sector_size) + " bytes)");
  }
  return c;
}

PoStJob decode_post_request(const PoStRequest& r, ThreadPool* pool) {
  PoStJob job;
  job.config = post_request_config(r.kind, r.registered_proof, r.sector_size);
  job.params = fallback_post_params(job.config);

  if (r.randomness.size() != 32) {
    throw PoStRequestError("randomness must be 32 bytes, got " +
                           std::to_string(r.randomness.size()));
  }
  job.randomness = domain_from_bytes(r.randomness);
  if (!is_canonical_fr(job.randomness)) {
    throw PoStRequestError("randomness " + to_hex(job.randomness) +
                           " is not a valid field element (clear the top two bits of byte 31)");
  }
  job.prover_id = prover_id_from_actor_id(r.miner_id);

  const bool winning = r.kind == PoStKind::kWinning;
  if (winning && r.partition_index != 0) {
    throw PoStRequestError("partition_index " + std::to_string(r.partition_index) +
                           " out of range: a winning PoSt has one partition (0)");
  }
  if (!winning && r.partition_index >= kMaxPartitionsPerDeadline) {
    throw PoStRequestError("partition_index " + std::to_string(r.partition_index) +
                           " out of range: a deadline has at most " +
                           std::to_string(kMaxPartitionsPerDeadline) + " partitions");
  }
  const size_t most = job.config.sector_count;  // Winning: WINNING_POST_SECTOR_COUNT = 1
  if (r.vanilla_proofs.empty() || r.vanilla_proofs.size() > most) {
    throw PoStRequestError(
        std::to_string(r.vanilla_proofs.size()) + " vanilla proofs: a " + post_kind_name(r.kind) +
        " PoSt " + (winning ? "takes exactly " : "partition takes 1 to ") + std::to_string(most));
  }

  std::vector<FallbackPoStSectorProof> proofs;
  proofs.reserve(r.vanilla_proofs.size());
  for (size_t i = 0; i < r.vanilla_proofs.size(); ++i) {
    try {
      proofs.push_back(decode_fallback_post_sector_proof(r.vanilla_proofs[i]));
    } catch (const std::invalid_argument& e) {
      throw PoStRequestError("vanilla proof " + std::to_string(i) + " is malformed: " + e.what());
    }
  }
  try {
    job.partition = winning ? winning_partition(job.params, proofs)
                            : window_partition(job.params, proofs, r.partition_index);
  } catch (const std::invalid_argument& e) {
    throw PoStRequestError(e.what());
  }
  try {
    verify_partition(job.params, job.randomness, job.partition, pool);
  } catch (const MerkleProofError& e) {
    throw PoStRequestError(std::string("vanilla proof refused: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw PoStRequestError(std::string("vanilla proof refused: ") + e.what());
  }
  return job;
}

}  // namespace cuzk::filecoin
