// NttEngine: radix-2 NTTs over Fr on the device, in place, on device arrays of Fr in the host's
// Montgomery layout (the pointers are device pointers; Fr is only the element type).
//
// The network is split into passes of up to 10 stages; each pass loads a tile of 2^k x C elements
// (C consecutive columns, for coalesced loads in the strided passes) into 32 KiB of shared memory
// and runs its stages there, so 2^24 takes 3 passes over device memory and 2^27 four. DIF (natural
// in, bit-reversed out) and DIT (bit-reversed in, natural out) share the pass kernel; the natural-
// order transforms add one in-place bit-reversal pass, which also applies the inverse transforms'
// scalings, while the coset shift rides on the first pass's loads. Twiddle tables (n/2 powers of
// omega, 2 GiB at 2^27) are built on the device from two small host tables and cached per (omega,
// size), as are the power tables of coset shifts.
//
// All transforms agree bit for bit with poly/fft.hpp (a transform's result is unique and both
// keep elements fully reduced).
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <map>
#include <tuple>

#include "ff/fr.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/ntt/ntt_launch.hpp"
#include "poly/evaluation_domain.hpp"

namespace cuzk::gpu {

class NttEngine {
 public:
  explicit NttEngine(cudaStream_t stream) : stream_(stream) {}

  cudaStream_t stream() const { return stream_; }

  // Natural order in and out; d_values holds domain.size() elements. Asynchronous on stream().
  void fft(Fr* d_values, const EvaluationDomain& domain);
  void ifft(Fr* d_values, const EvaluationDomain& domain);
  void coset_fft(Fr* d_values, const EvaluationDomain& domain);
  void icoset_fft(Fr* d_values, const EvaluationDomain& domain);

  // Building blocks (the H chain skips the permutations with them).
  // Decimation in frequency: natural in, bit-reversed out, no scaling.
  void dif(Fr* d_values, size_t log_n, const Fr& omega);
  // Decimation in time (bit-reversed in, natural out) whose first pass multiplies the element at
  // position i by c g^bitrev(i) as it loads it (c g^e for the natural index e it stands for).
  void dit_scaled(Fr* d_values, size_t log_n, const Fr& omega, const Fr& g, const Fr& c);
  void bit_reverse(Fr* d_values, size_t log_n);
  // The permutation, then d[e] *= c g^e at natural index e, in one pass over the data.
  void bit_reverse_scaled(Fr* d_values, size_t log_n, const Fr& g, const Fr& c);

  // Drops the cached tables (device memory).
  void release_tables();
  // Keep at most one twiddle table (a capped device's chain: 2 GiB at 2^27 instead of 4); a
  // table for the other direction replaces it (rebuilt on the device from its power tables).
  void set_single_twiddle_table(bool single) { single_table_ = single; }

 private:
  using Key = std::tuple<std::array<uint64_t, 4>, std::array<uint64_t, 4>, size_t>;
  struct PowerTables {
    DeviceBuffer<Fr> lo, hi;  // lo[i] = g^i (i < 2^12), hi[j] = c g^(2^12 j)
  };
  const PowerTables& power_tables(const Fr& g, const Fr& c, size_t count);
  const Fr* twiddles(size_t log_n, const Fr& omega);  // omega^i, i < n/2
  ntt_detail::LoadPowers load_powers(const Fr& g, const Fr& c, size_t log_n,
                                     bool exponent_reversed);
  // scale (or null): the first pass's load scaling.
  void run_passes(Fr* d_values, size_t log_n, const Fr& omega, bool dif,
                  const ntt_detail::LoadPowers* scale);

  cudaStream_t stream_;
  std::map<Key, PowerTables> powers_;
  std::map<Key, DeviceBuffer<Fr>> twiddles_;
  bool single_table_ = false;
};

}  // namespace cuzk::gpu
