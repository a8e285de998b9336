#include "filecoin/merkle/merkle_hasher.hpp"

#include <array>
#include <stdexcept>

#include "filecoin/hash/poseidon.hpp"

namespace cuzk::filecoin {

std::string tree_hasher_name(TreeHasher h) {
  return h == TreeHasher::kPoseidon ? "poseidon_hasher" : "sha256_hasher";
}

NodeHasher::NodeHasher(TreeHasher hasher, uint32_t arity) : hasher_(hasher), arity_(arity) {
  if (arity < 1 || arity > PoseidonConstants::kMaxArity) {
    throw std::invalid_argument("NodeHasher: arity " + std::to_string(arity) + " is unsupported");
  }
  if (hasher == TreeHasher::kPoseidon) {
    poseidon_ = &PoseidonConstants::standard(arity);
  } else {
    sha_.emplace();
  }
}

Domain NodeHasher::hash(std::span<const Domain> children) {
  if (children.size() != arity_) {
    throw std::invalid_argument("NodeHasher: " + std::to_string(children.size()) +
                                " children for arity " + std::to_string(arity_));
  }
  return hash_bytes(children.front().data());
}

Domain NodeHasher::hash_bytes(const uint8_t* children) {
  if (hasher_ == TreeHasher::kSha256) {
    sha_->update(std::span<const uint8_t>(children, size_t{arity_} * kNodeSize));
    return sha_->finish_trunc254();
  }
  std::array<Fr, PoseidonConstants::kMaxArity> in;
  for (uint32_t i = 0; i < arity_; ++i) {
    Domain d;
    std::copy(children + size_t{i} * kNodeSize, children + size_t{i + 1} * kNodeSize, d.begin());
    const auto f = try_domain_to_fr(d);
    if (!f) {
      throw std::invalid_argument("Poseidon node hash: child " + std::to_string(i) + " (" +
                                  to_hex(d) + ") is not a canonical field element");
    }
    in[i] = *f;
  }
  return fr_to_domain(poseidon_hash(*poseidon_, std::span<const Fr>(in.data(), arity_)));
}

}  // namespace cuzk::filecoin
