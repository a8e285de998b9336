// ProverBackend: where a Groth16 proof is computed. The unit of work is the partition — its
// witness (and r, s) in, its proof out — so that a device backend can keep everything between the
// witness and the proof on the device (a, b, c from the recorded matrices, the H chain, every
// MSM). The CPU backend implements the same call and is the reference: both give the same proof
// bytes for the same input and r, s.
//
// A backend that cannot keep the proving key on its device proves a batch of partitions in two
// halves instead (batch_limit() > 1): prove_front() per partition (a, b, c, the H chain, the H
// MSM and the input parts of A, B), then aux_msm() once per section (L, A, B_G1, B_G2 over the
// aux witness) for every partition of the batch, so that each base crosses the bus once per
// batch, not once per partition (SUPRASEAL_C2 proves a sector's partitions in one call for the
// same reason). prove() equals assemble_proof() of the two halves' sums.
//
// Besides prove(), the backends expose the operations snarkjs keys are proved with
// (groth16/snarkjs_prover.hpp), whose H and assembly differ from bellperson's.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cs/density.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "groth16/point_source.hpp"
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
  // msm_h_s by its parts on a device (0 on the CPU): the digit sort, the bucket accumulation and
  // the window reduction (CUDA events, summed over a chunked MSM's chunks; the rest of msm_h_s is
  // the 0/1 split, the waits for streamed bases and the host's gaps between kernels). Apart from
  // them, allocate_s: the host's time in cudaMalloc and cudaFree during msm_h, which the parts
  // hold where the device waited for it (a first chunk's scratch falls in its sort).
  struct MsmParts {
    double sort_s = 0, accumulate_s = 0, reduce_s = 0, allocate_s = 0;
  } msm_h_parts;
  // A capped device's batch: the host's time in cudaMalloc and cudaFree within its aux
  // sections (inside msm_l .. msm_b_g2), a partition's share.
  double batch_allocate_s = 0;
  // A capped device's front outside its phases: the checks, the plan, and the buffers freed and
  // allocated between the phases (host wall clock; cudaFree waits for the device's work), and
  // once per backend the link's bandwidth measure.
  double layout_s = 0;
  double assemble_s = 0;
  double total_s = 0;
  // Bytes this proof moved between host and device (a batch's shared transfers divided among
  // its partitions), and the least time they take at the link's measured pinned bandwidth; 0 on
  // the CPU.
  uint64_t h2d_bytes = 0, d2h_bytes = 0;
  double transfer_floor_s = 0;
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

// The MSMs over a partition's aux witness, in the order a batch runs them: scalar j of aux is
// summed over the section's bases (through the density of A or B).
enum class AuxSection { kL, kA, kBG1, kBG2 };
inline constexpr AuxSection kAuxSections[] = {AuxSection::kL, AuxSection::kA, AuxSection::kBG1,
                                              AuxSection::kBG2};
const char* aux_section_name(AuxSection section);  // "l", "a", "b_g1", "b_g2"

// What one aux section sums for partitions shaped like `in`: its bases in `params` (g1, or g2
// for kBG2) and the density that maps aux j to a base (null: base j). std::invalid_argument for a
// set whose points are not in its vectors (groth16/point_source.hpp).
struct AuxSectionBases {
  std::span<const G1Affine> g1;
  std::span<const G2Affine> g2;
  const DensityTracker* density = nullptr;
};
AuxSectionBases aux_section_bases(const Parameters& params, AuxSection section,
                                  const PartitionInput& in);
// Where those bases lie in the set: points [first, first + count) of `section` (count from the
// set's counts: a set whose points are behind a source is described alike), and the density.
struct AuxSectionRange {
  Section section = Section::kL;
  uint64_t first = 0, count = 0;
  const DensityTracker* density = nullptr;
};
AuxSectionRange aux_section_range(const Parameters& params, AuxSection section,
                                  const PartitionInput& in);
// timing's msm seconds of `section` (msm_l_s, msm_a_s, msm_b_g1_s, msm_b_g2_s).
double& aux_section_seconds(ProverTiming& timing, AuxSection section);
// sums' member for `section` += g1 (or g2 for kBG2).
void add_aux_sum(MsmSums& sums, AuxSection section, const G1Jacobian& g1, const G2Jacobian& g2);

