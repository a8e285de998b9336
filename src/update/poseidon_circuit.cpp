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

  const auto public_num = [&](const char* name, const char* input, const std::optional<Fr>& value) {
    const AllocatedNum n = AllocatedNum::alloc(Ns(cs, Name{name}), value);
    n.inputize(Ns(cs, Name{input}));
    return n;
  };
  const AllocatedNum comm_r_old_num = public_num("comm_r_old", "comm_r_old_input", comm_r_old);
  const AllocatedNum comm_d_new_num = public_num("comm_d_new", "comm_d_new_input", comm_d_new);
  const AllocatedNum comm_r_new_num = public_num("comm_r_new", "comm_r_new_input", comm_r_new);

  const AllocatedNum phi = gen_randomness_hash(Ns(cs, Name{"phi"}), comm_d_new_num, comm_r_old_num);

  const AllocatedNum comm_c_num = AllocatedNum::alloc(Ns(cs, Name{"comm_c"}), comm_c);
  const AllocatedNum root_r_old_num = AllocatedNum::alloc(Ns(cs, Name{"root_r_old"}), root_r_old);
  const AllocatedNum root_r_new_num = AllocatedNum::alloc(Ns(cs, Name{"root_r_new"}), root_r_new);

  const AllocatedNum comm_r_old_calc =
      circuits::poseidon_hash2_circuit(Ns(cs, Name{"comm_r_old_calc"}), comm_c_num, root_r_old_num);
  circuits::equal(cs, Name{"enforce comm_r_old_calc == comm_r_old"}, comm_r_old_calc,
                  comm_r_old_num);
  const AllocatedNum comm_r_new_calc =
      circuits::poseidon_hash2_circuit(Ns(cs, Name{"comm_r_new_calc"}), comm_c_num, root_r_new_num);
  circuits::equal(cs, Name{"enforce comm_r_new_calc == comm_r_new"}, comm_r_new_calc,
                  comm_r_new_num);

  const AllocatedNum partition =
      AllocatedNum::alloc(Ns(cs, Name{"gen_challenge_bits partition zero"}), Fr::zero());
  const std::vector<std::vector<AllocatedBit>> generated =
      gen_challenge_bits(Ns(cs, Name{"gen_challenge_bits"}), comm_r_new_num, partition,
                         pp.challenge_count, pp.challenge_bit_len);

  const ReplicaOpening shared{phi, root_r_old_num, root_r_new_num, h_select_bits, hs, tree};
  cs.pieces(pp.challenge_count, [&](size_t c, ConstraintSystem& pcs) {
    const std::vector<AllocatedBit>& c_bits = generated[c];
    const ChallengeWitness& w = challenge_proofs[c];
    const AllocatedNum leaf_d_new = open_replicas(pcs, shared, c, w, c_bits);
    const std::vector<std::vector<AllocatedNum>> path_d_new =
        alloc_path(pcs, "path_d_new", c, w.path_d_new);
    circuits::por_no_challenge_input(
        Ns(pcs, [&] { return "por tree_d_new (c_index=" + std::to_string(c) + ")"; }),
        circuits::TreeHasher::kPoseidon, tree, c_bits, leaf_d_new, path_d_new, comm_d_new_num);
  });
}

}  // namespace cuzk::update
