#include "porep/vanilla/porep_challenges.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "filecoin/chacha.hpp"
#include "filecoin/hash/blake2b.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/sector_shape.hpp"

namespace cuzk::filecoin {

namespace {

std::span<const uint8_t> text(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

void check_nodes(uint64_t sector_nodes) {
  if (sector_nodes < 2 || sector_nodes > (uint64_t{1} << 32)) {
    throw std::invalid_argument("PoRep challenges: sector of " + std::to_string(sector_nodes) +
                                " nodes is outside [2, 2^32]");
  }
}

void check_partition(unsigned k) {
  if (k > 255) {
    throw std::invalid_argument("PoRep challenges: partition " + std::to_string(k) +
                                " exceeds 255 (upstream passes k as u8)");
  }
}

uint32_t global_index(unsigned cpp, unsigned k, unsigned i) {
  return static_cast<uint32_t>(uint64_t{cpp} * k + i);
}

std::array<uint8_t, 4> le32(uint32_t v) {
  return {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16),
          static_cast<uint8_t>(v >> 24)};
}

void require_canonical(const Domain& d, const char* what) {
  if (!is_canonical_fr(d)) {
    throw std::invalid_argument(std::string("synthetic PoRep challenges: ") + what + " " +
                                to_hex(d) + " is not a canonical field element");
  }
}

}  // namespace

uint64_t challenge_from_bytes(std::span<const uint8_t, 32> bytes, uint64_t sector_nodes) {
  check_nodes(sector_nodes);
  const uint64_t m = sector_nodes - 1;
  // Horner over 64-bit limbs, most significant first.
  unsigned __int128 r = 0;
  for (int limb = 3; limb >= 0; --limb) {
    uint64_t w = 0;
    for (int b = 7; b >= 0; --b)
      w = w << 8 | bytes[static_cast<size_t>(8 * limb + b)];
    r = ((r << 64) | w) % m;
  }
  return static_cast<uint64_t>(r) + 1;
}

namespace {

// Partition k's challenges: each from SHA-256 of what `prefix` hashes, then the little-endian
// global index (the two derivations differ only in their prefix).
template <class Prefix>
std::vector<uint64_t> hashed_challenges(uint64_t sector_nodes, unsigned challenges_per_partition,
                                        unsigned k, Prefix&& prefix) {
  check_nodes(sector_nodes);
  check_partition(k);
  std::vector<uint64_t> out;
  Sha256 h;
  for (unsigned i = 0; i < challenges_per_partition; ++i) {
    const auto j = le32(global_index(challenges_per_partition, k, i));
    prefix(h).update(j);
    out.push_back(challenge_from_bytes(h.finish(), sector_nodes));
  }
  return out;
}

}  // namespace

std::vector<uint64_t> interactive_challenges(uint64_t sector_nodes, const Domain& replica_id,
                                             const ChallengeSeed& seed,
                                             unsigned challenges_per_partition, unsigned k) {
  return hashed_challenges(sector_nodes, challenges_per_partition, k,
                           [&](Sha256& h) -> Sha256& { return h.update(replica_id).update(seed); });
}

std::vector<uint64_t> non_interactive_challenges(uint64_t sector_nodes, const Domain& replica_id,
                                                 const Domain& comm_r,
                                                 unsigned challenges_per_partition, unsigned k) {
  return hashed_challenges(sector_nodes, challenges_per_partition, k, [&](Sha256& h) -> Sha256& {
    return h.update(text(kNiPorepChallengeTag)).update(replica_id).update(comm_r);
  });
}

SynthChallengeGenerator::SynthChallengeGenerator(uint64_t sector_nodes, const Domain& replica_id,
                                                 const Domain& comm_r,
                                                 std::optional<uint64_t> num_synth_challenges)
    : sector_nodes_(sector_nodes),
      num_synth_(
          num_synth_challenges.value_or(std::min(sector_nodes, kDefaultSynthChallengeCount))),
      replica_id_(replica_id) {
  check_nodes(sector_nodes);
  require_canonical(replica_id, "replica_id");
  require_canonical(comm_r, "comm_r");
  if (num_synth_ == 0 || num_synth_ >= (uint64_t{1} << 32)) {
    throw std::invalid_argument("synthetic PoRep challenges: count " + std::to_string(num_synth_) +
                                " must be in [1, 2^32)");
  }
  generation_key_ = blake2b256_keyed(text(kSynthGenerationKey), {replica_id, comm_r});
}

uint64_t SynthChallengeGenerator::synth_challenge(uint64_t i) const {
  if (i >= num_synth_) {
    throw std::out_of_range("synthetic challenge " + std::to_string(i) + " of " +
                            std::to_string(num_synth_));
  }
  ChaCha20Ietf c(generation_key_, kSynthChaChaNonce);
  c.seek(i * 32);
  std::array<uint8_t, 32> bytes;
  c.keystream(bytes);
  return challenge_from_bytes(bytes, sector_nodes_);
}

std::vector<uint64_t> SynthChallengeGenerator::all() const {
  ChaCha20Ietf c(generation_key_, kSynthChaChaNonce);
  std::vector<uint64_t> out(num_synth_);
  std::array<uint8_t, 32> bytes;
  for (uint64_t& s : out) {
    c.keystream(bytes);
    s = challenge_from_bytes(bytes, sector_nodes_);
  }
  return out;
}

std::vector<uint64_t> SynthChallengeGenerator::partition_indexes(unsigned challenges_per_partition,
                                                                 const ChallengeSeed& seed,
                                                                 unsigned k) const {
  check_partition(k);
  const auto key = blake2b256_keyed(text(kSynthSelectionKey), {replica_id_, seed});
  ChaCha20Ietf c(key, kSynthChaChaNonce);
  c.seek(uint64_t{k} * challenges_per_partition * 4);
  std::vector<uint8_t> bytes(size_t{challenges_per_partition} * 4);
  c.keystream(bytes);
  std::vector<uint64_t> out;
  for (unsigned i = 0; i < challenges_per_partition; ++i) {
    const uint32_t v = static_cast<uint32_t>(bytes[4 * i]) | uint32_t{bytes[4 * i + 1]} << 8 |
                       uint32_t{bytes[4 * i + 2]} << 16 | uint32_t{bytes[4 * i + 3]} << 24;
    out.push_back(v % num_synth_);
  }
  return out;
}

std::vector<uint64_t> SynthChallengeGenerator::partition_challenges(
    unsigned challenges_per_partition, const ChallengeSeed& seed, unsigned k) const {
  std::vector<uint64_t> out = partition_indexes(challenges_per_partition, seed, k);
  for (uint64_t& c : out)
    c = synth_challenge(c);
  return out;
}

std::vector<uint64_t> porep_partition_challenges(const PorepChallengeParams& params,
                                                 const Domain& replica_id,
                                                 const std::optional<Domain>& comm_r,
                                                 const std::optional<ChallengeSeed>& seed,
                                                 unsigned k) {
  const auto need = [](bool have, const char* what) {
    if (!have) throw std::invalid_argument(std::string("PoRep challenges: ") + what);
  };
  if (!params.feature) {
    need(seed.has_value(), "interactive challenges need the seed");
    return interactive_challenges(params.sector_nodes, replica_id, *seed,
                                  params.challenges_per_partition, k);
  }
  need(comm_r.has_value(), "synthetic and non-interactive challenges need comm_r");
  if (*params.feature == ApiFeature::kNonInteractivePoRep) {
    return non_interactive_challenges(params.sector_nodes, replica_id, *comm_r,
                                      params.challenges_per_partition, k);
  }
  const SynthChallengeGenerator gen(params.sector_nodes, replica_id, *comm_r);
  if (!seed) {
    need(k == 0, "synthetic generation without a seed is a single partition");
    return gen.all();
  }
  return gen.partition_challenges(params.challenges_per_partition, *seed, k);
}

}  // namespace cuzk::filecoin
