// What the EmptySectorUpdate circuit and its Poseidon variant synthesize alike (circuit.rs and
// poseidon/circuit.rs share these steps line for line):
//
//   select_bits        a public selector (k_and_h_select / h_select) split into its low bits,
//                      "<name>_bit_i" and "<name> binary decomp": (sum 2^i bit_i) * 1 = value;
//   check_selector     the assertions on its value before synthesis (k < partitions, exactly one
//                      h_select bit, nothing above);
//   alloc_path         the sibling numbers of a path, "<name> sibling (c_index=c, tree_row=r,
//                      sibling_index=s)";
//   open_replicas      per challenge: "get_challenge_high_bits (c_index=c)", "rho (c_index=c)",
//                      "leaf_r_old (c_index=c)", "leaf_d_new (c_index=c)", "leaf_r_new
//                      (c_index=c)", then the tree_r_old and tree_r_new paths and their
//                      por_no_challenge_input ("por tree_r_old (c_index=c)", ...); returns
//                      leaf_d_new for the tree_d part, which differs between the two circuits;
//   alloc_commitments  the public commitments, each allocated then inputized ("comm_r_old",
//                      "comm_r_old_input", "comm_d_new", ..., "comm_r_new", ...), and "phi";
//   alloc_roots        the private "comm_c", "root_r_old", "root_r_new";
//   enforce_comm_r     comm_r = Poseidon_2(comm_c, root_r), old and new ("comm_r_old_calc",
//                      "enforce comm_r_old_calc == comm_r_old", then the same for the new one).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "filecoin/merkle/tree_shape.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"
#include "update/challenge_witness.hpp"
#include "update/vanilla/update_params.hpp"

namespace cuzk::update {

using gadgets::AllocatedBit;
using gadgets::AllocatedNum;

std::vector<AllocatedBit> select_bits(ConstraintSystem& cs, const AllocatedNum& selector,
                                      size_t bit_len, const char* name);

// std::invalid_argument naming the problem.
void check_selector(const Fr& value, unsigned partition_bit_len, unsigned partition_count,
                    size_t h_select_bit_len, const char* name);

std::vector<std::vector<AllocatedNum>> alloc_path(ConstraintSystem& cs, const char* name,
                                                  size_t c_index, const PathSiblings& path);

struct ReplicaOpening {
  const AllocatedNum& phi;
  const AllocatedNum& root_r_old;
  const AllocatedNum& root_r_new;
  std::span<const AllocatedBit> h_select_bits;
  filecoin::UpdateHs hs;
  filecoin::TreeShape tree_r;
};

AllocatedNum open_replicas(ConstraintSystem& cs, const ReplicaOpening& shared, size_t c_index,
                           const ChallengeWitness& w, std::span<const AllocatedBit> c_bits);

struct Commitments {
  AllocatedNum comm_r_old, comm_d_new, comm_r_new, phi;
};
Commitments alloc_commitments(ConstraintSystem& cs, const std::optional<Fr>& comm_r_old,
                              const std::optional<Fr>& comm_d_new,
                              const std::optional<Fr>& comm_r_new);

struct ReplicaRoots {
  AllocatedNum comm_c, root_r_old, root_r_new;
};
ReplicaRoots alloc_roots(ConstraintSystem& cs, const std::optional<Fr>& comm_c,
                         const std::optional<Fr>& root_r_old, const std::optional<Fr>& root_r_new);

void enforce_comm_r(ConstraintSystem& cs, const ReplicaRoots& roots, const Commitments& public_in);

// Checks the witness's sizes against the circuit's (std::invalid_argument naming the part).
void check_witness_shape(const std::vector<ChallengeWitness>& proofs, size_t challenges,
                         const ChallengeWitness& blank);

}  // namespace cuzk::update
