#include "update/update_partitions.hpp"

#include <utility>

#include "update/public_inputs.hpp"
#include "update/update_circuit.hpp"

namespace cuzk::update {

namespace {

using circuits::PartitionCircuit;
using circuits::PreparedJob;
using circuits::timed_partition;

class UpdateJob final : public PreparedJob {
 public:
  UpdateJob(filecoin::UpdateParams pp, filecoin::UpdatePublicInputs in,
            std::vector<filecoin::UpdatePartitionProof> proofs, uint64_t payload_bytes)
      : pp_(pp), in_(in), proofs_(std::move(proofs)), payload_bytes_(payload_bytes) {}

  unsigned partitions() const override { return pp_.partition_count; }
  // The decoded proofs are about as large as their bincode.
  uint64_t resident_bytes() const override { return payload_bytes_; }

  PartitionCircuit partition(unsigned k) const override {
    return timed_partition(
        [&] { return update_public_inputs(pp_, in_, k); },
        [&] {
          return std::make_unique<EmptySectorUpdateCircuit>(
              EmptySectorUpdateCircuit::from_vanilla(pp_, in_, k, proofs_.at(k)));
        });
  }

 private:
  filecoin::UpdateParams pp_;
  filecoin::UpdatePublicInputs in_;
  std::vector<filecoin::UpdatePartitionProof> proofs_;
  uint64_t payload_bytes_;
};

}  // namespace

std::unique_ptr<PreparedJob> make_update_job(filecoin::UpdateParams pp,
                                             filecoin::UpdatePublicInputs in,
                                             std::vector<filecoin::UpdatePartitionProof> proofs,
                                             uint64_t payload_bytes) {
  return std::make_unique<UpdateJob>(pp, in, std::move(proofs), payload_bytes);
}

}  // namespace cuzk::update
