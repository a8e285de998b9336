#include "porep/stacked_circuit.hpp"

#include <stdexcept>
#include <string>

#include "circuits/bits.hpp"
#include "circuits/constraint.hpp"
#include "circuits/names.hpp"
#include "circuits/poseidon_circuit.hpp"
#include "gadgets/num.hpp"

namespace cuzk::porep {

using circuits::Name;
using circuits::NameN;
using circuits::Ns;
using gadgets::AllocatedNum;

StackedCircuit StackedCircuit::blank(const PublicParams& pp) {
  pp.validate();
  StackedCircuit c;
  c.proofs.assign(pp.challenges_per_partition, ChallengeCircuit::empty(pp));
  return c;
}

StackedCircuit StackedCircuit::from_vanilla(
    const filecoin::Domain& replica_id, const filecoin::Domain& comm_d,
    const filecoin::Domain& comm_r, std::span<const filecoin::PorepChallengeProof> partition,
    const PublicParams& pp) {
  pp.validate();
  if (partition.empty()) {
    throw std::invalid_argument("porep circuit: cannot create a circuit with no vanilla proofs");
  }
  if (partition.size() != pp.challenges_per_partition) {
    throw std::invalid_argument("porep circuit: " + std::to_string(partition.size()) +
                                " challenge proofs, the parameters have " +
                                std::to_string(pp.challenges_per_partition) + " per partition");
  }
  const filecoin::Domain& comm_r_last = partition[0].comm_r_last_proof.root();
  const filecoin::Domain& comm_c = partition[0].replica_column_proofs.c_x.inclusion_proof.root();
  for (const filecoin::PorepChallengeProof& p : partition) {
    if (p.comm_r_last_proof.root() != comm_r_last) {
      throw std::invalid_argument("porep circuit: inconsistent comm_r_lasts");
    }
    if (p.replica_column_proofs.c_x.inclusion_proof.root() != comm_c) {
      throw std::invalid_argument("porep circuit: inconsistent comm_cs");
    }
  }
  StackedCircuit c;
  c.replica_id = filecoin::domain_to_fr(replica_id, "porep circuit", "replica_id");
  c.comm_d = filecoin::domain_to_fr(comm_d, "porep circuit", "comm_d");
  c.comm_r = filecoin::domain_to_fr(comm_r, "porep circuit", "comm_r");
  c.comm_r_last = filecoin::domain_to_fr(comm_r_last, "porep circuit", "comm_r_last");
  c.comm_c = filecoin::domain_to_fr(comm_c, "porep circuit", "comm_c");
  c.proofs.reserve(partition.size());
  for (const filecoin::PorepChallengeProof& p : partition)
    c.proofs.push_back(ChallengeCircuit::from_vanilla(p, pp));
  return c;
}

StackedCircuit StackedCircuit::from_c1(const filecoin::SealCommitPhase1Output& c1,
                                       const PublicParams& pp, unsigned k) {
  if (c1.vanilla_proofs.size() != pp.partitions) {
    throw std::invalid_argument("porep circuit: the C1 output has " +
                                std::to_string(c1.vanilla_proofs.size()) + " partitions, want " +
                                std::to_string(pp.partitions));
  }
  if (k >= c1.vanilla_proofs.size()) {
    throw std::out_of_range("porep circuit: partition " + std::to_string(k) + " of " +
                            std::to_string(c1.vanilla_proofs.size()));
  }
  return from_vanilla(c1.replica_id, c1.comm_d, c1.comm_r, c1.vanilla_proofs[k], pp);
}

void StackedCircuit::synthesize(ConstraintSystem& cs) const {
  const AllocatedNum replica_id_num = AllocatedNum::alloc(Ns(cs, Name{"replica_id"}), replica_id);
  replica_id_num.inputize(Ns(cs, Name{"replica_id_input"}));
  const std::vector<gadgets::Boolean> replica_id_bits =
      circuits::reverse_bit_numbering(replica_id_num.to_bits_le(Ns(cs, Name{"replica_id_bits"})));

  const AllocatedNum comm_d_num = AllocatedNum::alloc(Ns(cs, Name{"comm_d"}), comm_d);
  comm_d_num.inputize(Ns(cs, Name{"comm_d_input"}));

  const AllocatedNum comm_r_num = AllocatedNum::alloc(Ns(cs, Name{"comm_r"}), comm_r);
  comm_r_num.inputize(Ns(cs, Name{"comm_r_input"}));

  const AllocatedNum comm_r_last_num =
      AllocatedNum::alloc(Ns(cs, Name{"comm_r_last"}), comm_r_last);
  const AllocatedNum comm_c_num = AllocatedNum::alloc(Ns(cs, Name{"comm_c"}), comm_c);

  // comm_r = H(comm_c || comm_r_last)
  {
    const AllocatedNum hash_num = circuits::poseidon_hash2_circuit(
        Ns(cs, Name{"H_comm_c_comm_r_last"}), comm_c_num, comm_r_last_num);
    circuits::equal(cs, Name{"enforce comm_r = H(comm_c || comm_r_last)"}, comm_r_num, hash_num);
  }

  // The challenges are independent pieces: each reads only the variables allocated above.
  cs.pieces(proofs.size(), [&](size_t i, ConstraintSystem& pcs) {
    proofs[i].synthesize(Ns(pcs, NameN{"challenge_", i}), comm_d_num, comm_c_num, comm_r_last_num,
                         replica_id_bits);
  });
}

}  // namespace cuzk::porep
