#include "update/circuit_parts.hpp"

#include <stdexcept>
#include <string>

#include "circuits/constraint.hpp"
#include "circuits/names.hpp"
#include "circuits/por.hpp"
#include "circuits/poseidon_circuit.hpp"
#include "update/gadgets.hpp"

namespace cuzk::update {

using circuits::Name;
using circuits::NameN;
using circuits::Ns;

namespace {

std::string c_index_name(const char* what, size_t c_index) {
  return std::string(what) + " (c_index=" + std::to_string(c_index) + ")";
}

bool shape_equal(const PathSiblings& a, const PathSiblings& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].size() != b[i].size()) return false;
  return true;
}

}  // namespace

std::vector<AllocatedBit> select_bits(ConstraintSystem& cs, const AllocatedNum& selector,
                                      size_t bit_len, const char* name) {
  std::optional<Fr::Int> v;
  if (selector.value()) v = selector.value()->to_canonical();
  std::vector<AllocatedBit> bits;
  bits.reserve(bit_len);
  const std::string prefix = std::string(name) + "_bit_";
  for (size_t i = 0; i < bit_len; ++i) {
    std::optional<bool> b;
    if (v) b = v->bit(i);
    bits.push_back(AllocatedBit::alloc(Ns(cs, NameN{prefix.c_str(), i}), b));
  }
  enforce_binary_decomposition(
      cs, [&] { return std::string(name) + " binary decomp"; }, bits, selector);
  return bits;
}

void check_selector(const Fr& value, unsigned partition_bit_len, unsigned partition_count,
                    size_t h_select_bit_len, const char* name) {
  const Fr::Int v = value.to_canonical();
  uint64_t k = 0;
  for (unsigned i = 0; i < partition_bit_len; ++i)
    k |= uint64_t{v.bit(i)} << i;
  if (k >= partition_count) {
    throw std::invalid_argument(std::string("update circuit: ") + name +
                                ": partition-index exceeds partition count");
  }
  unsigned set = 0;
  for (size_t i = partition_bit_len; i < partition_bit_len + h_select_bit_len; ++i)
    set += v.bit(i) ? 1 : 0;
  if (set != 1) {
    throw std::invalid_argument(std::string("update circuit: ") + name +
                                ": h_select does not have exactly one bit set");
  }
  for (size_t i = partition_bit_len + h_select_bit_len; i < Fr::kBits; ++i) {
    if (v.bit(i)) {
      throw std::invalid_argument(std::string("update circuit: ") + name +
                                  ": bits above h_select are set");
    }
  }
}

std::vector<std::vector<AllocatedNum>> alloc_path(ConstraintSystem& cs, const char* name,
                                                  size_t c_index, const PathSiblings& path) {
  std::vector<std::vector<AllocatedNum>> out(path.size());
  for (size_t row = 0; row < path.size(); ++row) {
    out[row].reserve(path[row].size());
    for (size_t s = 0; s < path[row].size(); ++s) {
      out[row].push_back(AllocatedNum::alloc(
          Ns(cs,
             [&] {
               return std::string(name) + " sibling (c_index=" + std::to_string(c_index) +
                      ", tree_row=" + std::to_string(row) + ", sibling_index=" + std::to_string(s) +
                      ")";
             }),
          path[row][s]));
    }
  }
  return out;
}

