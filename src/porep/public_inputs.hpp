// The public inputs of a StackedDrg partition, computed natively (no synthesis), as
// rust-fil-proofs storage-proofs-porep/src/stacked/circuit/proof.rs
// `StackedCompound::generate_public_inputs` (facts sheet 6.8): replica_id, comm_d, comm_r, then per
// challenge c of partition k: c (tree_d path), the 6 DRG parents of c, its 8 expander parents (the
// tree_c paths of their columns, por.rs `PoRCompound::generate_public_inputs` with a private
// root: Fr(leaf index)), c (the UInt64), c (tree_r_last path), c (tree_c path of c's column).
// Input 0 (ONE) is not included, as for groth16::verify_proof.
//
// Each input also carries the path of the variable the circuit allocates for it (what a
// TestConstraintSystem names it), e.g. "challenge_0/drg_parent_3_inclusion/path/input 0", so a
// test can compare them one at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/graph/stacked_graph.hpp"
#include "porep/public_params.hpp"
#include "porep/vanilla/porep_challenges.hpp"
#include "porep/vanilla/porep_proof.hpp"

namespace cuzk::porep {

// params.rs `PublicInputs` with its `Tau`: what a verifier knows about a sealed sector.
struct PorepPublicInputs {
  filecoin::Domain replica_id{};
  filecoin::Domain comm_d{};
  filecoin::Domain comm_r{};
  std::optional<filecoin::ChallengeSeed> seed;  // interactive and synthetic challenges need it

  static PorepPublicInputs from_c1(const filecoin::SealCommitPhase1Output& c1) {
    return {c1.replica_id, c1.comm_d, c1.comm_r, c1.seed};
  }
};

struct LabeledInput {
  std::string label;  // the circuit's variable path
  Fr value;
};

// The challenges of partition k (porep_challenges.hpp, by the proof's feature).
std::vector<uint64_t> partition_challenges(const PublicParams& pp, const PorepPublicInputs& in,
                                           unsigned k);

// From explicit challenges (the parents come from `graph`). replica_id, comm_d and comm_r must be
// canonical field elements (std::invalid_argument naming the one that is not).
std::vector<LabeledInput> labeled_public_inputs(const filecoin::StackedGraph& graph,
                                                const PorepPublicInputs& in,
                                                std::span<const uint64_t> challenges);
std::vector<Fr> public_inputs(const filecoin::StackedGraph& graph, const PorepPublicInputs& in,
                              std::span<const uint64_t> challenges);

// Partition k of `pp` (the challenges derived from `in`). The graph is built when not given.
std::vector<LabeledInput> labeled_public_inputs(const PublicParams& pp, const PorepPublicInputs& in,
                                                unsigned k,
                                                const filecoin::StackedGraph* graph = nullptr);
std::vector<Fr> public_inputs(const PublicParams& pp, const PorepPublicInputs& in, unsigned k,
                              const filecoin::StackedGraph* graph = nullptr);

// 3 + 18 per challenge (without ONE).
inline size_t public_input_count(const PublicParams& pp) {
  return 3 + 18 * size_t{pp.challenges_per_partition};
}

}  // namespace cuzk::porep
