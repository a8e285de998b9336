#include "filecoin/replica_id.hpp"

#include "filecoin/hash/sha256.hpp"

namespace cuzk::filecoin {

Domain prover_id_from_actor_id(uint64_t actor_id) {
  Domain id{};
  size_t i = 0;
  do {
    uint8_t b = actor_id & 0x7f;
    actor_id >>= 7;
    if (actor_id != 0) b |= 0x80;
    id[i++] = b;
  } while (actor_id != 0);
  return id;
}

Domain generate_replica_id(const Domain& prover_id, uint64_t sector_id, const Ticket& ticket,
                           const Domain& comm_d, const PorepId& porep_id) {
  uint8_t sector_be[8];
  for (int i = 0; i < 8; ++i)
    sector_be[i] = static_cast<uint8_t>(sector_id >> (56 - 8 * i));
  return sha256_trunc254({prover_id, sector_be, ticket, comm_d, porep_id});
}

}  // namespace cuzk::filecoin
