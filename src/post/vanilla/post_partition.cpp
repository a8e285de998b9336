#include "post/vanilla/post_partition.hpp"

#include <exception>
#include <stdexcept>
#include <string>

#include "post/vanilla/post_challenges.hpp"

namespace cuzk::filecoin {

namespace {

std::string sector_name(size_t i, const FallbackPoStSectorProof& p) {
  return "vanilla proof " + std::to_string(i) + " (sector " + std::to_string(p.sector_id) + ")";
}

void pad(PoStPartition& part, const FallbackPoStParams& pp) {
  part.real_slots = part.slots.size();
  while (part.slots.size() < pp.sector_count)
    part.slots.push_back(part.slots.back());
}

PoStVerifyParams slot_params(const FallbackPoStParams& pp, const Domain& randomness,
                             const PoStPartition& partition, size_t slot) {
  PoStVerifyParams v;
  v.sector_size = pp.sector_size;
  v.tree = pp.tree;
  v.challenge_count = pp.challenge_count;
  v.api_version = pp.api_version;
  v.sector_index = uint64_t{partition.index} * pp.sector_count + slot;
  v.randomness = randomness;
  return v;
}

}  // namespace

PoStPartition window_partition(const FallbackPoStParams& pp,
                               std::span<const FallbackPoStSectorProof> sector_proofs,
                               uint32_t partition_index) {
  pp.validate();
  if (sector_proofs.empty()) throw std::invalid_argument("window PoSt: no vanilla proofs");
  if (sector_proofs.size() > pp.sector_count) {
    throw std::invalid_argument("window PoSt: " + std::to_string(sector_proofs.size()) +
                                " vanilla proofs, a partition holds at most " +
                                std::to_string(pp.sector_count) + " sectors");
  }
  PoStPartition part;
  part.index = partition_index;
  part.slots.reserve(pp.sector_count);
  for (size_t i = 0; i < sector_proofs.size(); ++i) {
    const FallbackPoStSectorProof& p = sector_proofs[i];
    if (p.sectors.size() != 1) {
      throw std::invalid_argument("window PoSt: " + sector_name(i, p) + " holds " +
                                  std::to_string(p.sectors.size()) + " sector proofs, expected 1");
    }
    if (p.sectors[0].inclusion_proofs.size() != pp.challenge_count) {
      throw std::invalid_argument("window PoSt: " + sector_name(i, p) + " has " +
                                  std::to_string(p.sectors[0].inclusion_proofs.size()) +
                                  " inclusion proofs, expected " +
                                  std::to_string(pp.challenge_count));
    }
    part.slots.push_back({p.sector_id, p.comm_r, p.sectors[0]});
  }
  pad(part, pp);
  return part;
}

PoStPartition winning_partition(const FallbackPoStParams& pp,
                                std::span<const FallbackPoStSectorProof> sector_proofs) {
  pp.validate();
  if (sector_proofs.size() != 1) {
    throw std::invalid_argument("winning PoSt: " + std::to_string(sector_proofs.size()) +
                                " vanilla proofs, expected exactly 1 (one challenged sector)");
  }
  const FallbackPoStSectorProof& p = sector_proofs[0];
  if (p.sectors.size() != 1) {
    throw std::invalid_argument("winning PoSt: " + sector_name(0, p) + " holds " +
                                std::to_string(p.sectors.size()) + " sector proofs, expected 1");
  }
  const PoStSectorProof& s = p.sectors[0];
  const size_t want = size_t{pp.sector_count} * pp.challenge_count;
  if (s.inclusion_proofs.size() != want) {
    throw std::invalid_argument("winning PoSt: " + sector_name(0, p) + " has " +
                                std::to_string(s.inclusion_proofs.size()) +
                                " inclusion proofs, expected " + std::to_string(want));
  }
  PoStPartition part;
  part.slots.reserve(pp.sector_count);
  for (size_t i = 0; i < pp.sector_count; ++i) {
    PoStSlot slot{p.sector_id, p.comm_r, {{}, s.comm_c, s.comm_r_last}};
    slot.proof.inclusion_proofs.assign(
        s.inclusion_proofs.begin() + static_cast<ptrdiff_t>(i * pp.challenge_count),
        s.inclusion_proofs.begin() + static_cast<ptrdiff_t>((i + 1) * pp.challenge_count));
    part.slots.push_back(std::move(slot));
  }
  pad(part, pp);
  return part;
}

std::vector<uint64_t> slot_challenges(const FallbackPoStParams& pp, const Domain& randomness,
                                      const PoStPartition& partition, size_t slot) {
  const PoStVerifyParams v = slot_params(pp, randomness, partition, slot);
  return post_leaf_challenges(randomness, partition.slots.at(slot).sector_id, pp.sector_size,
                              pp.challenge_count, pp.api_version, v.sector_index);
}

void verify_partition(const FallbackPoStParams& pp, const Domain& randomness,
                      const PoStPartition& partition, ThreadPool* pool) {
  pp.validate();
  if (partition.slots.size() != pp.sector_count || partition.real_slots == 0 ||
      partition.real_slots > partition.slots.size()) {
    throw std::invalid_argument("PoSt partition: " + std::to_string(partition.slots.size()) +
                                " slots (" + std::to_string(partition.real_slots) +
                                " real), the circuit has " + std::to_string(pp.sector_count));
  }
  const auto verify_slot = [&](size_t i) {
    const PoStSlot& s = partition.slots[i];
    const std::string where = "slot " + std::to_string(i) + ": ";
    try {
      verify_post_sector_proof(s.proof, s.sector_id, s.comm_r,
                               slot_params(pp, randomness, partition, i));
    } catch (const MerkleProofError& e) {
      throw MerkleProofError(e.level(), where + e.what());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + e.what());
    }
  };
  if (pool == nullptr || partition.real_slots == 1) {
    for (size_t i = 0; i < partition.real_slots; ++i)
      verify_slot(i);
    return;
  }
  // Every slot is checked; the error reported is the first slot's, as the sequential loop's.
  std::vector<std::exception_ptr> errors(partition.real_slots);
  pool->run(partition.real_slots, [&](size_t i) {
    try {
      verify_slot(i);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace cuzk::filecoin
