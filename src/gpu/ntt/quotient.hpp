// The Groth16 quotient on the device: a, b, c -> iNTT -> coset NTT -> (a b - c) / Z -> coset iNTT,
// with the vectors resident on the device from upload to download. Equal bit for bit to
// cuzk::groth16_quotient (poly/quotient.hpp).
#pragma once

#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "gpu/ntt/ntt.hpp"
#include "poly/evaluation_domain.hpp"
#include "poly/quotient.hpp"

namespace cuzk::gpu {

// The n - 1 coefficients of h (bellperson drops the top one). a, b, c: equal sizes <= n
// (std::invalid_argument otherwise), zero-padded to n on the device. Timing: CUDA events per
// step; the uploads count in ifft_s and the download in icoset_s.
std::vector<Fr> groth16_quotient(std::span<const Fr> a, std::span<const Fr> b,
                                 std::span<const Fr> c, const EvaluationDomain& domain,
                                 NttEngine& ntt, QuotientTiming* timing = nullptr);

// snarkjs's H (groth16::ProverBackend::coset_ab_minus_c): a, b, c of n = domain.size()
// evaluations each -> iNTT -> coset NTT (shift domain.g()) -> a b - c, resident on the device.
std::vector<Fr> coset_ab_minus_c(std::span<const Fr> a, std::span<const Fr> b,
                                 std::span<const Fr> c, const EvaluationDomain& domain,
                                 NttEngine& ntt, QuotientTiming* timing = nullptr);

// The device-resident core: d_a, d_b, d_c hold n evaluations each; on return d_a holds the n
// coefficients of h in natural order (d_b and d_c are clobbered). Asynchronous on ntt.stream().
void quotient_in_place(Fr* d_a, Fr* d_b, Fr* d_c, const EvaluationDomain& domain, NttEngine& ntt);

// The same chain one vector at a time (a capped device holds two of the three; memory_plan.hpp):
// to_coset takes n natural evaluations to the coset evaluations quotient_in_place multiplies
// (each of a, b, c); then a b - c pointwise (ntt_detail::launch_ab_minus_c, in ranges); then
// from_coset takes that product to the n coefficients of h in natural order. Asynchronous.
// to_coset runs each step over all of `vs` before the next, so that an engine that keeps one
// twiddle table (NttEngine::set_single_twiddle_table) builds each direction's once for them all.
void quotient_to_coset(std::span<Fr* const> vs, const EvaluationDomain& domain, NttEngine& ntt);
void quotient_from_coset(Fr* d_a, const EvaluationDomain& domain, NttEngine& ntt);

}  // namespace cuzk::gpu
