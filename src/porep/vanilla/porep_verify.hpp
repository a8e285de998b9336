// Native verification of a commit-phase-1 output: every check the PoRep circuit makes
// (storage-proofs-porep/src/stacked/circuit/proof.rs, facts sheet 6.8), plus the vanilla checks of
// storage-proofs-porep/src/stacked/vanilla/params.rs `Proof::verify` and proof_scheme.rs
// `verify_all_partitions`, so that a bad C1 is refused with a message instead of producing an
// unsatisfiable circuit:
//
//   shape      partitions and challenges per partition of the registered proof, L labeling proofs,
//              6 + 8 parent columns of L rows, Merkle proofs of the tree shapes;
//   challenges the proven nodes equal the challenges derived for each partition (interactive:
//              replica_id + seed; synthetic: replica_id + comm_r + seed; NI: replica_id + comm_r),
//              and the parent columns sit at the graph's parents of each challenge;
//   replica_id recomputed from prover_id, sector_id, ticket, comm_d and porep_id when the prover
//              and sector are given (the C1 JSON does not carry them);
//   inclusion  tree_d proof of the data node against comm_d; tree_r_last proof of the replica node
//              against comm_r_last; tree_c proofs of the column hashes against comm_c, every path
//              at the index of its node;
//   comm_r     = Poseidon_2(comm_c, comm_r_last), comm_c and comm_r_last the proofs' roots;
//   labels     label_l(c) recomputed from the parents' column values equals row l of c's column;
//              the labeling / encoding proofs hold exactly those parents, layer and node;
//   encoding   replica(c) = label_L(c) + data(c) mod r.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "porep/vanilla/porep_config.hpp"
#include "porep/vanilla/porep_proof.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

// what() reads "partition <k>, challenge <i> (node <c>): <check>: <detail>", or names the field
// for failures outside a challenge. partition() / challenge() are -1 when not applicable.
class PorepVerifyError : public std::runtime_error {
 public:
  PorepVerifyError(int partition, int challenge, const std::string& what)
      : std::runtime_error(what), partition_(partition), challenge_(challenge) {}
  int partition() const { return partition_; }
  int challenge() const { return challenge_; }

 private:
  int partition_, challenge_;
};

struct PorepVerifyOptions {
  // Both set: replica_id must equal generate_replica_id(prover_id, sector_id, ticket, comm_d).
  std::optional<Domain> prover_id;
  std::optional<uint64_t> sector_id;
  ThreadPool* pool = nullptr;  // challenges are checked in parallel
};

// Throws PorepVerifyError on the first failure in (partition, challenge) order.
void verify_seal_commit_phase1(const SealCommitPhase1Output& c1,
                               const PorepVerifyOptions& options = {});
// The same for a config that need not be a registered proof (test porep_ids).
void verify_seal_commit_phase1(const SealCommitPhase1Output& c1, const PorepConfig& config,
                               const PorepVerifyOptions& options = {});

}  // namespace cuzk::filecoin
