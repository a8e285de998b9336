// Columns of the SDR layers (one label per layer at a node) in the StackedDrg circuit, as
// rust-fil-proofs storage-proofs-porep/src/stacked/circuit/{column.rs, column_proof.rs, hash.rs}:
// a column's rows are allocated as "column_num_row_i" (under "column" for a column proof) and
// its hash is the Poseidon MerkleTree hash of arity = number of layers (11 for 32/64 GiB,
// 2 for the smaller sectors: 598 / 311 constraints); tree_c commits to those hashes.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "circuits/por.hpp"
#include "cs/constraint_system.hpp"
#include "gadgets/num.hpp"

namespace cuzk::circuits {

using gadgets::AllocatedNum;

// hash.rs `hash_single_column`: poseidon_hash of arity column.size(), which must be 2 or 11 (the
// arities Filecoin instantiates for columns; std::invalid_argument otherwise).
AllocatedNum hash_single_column(ConstraintSystem& cs, std::span<const AllocatedNum> column);

class AllocatedColumn {
 public:
  explicit AllocatedColumn(std::vector<AllocatedNum> rows) : rows_(std::move(rows)) {}

  AllocatedNum hash(ConstraintSystem& cs) const { return hash_single_column(cs, rows_); }
  // The label of `layer`, 1-indexed (std::out_of_range otherwise).
  const AllocatedNum& get_value(size_t layer) const;
  const std::vector<AllocatedNum>& rows() const { return rows_; }
  size_t size() const { return rows_.size(); }

 private:
  std::vector<AllocatedNum> rows_;
};

struct Column {
  std::vector<std::optional<Fr>> rows;

  // `layers` unknown rows (blank circuits).
  static Column empty(size_t layers) { return Column{std::vector<std::optional<Fr>>(layers)}; }
  // Rows as "column_num_row_i" in `cs`.
  AllocatedColumn alloc(ConstraintSystem& cs) const;
};

// column_proof.rs `ColumnProof`: a column and the tree_c path of its hash.
struct ColumnProof {
  Column column;
  AuthPath inclusion_path;

  // Allocates the column in namespace "column"; the path is only consumed later (PoR).
  AllocatedColumn alloc(ConstraintSystem& cs) const;
};

}  // namespace cuzk::circuits
