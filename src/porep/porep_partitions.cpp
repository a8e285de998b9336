#include "porep/porep_partitions.hpp"

#include <utility>

#include "porep/public_inputs.hpp"
#include "porep/stacked_circuit.hpp"

namespace cuzk::porep {

namespace {

using circuits::PartitionCircuit;
using circuits::PreparedJob;
using circuits::timed_partition;

class PorepJob final : public PreparedJob {
 public:
  PorepJob(filecoin::SealCommitPhase1Output c1, PublicParams pp, uint64_t payload_bytes)
      : c1_(std::move(c1)),
        pp_(std::move(pp)),
        graph_(pp_.graph()),
        inputs_(PorepPublicInputs::from_c1(c1_)),
        payload_bytes_(payload_bytes) {}

  unsigned partitions() const override { return pp_.partitions; }
  // The parsed C1 is about as large as its JSON; the graph's Feistel table is small.
  uint64_t resident_bytes() const override { return payload_bytes_; }

  PartitionCircuit partition(unsigned k) const override {
    return timed_partition(
        [&] { return public_inputs(pp_, inputs_, k, &graph_); },
        [&] { return std::make_unique<StackedCircuit>(StackedCircuit::from_c1(c1_, pp_, k)); });
  }

 private:
  filecoin::SealCommitPhase1Output c1_;
  PublicParams pp_;
  filecoin::StackedGraph graph_;
  PorepPublicInputs inputs_;
  uint64_t payload_bytes_;
};

}  // namespace

std::unique_ptr<PreparedJob> make_porep_job(filecoin::SealCommitPhase1Output c1, PublicParams pp,
                                            uint64_t payload_bytes) {
  return std::make_unique<PorepJob>(std::move(c1), std::move(pp), payload_bytes);
}

}  // namespace cuzk::porep
