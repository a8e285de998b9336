// The CPU twin of a device that keeps a whole parameter set resident and fills itself from the
// set's PointSource (groth16/point_source.hpp) by warm steps: each step reads one bounded piece
// of one section into the store; once every section is read, the store is the set as host
// Parameters, which the fake device proves over with the CPU backend. It records the largest
// piece read, the oracle of "no read exceeds the step".
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>

#include "groth16/point_source.hpp"
#include "groth16/types.hpp"

namespace cuzk::engine::test {

class SourceStore {
 public:
  // `step_bytes`: the most one warm step reads (at least one point).
  explicit SourceStore(uint64_t step_bytes) : step_bytes_(step_bytes) {}

  // Reads the next piece of `params`' points (behind a source) into the store; false once the
  // set is whole. A set of another source starts the store afresh (the device's one set).
  bool read_step(const groth16::Parameters& params) {
    std::lock_guard lock(mu_);
    return read_step_locked(params);
  }

  // The set whole (read to the end first): what a proof runs over.
  std::shared_ptr<const groth16::Parameters> whole(const groth16::Parameters& params) {
    std::lock_guard lock(mu_);
    while (read_step_locked(params)) {
    }
    return whole_;
  }

  uint64_t largest_piece_bytes() const {
    std::lock_guard lock(mu_);
    return largest_;
  }
  uint64_t bytes_read() const {
    std::lock_guard lock(mu_);
    return read_;
  }

 private:
  static uint64_t point_bytes(groth16::Section s) { return s == groth16::Section::kBG2 ? 192 : 96; }

  bool read_step_locked(const groth16::Parameters& params) {
    if (params.source == nullptr) throw std::logic_error("fake store: the set has no source");
    const groth16::PointSource& src = *params.source;
    if (identity_ != src.identity() || (whole_ == nullptr && filling_ == nullptr)) {
      identity_ = src.identity();
      whole_.reset();
      filling_ = std::make_unique<groth16::Parameters>();
      filling_->vk = params.vk;
      section_ = 0;
      next_ = 0;
    }
    if (whole_ != nullptr) return false;
    const groth16::SectionCounts counts = src.counts();
    while (section_ < std::size(groth16::kSections) &&
           next_ == counts.of(groth16::kSections[section_])) {
      ++section_;
      next_ = 0;
    }
    if (section_ == std::size(groth16::kSections)) {
      whole_ = std::move(filling_);
      return false;
    }
    const groth16::Section s = groth16::kSections[section_];
    const uint64_t n =
        std::min(std::max<uint64_t>(1, step_bytes_ / point_bytes(s)), counts.of(s) - next_);
    if (s == groth16::Section::kBG2) {
      filling_->b_g2.resize(counts.b_g2);
      src.read_g2(s, next_, std::span(filling_->b_g2).subspan(next_, n), nullptr);
    } else {
      std::vector<G1Affine>& v = groth16::g1_vector(*filling_, s);
      v.resize(counts.of(s));
      src.read_g1(s, next_, std::span(v).subspan(next_, n), nullptr);
    }
    next_ += n;
    largest_ = std::max(largest_, n * point_bytes(s));
    read_ += n * point_bytes(s);
    return true;
  }

  const uint64_t step_bytes_;
  mutable std::mutex mu_;
  uint64_t identity_ = 0;
  std::unique_ptr<groth16::Parameters> filling_;
  std::shared_ptr<const groth16::Parameters> whole_;
  size_t section_ = 0;
  uint64_t next_ = 0;
  uint64_t largest_ = 0, read_ = 0;
};

}  // namespace cuzk::engine::test
