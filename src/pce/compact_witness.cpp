#include "pce/compact_witness.hpp"

namespace cuzk::pce {

namespace {

// dst gets the first `n` bits of src appended after its `at` bits (dst's words beyond them are
// zero).
void append_bits(std::vector<uint64_t>& dst, size_t at, const std::vector<uint64_t>& src,
                 size_t n) {
  const size_t words = (at + n + 63) / 64;
  dst.resize(words, 0);
  const unsigned shift = at % 64;
  const size_t base = at / 64;
  const size_t src_words = (n + 63) / 64;
  for (size_t i = 0; i < src_words; ++i) {
    const uint64_t w = src[i];
    dst[base + i] |= w << shift;
    if (shift != 0 && base + i + 1 < words) dst[base + i + 1] |= w >> (64 - shift);
  }
}

}  // namespace

void AuxWriter::push_bits(std::span<const uint64_t> words, size_t count) {
  if (count == 0) return;
  std::vector<uint64_t> src(words.begin(),
                            words.begin() + static_cast<ptrdiff_t>((count + 63) / 64));
  if (count % 64 != 0) src.back() &= (uint64_t{1} << (count % 64)) - 1;  // nothing past count
  append_bits(ones_, n_, src, count);
  dense_.resize(ones_.size(), 0);
  n_ += count;
}

void AuxWriter::append(AuxWriter&& o) {
  if (n_ % 64 == 0) {
    // Word-aligned: plain concatenation.
    ones_.insert(ones_.end(), o.ones_.begin(), o.ones_.end());
    dense_.insert(dense_.end(), o.dense_.begin(), o.dense_.end());
  } else {
    append_bits(ones_, n_, o.ones_, o.n_);
    append_bits(dense_, n_, o.dense_, o.n_);
  }
  if (values_.empty() && values_.capacity() < o.values_.size()) {  // keep reserved room
    values_ = std::move(o.values_);
  } else {
    values_.insert(values_.end(), o.values_.begin(), o.values_.end());
  }
  n_ += o.n_;
  o = AuxWriter();
}

void AuxWriter::move_into(CompactWitness& w) && {
  w.num_aux = n_;
  w.aux_ones = std::move(ones_);
  w.aux_dense = std::move(dense_);
  w.aux_values = std::move(values_);
  w.index();
}

void CompactWitness::index() {
  dense_rank.resize(aux_dense.size());
  uint32_t r = 0;
  for (size_t w = 0; w < aux_dense.size(); ++w) {
    dense_rank[w] = r;
    r += static_cast<uint32_t>(std::popcount(aux_dense[w]));
  }
}

std::vector<Fr> CompactWitness::expand_aux() const {
  std::vector<Fr> out(num_aux);
  size_t next = 0;
  for (size_t j = 0; j < num_aux; ++j) {
    const uint64_t bit = uint64_t{1} << (j % 64);
    if ((aux_dense[j / 64] & bit) != 0) {
      out[j] = aux_values[next++];
    } else if ((aux_ones[j / 64] & bit) != 0) {
      out[j] = Fr::one();
    }
  }
  return out;
}

size_t CompactWitness::num_ones() const {
  size_t n = 0;
  for (uint64_t w : aux_ones)
    n += static_cast<size_t>(std::popcount(w));
  return n;
}

CompactWitness CompactWitness::from_assignment(std::span<const Fr> inputs,
                                               std::span<const Fr> aux) {
  CompactWitness w;
  w.inputs.assign(inputs.begin(), inputs.end());
  AuxWriter writer;
  writer.reserve(aux.size());
  for (const Fr& v : aux)
    writer.push(v);
  std::move(writer).move_into(w);
  return w;
}

}  // namespace cuzk::pce
