// Merkle inclusion proofs in the structure rust-fil-proofs serializes
// (storage-proofs-core/src/merkle/proof.rs), their root computation, leaf index and verification.
//
//   PathElement   { hashes: the arity - 1 siblings in order, index: position of the running node
//                   among the arity children (0 <= index < arity) }
//   InclusionPath { path: elements from the leaf level up }
//   MerkleProof   { data: Single { root, leaf, path }
//                       | Sub    { base_proof, sub_proof, root, leaf }
//                       | Top    { base_proof, sub_proof, top_proof, root, leaf } }
// Field order above is declaration order, which is also the order of serde (JSON and bincode).
// A proof is Single for trees without sub level, Sub for base+sub, Top for base+sub+top; the
// sub_proof and top_proof paths have exactly one element (of the sub / top arity).
//
// Root (InclusionPath::root): at each level insert the running node at `index` among `hashes` and
// hash the arity children with the tree's node hash; the result is the next running node.
// Leaf index (`path_index`): the indices are the digits of the leaf index in mixed radix, least
// significant first (base levels in the base arity, then the sub index, then the top index).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/merkle/merkle_hasher.hpp"
#include "filecoin/merkle/tree_shape.hpp"

namespace cuzk::filecoin {

struct PathElement {
  std::vector<Domain> hashes;
  uint64_t index = 0;
  bool operator==(const PathElement&) const = default;
};
using InclusionPath = std::vector<PathElement>;

struct SingleProof {
  Domain root{};
  Domain leaf{};
  InclusionPath path;
  bool operator==(const SingleProof&) const = default;
};

struct SubProof {
  InclusionPath base_proof;
  InclusionPath sub_proof;
  Domain root{};
  Domain leaf{};
  bool operator==(const SubProof&) const = default;
};

struct TopProof {
  InclusionPath base_proof;
  InclusionPath sub_proof;
  InclusionPath top_proof;
  Domain root{};
  Domain leaf{};
  bool operator==(const TopProof&) const = default;
};

// The variant index is the serde variant index (0 Single, 1 Sub, 2 Top).
struct MerkleProof {
  std::variant<SingleProof, SubProof, TopProof> data;

  const Domain& leaf() const;
  const Domain& root() const;
  // Every element, base levels first, then sub, then top (proof.rs `path()`).
  InclusionPath path() const;
  size_t path_length() const;
  bool operator==(const MerkleProof&) const = default;

  // MerkleProof::from_parts: for a shape with a sub level the last element (or, with a top level,
  // the last two) go to sub_proof / top_proof. Throws std::invalid_argument if the path is too
  // short.
  static MerkleProof from_parts(const Domain& leaf, const Domain& root, InclusionPath path,
                                const TreeShape& shape);
};

// The root a path leads to from `leaf`. The arity of each level is hashes.size() + 1. Throws
// std::invalid_argument naming the level when an index is out of range or (Poseidon) a node is not
// a canonical field element.
Domain inclusion_path_root(const InclusionPath& path, const Domain& leaf, TreeHasher hasher);

// The leaf index the indices encode (mixed radix, see the file comment).
uint64_t merkle_proof_leaf_index(const MerkleProof& proof);

// A verification failure. `level` counts path elements from the leaf (0 = the level whose siblings
// are leaves); level == path length means the final root comparison. what() names the level as
// "base level k", "sub level" or "top level".
class MerkleProofError : public std::runtime_error {
 public:
  MerkleProofError(size_t level, const std::string& what)
      : std::runtime_error(what), level_(level) {}
  size_t level() const { return level_; }

 private:
  size_t level_;
};

struct MerkleProofCheck {
  TreeShape shape;  // arities every level must have
  TreeHasher hasher = TreeHasher::kPoseidon;
  std::optional<uint64_t> leaves;  // total leaves: fixes the expected path length (expected_len)
  std::optional<uint64_t> leaf_index;  // the challenged leaf the indices must encode (`validate`)
  std::optional<Domain> root;          // the root the proof must claim (e.g. comm_r_last)
};

// Verifies structure (variant for the shape, element count per level, arity - 1 hashes, index <
// arity), canonical encodings (Poseidon), the per-level index digits against check.leaf_index,
// and that the path hashes to the claimed root, which must equal check.root when given. Throws
// MerkleProofError naming the first failing level. A well-formed but wrong sibling is only
// detectable at the root: it is reported as the root level.
void verify_merkle_proof(const MerkleProof& proof, const MerkleProofCheck& check);
// Same, as a boolean (MerkleProofTrait::verify / validate).
bool merkle_proof_is_valid(const MerkleProof& proof, const MerkleProofCheck& check) noexcept;

}  // namespace cuzk::filecoin
