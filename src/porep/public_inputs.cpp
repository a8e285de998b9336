#include "porep/public_inputs.hpp"

#include <array>
#include <stdexcept>

namespace cuzk::porep {

namespace {

// The path of the single input a private-root PoR allocates (por.rs: "path" packs the index bits
// into "input 0").
std::string por_input(size_t challenge, const std::string& por_namespace) {
  return "challenge_" + std::to_string(challenge) + "/" + por_namespace + "/path/input 0";
}

}  // namespace

std::vector<uint64_t> partition_challenges(const PublicParams& pp, const PorepPublicInputs& in,
                                           unsigned k) {
  if (k >= pp.partitions) {
    throw std::out_of_range("porep public inputs: partition " + std::to_string(k) + " of " +
                            std::to_string(pp.partitions));
  }
  return filecoin::porep_partition_challenges(pp.challenge_params(), in.replica_id, in.comm_r,
                                              in.seed, k);
}

std::vector<LabeledInput> labeled_public_inputs(const filecoin::StackedGraph& graph,
                                                const PorepPublicInputs& in,
                                                std::span<const uint64_t> challenges) {
  std::vector<LabeledInput> out;
  out.reserve(3 + 18 * challenges.size());
  out.push_back({"replica_id_input/input variable",
                 filecoin::domain_to_fr(in.replica_id, "porep public inputs", "replica_id")});
  out.push_back({"comm_d_input/input variable",
                 filecoin::domain_to_fr(in.comm_d, "porep public inputs", "comm_d")});
  out.push_back({"comm_r_input/input variable",
                 filecoin::domain_to_fr(in.comm_r, "porep public inputs", "comm_r")});
  for (size_t i = 0; i < challenges.size(); ++i) {
    const uint64_t c = challenges[i];
    if (c >= graph.nodes()) {
      throw std::invalid_argument("porep public inputs: challenge " + std::to_string(c) +
                                  " outside the graph of " + std::to_string(graph.nodes()) +
                                  " nodes");
    }
    out.push_back({por_input(i, "comm_d_inclusion"), Fr::from_u64(c)});
    std::array<uint32_t, filecoin::kBaseDegree> drg{};
    graph.base_parents(c, drg);
    for (size_t j = 0; j < drg.size(); ++j)
      out.push_back(
          {por_input(i, "drg_parent_" + std::to_string(j) + "_inclusion"), Fr::from_u64(drg[j])});
    std::array<uint32_t, filecoin::kExpansionDegree> exp{};
    graph.expanded_parents(c, exp);
    for (size_t j = 0; j < exp.size(); ++j)
      out.push_back(
          {por_input(i, "exp_parent_" + std::to_string(j) + "_inclusion"), Fr::from_u64(exp[j])});
    out.push_back({"challenge_" + std::to_string(i) + "/challenge input/input 0", Fr::from_u64(c)});
    out.push_back({por_input(i, "comm_r_last_data_inclusion"), Fr::from_u64(c)});
    out.push_back({por_input(i, "c_x_inclusion"), Fr::from_u64(c)});
  }
  return out;
}

std::vector<Fr> public_inputs(const filecoin::StackedGraph& graph, const PorepPublicInputs& in,
                              std::span<const uint64_t> challenges) {
  std::vector<Fr> out;
  for (LabeledInput& l : labeled_public_inputs(graph, in, challenges))
    out.push_back(l.value);
  return out;
}

std::vector<LabeledInput> labeled_public_inputs(const PublicParams& pp, const PorepPublicInputs& in,
                                                unsigned k, const filecoin::StackedGraph* graph) {
  const std::vector<uint64_t> challenges = partition_challenges(pp, in, k);
  if (graph != nullptr) return labeled_public_inputs(*graph, in, challenges);
  return labeled_public_inputs(pp.graph(), in, challenges);
}

std::vector<Fr> public_inputs(const PublicParams& pp, const PorepPublicInputs& in, unsigned k,
                              const filecoin::StackedGraph* graph) {
  std::vector<Fr> out;
  for (LabeledInput& l : labeled_public_inputs(pp, in, k, graph))
    out.push_back(l.value);
  return out;
}

}  // namespace cuzk::porep