// Throws std::invalid_argument naming the first mismatch when `params` do not fit `in` (section
// counts against the witness, the densities and the domain), or `in` is inconsistent. Needs the
// counts only: a set whose points are behind a source is checked alike.
void check_partition_fits(const Parameters& params, const PartitionInput& in);
// The same for every partition of a batch, with one sums and one timing per partition, and
// every partition of the same shape as the first (its densities equal).
void check_batch_fits(const Parameters& params, std::span<const PartitionInput> inputs, size_t sums,
                      size_t timings);

// A = alpha + sum a_i A_i + r delta;  B = beta + sum b_i B_i + s delta;
// C = L + H + s A + r B_g1 - r s delta, exactly as bellperson assembles them.
Proof assemble_proof(const VerifyingKey& vk, const MsmSums& sums, const ProofRandomness& rand);

// What the last proof left on a backend's device of its parameter set: the bytes of the bases
// kept there, and whether proofs also stream sections from the host copy (a device too small for
// the set, or capped by [gpus] memory_limit: then the set is not on the device, only a part);
// and the host memory the backend keeps page-locked for that streaming (its staging slots and a
// copy of the recorded matrices it streams).
struct DeviceHolding {
  uint64_t bases_bytes = 0;
  bool streams = false;
  uint64_t pinned_host_bytes = 0;
};

// Host memory a backend would keep for itself between proofs, beyond a proof's working set (a
// page-locked copy it streams from), admitted by its owner's memory budget: the backend asks
// before it keeps the bytes and, refused, does without them (it stages instead). Empty: every
// request is admitted (the tools and the serial driver own no budget).
struct HostAdmission {
  std::function<bool(uint64_t)> admit;
  std::function<void(uint64_t)> release;
};