AllocatedNum open_replicas(ConstraintSystem& cs, const ReplicaOpening& shared, size_t c_index,
                           const ChallengeWitness& w, std::span<const AllocatedBit> c_bits) {
  const AllocatedNum c_high = get_challenge_high_bits(
      Ns(cs, [&] { return c_index_name("get_challenge_high_bits", c_index); }), c_bits,
      shared.h_select_bits, shared.hs);
  const AllocatedNum rho =
      gen_randomness_hash(Ns(cs, [&] { return c_index_name("rho", c_index); }), shared.phi, c_high);
  const AllocatedNum leaf_r_old = AllocatedNum::alloc(
      Ns(cs, [&] { return c_index_name("leaf_r_old", c_index); }), w.leaf_r_old);
  const AllocatedNum leaf_d_new = AllocatedNum::alloc(
      Ns(cs, [&] { return c_index_name("leaf_d_new", c_index); }), w.leaf_d_new);
  const AllocatedNum leaf_r_new = label_r_new(
      Ns(cs, [&] { return c_index_name("leaf_r_new", c_index); }), leaf_r_old, leaf_d_new, rho);
  // Sanity check that the calculated leaf_r_new agrees with the provided value (upstream asserts).
  if (leaf_r_new.value() && (!w.leaf_r_new || *w.leaf_r_new != *leaf_r_new.value())) {
    throw std::invalid_argument("update circuit: challenge " + std::to_string(c_index) +
                                ": leaf_r_new is not leaf_r_old + leaf_d_new * rho");
  }
  const std::vector<std::vector<AllocatedNum>> path_r_old =
      alloc_path(cs, "path_r_old", c_index, w.path_r_old);
  circuits::por_no_challenge_input(Ns(cs, [&] { return c_index_name("por tree_r_old", c_index); }),
                                   circuits::TreeHasher::kPoseidon, shared.tree_r, c_bits,
                                   leaf_r_old, path_r_old, shared.root_r_old);
  const std::vector<std::vector<AllocatedNum>> path_r_new =
      alloc_path(cs, "path_r_new", c_index, w.path_r_new);
  circuits::por_no_challenge_input(Ns(cs, [&] { return c_index_name("por tree_r_new", c_index); }),
                                   circuits::TreeHasher::kPoseidon, shared.tree_r, c_bits,
                                   leaf_r_new, path_r_new, shared.root_r_new);
  return leaf_d_new;
}

void check_witness_shape(const std::vector<ChallengeWitness>& proofs, size_t challenges,
                         const ChallengeWitness& blank) {
  if (proofs.size() != challenges) {
    throw std::invalid_argument("update circuit: " + std::to_string(proofs.size()) +
                                " challenge proofs, the circuit has " + std::to_string(challenges));
  }
  for (size_t i = 0; i < proofs.size(); ++i) {
    if (!shape_equal(proofs[i].path_r_old, blank.path_r_old) ||
        !shape_equal(proofs[i].path_d_new, blank.path_d_new) ||
        !shape_equal(proofs[i].path_r_new, blank.path_r_new)) {
      throw std::invalid_argument("update circuit: challenge " + std::to_string(i) +
                                  " has paths of another tree shape");
    }
  }
}

Commitments alloc_commitments(ConstraintSystem& cs, const std::optional<Fr>& comm_r_old,
                              const std::optional<Fr>& comm_d_new,
                              const std::optional<Fr>& comm_r_new) {
  const auto public_num = [&](const char* name, const char* input, const std::optional<Fr>& value) {
    const AllocatedNum n = AllocatedNum::alloc(Ns(cs, Name{name}), value);
    n.inputize(Ns(cs, Name{input}));
    return n;
  };
  const AllocatedNum r_old = public_num("comm_r_old", "comm_r_old_input", comm_r_old);
  const AllocatedNum d_new = public_num("comm_d_new", "comm_d_new_input", comm_d_new);
  const AllocatedNum r_new = public_num("comm_r_new", "comm_r_new_input", comm_r_new);
  const AllocatedNum phi = gen_randomness_hash(Ns(cs, Name{"phi"}), d_new, r_old);
  return {r_old, d_new, r_new, phi};
}

ReplicaRoots alloc_roots(ConstraintSystem& cs, const std::optional<Fr>& comm_c,
                         const std::optional<Fr>& root_r_old, const std::optional<Fr>& root_r_new) {
  const AllocatedNum c = AllocatedNum::alloc(Ns(cs, Name{"comm_c"}), comm_c);
  const AllocatedNum r_old = AllocatedNum::alloc(Ns(cs, Name{"root_r_old"}), root_r_old);
  const AllocatedNum r_new = AllocatedNum::alloc(Ns(cs, Name{"root_r_new"}), root_r_new);
  return {c, r_old, r_new};
}

void enforce_comm_r(ConstraintSystem& cs, const ReplicaRoots& roots, const Commitments& public_in) {
  const AllocatedNum comm_r_old_calc = circuits::poseidon_hash2_circuit(
      Ns(cs, Name{"comm_r_old_calc"}), roots.comm_c, roots.root_r_old);
  circuits::equal(cs, Name{"enforce comm_r_old_calc == comm_r_old"}, comm_r_old_calc,
                  public_in.comm_r_old);
  const AllocatedNum comm_r_new_calc = circuits::poseidon_hash2_circuit(
      Ns(cs, Name{"comm_r_new_calc"}), roots.comm_c, roots.root_r_new);
  circuits::equal(cs, Name{"enforce comm_r_new_calc == comm_r_new"}, comm_r_new_calc,
                  public_in.comm_r_new);
}

}  // namespace cuzk::update
