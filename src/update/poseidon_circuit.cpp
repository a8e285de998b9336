#include "update/poseidon_circuit.hpp"

#include <stdexcept>
#include <string>

#include "circuits/constraint.hpp"
#include "circuits/names.hpp"
#include "circuits/por.hpp"
#include "circuits/poseidon_circuit.hpp"
#include "update/circuit_parts.hpp"
#include "update/gadgets.hpp"

namespace cuzk::update {

using circuits::Name;
using circuits::Ns;

namespace {

void require_poseidon(const filecoin::UpdateParams& pp) {
  if (!pp.poseidon) {
    throw std::invalid_argument(
        "update circuit: EmptySectorUpdate-Poseidon needs poseidon_for_sector_size params");
  }
}

}  // namespace

EmptySectorUpdatePoseidonCircuit EmptySectorUpdatePoseidonCircuit::blank(
    const filecoin::UpdateParams& pp) {
  require_poseidon(pp);
  EmptySectorUpdatePoseidonCircuit c;
  c.pp = pp;
  const filecoin::TreeShape tree = pp.tree_r_shape();
  c.challenge_proofs.assign(pp.challenge_count,
                            ChallengeWitness::blank(pp.challenge_bit_len, tree, tree));
  return c;
}

// Opens as EmptySectorUpdateCircuit::synthesize does (update_circuit.cpp), with tree_d of
// tree_r's shape: the two circuits differ after the checks.
void EmptySectorUpdatePoseidonCircuit::synthesize(ConstraintSystem& cs) const {
  require_poseidon(pp);
  const filecoin::UpdateHs hs = pp.hs();
  const filecoin::TreeShape tree = pp.tree_r_shape();
  check_witness_shape(challenge_proofs, pp.challenge_count,
                      ChallengeWitness::blank(pp.challenge_bit_len, tree, tree));
  if (h_select) check_selector(*h_select, 0, 1, hs.size(), "h_select");

  const AllocatedNum h_select_num = AllocatedNum::alloc(Ns(cs, Name{"h_select"}), h_select);
  h_select_num.inputize(Ns(cs, Name{"h_select (public input)"}));
  const std::vector<AllocatedBit> h_select_bits =
      select_bits(cs, h_select_num, hs.size(), "h_select");

  const Commitments pub = alloc_commitments(cs, comm_r_old, comm_d_new, comm_r_new);
  const ReplicaRoots roots = alloc_roots(cs, comm_c, root_r_old, root_r_new);
  enforce_comm_r(cs, roots, pub);

  const AllocatedNum partition =
      AllocatedNum::alloc(Ns(cs, Name{"gen_challenge_bits partition zero"}), Fr::zero());
  const std::vector<std::vector<AllocatedBit>> generated =
      gen_challenge_bits(Ns(cs, Name{"gen_challenge_bits"}), pub.comm_r_new, partition,
                         pp.challenge_count, pp.challenge_bit_len);

  const ReplicaOpening shared{pub.phi, roots.root_r_old, roots.root_r_new, h_select_bits, hs, tree};
  cs.pieces(pp.challenge_count, [&](size_t c, ConstraintSystem& pcs) {
    const std::vector<AllocatedBit>& c_bits = generated[c];
    const ChallengeWitness& w = challenge_proofs[c];
    const AllocatedNum leaf_d_new = open_replicas(pcs, shared, c, w, c_bits);
    const std::vector<std::vector<AllocatedNum>> path_d_new =
        alloc_path(pcs, "path_d_new", c, w.path_d_new);
    circuits::por_no_challenge_input(
        Ns(pcs, [&] { return "por tree_d_new (c_index=" + std::to_string(c) + ")"; }),
        circuits::TreeHasher::kPoseidon, tree, c_bits, leaf_d_new, path_d_new, pub.comm_d_new);
  });
}

}  // namespace cuzk::update
