#include "porep/vanilla/sdr_label.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "filecoin/graph/stacked_graph.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/hash/sha256_compress.hpp"

namespace cuzk::filecoin {

namespace {

// The final block of a message of `message_bytes` bytes whose last `tail` bytes (0 or 32) are
// `tail_bytes`: the tail, 0x80, zeros, and the bit length big-endian (FIPS 180-4 section 5.1.1).
std::array<uint8_t, 64> final_block(const uint8_t* tail_bytes, size_t tail,
                                    uint64_t message_bytes) {
  std::array<uint8_t, 64> b{};
  if (tail != 0) std::memcpy(b.data(), tail_bytes, tail);
  b[tail] = 0x80;
  const uint64_t bits = message_bytes * 8;
  for (int i = 0; i < 8; ++i)
    b[63 - i] = static_cast<uint8_t>(bits >> (8 * i));
  return b;
}

Domain finish(const Sha256State& state) {
  return trim_to_fr32(sha256_state_bytes(state));
}

}  // namespace

LabelPrefix label_prefix(const Domain& replica_id, uint32_t layer, uint64_t node) {
  LabelPrefix p{};
  std::memcpy(p.data(), replica_id.data(), kNodeSize);
  for (int i = 0; i < 4; ++i)
    p[32 + i] = static_cast<uint8_t>(layer >> (8 * (3 - i)));
  for (int i = 0; i < 8; ++i)
    p[36 + i] = static_cast<uint8_t>(node >> (8 * (7 - i)));
  return p;
}

Domain create_label(const Domain& replica_id, uint32_t layer, uint64_t node,
                    std::span<const Domain> parents) {
  Sha256 h;
  const LabelPrefix prefix = label_prefix(replica_id, layer, node);
  h.update(prefix);
  for (const Domain& p : parents)
    h.update(p);
  return h.finish_trunc254();
}

std::vector<Domain> repeat_label_parents(std::span<const Domain> distinct) {
  if (distinct.empty()) throw std::invalid_argument("repeat_label_parents: no parents");
  std::vector<Domain> out;
  out.reserve(kLabelParents);
  for (unsigned i = 0; i < kLabelParents; ++i)
    out.push_back(distinct[i % distinct.size()]);
  return out;
}

Domain sdr_label(const Domain& replica_id, uint32_t layer, uint64_t node,
                 std::span<const uint8_t> distinct) {
  const LabelPrefix prefix = label_prefix(replica_id, layer, node);
  Sha256State state = kSha256InitialState;
  sha256_compress(state, prefix.data(), 1);
  if (distinct.empty()) {
    const auto pad = final_block(nullptr, 0, 64);
    sha256_compress(state, pad.data(), 1);
    return finish(state);
  }
  const size_t count = distinct.size() / kNodeSize;
  if (distinct.size() % kNodeSize != 0 || (count != kBaseDegree && count != kTotalDegree)) {
    throw std::invalid_argument("sdr_label: " + std::to_string(distinct.size()) +
                                " bytes of parents; expected 6 or 14 labels of 32 bytes");
  }
  // Both parent counts are even, so the distinct list is whole blocks: 37 = 6 * 6 + 1 or
  // 14 * 2 + 8 + 1 parents are that many whole repetitions, a block-aligned head of the list,
  // and one single parent in the padding block.
  const size_t list_blocks = count / 2;
  const size_t full_reps = (kLabelParents - 1) / count;
  for (size_t r = 0; r < full_reps; ++r)
    sha256_compress(state, distinct.data(), list_blocks);
  const size_t head = (kLabelParents - 1) % count;  // parents after the whole repetitions
  sha256_compress(state, distinct.data(), head / 2);
  const auto last = final_block(distinct.data() + head * kNodeSize, kNodeSize,
                                64 + uint64_t{kLabelParents} * kNodeSize);
  sha256_compress(state, last.data(), 1);
  return finish(state);
}

}  // namespace cuzk::filecoin
