// The butterfly network behind fft.hpp and the quotient, with its twiddle table, the bit-reversal
// permutation and the diagonal scalings. Not a public interface.
//
// dft_natural_to_bitrev is a Cooley-Tukey network with per-group twiddles (x, y -> x + t y, x - t y
// on pairs at distance n/2, n/4, ..., 1): natural order in, the DFT with root w out in bit-reversed
// order, out[p] = sum_j in[j] w^(j bitrev(p)). Group g of every stage uses Tbr[g] = w^bitrev(g)
// (k - 1 bits, n = 2^k), so each stage walks a prefix of one table sequentially, and group 0
// (t = 1) skips its products.
// Measured (one core, n = 2^20, the network alone): this 160 ms; the textbook bit-reversed-input
// network with per-offset twiddles omega^(j n/2m), which stride through the table, 195 ms; the
// transposed (Gentleman-Sande) network, which takes bit-reversed input and would save
// permutations, 193 ms; stage pairs fused (radix 4) 170-180 ms. The Fr product dominates.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::fft_detail {

// Tbr[g] = root^bitrev_{k-1}(g) for g in [0, n/2) (empty for n = 1). n/2 products.
std::vector<Fr> twiddle_table(const Fr& root, size_t n, ThreadPool& pool);

// Without blocking every stage is a pass over the whole array; with it the stages of distance
// < 2^log_block run inside blocks of that size (cache resident), one block per task.
struct Plan {
  bool blocked = true;
  size_t log_block = 12;  // 128 KiB blocks: half of L2 here; 2^10..2^14 measured within 2%
};

// The unscaled DFT in place: values.size() == n of the table (a power of two).
void dft_natural_to_bitrev(std::span<Fr> values, const std::vector<Fr>& tw, ThreadPool& pool,
                           Plan plan = {});

// values[i] <-> values[bitrev(i)], for a power-of-two length.
void bit_reverse(std::span<Fr> values, ThreadPool& pool);
// values[i] *= c.
void scale(std::span<Fr> values, const Fr& c, ThreadPool& pool);
// values[i] *= c g^i.
void distribute_powers(std::span<Fr> values, const Fr& g, const Fr& c, ThreadPool& pool);

}  // namespace cuzk::fft_detail
