// Host halves of the device MSM: window planning, Horner over the window sums, the split.
#include "gpu/msm/msm.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/msm/msm_device.hpp"

namespace cuzk::gpu {

namespace {

// sum_g 2^(g shift) S_g by Horner.
template <class Curve>
Jacobian<Curve> combine_sums(const std::vector<Xyzz<Curve>>& sums, unsigned shift) {
  Jacobian<Curve> acc = Jacobian<Curve>::identity();
  for (size_t g = sums.size(); g-- > 0;) {
    for (unsigned k = 0; k < shift; ++k)
      acc = acc.dbl();
    acc += sums[g].to_jacobian();
  }
  return acc;
}

void check_scalar_count(size_t n) {
  if (n >= (size_t{1} << 31)) throw std::invalid_argument("gpu msm: at most 2^31 - 1 scalars");
}

}  // namespace

template <class Curve>
Jacobian<Curve> msm_pippenger(const Affine<Curve>* d_bases, const Fr* d_scalars,
                              const uint32_t* d_index, size_t n, MsmWorkspace& ws,
                              cudaStream_t stream, unsigned window_bits, MsmStats* stats) {
  if (n == 0) return Jacobian<Curve>::identity();
  check_scalar_count(n);
  const unsigned c = window_bits != 0 ? window_bits : msm_window_bits(n);
  if (c < 2 || c > kMsmMaxWindowBits)
    throw std::invalid_argument("gpu msm: window bits must be 2.." +
                                std::to_string(kMsmMaxWindowBits));
  const std::vector<Xyzz<Curve>> sums = msm_detail::pippenger_window_sums<Curve>(
      d_bases, d_scalars, d_index, n, c, {}, ws, stream, stats);
  if (stats != nullptr) {
    stats->window_bits = c;
    stats->windows = static_cast<unsigned>(sums.size());
    stats->table_copies = 1;
    stats->pippenger = n;
  }
  return combine_sums(sums, c);
}

template <class Curve>
MsmBaseTable<Curve> precompute_bases(const Affine<Curve>* d_bases, size_t n, unsigned window_bits,
                                     unsigned copies, Affine<Curve>* d_table, cudaStream_t stream) {
  if (window_bits < 2 || window_bits > kMsmMaxTableWindowBits)
    throw std::invalid_argument("gpu msm: table window bits must be 2.." +
                                std::to_string(kMsmMaxTableWindowBits));
  if (copies == 0 || copies > msm_windows(window_bits))
    throw std::invalid_argument("gpu msm: a table holds 1.." +
                                std::to_string(msm_windows(window_bits)) +
                                " copies at c = " + std::to_string(window_bits));
  if (n != 0 && size_t{copies} * n >= (size_t{1} << 31))
    throw std::invalid_argument("gpu msm: a table holds fewer than 2^31 points");
  if (n != 0) msm_detail::precompute_table<Curve>(d_bases, n, window_bits, copies, d_table, stream);
  return {d_table, n, copies, window_bits};
}

template <class Curve>
Jacobian<Curve> msm_pippenger(const MsmBaseTable<Curve>& bases, const Fr* d_scalars,
                              const uint32_t* d_index, size_t n, MsmWorkspace& ws,
                              cudaStream_t stream, MsmStats* stats) {
  if (n == 0) return Jacobian<Curve>::identity();
  check_scalar_count(n);
  const unsigned c = bases.window_bits;
  if (c < 2 || c > kMsmMaxTableWindowBits || bases.copies == 0 || bases.copies > msm_windows(c) ||
      size_t{bases.copies} * bases.stride >= (size_t{1} << 31))
    throw std::invalid_argument("gpu msm: malformed base table");
  if (d_index == nullptr && n > bases.stride)
    throw std::invalid_argument("gpu msm: more scalars than the table has bases");
  const std::vector<Xyzz<Curve>> sums = msm_detail::pippenger_window_sums<Curve>(
      bases.table, d_scalars, d_index, n, c, {bases.copies, bases.stride}, ws, stream, stats);
  if (stats != nullptr) {
    stats->window_bits = c;
    stats->windows = msm_windows(c);
    stats->table_copies = bases.copies;
    stats->pippenger = n;
  }
  return combine_sums(sums, c * bases.copies);
}

template <class Curve>
Jacobian<Curve> batch_add(const Affine<Curve>* d_bases, const uint32_t* d_bits, size_t n,
                          MsmWorkspace& ws, cudaStream_t stream) {
  if (n == 0) return Jacobian<Curve>::identity();
  return msm_detail::batch_add_sum<Curve>(d_bases, d_bits, n, ws, stream).to_jacobian();
}

template <class Curve>
Jacobian<Curve> msm_split(const Affine<Curve>* d_bases, const Fr* d_scalars, size_t n,
                          const uint64_t* d_density, MsmWorkspace& ws, cudaStream_t stream,
                          MsmStats* stats) {
  if (n == 0) return Jacobian<Curve>::identity();
  check_scalar_count(n);
  const msm_detail::SplitCounts counts = msm_detail::classify(d_scalars, n, d_density, ws, stream);
  Jacobian<Curve> ones = Jacobian<Curve>::identity();
  if (counts.ones != 0) ones = batch_add<Curve>(d_bases, ws.ones_bits.get(), n, ws, stream);
  const Jacobian<Curve> rest = msm_pippenger<Curve>(
      d_bases, ws.tail_scalars.get(), ws.tail_index.get(), counts.tail, ws, stream, 0, stats);
  if (stats != nullptr) {
    stats->scalars = n;
    stats->ones = counts.ones;
    stats->pippenger = counts.tail;
  }
  return ones + rest;
}

template <class Curve>
Jacobian<Curve> msm_split_ones(const Affine<Curve>* d_bases, const Fr* d_scalars, size_t n,
                               const uint64_t* d_density, MsmWorkspace& ws, cudaStream_t stream,
                               MsmTail<Curve>& tail) {
  if (n == 0) return Jacobian<Curve>::identity();
  check_scalar_count(n);
  const msm_detail::SplitCounts counts = msm_detail::classify(d_scalars, n, d_density, ws, stream);
  if (tail.size + counts.tail > tail.capacity) {
    throw std::logic_error("gpu msm: a tail of " + std::to_string(tail.size + counts.tail) +
                           " entries past its room for " + std::to_string(tail.capacity));
  }
  static_assert(sizeof(Affine<Curve>) % 4 == 0);
  msm_detail::gather_words(d_bases, ws.tail_index.get(), counts.tail, sizeof(Affine<Curve>) / 4,
                           tail.bases + tail.size, stream);
  if (counts.tail != 0) {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(tail.scalars + tail.size, ws.tail_scalars.get(),
                                    counts.tail * sizeof(Fr), cudaMemcpyDeviceToDevice, stream));
  }
  tail.size += counts.tail;
  // (batch_add synchronises: the gather and the copy above are done when it returns)
  if (counts.ones == 0) {
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
    return Jacobian<Curve>::identity();
  }
  return batch_add<Curve>(d_bases, ws.ones_bits.get(), n, ws, stream);
}

