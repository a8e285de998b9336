#include "pce/recording_cs.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cuzk::pce {

namespace {

// The recording's vectors, owned by the RecordedCircuit that views them.
struct OwnedMatrices {
  std::vector<Fr> coefficients;
  std::vector<uint32_t> row_ptr[3], cols[3];
  std::vector<CoefficientIndex> coeffs[3];
};

}  // namespace

RecordingCS::RecordingCS() {
  alloc_input([] { return std::string("ONE"); }, [] { return Fr::one(); });
}

Variable RecordingCS::alloc(NameFn, ValueFn) {
  if (num_aux_ >= kAuxTag) throw std::invalid_argument("pce: more than 2^31 aux variables");
  a_aux_density_.add_element();
  b_aux_density_.add_element();
  return Variable::aux(static_cast<uint32_t>(num_aux_++));
}

Variable RecordingCS::alloc_input(NameFn, ValueFn) {
  if (num_inputs_ >= kAuxTag) throw std::invalid_argument("pce: more than 2^31 inputs");
  b_input_density_.add_element();
  return Variable::input(static_cast<uint32_t>(num_inputs_++));
}

void RecordingCS::record(LcFn fn, Builder& m, DensityTracker* input_density,
                         DensityTracker* aux_density) {
  scratch_.clear();
  fn(scratch_);
  merged_.clear();
  for (const Term& t : scratch_.terms()) {
    // Density counts every term, as the proving assignment's does (even one whose coefficients
    // cancel: bellpepper keeps such a term).
    if (t.var.is_input()) {
      if (input_density != nullptr) input_density->set(t.var.index);
      merged_.emplace_back(t.var.index, t.coeff);
    } else {
      if (aux_density != nullptr) aux_density->set(t.var.index);
      merged_.emplace_back(t.var.index | kAuxTag, t.coeff);
    }
  }
  // Tagged columns sort inputs first, each kind by index; merge a variable's terms.
  if (merged_.size() > 1) {
    std::stable_sort(merged_.begin(), merged_.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    size_t out = 0;
    for (size_t i = 1; i < merged_.size(); ++i) {
      if (merged_[i].first == merged_[out].first) {
        merged_[out].second += merged_[i].second;
      } else {
        merged_[++out] = merged_[i];
      }
    }
    merged_.resize(out + 1);
  }
  for (const auto& [col, coeff] : merged_) {
    if (coeff.is_zero()) continue;
    const uint32_t index = table_.index_of(coeff);
    if (index >= kMaxCoefficients) {
      throw std::invalid_argument(
          "pce: the circuit has more than 65,536 distinct coefficients, more than the recorded "
          "format indexes");
    }
    m.cols.push_back(col);
    m.coeffs.push_back(static_cast<CoefficientIndex>(index));
  }
  if (m.cols.size() > UINT32_MAX) throw std::invalid_argument("pce: over 2^32 entries in a matrix");
  m.row_end.push_back(static_cast<uint32_t>(m.cols.size()));
}

void RecordingCS::enforce(NameFn, LcFn a, LcFn b, LcFn c) {
  record(a, a_, nullptr, &a_aux_density_);
  record(b, b_, &b_input_density_, &b_aux_density_);
  record(c, c_, nullptr, nullptr);
  if ((++num_constraints_ & 0xfffff) == 0 && progress_) progress_(1u << 20);
}

RecordedCircuit RecordingCS::finish(const CircuitIdentity& identity) && {
  // Input rows: input_i * 0 = 0 (A gets input_i with coefficient 1; the A query is dense over
  // inputs, which the prover's density handling assumes).
  for (size_t i = 0; i < num_inputs_; ++i) {
    a_.cols.push_back(static_cast<uint32_t>(i));
    a_.coeffs.push_back(0);
    a_.row_end.push_back(static_cast<uint32_t>(a_.cols.size()));
    b_.row_end.push_back(static_cast<uint32_t>(b_.cols.size()));
    c_.row_end.push_back(static_cast<uint32_t>(c_.cols.size()));
  }
  if (num_inputs_ + num_aux_ > UINT32_MAX) throw std::invalid_argument("pce: over 2^32 columns");
  auto owned = std::make_shared<OwnedMatrices>();
  owned->coefficients = table_.values();
  Builder* builders[3] = {&a_, &b_, &c_};
  const auto inputs = static_cast<uint32_t>(num_inputs_);
  for (int k = 0; k < 3; ++k) {
    Builder& m = *builders[k];
    for (uint32_t& col : m.cols)
      col = (col & kAuxTag) != 0 ? inputs + (col & ~kAuxTag) : col;
    owned->row_ptr[k].reserve(m.row_end.size() + 1);
    owned->row_ptr[k].push_back(0);
    owned->row_ptr[k].insert(owned->row_ptr[k].end(), m.row_end.begin(), m.row_end.end());
    std::vector<uint32_t>().swap(m.row_end);
    owned->cols[k] = std::move(m.cols);
    owned->coeffs[k] = std::move(m.coeffs);
  }
  RecordedCircuit rc;
  rc.identity = identity;
  rc.num_inputs = num_inputs_;
  rc.num_aux = num_aux_;
  rc.num_rows = num_constraints_ + num_inputs_;
  rc.coefficients = owned->coefficients;
  CsrMatrix* mats[3] = {&rc.a, &rc.b, &rc.c};
  uint64_t bytes = owned->coefficients.size() * sizeof(Fr);
  for (int k = 0; k < 3; ++k) {
    *mats[k] = {owned->row_ptr[k], owned->cols[k], owned->coeffs[k]};
    bytes += owned->row_ptr[k].size() * 4 + owned->cols[k].size() * 4 +
             owned->coeffs[k].size() * sizeof(CoefficientIndex);
  }
  rc.a_aux_density = std::move(a_aux_density_);
  rc.b_input_density = std::move(b_input_density_);
  rc.b_aux_density = std::move(b_aux_density_);
  rc.storage = std::move(owned);
  rc.storage_bytes = bytes;
  return rc;
}

}  // namespace cuzk::pce
