// WitnessCS: witness-only synthesis. It calls the value callbacks and nothing else (enforce
// builds no linear combination), stores the values compactly (compact_witness.hpp), and runs a
// circuit's pieces (ConstraintSystem::pieces) concurrently on a thread pool, each into a system
// of its own, joined in order afterwards: the variables come out in exactly the order of a
// sequential synthesis, so the witness matches the recorded columns.
//
// Inside a piece, the Variables handed out are numbered from the piece's own start; that is
// harmless because nothing here reads a variable's index (only enforce would, and it is a no-op).
#pragma once

#include <cstddef>
#include <vector>

#include "cs/constraint_system.hpp"
#include "pce/compact_witness.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::pce {

class WitnessCS final : public ConstraintSystem {
 public:
  // Allocates input 0 = ONE. pool: where pieces run (null: sequentially, in this thread).
  explicit WitnessCS(ThreadPool* pool = nullptr);

  Variable alloc(NameFn name, ValueFn value) override;
  Variable alloc_input(NameFn name, ValueFn value) override;
  void enforce(NameFn, LcFn, LcFn, LcFn) override {}
  bool is_witness_only() const override { return true; }
  void alloc_bits(std::span<const uint64_t> words, size_t count) override {
    aux_.push_bits(words, count);
  }
  void pieces(size_t count, PieceFn piece) override;

  // Capacity for a circuit of known shape (from its recording).
  void reserve(size_t inputs, size_t aux);
  size_t num_inputs() const { return inputs_.size(); }
  size_t num_aux() const { return aux_.size(); }

  CompactWitness finish() &&;

 private:
  struct Piece {};

 public:
  // A piece's system (no ONE of its own); only pieces() makes them.
  WitnessCS(ThreadPool* pool, Piece) : pool_(pool) {}

 private:
  ThreadPool* pool_;
  std::vector<Fr> inputs_;
  AuxWriter aux_;
};

}  // namespace cuzk::pce
