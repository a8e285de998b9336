// split_scalars: the first pass of an MSM. It pairs each used scalar with its base (applying a
// density mask), drops zero scalars, sums the bases of scalars equal to one directly (most
// Filecoin witness values are bits) and gathers the remaining scalars, canonical, with the index
// of their base, for the bucket method. Parallel, in two passes over aligned ranges: count, then
// write at prefix-summed offsets, so the output order is the input order for any thread count.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "ec/jacobian.hpp"
#include "ec/xyzz.hpp"
#include "ff/fr.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

// The two scalar encodings the MSM accepts: Fr (Montgomery form) and canonical BigInt<4>.
// 0 and 1 are recognised without leaving Montgomery form.
inline bool scalar_is_zero(const Fr& s) {
  return s.is_zero();
}
inline bool scalar_is_one(const Fr& s) {
  return s.is_one();
}
inline BigInt<4> scalar_canonical(const Fr& s) {
  return s.to_canonical();
}
inline bool scalar_is_zero(const BigInt<4>& s) {
  return s.is_zero();
}
inline bool scalar_is_one(const BigInt<4>& s) {
  return s == BigInt<4>::from_u64(1);
}
inline BigInt<4> scalar_canonical(const BigInt<4>& s) {
  return s;
}

template <class Curve>
struct SplitScalars {
  std::vector<BigInt<4>> scalars;    // the scalars left for the bucket method, canonical
  std::vector<uint32_t> base_index;  // scalars[i] multiplies bases[base_index[i]]
  Jacobian<Curve> ones;              // sum of the bases whose scalar is 1 (fast path on)
  unsigned scalar_bits = 0;          // bit length of the largest value in `scalars`
};

// density: nullptr for "every scalar is used", else one bit per scalar (DensityTracker words);
// scalar i is used iff its bit is set and then takes the next base in order. The caller has
// checked that the bases are exactly enough.
template <class Curve, class Scalar>
SplitScalars<Curve> split_scalars(std::span<const Affine<Curve>> bases,
                                  std::span<const Scalar> scalars, const uint64_t* density,
                                  bool fast_path, ThreadPool& pool) {
  if (bases.size() > std::numeric_limits<uint32_t>::max())
    throw std::invalid_argument("msm: more than 2^32 - 1 bases");
  const size_t n = scalars.size();
  // Ranges are whole density words so that each range can count its own bases.
  const size_t want = std::max<size_t>(1, pool.size() * size_t{4});
  const size_t step = std::max<size_t>(64, (n / want + 63) / 64 * 64);
  const size_t ranges = (n + step - 1) / step;
  auto used = [&](size_t i) { return density == nullptr || ((density[i / 64] >> (i % 64)) & 1); };
  auto keeps = [&](const Scalar& s) {
    return !fast_path || (!scalar_is_zero(s) && !scalar_is_one(s));
  };

  std::vector<size_t> kept(ranges + 1), based(ranges + 1);
  pool.run(ranges, [&](size_t r) {
    size_t k = 0, b = 0;
    for (size_t i = r * step, end = std::min(n, (r + 1) * step); i < end; ++i) {
      if (!used(i)) continue;
      ++b;
      if (keeps(scalars[i])) ++k;
    }
    kept[r + 1] = k;
    based[r + 1] = b;
  });
  for (size_t r = 0; r < ranges; ++r) {
    kept[r + 1] += kept[r];
    based[r + 1] += based[r];
  }

  SplitScalars<Curve> out;
  out.scalars.resize(kept[ranges]);
  out.base_index.resize(kept[ranges]);
  std::vector<Xyzz<Curve>> ones(ranges);
  std::vector<BigInt<4>> bit_or(ranges);
  pool.run(ranges, [&](size_t r) {
    size_t k = kept[r], b = based[r];
    Xyzz<Curve> acc;
    BigInt<4> all;
    for (size_t i = r * step, end = std::min(n, (r + 1) * step); i < end; ++i) {
      if (!used(i)) continue;
      const size_t base = b++;
      const Scalar& s = scalars[i];
      if (keeps(s)) {
        const BigInt<4> v = scalar_canonical(s);
        for (size_t l = 0; l < 4; ++l)
          all.w[l] |= v.w[l];
        out.scalars[k] = v;
        out.base_index[k] = static_cast<uint32_t>(base);
        ++k;
      } else if (!scalar_is_zero(s)) {
        acc = acc.add_mixed(bases[base]);
      }
    }
    ones[r] = acc;
    bit_or[r] = all;
  });
  BigInt<4> all;
  for (size_t r = 0; r < ranges; ++r) {
    out.ones += ones[r].to_jacobian();
    for (size_t l = 0; l < 4; ++l)
      all.w[l] |= bit_or[r].w[l];
  }
  out.scalar_bits = static_cast<unsigned>(all.num_bits());
  return out;
}

}  // namespace cuzk
