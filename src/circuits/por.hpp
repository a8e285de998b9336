// Merkle inclusion (proof of retrievability) circuits for every Filecoin tree shape, as
// rust-fil-proofs storage-proofs-core/src/gadgets/por.rs.
//
// A tree has a base arity (2, 4 or 8; tree_d is binary SHA-256, tree_c / tree_r_last Poseidon)
// and optionally a sub arity (a level over the roots of several base trees) and a top arity (a
// level over the sub roots): 8-0-0 up to 512 MiB, 8-8-0 for 32 GiB, 8-8-2 for 64 GiB. The path
// is stored per level as the arity - 1 sibling hashes and the index of the running node among
// the arity children; the concatenated index bits (base levels first, each least significant
// first) are the leaf index in binary.
//
// por_circuit (PoRCircuit::synthesize) per level, in namespace "base" / "sub" / "top" then
// "merkle tree hash i" (i restarts at 0 in each part): log2(arity) "index bit j" booleans, the
// siblings as "path element j", insert() of the running value at the index (directly in the level
// namespace), and the node hash in "computation of commitment hash". Then the index bits are
// packed into public inputs ("path", one input for up to 254 bits), the root is taken
// ("root_value"; allocated if it is a value) and "enforce root is correct": computed * 1 = root;
// with a public root it is also inputized ("root"). The leaf is taken in "value" first.
//
// Counts (poseidon): a level costs log2(a) + insert(a) + hash(a): 314 (a = 2), 387 (4), 530 (8);
// plus 3 for pack, equality and inputize (2 with a private root). rfp's por_circuit tests (64
// leaves per base tree): 2-0-0 1 887, 4-0-0 1 164, 8-0-0 1 063, 8-2-0 1 377, 8-8-0 1 593,
// 8-4-2 / 8-2-4 1 764, 8-8-2 1 907; sha256 2 / 4 / 8: 272 295 / 216 258 / 250 987.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "circuits/root.hpp"
#include "circuits/tree_hash.hpp"
#include "cs/constraint_system.hpp"
#include "filecoin/merkle/merkle_proof.hpp"
#include "filecoin/merkle/tree_shape.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"

namespace cuzk::circuits {

// Arities of a (compound) tree: the filecoin layer's shape (sub and top 0 when absent).
using TreeArity = filecoin::TreeShape;

// One level of a path: arity - 1 sibling hashes and the position (0 .. arity-1) of the running
// node among the arity children. Unknown values (parameter generation) are nullopt.
struct PathElement {
  std::vector<std::optional<Fr>> hashes;
  std::optional<size_t> index;
};

// por.rs `AuthPath`: the levels of a path split into base, sub and top parts.
class AuthPath {
 public:
  // From the whole path, base levels first (rfp `From<Vec<(Vec<Option<Fr>>, Option<usize>)>>`):
  // the last level is the top one when there is a top arity, the one before it (or the last)
  // the sub one when there is a sub arity. Checks each level's sibling count.
  AuthPath(TreeArity arity, std::vector<PathElement> levels);
  // No values, the shape of a tree with `leaves` leaves (rfp `AuthPath::blank`).
  static AuthPath blank(TreeArity arity, size_t leaves);

  const TreeArity& arity() const { return arity_; }
  const std::vector<PathElement>& base() const { return base_; }
  const std::vector<PathElement>& sub() const { return sub_; }
  const std::vector<PathElement>& top() const { return top_; }

 private:
  TreeArity arity_;
  std::vector<PathElement> base_, sub_, top_;
};

// MerkleProof::as_options().into() (por.rs `From<Vec<(Vec<Option<Fr>>, Option<usize>)>>`): the
// path of a vanilla proof as an AuthPath of a tree with `leaves` leaves. std::invalid_argument
// (what() continues a sentence about the proof: "has 9 path elements, the shape needs 10") when
// the path length or a level's sibling count does not fit, or a hash is not a canonical field
// element (upstream panics there).
AuthPath auth_path_of(const filecoin::MerkleProof& proof, TreeArity arity, uint64_t leaves);

// Base levels of a tree with `leaves` leaves (rfp `base_path_length`): log_base(leaves per base
// tree). std::invalid_argument unless that is a whole power.
size_t base_path_length(TreeArity arity, size_t leaves);

// PoRCircuit::synthesize. With private_root the root is only compared, not inputized.
void por_circuit(ConstraintSystem& cs, TreeHasher hasher, const Root& value, const AuthPath& path,
                 const Root& root, bool private_root);

// The public inputs por_circuit allocates, for the verifier (PoRCompound::generate_public_inputs):
// Fr(challenge), then the root when it is public.
std::vector<Fr> por_public_inputs(uint64_t challenge, const std::optional<Fr>& public_root);

// por.rs `por_no_challenge_input`: the same hashing with externally allocated challenge bits
// (exactly the path's bit count, least significant first), sibling numbers and root; no public
// input. Namespaces "merkle proof insert (height=h)" / "merkle proof hash (height=h)", then
// "calculated root == provided root": computed * 1 = root.
void por_no_challenge_input(ConstraintSystem& cs, TreeHasher hasher, TreeArity arity,
                            std::span<const gadgets::AllocatedBit> challenge_bits,
                            const gadgets::AllocatedNum& leaf,
                            std::span<const std::vector<gadgets::AllocatedNum>> path_values,
                            const gadgets::AllocatedNum& root);

}  // namespace cuzk::circuits
