#include "post/post_partitions.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "post/fallback_circuit.hpp"
#include "post/public_inputs.hpp"

namespace cuzk::post {

namespace {

using circuits::PartitionCircuit;
using circuits::PreparedJob;
using circuits::timed_partition;

// One decoded PoSt partition per job partition (WinningPoSt and a Window partition: one).
class PoStJobState final : public PreparedJob {
 public:
  explicit PoStJobState(std::vector<filecoin::PoStJob> parts) : parts_(std::move(parts)) {}

  unsigned partitions() const override { return static_cast<unsigned>(parts_.size()); }
  // The slots' inclusion paths (padding slots are copies too): sibling hashes, leaves, indices.
  uint64_t resident_bytes() const override {
    uint64_t bytes = 0;
    for (const filecoin::PoStJob& job : parts_)
      for (const filecoin::PoStSlot& s : job.partition.slots)
        for (const filecoin::MerkleProof& p : s.proof.inclusion_proofs)
          bytes += 128 + p.path_length() * (64 + 32 * (job.params.tree.base - 1));
    return bytes;
  }

  PartitionCircuit partition(unsigned k) const override {
    if (k >= parts_.size()) {
      throw circuits::ProofKindError("partition " + std::to_string(k) + " of a PoSt job of " +
                                     std::to_string(parts_.size()));
    }
    const filecoin::PoStJob& job = parts_[k];
    return timed_partition([&] { return public_inputs(job.params, job.randomness, job.partition); },
                           [&] {
                             return std::make_unique<FallbackPoStCircuit>(
                                 FallbackPoStCircuit::from_partition(job.partition, job.params));
                           });
  }

 private:
  std::vector<filecoin::PoStJob> parts_;
};

}  // namespace

std::unique_ptr<PreparedJob> make_post_job(std::vector<filecoin::PoStJob> parts) {
  return std::make_unique<PoStJobState>(std::move(parts));
}

std::unique_ptr<PreparedJob> make_post_job(filecoin::PoStJob job) {
  std::vector<filecoin::PoStJob> parts;
  parts.push_back(std::move(job));
  return make_post_job(std::move(parts));
}

}  // namespace cuzk::post
