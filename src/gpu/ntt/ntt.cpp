#include "gpu/ntt/ntt.hpp"

#include <algorithm>
#include <vector>

#include "gpu/device/cuda_check.hpp"
#include "gpu/ntt/ntt_launch.hpp"

namespace cuzk::gpu {

namespace {

using namespace ntt_detail;

std::array<uint64_t, 4> limbs(const Fr& f) {
  return {f.mont().w[0], f.mont().w[1], f.mont().w[2], f.mont().w[3]};
}

}  // namespace

const NttEngine::PowerTables& NttEngine::power_tables(const Fr& g, const Fr& c, size_t count) {
  const Key key{limbs(g), limbs(c), count};
  auto it = powers_.find(key);
  if (it != powers_.end()) return it->second;
  const size_t lo_n = size_t{1} << kPowLoBits;
  const size_t hi_n = std::max<size_t>(1, (count + lo_n - 1) >> kPowLoBits);
  std::vector<Fr> lo(lo_n), hi(hi_n);
  Fr x = Fr::one();
  for (size_t i = 0; i < lo_n; ++i, x *= g)
    lo[i] = x;
  const Fr step = x;  // g^(2^12)
  Fr y = c;
  for (size_t j = 0; j < hi_n; ++j, y *= step)
    hi[j] = y;
  PowerTables t;
  t.lo.allocate(lo_n);
  t.hi.allocate(hi_n);
  t.lo.upload(lo, stream_);
  t.hi.upload(hi, stream_);
  // The host vectors die here: wait for the copies.
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return powers_.emplace(key, std::move(t)).first->second;
}

const Fr* NttEngine::twiddles(size_t log_n, const Fr& omega) {
  const Key key{limbs(omega), limbs(Fr::one()), log_n};
  auto it = twiddles_.find(key);
  if (it != twiddles_.end()) return it->second.get();
  const size_t half = (size_t{1} << log_n) / 2;
  // cudaFree (the replaced table's) waits for the kernels that read it.
  if (single_table_) twiddles_.clear();
  const PowerTables& p = power_tables(omega, Fr::one(), half);
  DeviceBuffer<Fr> tw(std::max<size_t>(half, 1));
  launch_expand_powers(tw.get(), half, p.lo.get(), p.hi.get(), stream_);
  return twiddles_.emplace(key, std::move(tw)).first->second.get();
}

// Passes over bits [s0, s0 + k), lowest first: the first covers 10 bits of contiguous rows, the
// later ones 8 bits x 4 columns (128-byte rows), except that a remainder that fits one tile takes
// one pass with as many columns as fill it, up to 4 (2^20: 10 + 10, 2^24: 10 + 8 + 6 x 4 columns,
// 2^27: 10 + 8 + 9 x 2 columns). With 256 threads per tile (H200 2026-11-30), 8 columns (2^27:
// 10 + 7 + 7 + 3) took 44.2 ms and 2 columns (10 + 9 + 8) 43.8, against 43.6. DIT runs the passes
// upwards, DIF (reversed stage order) downwards.
void NttEngine::run_passes(Fr* d_values, size_t log_n, const Fr& omega, bool dif,
                           const LoadPowers* scale) {
  if (log_n == 0) {  // no stages; only the scaling of the one element
    if (scale != nullptr) launch_scale_powers(d_values, 0, scale->lo, scale->hi, stream_);
    return;
  }
  const Fr* tw = twiddles(log_n, omega);
  struct Pass {
    int s0, k, log_c;
  };
  std::vector<Pass> passes;
  for (int s0 = 0; s0 < static_cast<int>(log_n);) {
    const int left = static_cast<int>(log_n) - s0;
    const int log_c = s0 == 0               ? 0
                      : left <= kMaxTileLog ? std::min(kMaxColumnsLog, kMaxTileLog - left)
                                            : kMaxColumnsLog;
    const int k = std::min(left, kMaxTileLog - log_c);
    passes.push_back({s0, k, log_c});
    s0 += k;
  }
  if (dif) std::reverse(passes.begin(), passes.end());
  for (const Pass& p : passes) {
    launch_pass(d_values, tw, static_cast<int>(log_n), p.s0, p.k, p.log_c, dif, scale, stream_);
    scale = nullptr;  // the first pass only
  }
}

LoadPowers NttEngine::load_powers(const Fr& g, const Fr& c, size_t log_n, bool exponent_reversed) {
  const PowerTables& p = power_tables(g, c, size_t{1} << log_n);
  return {p.lo.get(), p.hi.get(), exponent_reversed};
}

void NttEngine::dif(Fr* d_values, size_t log_n, const Fr& omega) {
  run_passes(d_values, log_n, omega, true, nullptr);
}
void NttEngine::dit_scaled(Fr* d_values, size_t log_n, const Fr& omega, const Fr& g, const Fr& c) {
  const LoadPowers scale = load_powers(g, c, log_n, true);
  run_passes(d_values, log_n, omega, false, &scale);
}

void NttEngine::bit_reverse(Fr* d_values, size_t log_n) {
  if (log_n == 0) return;
  launch_bit_reverse(d_values, static_cast<int>(log_n), stream_);
}

void NttEngine::bit_reverse_scaled(Fr* d_values, size_t log_n, const Fr& g, const Fr& c) {
  if (g == Fr::one()) {
    launch_bit_reverse_scale(d_values, static_cast<int>(log_n), c, stream_);
    return;
  }
  const PowerTables& p = power_tables(g, c, size_t{1} << log_n);
  launch_bit_reverse_scale_powers(d_values, static_cast<int>(log_n), p.lo.get(), p.hi.get(),
                                  stream_);
}

void NttEngine::fft(Fr* d_values, const EvaluationDomain& domain) {
  dif(d_values, domain.log_size(), domain.omega());
  bit_reverse(d_values, domain.log_size());
}

void NttEngine::ifft(Fr* d_values, const EvaluationDomain& domain) {
  dif(d_values, domain.log_size(), domain.omega_inv());
  bit_reverse_scaled(d_values, domain.log_size(), Fr::one(), domain.n_inv());
}

void NttEngine::coset_fft(Fr* d_values, const EvaluationDomain& domain) {
  const size_t log_n = domain.log_size();
  const LoadPowers scale = load_powers(domain.g(), Fr::one(), log_n, false);
  run_passes(d_values, log_n, domain.omega(), true, &scale);
  bit_reverse(d_values, log_n);
}

void NttEngine::icoset_fft(Fr* d_values, const EvaluationDomain& domain) {
  dif(d_values, domain.log_size(), domain.omega_inv());
  bit_reverse_scaled(d_values, domain.log_size(), domain.g_inv(), domain.n_inv());
}

void NttEngine::release_tables() {
  powers_.clear();
  twiddles_.clear();
}

}  // namespace cuzk::gpu