template <class Curve>
MsmAccumulator<Curve>::MsmAccumulator(size_t total, MsmWorkspace& ws, cudaStream_t stream,
                                      unsigned window_bits)
    : ws_(ws),
      stream_(stream),
      c_(window_bits != 0 ? window_bits : msm_window_bits(std::max<size_t>(total, 1))),
      ones_(Jacobian<Curve>::identity()) {
  check_scalar_count(total);
  if (c_ < 2 || c_ > kMsmMaxWindowBits)
    throw std::invalid_argument("gpu msm: window bits must be 2.." +
                                std::to_string(kMsmMaxWindowBits));
  stats_.window_bits = c_;
  stats_.windows = msm_windows(c_);
}

template <class Curve>
void MsmAccumulator<Curve>::add(const Affine<Curve>* d_bases, const Fr* d_scalars, size_t n,
                                const uint64_t* d_density) {
  if (n == 0) return;
  check_scalar_count(n);
  const msm_detail::SplitCounts counts =
      msm_detail::classify(d_scalars, n, d_density, ws_, stream_);
  if (counts.ones != 0) ones_ += batch_add<Curve>(d_bases, ws_.ones_bits.get(), n, ws_, stream_);
  if (counts.tail != 0) {
    const bool add = sets_ != 0;
    const msm_detail::BucketShape shape =
        msm_detail::accumulate_buckets<Curve>(d_bases, ws_.tail_scalars.get(), ws_.tail_index.get(),
                                              counts.tail, c_, {}, add, ws_, stream_, &stats_);
    sets_ = shape.sets;
    buckets_per_set_ = shape.buckets_per_set;
  }
  stats_.scalars += n;
  stats_.ones += counts.ones;
  stats_.pippenger += counts.tail;
}

template <class Curve>
Jacobian<Curve> MsmAccumulator<Curve>::sum() {
  Jacobian<Curve> out = ones_;
  if (sets_ != 0) {
    out += combine_sums(
        msm_detail::reduce_buckets<Curve>({sets_, buckets_per_set_}, ws_, stream_, &stats_), c_);
  }
  ones_ = Jacobian<Curve>::identity();
  sets_ = 0;
  buckets_per_set_ = 0;
  return out;
}

#define CUZK_GPU_MSM_INSTANTIATE(C)                                                            \
  template Jacobian<C> msm_pippenger<C>(const Affine<C>*, const Fr*, const uint32_t*, size_t,  \
                                        MsmWorkspace&, cudaStream_t, unsigned, MsmStats*);     \
  template MsmBaseTable<C> precompute_bases<C>(const Affine<C>*, size_t, unsigned, unsigned,   \
                                               Affine<C>*, cudaStream_t);                      \
  template Jacobian<C> msm_pippenger<C>(const MsmBaseTable<C>&, const Fr*, const uint32_t*,    \
                                        size_t, MsmWorkspace&, cudaStream_t, MsmStats*);       \
  template Jacobian<C> batch_add<C>(const Affine<C>*, const uint32_t*, size_t, MsmWorkspace&,  \
                                    cudaStream_t);                                             \
  template Jacobian<C> msm_split<C>(const Affine<C>*, const Fr*, size_t, const uint64_t*,      \
                                    MsmWorkspace&, cudaStream_t, MsmStats*);                   \
  template Jacobian<C> msm_split_ones<C>(const Affine<C>*, const Fr*, size_t, const uint64_t*, \
                                         MsmWorkspace&, cudaStream_t, MsmTail<C>&);
CUZK_GPU_MSM_INSTANTIATE(G1Curve)
CUZK_GPU_MSM_INSTANTIATE(G2Curve)
template class MsmAccumulator<G1Curve>;
template class MsmAccumulator<G2Curve>;
#undef CUZK_GPU_MSM_INSTANTIATE

}  // namespace cuzk::gpu
