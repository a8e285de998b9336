// ProverBackend: where a Groth16 proof is computed. The unit of work is the partition — its
// witness (and r, s) in, its proof out — so that a device backend can keep everything between the
// witness and the proof on the device (a, b, c from the recorded matrices, the H chain, every
// MSM). The CPU backend implements the same call and is the reference: both give the same proof
// bytes for the same input and r, s.
//
// Besides prove(), the backends expose the operations snarkjs keys are proved with
// (groth16/snarkjs_prover.hpp), whose H and assembly differ from bellperson's.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cs/density.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "groth16/types.hpp"
#include "pce/compact_witness.hpp"
#include "pce/recorded_circuit.hpp"
#include "poly/evaluation_domain.hpp"
#include "poly/quotient.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

// The blinding factors of one proof. Production takes them from the OS CSPRNG; tests inject them.
struct ProofRandomness {
  Fr r, s;
  static ProofRandomness from_os();
};

// Seconds per phase of one proof (wall clock; device phases by CUDA events on the GPU backend).
struct ProverTiming {
  double synthesis_s = 0;  // filled by whoever synthesized
  double upload_s = 0;     // the witness (and given a, b, c) to the device
  double spmv_s = 0;       // a, b, c from the recorded matrices, and their a * b = c check
  double quotient_s = 0;   // the FFT chain for H
  QuotientTiming quotient;
  double msm_h_s = 0, msm_l_s = 0, msm_a_s = 0, msm_b_g1_s = 0, msm_b_g2_s = 0;
  double assemble_s = 0;
  double total_s = 0;
};

// One partition to prove: the witness, and a, b, c either from the recorded circuit (the backend
// evaluates them: recorded()) or already evaluated, with their densities, by the classic proving
// assignment (evaluated()). Views: the caller keeps everything alive during prove().
struct PartitionInput {
  const pce::CompactWitness* witness = nullptr;
  const pce::RecordedCircuit* circuit = nullptr;
  std::span<const Fr> a, b, c;  // when circuit is null
  const DensityTracker* a_aux_density = nullptr;
  const DensityTracker* b_input_density = nullptr;
  const DensityTracker* b_aux_density = nullptr;

  static PartitionInput recorded(const pce::CompactWitness& w, const pce::RecordedCircuit& rc) {
    return {&w, &rc, {}, {}, {}, &rc.a_aux_density, &rc.b_input_density, &rc.b_aux_density};
  }
  static PartitionInput evaluated(const pce::CompactWitness& w, std::span<const Fr> a,
                                  std::span<const Fr> b, std::span<const Fr> c,
                                  const DensityTracker& a_aux, const DensityTracker& b_input,
                                  const DensityTracker& b_aux) {
    return {&w, nullptr, a, b, c, &a_aux, &b_input, &b_aux};
  }
  size_t rows() const { return circuit != nullptr ? circuit->num_rows : a.size(); }
};

// The five MSM results a proof is assembled from.
struct MsmSums {
  G1Jacobian h, l, a, b_g1;
  G2Jacobian b_g2;
};

// Throws std::invalid_argument naming the first mismatch when `params` do not fit `in` (vector
// lengths against the witness, the densities and the domain), or `in` is inconsistent.
void check_partition_fits(const Parameters& params, const PartitionInput& in);

// A = alpha + sum a_i A_i + r delta;  B = beta + sum b_i B_i + s delta;
// C = L + H + s A + r B_g1 - r s delta, exactly as bellperson assembles them.
Proof assemble_proof(const VerifyingKey& vk, const MsmSums& sums, const ProofRandomness& rand);

class ProverBackend {
 public:
  virtual ~ProverBackend() = default;
  virtual std::string name() const = 0;
  // Frees what the backend keeps between calls (device copies of keys and recorded circuits).
  virtual void drop_caches() {}

  // The proof of one partition. std::invalid_argument when the parameters do not fit;
  // SynthesisError (kUnsatisfiable, naming the row) when a recorded circuit's a * b != c on some
  // row: no proof is made for a witness that does not satisfy the constraints.
  virtual Proof prove(const Parameters& params, const PartitionInput& in,
                      const ProofRandomness& rand, ProverTiming* timing) = 0;

  // snarkjs's H: a, b, c hold n = domain.size() evaluations each; returns A(x) B(x) - C(x) at the
  // coset points g omega^i (g = domain.g(); snarkjs uses omega_2n, i.e. the odd points of the 2n
  // domain), where A, B, C interpolate a, b, c over the domain. No division by Z.
  virtual std::vector<Fr> coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                           const EvaluationDomain& domain,
                                           QuotientTiming* timing) = 0;

  // sum scalars[i] * bases[i] (bases.size() == scalars.size()).
  virtual G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) = 0;
  virtual G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) = 0;
  // Density-filtered (bases.size() == density.popcount(), scalars.size() == density.size()).
  virtual G1Jacobian msm_g1(std::span<const G1Affine> bases, const DensityTracker& density,
                            std::span<const Fr> scalars) = 0;
  virtual G2Jacobian msm_g2(std::span<const G2Affine> bases, const DensityTracker& density,
                            std::span<const Fr> scalars) = 0;
};

// The CPU backend: pce/ (SpMV), poly/ and msm/ over a thread pool.
class CpuBackend final : public ProverBackend {
 public:
  explicit CpuBackend(ThreadPool& pool) : pool_(pool) {}
  std::string name() const override { return "cpu"; }
  Proof prove(const Parameters& params, const PartitionInput& in, const ProofRandomness& rand,
              ProverTiming* timing) override;
  std::vector<Fr> coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                   const EvaluationDomain& domain, QuotientTiming* timing) override;
  G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) override;
  G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) override;
  G1Jacobian msm_g1(std::span<const G1Affine> bases, const DensityTracker& density,
                    std::span<const Fr> scalars) override;
  G2Jacobian msm_g2(std::span<const G2Affine> bases, const DensityTracker& density,
                    std::span<const Fr> scalars) override;

 private:
  ThreadPool& pool_;
};

}  // namespace cuzk::groth16
