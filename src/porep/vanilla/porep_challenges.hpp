// PoRep challenge derivation, storage-proofs-porep/src/stacked/vanilla/challenges.rs
// (facts sheet 6.1-6.3). Challenges are node indices in [1, N - 1] (node 0 is never challenged);
// partition k (0-based) of a proof with cpp challenges per partition uses the global challenge
// numbers j = cpp * k + i, i = 0 .. cpp-1, so all partitions together form one flat list.
//
//   reduce(bytes)   = (the 32 bytes as a little-endian integer mod (N - 1)) + 1
//   (bigint_to_challenge) interactive     : reduce(SHA-256(replica_id || seed || u32_le(j)))
//   non-interactive : reduce(SHA-256("filecoin.io|PoRep|1|NonInteractive|1" || replica_id ||
//                     comm_r || u32_le(j)))
//   synthetic       : num_synth = min(N, 2^18) synthetic challenges s_i = reduce(keystream bytes
//                     [32i, 32i + 32)) of ChaCha20 (IETF) with key BLAKE2b-256 keyed
//                     "filecoin.io|PoRep|1|Synthetic|1|Generation" over replica_id || comm_r and
//                     nonce "synth-porep\0"; challenge j is s_{u32_le(bytes [4j, 4j + 4)) mod
//                     num_synth} of the same cipher keyed "...|Selection" over replica_id || seed.
//                     Without a seed (first generation) the proof covers every s_i.
// Upstream passes k as u8, so at most 256 partitions exist.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

using ChallengeSeed = std::array<uint8_t, 32>;

inline constexpr std::string_view kNiPorepChallengeTag = "filecoin.io|PoRep|1|NonInteractive|1";
inline constexpr std::string_view kSynthGenerationKey =
    "filecoin.io|PoRep|1|Synthetic|1|Generation";
inline constexpr std::string_view kSynthSelectionKey = "filecoin.io|PoRep|1|Synthetic|1|Selection";
inline constexpr std::array<uint8_t, 12> kSynthChaChaNonce = {'s', 'y', 'n', 't', 'h', '-',
                                                              'p', 'o', 'r', 'e', 'p', 0};

// (LE integer of `bytes` mod (sector_nodes - 1)) + 1. sector_nodes must be in [2, 2^32].
uint64_t challenge_from_bytes(std::span<const uint8_t, 32> bytes, uint64_t sector_nodes);

std::vector<uint64_t> interactive_challenges(uint64_t sector_nodes, const Domain& replica_id,
                                             const ChallengeSeed& seed,
                                             unsigned challenges_per_partition, unsigned k);
std::vector<uint64_t> non_interactive_challenges(uint64_t sector_nodes, const Domain& replica_id,
                                                 const Domain& comm_r,
                                                 unsigned challenges_per_partition, unsigned k);

// challenges.rs `SynthChallengeGenerator`. replica_id and comm_r must be canonical field elements
// (upstream converts them to Fr first and panics otherwise): std::invalid_argument.
class SynthChallengeGenerator {
 public:
  SynthChallengeGenerator(uint64_t sector_nodes, const Domain& replica_id, const Domain& comm_r,
                          std::optional<uint64_t> num_synth_challenges = std::nullopt);

  uint64_t num_synth_challenges() const { return num_synth_; }
  // s_i, by seeking the keystream (i < num_synth_challenges(), else std::out_of_range).
  uint64_t synth_challenge(uint64_t i) const;
  // Every s_i in order (`derive_synthetic`).
  std::vector<uint64_t> all() const;
  // The selected synthetic indexes / challenges of partition k (`gen_partition_synth_indexes`,
  // `gen_porep_partition_challenges`).
  std::vector<uint64_t> partition_indexes(unsigned challenges_per_partition,
                                          const ChallengeSeed& seed, unsigned k) const;
  std::vector<uint64_t> partition_challenges(unsigned challenges_per_partition,
                                             const ChallengeSeed& seed, unsigned k) const;

 private:
  uint64_t sector_nodes_;
  uint64_t num_synth_;
  Domain replica_id_;
  std::array<uint8_t, 32> generation_key_;
};

// What selects the derivation (params.rs PublicInputs::challenges).
struct PorepChallengeParams {
  uint64_t sector_nodes = 0;
  unsigned challenges_per_partition = 0;
  std::optional<ApiFeature> feature;  // none: interactive
};
// Partition k's challenges. Interactive needs the seed; synthetic needs comm_r and the seed (or,
// with no seed and k = 0, returns all synthetic challenges); non-interactive needs comm_r.
// Missing inputs are std::invalid_argument.
std::vector<uint64_t> porep_partition_challenges(const PorepChallengeParams& params,
                                                 const Domain& replica_id,
                                                 const std::optional<Domain>& comm_r,
                                                 const std::optional<ChallengeSeed>& seed,
                                                 unsigned k);

}  // namespace cuzk::filecoin