// Bytes a HostAdmission admitted, given back when this is reset or destroyed (move-only).
class AdmittedHostBytes {
 public:
  AdmittedHostBytes() = default;
  AdmittedHostBytes(AdmittedHostBytes&& o) noexcept
      : release_(std::move(o.release_)), bytes_(std::exchange(o.bytes_, 0)) {}
  AdmittedHostBytes& operator=(AdmittedHostBytes&& o) noexcept {
    if (this != &o) {
      reset();
      release_ = std::move(o.release_);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  ~AdmittedHostBytes() { reset(); }
  // Asks `a` for `bytes` (what this held before goes back first); false, holding nothing, when
  // refused.
  bool admit(const HostAdmission& a, uint64_t bytes) {
    reset();
    if (a.admit && !a.admit(bytes)) return false;
    release_ = a.release;
    bytes_ = bytes;
    return true;
  }
  void reset() {
    if (bytes_ != 0 && release_) release_(bytes_);
    bytes_ = 0;
  }
  uint64_t bytes() const { return bytes_; }

 private:
  std::function<void(uint64_t)> release_;
  uint64_t bytes_ = 0;
};

// Host arrays page-locked in place: each handle unlocks its array when the last copy of it goes,
// and whoever holds them keeps the arrays alive until then (the engine keeps them with the loaded
// parameter set and lets them go before its points: a range freed while still registered would
// leave the driver copying from the old pages).
struct PageLocks {
  std::vector<std::shared_ptr<void>> handles;
  uint64_t bytes = 0;  // the arrays' bytes, in all
};

class ProverBackend {
 public:
  virtual ~ProverBackend() = default;
  virtual std::string name() const = 0;
  // The engine moves this device to another circuit: what the last circuit's proofs kept (its
  // recorded circuit, working buffers, page-locked copies) may go. A backend may keep sets'
  // points it still has room for (holds), so that switching back uploads nothing.
  virtual void leave_circuit() {}
  // Whether the device holds the points of `params` whole now (after later circuits' proofs).
  virtual bool holds(const Parameters& params) {
    (void)params;
    return false;
  }
  // Whether proofs over `params` whose points are behind a source (point_source.hpp), with a, b,
  // c from `circuit` (null: given ones), run here with no host copy of the points: a device that
  // keeps the whole set resident fills it from the source by warm steps. A forecast from the
  // counts and the device's memory now; when memory taken since makes it wrong, a proof throws
  // HostPointsNeeded and the caller proves again with the host copy. Default: false (the CPU).
  virtual bool proves_from_source(const Parameters& params, const pce::RecordedCircuit* circuit) {
    (void)params;
    (void)circuit;
    return false;
  }

  // The proof of one partition. std::invalid_argument when the parameters do not fit;
  // SynthesisError (kUnsatisfiable, naming the row) when a recorded circuit's a * b != c on some
  // row: no proof is made for a witness that does not satisfy the constraints.
  virtual Proof prove(const Parameters& params, const PartitionInput& in,
                      const ProofRandomness& rand, ProverTiming* timing) = 0;

  // Readies the device for proofs shaped like `in` by one bounded step (a piece of the proving
  // key's bases copied to the device); true while steps remain. The engine proves a partition of
  // a higher priority between two steps, so a 47 GB set's upload is no single wait. Nothing to
  // ready (the CPU, or a plan that streams the bases anyway): false.
  virtual bool warm_step(const Parameters& params, const PartitionInput& in) {
    (void)params;
    (void)in;
    return false;
  }

  // After a proof: what of its parameter set stays on the device (DeviceHolding); nullopt from
  // a backend that does not say (the engine then takes the whole set to be there).
  virtual std::optional<DeviceHolding> device_holding() { return std::nullopt; }
  // Where the host memory it keeps between proofs is admitted (DeviceHolding::pinned_host_bytes
  // says what it holds); a backend that keeps none ignores it.
  virtual void set_host_admission(HostAdmission) {}

  // Page-locks, in place, the point arrays of `params` that proofs shaped like `in` stream from
  // the host at every proof (a capped device), and the recorded circuit's matrices where they
  // stream too, so that they cross the link at its pinned rate with no staging copy (PageLocks).
  // Empty: nothing streams here, or the host refused.
  virtual PageLocks lock_streamed_points(const Parameters& params, const PartitionInput& in) {
    (void)params;
    (void)in;
    return {};
  }

  // How many partitions shaped like `in` this backend proves best as one batch (prove_front,
  // then aux_msm); 1: one at a time through prove(), nothing to gain by batching.
  virtual size_t batch_limit(const Parameters& params, const PartitionInput& in) {
    (void)params;
    (void)in;
    return 1;
  }
  // The first half of a batched proof: a, b, c, the H chain and the H MSM, and the parts of A,
  // B_G1, B_G2 over the inputs; l and the aux parts are the identity (aux_msm adds them). The
  // same errors as prove(). std::logic_error from a backend that does not batch.
  virtual MsmSums prove_front(const Parameters& params, const PartitionInput& in,
                              ProverTiming* timing);
  // Adds `section`'s aux MSM of inputs[i] to sums[i] for every partition of the batch (same
  // parameters, same recorded circuit); the section's time and bytes are shared out among
  // timings[i]. std::invalid_argument when the spans differ in length or a partition does not fit.
  virtual void aux_msm(const Parameters& params, AuxSection section,
                       std::span<const PartitionInput> inputs, std::span<MsmSums> sums,
                       std::span<ProverTiming> timings);

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

// The CPU backend: pce/ (SpMV), poly/ and msm/ over a thread pool. Its overrides are declared as
// GpuBackend's (gpu/prover/gpu_backend.hpp) are, line for line: two implementations of the one
// interface above.
// Reads the points from the set's vectors: a set whose points are behind a source is refused
// (std::invalid_argument).
class CpuBackend final : public ProverBackend {
 public:
  explicit CpuBackend(ThreadPool& pool) : pool_(pool) {}
  std::string name() const override { return "cpu"; }
  Proof prove(const Parameters& params, const PartitionInput& in, const ProofRandomness& rand,
              ProverTiming* timing) override;
  MsmSums prove_front(const Parameters& params, const PartitionInput& in,
                      ProverTiming* timing) override;
  void aux_msm(const Parameters& params, AuxSection section, std::span<const PartitionInput> inputs,
               std::span<MsmSums> sums, std::span<ProverTiming> timings) override;
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
