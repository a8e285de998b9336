#include "post/vanilla/post_config.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/sector_shape.hpp"

namespace cuzk::filecoin {

PoStConfig post_config(uint32_t id) {
  const PoStProofInfo& info = post_proof_info(id);
  PoStConfig c;
  c.registered_proof = id;
  c.kind = info.kind;
  c.sector_size = info.sector_size;
  c.api_version = info.api_version;
  if (info.kind == PoStKind::kWinning) {
    c.challenge_count = kWinningPostChallengeCount;
    c.sector_count = kWinningPostSectorCount;
  } else {
    c.challenge_count = kWindowPostChallengeCount;
    c.sector_count = sector_shape(info.sector_size).window_post_sector_count;
  }
  return c;
}

PoStConfig post_config(PoStKind kind, uint64_t sector_size) {
  for (uint32_t id = kPoStProofCount; id-- > 0;) {
    const PoStProofInfo& info = post_proof_info(id);
    if (info.kind == kind && info.sector_size == sector_size) return post_config(id);
  }
  throw std::invalid_argument(std::string("no registered ") + post_kind_name(kind) +
                              " PoSt proof for sector size " + std::to_string(sector_size));
}

void FallbackPoStParams::validate() const {
  const auto fail = [](const std::string& why) {
    throw std::invalid_argument("FallbackPoSt parameters: " + why);
  };
  if (sector_count == 0) fail("no sector slots");
  if (challenge_count == 0) fail("no challenges");
  if (sector_size == 0 || sector_size % 32 != 0) {
    fail("sector size " + std::to_string(sector_size) + " is not a whole number of 32-byte nodes");
  }
  tree.validate();
  const uint64_t trees = tree.base_tree_count();
  if (leaves() % trees != 0) {
    fail(std::to_string(leaves()) + " leaves do not split into " + std::to_string(trees) +
         " base trees");
  }
  uint64_t n = leaves() / trees;
  if (n < tree.base) {
    fail(std::to_string(n) + " leaves per base tree, fewer than the arity " +
         std::to_string(tree.base));
  }
  while (n > 1) {
    if (n % tree.base != 0) {
      fail(std::to_string(leaves() / trees) + " leaves per base tree is not a power of " +
           std::to_string(tree.base));
    }
    n /= tree.base;
  }
}

FallbackPoStParams fallback_post_params(const PoStConfig& c) {
  FallbackPoStParams p;
  p.sector_size = c.sector_size;
  p.api_version = c.api_version;
  p.tree = sector_shape(c.sector_size).tree;
  if (c.kind == PoStKind::kWinning) {
    // The one sector is proved as challenge_count slots of one challenge each.
    if (c.sector_count == 0 || c.challenge_count % c.sector_count != 0) {
      throw std::invalid_argument("winning PoSt: sector count must divide challenge count");
    }
    p.sector_count = c.challenge_count / c.sector_count;
    p.challenge_count = c.challenge_count / p.sector_count;
  } else {
    p.sector_count = c.sector_count;
    p.challenge_count = c.challenge_count;
  }
  return p;
}

const char* post_kind_name(PoStKind kind) {
  return kind == PoStKind::kWinning ? "winning" : "window";
}

}  // namespace cuzk::filecoin
