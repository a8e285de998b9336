// CompactWitness: a partition's witness as the prover needs it, in a few percent of the bytes of
// an Fr per variable. Most aux variables of Filecoin's circuits are bits (SHA-256, packing), so
// an aux value of 0 or 1 is one bit; any other value is an Fr in `aux_values`, in aux order.
// At 32 GiB PoRep that is ~33 MB of bitmaps plus the non-bit values instead of 4.2 GB.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::pce {

struct CompactWitness {
  std::vector<Fr> inputs;  // including ONE (input 0)
  size_t num_aux = 0;
  // Bit j of word j / 64: aux j is 1 (aux_ones), or aux j is aux_values[rank] (aux_dense),
  // rank = the dense bits before it; neither set: aux j is 0. Never both.
  std::vector<uint64_t> aux_ones, aux_dense;
  std::vector<Fr> aux_values;
  // dense_rank[w]: dense bits in words before w (made by index()).
  std::vector<uint32_t> dense_rank;

  // Builds dense_rank; call once the bitmaps are complete.
  void index();
  Fr aux(size_t j) const {
    const uint64_t bit = uint64_t{1} << (j % 64);
    const size_t w = j / 64;
    if ((aux_dense[w] & bit) != 0)
      return aux_values[dense_rank[w] +
                        static_cast<size_t>(std::popcount(aux_dense[w] & (bit - 1)))];
    return (aux_ones[w] & bit) != 0 ? Fr::one() : Fr::zero();
  }
  // Every aux value as an Fr (the classic twin and the CPU backend's MSMs).
  std::vector<Fr> expand_aux() const;
  size_t num_ones() const;
  uint64_t bytes() const {
    return inputs.size() * sizeof(Fr) + (aux_ones.size() + aux_dense.size()) * 8 +
           aux_values.size() * sizeof(Fr) + dense_rank.size() * 4;
  }

  // From a full aux assignment (the classic proving assignment's).
  static CompactWitness from_assignment(std::span<const Fr> inputs, std::span<const Fr> aux);
};

// Appends values to a CompactWitness's aux part (WitnessCS's storage, and from_assignment).
class AuxWriter {
 public:
  void push(const Fr& v) {
    if (n_ % 64 == 0) {
      ones_.push_back(0);
      dense_.push_back(0);
    }
    const uint64_t bit = uint64_t{1} << (n_ % 64);
    if (v.is_one()) {
      ones_.back() |= bit;
    } else if (!v.is_zero()) {
      dense_.back() |= bit;
      values_.push_back(v);
    }
    ++n_;
  }
  // Appends `count` bit values (bit i of words[i / 64]).
  void push_bits(std::span<const uint64_t> words, size_t count);
  // Appends everything `o` holds after what this holds.
  void append(AuxWriter&& o);
  size_t size() const { return n_; }
  void reserve(size_t n) {
    ones_.reserve((n + 63) / 64);
    dense_.reserve((n + 63) / 64);
  }
  // Room for `n` values in all and `values` of them neither 0 nor 1 (a join of known parts).
  void reserve(size_t n, size_t values) {
    reserve(n);
    values_.reserve(values);
  }
  size_t values_size() const { return values_.size(); }
  void move_into(CompactWitness& w) &&;

 private:
  size_t n_ = 0;
  std::vector<uint64_t> ones_, dense_;
  std::vector<Fr> values_;
};

}  // namespace cuzk::pce
