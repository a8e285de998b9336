#include "post/fallback_circuit.hpp"

#include <stdexcept>
#include <string>

#include "circuits/constraint.hpp"
#include "circuits/names.hpp"
#include "circuits/poseidon_circuit.hpp"
#include "circuits/root.hpp"
#include "gadgets/num.hpp"

namespace cuzk::post {

using circuits::Name;
using circuits::NameN;
using circuits::Ns;
using gadgets::AllocatedNum;

SectorCircuit SectorCircuit::blank(const filecoin::FallbackPoStParams& pp) {
  pp.validate();
  SectorCircuit s;
  s.leafs.assign(pp.challenge_count, std::nullopt);
  s.paths.assign(pp.challenge_count, circuits::AuthPath::blank(pp.tree, pp.leaves()));
  return s;
}

SectorCircuit SectorCircuit::from_slot(const filecoin::PoStSlot& slot,
                                       const filecoin::FallbackPoStParams& pp) {
  const std::string sector = "sector " + std::to_string(slot.sector_id);
  const auto& proofs = slot.proof.inclusion_proofs;
  if (proofs.size() != pp.challenge_count) {
    throw std::invalid_argument("PoSt circuit: " + sector + " has " +
                                std::to_string(proofs.size()) + " inclusion proofs, the circuit " +
                                std::to_string(pp.challenge_count));
  }
  SectorCircuit s;
  s.comm_r = filecoin::domain_to_fr(slot.comm_r, "PoSt circuit", sector + " comm_r");
  s.comm_c = filecoin::domain_to_fr(slot.proof.comm_c, "PoSt circuit", sector + " comm_c");
  s.comm_r_last =
      filecoin::domain_to_fr(slot.proof.comm_r_last, "PoSt circuit", sector + " comm_r_last");
  s.leafs.reserve(proofs.size());
  s.paths.reserve(proofs.size());
  for (size_t j = 0; j < proofs.size(); ++j) {
    const std::string what = sector + " inclusion proof " + std::to_string(j);
    s.leafs.emplace_back(filecoin::domain_to_fr(proofs[j].leaf(), "PoSt circuit", what + " leaf"));
    try {
      s.paths.push_back(circuits::auth_path_of(proofs[j], pp.tree, pp.leaves()));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("PoSt circuit: " + what + " " + e.what());
    }
  }
  return s;
}

void SectorCircuit::synthesize(ConstraintSystem& cs) const {
  const AllocatedNum comm_r_last_num =
      AllocatedNum::alloc(Ns(cs, Name{"comm_r_last"}), comm_r_last);
  const AllocatedNum comm_c_num = AllocatedNum::alloc(Ns(cs, Name{"comm_c"}), comm_c);
  const AllocatedNum comm_r_num = AllocatedNum::alloc(Ns(cs, Name{"comm_r"}), comm_r);
  comm_r_num.inputize(Ns(cs, Name{"comm_r_input"}));

  // comm_r = H(comm_c || comm_r_last)
  {
    const AllocatedNum hash_num = circuits::poseidon_hash2_circuit(
        Ns(cs, Name{"H_comm_c_comm_r_last"}), comm_c_num, comm_r_last_num);
    circuits::equal(cs, Name{"enforce_comm_c_comm_r_last_hash_comm_r"}, comm_r_num, hash_num);
  }

  for (size_t i = 0; i < paths.size(); ++i) {
    circuits::por_circuit(Ns(cs, NameN{"challenge_inclusion_", i}), circuits::TreeHasher::kPoseidon,
                          circuits::Root::val(leafs[i]), paths[i],
                          circuits::Root::var(comm_r_last_num), true);
  }
}

FallbackPoStCircuit FallbackPoStCircuit::blank(const filecoin::FallbackPoStParams& pp) {
  FallbackPoStCircuit c;
  c.sectors.assign(pp.sector_count, SectorCircuit::blank(pp));
  return c;
}

FallbackPoStCircuit FallbackPoStCircuit::from_partition(const filecoin::PoStPartition& partition,
                                                        const filecoin::FallbackPoStParams& pp) {
  pp.validate();
  if (partition.slots.size() != pp.sector_count) {
    throw std::invalid_argument("PoSt circuit: the partition has " +
                                std::to_string(partition.slots.size()) +
                                " sector slots, the circuit " + std::to_string(pp.sector_count));
  }
  FallbackPoStCircuit c;
  c.sectors.reserve(partition.slots.size());
  for (const filecoin::PoStSlot& slot : partition.slots) {
    // Padding slots are copies of the last real one: convert it once.
    if (!c.sectors.empty() && c.sectors.size() >= partition.real_slots) {
      c.sectors.push_back(c.sectors.back());
    } else {
      c.sectors.push_back(SectorCircuit::from_slot(slot, pp));
    }
  }
  return c;
}

void FallbackPoStCircuit::synthesize(ConstraintSystem& cs) const {
  const Ns outer(cs, Name{"outer namespace"});
  // Each slot allocates and constrains only its own variables.
  cs.pieces(sectors.size(), [&](size_t i, ConstraintSystem& pcs) {
    sectors[i].synthesize(Ns(pcs, NameN{"sector_", i}));
  });
}

}  // namespace cuzk::post
