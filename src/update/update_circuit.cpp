#include "update/update_circuit.hpp"

#include <stdexcept>
#include <string>

#include "circuits/constraint.hpp"
#include "circuits/insertion.hpp"
#include "circuits/names.hpp"
#include "circuits/por.hpp"
#include "circuits/poseidon_circuit.hpp"
#include "gadgets/multipack.hpp"
#include "update/circuit_parts.hpp"
#include "update/gadgets.hpp"
#include "update/public_inputs.hpp"

namespace cuzk::update {

using circuits::Name;
using circuits::NameN;
using circuits::Ns;
using gadgets::Boolean;

namespace {

constexpr filecoin::TreeShape kTreeD{2, 0, 0};

void require_classic(const filecoin::UpdateParams& pp) {
  if (pp.poseidon) {
    throw std::invalid_argument(
        "update circuit: Poseidon-variant parameters (use EmptySectorUpdatePoseidonCircuit)");
  }
}

// The tree_d path above the apex-leaf row: the partition path (its last log2(partitions) levels).
PathSiblings partition_path_of(const filecoin::UpdateParams& pp, const ChallengeWitness& w) {
  return PathSiblings(w.path_d_new.begin() + pp.random_bits_per_challenge(), w.path_d_new.end());
}

std::string c_index_name(const char* what, size_t c_index) {
  return std::string(what) + " (c_index=" + std::to_string(c_index) + ")";
}

}  // namespace

EmptySectorUpdateCircuit EmptySectorUpdateCircuit::blank(const filecoin::UpdateParams& pp) {
  require_classic(pp);
  EmptySectorUpdateCircuit c;
  c.pp = pp;
  c.apex_leafs.assign(pp.apex_leaf_count, std::nullopt);
  c.challenge_proofs.assign(
      pp.challenge_count, ChallengeWitness::blank(pp.challenge_bit_len, pp.tree_r_shape(), kTreeD));
  return c;
}

EmptySectorUpdateCircuit EmptySectorUpdateCircuit::from_vanilla(
    const filecoin::UpdateParams& pp, const filecoin::UpdatePublicInputs& in, unsigned k,
    const filecoin::UpdatePartitionProof& proof) {
  require_classic(pp);
  if (proof.challenge_proofs.size() != pp.challenge_count) {
    throw std::invalid_argument("update circuit: " + std::to_string(proof.challenge_proofs.size()) +
                                " challenge proofs, the sector size has " +
                                std::to_string(pp.challenge_count) + " per partition");
  }
  if (proof.apex_leafs.size() != pp.apex_leaf_count) {
    throw std::invalid_argument("update circuit: " + std::to_string(proof.apex_leafs.size()) +
                                " apex leafs, the sector size has " +
                                std::to_string(pp.apex_leaf_count));
  }
  EmptySectorUpdateCircuit c;
  c.pp = pp;
  c.k_and_h_select = Fr::from_u64(update::k_and_h_select(pp, k, in.h));
  c.comm_r_old = filecoin::domain_to_fr(in.comm_r_old, "update circuit", "comm_r_old");
  c.comm_d_new = filecoin::domain_to_fr(in.comm_d_new, "update circuit", "comm_d_new");
  c.comm_r_new = filecoin::domain_to_fr(in.comm_r_new, "update circuit", "comm_r_new");
  c.comm_c = filecoin::domain_to_fr(proof.comm_c, "update circuit", "comm_c");
  c.root_r_old = filecoin::domain_to_fr(proof.challenge_proofs[0].proof_r_old.root(),
                                        "update circuit", "root_r_old");
  c.root_r_new = filecoin::domain_to_fr(proof.challenge_proofs[0].proof_r_new.root(),
                                        "update circuit", "root_r_new");
  for (const filecoin::Domain& leaf : proof.apex_leafs)
    c.apex_leafs.emplace_back(filecoin::domain_to_fr(leaf, "update circuit", "apex leaf"));
  c.challenge_proofs.reserve(proof.challenge_proofs.size());
  for (const filecoin::UpdateChallengeProof& p : proof.challenge_proofs) {
    c.challenge_proofs.push_back(ChallengeWitness::from_proofs(p.proof_r_old, p.proof_d_new,
                                                               p.proof_r_new, pp.challenge_bit_len,
                                                               pp.tree_r_shape(), kTreeD));
  }
  const PathSiblings first = partition_path_of(pp, c.challenge_proofs[0]);
  for (size_t i = 1; i < c.challenge_proofs.size(); ++i) {
    if (partition_path_of(pp, c.challenge_proofs[i]) != first) {
      throw std::invalid_argument("update circuit: challenge " + std::to_string(i) +
                                  " has another partition path than challenge 0");
    }
  }
  return c;
}

void EmptySectorUpdateCircuit::synthesize(ConstraintSystem& cs) const {
  require_classic(pp);
  const filecoin::UpdateHs hs = pp.hs();
  const filecoin::TreeShape tree_r = pp.tree_r_shape();
  check_witness_shape(challenge_proofs, pp.challenge_count,
                      ChallengeWitness::blank(pp.challenge_bit_len, tree_r, kTreeD));
  if (apex_leafs.size() != pp.apex_leaf_count) {
    throw std::invalid_argument("update circuit: " + std::to_string(apex_leafs.size()) +
                                " apex leafs, want " + std::to_string(pp.apex_leaf_count));
  }
  if (k_and_h_select) {
    check_selector(*k_and_h_select, pp.partition_bit_len, pp.partition_count, hs.size(),
                   "k_and_h_select");
  }
  const PathSiblings partition_path = partition_path_of(pp, challenge_proofs[0]);

  // Public inputs: k and h_select packed into one element, then the three commitments.
  const AllocatedNum k_h = AllocatedNum::alloc(Ns(cs, Name{"k_and_h_select"}), k_and_h_select);
  k_h.inputize(Ns(cs, Name{"k_and_h_select (public input)"}));
  const std::vector<AllocatedBit> k_h_bits =
      select_bits(cs, k_h, pp.partition_bit_len + hs.size(), "k_and_h_select");
  const std::span<const AllocatedBit> partition_bits =
      std::span(k_h_bits).first(pp.partition_bit_len);
  const std::span<const AllocatedBit> h_select_bits =
      std::span(k_h_bits).subspan(pp.partition_bit_len);
  const std::vector<Boolean> partition_booleans(partition_bits.begin(), partition_bits.end());
  const AllocatedNum partition =
      gadgets::pack_bits(Ns(cs, Name{"pack partition bits"}), partition_booleans);

  const Commitments pub = alloc_commitments(cs, comm_r_old, comm_d_new, comm_r_new);

  // Private inputs, without each challenge's paths.
  const ReplicaRoots roots = alloc_roots(cs, comm_c, root_r_old, root_r_new);
  std::vector<AllocatedNum> apex;
  apex.reserve(apex_leafs.size());
  for (size_t i = 0; i < apex_leafs.size(); ++i)
    apex.push_back(AllocatedNum::alloc(Ns(cs, NameN{"apex_leaf_", i}), apex_leafs[i]));
  std::vector<std::vector<AllocatedNum>> partition_path_nums;
  for (size_t i = 0; i < partition_path.size(); ++i) {
    partition_path_nums.push_back(
        {AllocatedNum::alloc(Ns(cs, NameN{"partition_path_sibling_", i}), partition_path[i][0])});
  }

  enforce_comm_r(cs, roots, pub);

  // This partition's apex leafs lead to comm_d_new.
  apex_por(Ns(cs, Name{"apex_gadget"}), apex, partition_bits, partition_path_nums, pub.comm_d_new);

  const std::vector<std::vector<AllocatedBit>> generated =
      gen_challenge_bits(Ns(cs, Name{"gen_challenge_bits"}), pub.comm_r_new, partition,
                         pp.challenge_count, pp.random_bits_per_challenge());

  const ReplicaOpening shared{pub.phi, roots.root_r_old, roots.root_r_new, h_select_bits, hs,
                              tree_r};
  const size_t to_apex = pp.apex_leafs_height();
  // The challenges are independent pieces: each reads only the variables allocated above.
  cs.pieces(pp.challenge_count, [&](size_t c, ConstraintSystem& pcs) {
    std::vector<AllocatedBit> c_bits = generated[c];
    c_bits.insert(c_bits.end(), partition_bits.begin(), partition_bits.end());
    const ChallengeWitness& w = challenge_proofs[c];
    const AllocatedNum leaf_d_new = open_replicas(pcs, shared, c, w, c_bits);

    const std::vector<Boolean> apex_bits(
        c_bits.begin() + static_cast<ptrdiff_t>(to_apex),
        c_bits.begin() + static_cast<ptrdiff_t>(to_apex + pp.apex_leaf_bit_len));
    const AllocatedNum apex_leaf = circuits::select(
        Ns(pcs, [&] { return c_index_name("select_apex_leaf", c); }), apex, apex_bits);

    std::vector<std::vector<AllocatedNum>> path_to_apex;
    path_to_apex.reserve(to_apex);
    for (size_t row = 0; row < to_apex; ++row) {
      path_to_apex.push_back({AllocatedNum::alloc(
          Ns(pcs,
             [&] {
               return "path_to_apex_leaf sibling (c_index=" + std::to_string(c) +
                      ", tree_row=" + std::to_string(row) + ")";
             }),
          w.path_d_new[row][0])});
    }
    circuits::por_no_challenge_input(
        Ns(pcs, [&] { return c_index_name("por to_apex_leaf", c); }), circuits::TreeHasher::kSha256,
        kTreeD, std::span(c_bits).first(to_apex), leaf_d_new, path_to_apex, apex_leaf);
  });
}

}  // namespace cuzk::update
