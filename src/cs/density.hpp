// DensityTracker: one bit per variable, set when the variable appears in some constraint's
// A (or B) combination (mark_density in density_rule.hpp). The MSMs of the prover skip variables
// whose bit is clear, and the parameter files store query points only for set bits.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/bit_count.hpp"

namespace cuzk {

class DensityTracker {
 public:
  void add_element() {
    if (size_ % 64 == 0) words_.push_back(0);
    ++size_;
  }
  void reserve(size_t n) { words_.reserve((n + 63) / 64); }
  void resize(size_t n) {
    words_.assign((n + 63) / 64, 0);
    size_ = n;
  }
  // n bits held in `words` (bits past n must be clear).
  static DensityTracker from_words(std::vector<uint64_t> words, size_t n) {
    DensityTracker d;
    words.resize((n + 63) / 64, 0);
    d.words_ = std::move(words);
    d.size_ = n;
    return d;
  }
  void set(size_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  bool get(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  size_t size() const { return size_; }
  size_t popcount() const { return count_set_bits(words_); }
  const std::vector<uint64_t>& words() const { return words_; }
  friend bool operator==(const DensityTracker&, const DensityTracker&) = default;

 private:
  std::vector<uint64_t> words_;
  size_t size_ = 0;
};

}  // namespace cuzk
