// Fixed-base scalar multiplication: k * G for many k and one G (parameter generation).
// A table of j * 2^(8w) * G (w < 32 windows, j < 256) in affine form turns each product into at
// most 32 mixed additions; batches are normalised with one inversion.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "ec/jacobian.hpp"
#include "ff/fr.hpp"
#include "util/progress.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

template <class Curve>
class FixedBaseTable {
 public:
  static constexpr size_t kWindowBits = 8;
  static constexpr size_t kWindows = 256 / kWindowBits;

  explicit FixedBaseTable(const Jacobian<Curve>& base) : table_(kWindows * 256) {
    std::vector<Jacobian<Curve>> proj(kWindows * 256);
    Jacobian<Curve> window_base = base;  // 2^(8w) G
    for (size_t w = 0; w < kWindows; ++w) {
      Jacobian<Curve> acc;  // j * window_base
      for (size_t j = 0; j < 256; ++j) {
        proj[w * 256 + j] = acc;
        acc += window_base;
      }
      window_base = acc;  // 256 * window_base
    }
    batch_to_affine<Curve>(proj, table_);
  }

  Jacobian<Curve> mul(const BigInt<4>& k) const {
    Jacobian<Curve> acc;
    for (size_t w = 0; w < kWindows; ++w) {
      const size_t digit = (k.w[w / 8] >> (8 * (w % 8))) & 0xff;
      if (digit != 0) acc = acc.add_mixed(table_[w * 256 + digit]);
    }
    return acc;
  }
  Jacobian<Curve> mul(const Fr& k) const { return mul(k.to_canonical()); }

  // The table: entry w * 256 + j is j * 2^(8w) * G (the device generator uploads it).
  const std::vector<Affine<Curve>>& points() const { return table_; }

  // out[i] = scalars[i] * G, in parallel, normalised to affine; `done` (optional) counts them.
  void mul_batch(std::span<const Fr> scalars, std::span<Affine<Curve>> out, ThreadPool& pool,
                 ProgressCounter* done = nullptr) const {
    pool.parallel_for(
        scalars.size(),
        [&](size_t begin, size_t end) {
          std::vector<Jacobian<Curve>> tmp(end - begin);
          for (size_t i = begin; i < end; ++i)
            tmp[i - begin] = mul(scalars[i]);
          batch_to_affine<Curve>(tmp, out.subspan(begin, end - begin));
          if (done != nullptr) done->add(end - begin);
        },
        256);
  }

 private:
  std::vector<Affine<Curve>> table_;
};

}  // namespace cuzk
