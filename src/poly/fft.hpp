// Radix-2 number-theoretic transforms over an EvaluationDomain, in place, natural order in and out,
// parallel over a ThreadPool: a Cooley-Tukey network (fft_kernels.hpp) and one bit-reversal
// permutation each. Each call builds an n/2-entry twiddle table, the only extra memory.
// Results do not depend on the number of threads. All functions throw std::invalid_argument
// unless values.size() == domain.size().
#pragma once

#include <span>

#include "ff/fr.hpp"
#include "poly/evaluation_domain.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {

// Coefficients -> evaluations: values[i] <- sum_j values[j] omega^(i j).
void fft(std::span<Fr> values, const EvaluationDomain& domain, ThreadPool& pool);
// Evaluations -> coefficients (the inverse of fft, 1/n scaling included).
void ifft(std::span<Fr> values, const EvaluationDomain& domain, ThreadPool& pool);
// Coefficients -> evaluations at g omega^i (coefficient j is scaled by g^j, then fft).
void coset_fft(std::span<Fr> values, const EvaluationDomain& domain, ThreadPool& pool);
// Evaluations at g omega^i -> coefficients (the inverse of coset_fft).
void icoset_fft(std::span<Fr> values, const EvaluationDomain& domain, ThreadPool& pool);

// values[i] *= g^i, for any length.
void distribute_powers(std::span<Fr> values, const Fr& g, ThreadPool& pool);

}  // namespace cuzk
