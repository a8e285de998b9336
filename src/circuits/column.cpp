#include "circuits/column.hpp"

#include <stdexcept>
#include <string>

#include "circuits/names.hpp"
#include "circuits/poseidon_circuit.hpp"

namespace cuzk::circuits {

AllocatedNum hash_single_column(ConstraintSystem& cs, std::span<const AllocatedNum> column) {
  if (column.size() != 2 && column.size() != 11) {
    throw std::invalid_argument("hash_single_column: unsupported column size " +
                                std::to_string(column.size()));
  }
  return poseidon_hash_circuit(cs, column);
}

const AllocatedNum& AllocatedColumn::get_value(size_t layer) const {
  if (layer == 0 || layer > rows_.size()) {
    throw std::out_of_range("AllocatedColumn: layer " + std::to_string(layer) +
                            " out of range 1.." + std::to_string(rows_.size()));
  }
  return rows_[layer - 1];
}

AllocatedColumn Column::alloc(ConstraintSystem& cs) const {
  std::vector<AllocatedNum> out;
  out.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    out.push_back(AllocatedNum::alloc(Ns(cs, NameN{"column_num_row_", i}), rows[i]));
  return AllocatedColumn(std::move(out));
}

AllocatedColumn ColumnProof::alloc(ConstraintSystem& cs) const {
  return column.alloc(Ns(cs, Name{"column"}));
}

}  // namespace cuzk::circuits
