// Launchers of the NTT kernels (ntt_kernels.cuh), callable from host C++ files. Pointers are
// device arrays of Fr; constants are passed as host Fr values and reinterpreted as device limbs.
//
// Why a separate .cu: nvcc compiles every __host__ __device__ member of ff/mont_field.hpp that a
// translation unit instantiates for the device too, and those refer to host-only constants; so
// the .cu files do no host field arithmetic, and the host logic lives in .cpp files.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "ff/fr.hpp"

namespace cuzk::gpu::ntt_detail {

// A tile holds 2^kMaxTileLog elements (32 KiB of shared memory, within the default limit);
// strided passes use up to 2^kMaxColumnsLog columns (128-byte rows). The power tables have
// 2^kPowLoBits low entries.
inline constexpr int kMaxTileLog = 10;
inline constexpr int kMaxColumnsLog = 2;
inline constexpr int kPowLoBits = 12;

// Power tables lo[i] = g^i (i < 2^12), hi[j] = c g^(2^12 j): c g^e = lo[e mod 2^12] hi[e >> 12].
// A pass that scales its loads multiplies the element at index i by the power of e = i, or of
// e = bitrev(i) when exponent_reversed.
struct LoadPowers {
  const Fr* lo;
  const Fr* hi;
  bool exponent_reversed;
};
// One pass of stages 2^s0 .. 2^(s0 + k - 1) over 2^log_n elements (DIF or DIT), tiles of
// 2^k x 2^log_c, in place; scale (or null) multiplies the elements as they are loaded.
// tw: omega^i for i < n / 2.
void launch_pass(Fr* d_data, const Fr* d_tw, int log_n, int s0, int k, int log_c, bool dif,
                 const LoadPowers* scale, cudaStream_t s);
void launch_bit_reverse(Fr* d_data, int log_n, cudaStream_t s);
// The permutation, then d[e] *= c (or *= lo[e mod 2^12] hi[e >> 12]) at natural index e, fused.
void launch_bit_reverse_scale(Fr* d_data, int log_n, const Fr& c, cudaStream_t s);
void launch_bit_reverse_scale_powers(Fr* d_data, int log_n, const Fr* d_lo, const Fr* d_hi,
                                     cudaStream_t s);
// d[i] *= lo[i mod 2^12] hi[i >> 12].
void launch_scale_powers(Fr* d_data, int log_n, const Fr* d_lo, const Fr* d_hi, cudaStream_t s);
// out[i] = lo[i mod 2^12] hi[i >> 12], i < count.
void launch_expand_powers(Fr* d_out, size_t count, const Fr* d_lo, const Fr* d_hi, cudaStream_t s);
void launch_scale(Fr* d_data, size_t n, const Fr& c, cudaStream_t s);
// a[i] = a[i] b[i] - c[i].
void launch_ab_minus_c(Fr* d_a, const Fr* d_b, const Fr* d_c, size_t n, cudaStream_t s);
// a[i] *= b[i]; a[i] -= c[i] (a b - c in two steps, for a chain holding two vectors).
void launch_mul(Fr* d_a, const Fr* d_b, size_t n, cudaStream_t s);
void launch_sub(Fr* d_a, const Fr* d_c, size_t n, cudaStream_t s);

}  // namespace cuzk::gpu::ntt_detail
