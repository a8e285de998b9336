// Sector identity: prover_id and replica_id (facts sheet 5.1).
//
// replica_id = trunc254(SHA-256(prover_id || u64_be(sector_id) || ticket || comm_d || porep_id)),
// a 136-byte message (storage-proofs-porep/src/stacked/vanilla/params.rs `generate_replica_id`;
// go-state-types abi/sector.go ReplicaId); ticket and comm_d enter as raw bytes.
// prover_id (Lotus / Curio, go-state-types MakeProverID): the unsigned LEB128 of the miner actor
// id, left-aligned in 32 zero bytes (actor 1000 -> e8 07 00 ...).
#pragma once

#include <array>
#include <cstdint>

#include "filecoin/domain.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

using Ticket = std::array<uint8_t, 32>;

Domain prover_id_from_actor_id(uint64_t actor_id);

Domain generate_replica_id(const Domain& prover_id, uint64_t sector_id, const Ticket& ticket,
                           const Domain& comm_d, const PorepId& porep_id);

}  // namespace cuzk::filecoin
