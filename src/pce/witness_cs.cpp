#include "pce/witness_cs.hpp"

#include <optional>
#include <string>

namespace cuzk::pce {

WitnessCS::WitnessCS(ThreadPool* pool) : pool_(pool) {
  inputs_.push_back(Fr::one());
}

Variable WitnessCS::alloc(NameFn, ValueFn value) {
  const auto index = static_cast<uint32_t>(aux_.size());
  aux_.push(value());
  return Variable::aux(index);
}

Variable WitnessCS::alloc_input(NameFn, ValueFn value) {
  inputs_.push_back(value());
  return Variable::input(static_cast<uint32_t>(inputs_.size() - 1));
}

void WitnessCS::pieces(size_t count, PieceFn piece) {
  if (pool_ == nullptr || count < 2) {
    ConstraintSystem::pieces(count, piece);
    return;
  }
  std::vector<std::optional<WitnessCS>> parts(count);
  pool_->run(count, [&](size_t i) {
    parts[i].emplace(pool_, Piece{});
    piece(i, *parts[i]);
  });
  // One allocation for the joined witness: growing it by doubling re-copied and, worse, faulted
  // in fresh pages for ~2x its size (a 32 GiB WindowPoSt partition: 4 GB of values; perf-log).
  size_t inputs = inputs_.size(), aux = aux_.size(), values = aux_.values_size();
  for (const auto& p : parts) {
    inputs += p->inputs_.size();
    aux += p->aux_.size();
    values += p->aux_.values_size();
  }
  inputs_.reserve(inputs);
  aux_.reserve(aux, values);
  for (auto& p : parts) {
    inputs_.insert(inputs_.end(), p->inputs_.begin(), p->inputs_.end());
    aux_.append(std::move(p->aux_));
    p.reset();
  }
}

void WitnessCS::reserve(size_t inputs, size_t aux) {
  inputs_.reserve(inputs);
  aux_.reserve(aux);
}

CompactWitness WitnessCS::finish() && {
  CompactWitness w;
  w.inputs = std::move(inputs_);
  std::move(aux_).move_into(w);
  return w;
}

}  // namespace cuzk::pce
