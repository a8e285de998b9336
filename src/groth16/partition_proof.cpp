// The backend-neutral parts of a partition proof (groth16/backend.hpp): fresh randomness, the
// check that parameters fit a partition, and the assembly of A, B, C from the MSM sums.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "groth16/backend.hpp"
#include "groth16/point_source.hpp"
#include "util/os_random.hpp"

namespace cuzk::groth16 {
namespace {

Fr random_fr() {
  // 512 random bits reduced mod r: negligible bias.
  std::array<uint8_t, 64> bytes{};
  os_random_bytes(bytes);
  std::array<uint8_t, 32> lo{}, hi{};
  std::copy(bytes.begin(), bytes.begin() + 32, lo.begin());
  std::copy(bytes.begin() + 32, bytes.end(), hi.begin());
  lo[31] &= 0x3f;
  hi[31] &= 0x3f;
  return *Fr::from_bytes_le(lo) + *Fr::from_bytes_le(hi) * Fr::from_mont(Fr::kR2);
}

void expect_size(uint64_t got, uint64_t want, const char* what) {
  if (got != want) {
    throw std::invalid_argument(std::string("groth16 prove: parameters do not fit the circuit: ") +
                                what + " has " + std::to_string(got) +
                                " points, the circuit needs " + std::to_string(want));
  }
}

}  // namespace

ProofRandomness ProofRandomness::from_os() {
  return {random_fr(), random_fr()};
}

namespace {

// What check_partition_fits asks of `in` alone: a witness and densities of its sizes.
void check_partition_input(const PartitionInput& in) {
  if (in.witness == nullptr || in.a_aux_density == nullptr || in.b_input_density == nullptr ||
      in.b_aux_density == nullptr) {
    throw std::invalid_argument("groth16 prove: the partition has no witness or no densities");
  }
  const pce::CompactWitness& w = *in.witness;
  const size_t inputs = w.inputs.size(), aux = w.num_aux;
  if (in.circuit != nullptr) {
    if (inputs != in.circuit->num_inputs || aux != in.circuit->num_aux) {
      throw std::invalid_argument("groth16 prove: the witness has " + std::to_string(inputs) +
                                  " inputs and " + std::to_string(aux) +
                                  " aux, the recorded circuit " + in.circuit->identity.to_string() +
                                  " " + std::to_string(in.circuit->num_inputs) + " and " +
                                  std::to_string(in.circuit->num_aux));
    }
  } else if (in.a.size() != in.b.size() || in.a.size() != in.c.size() || in.a.size() < inputs) {
    throw std::invalid_argument("groth16 prove: a, b, c differ in length or miss the input rows");
  }
  if (inputs == 0 || !w.inputs[0].is_one())
    throw std::invalid_argument("groth16 prove: input 0 of the witness is not ONE");
  if (in.a_aux_density->size() != aux || in.b_aux_density->size() != aux ||
      in.b_input_density->size() != inputs) {
    throw std::invalid_argument("groth16 prove: the densities do not have the witness's sizes");
  }
}

// What check_partition_fits asks of `params` for a checked `in`: each section's length. Counts
// the densities' bits (two of 2^27 at 32 GiB PoRep, 1.4 ms each with POPCNT).
void check_section_lengths(const Parameters& params, const PartitionInput& in) {
  const size_t inputs = in.witness->inputs.size(), aux = in.witness->num_aux;
  const EvaluationDomain domain = EvaluationDomain::for_size(in.rows());
  const size_t b_inputs = in.b_input_density->popcount();
  const size_t b_aux = in.b_aux_density->popcount();
  const SectionCounts counts = section_counts(params);  // the host vectors', or the source's
  expect_size(params.vk.ic.size(), inputs, "vk.ic");
  expect_size(counts.h, domain.size() - 1, "h");
  expect_size(counts.l, aux, "l");
  expect_size(counts.a, inputs + in.a_aux_density->popcount(), "a");
  expect_size(counts.b_g1, b_inputs + b_aux, "b_g1");
  expect_size(counts.b_g2, b_inputs + b_aux, "b_g2");
}

}  // namespace

void check_partition_fits(const Parameters& params, const PartitionInput& in) {
  check_partition_input(in);
  check_section_lengths(params, in);
}

void check_batch_fits(const Parameters& params, std::span<const PartitionInput> inputs, size_t sums,
                      size_t timings) {
  if (inputs.empty()) throw std::invalid_argument("groth16 batch: no partitions");
  if (sums != inputs.size() || timings != inputs.size()) {
    throw std::invalid_argument("groth16 batch: " + std::to_string(inputs.size()) +
                                " partitions, " + std::to_string(sums) + " sums and " +
                                std::to_string(timings) + " timings");
  }
  const PartitionInput& first = inputs.front();
  for (const PartitionInput& in : inputs) {
    check_partition_input(in);
    // One pass over a section's bases serves all: the same densities (the same circuit).
    const auto same_bits = [](const DensityTracker* x, const DensityTracker* y) {
      return x == y || *x == *y;
    };
    const bool same = in.circuit == first.circuit && in.rows() == first.rows() &&
                      same_bits(in.a_aux_density, first.a_aux_density) &&
                      same_bits(in.b_input_density, first.b_input_density) &&
                      same_bits(in.b_aux_density, first.b_aux_density);
    if (!same) {
      throw std::invalid_argument(
          "groth16 batch: the partitions differ in circuit or density; a batch is one shape");
    }
  }
  // Equal densities and rows give every partition the first one's section lengths: count the
  // bits once a batch, not once a partition (each of a capped batch's four section calls checks
  // the batch: 4 x 10 x 2 counts of a 2^27-bit density, ~0.11 s a PoRep batch, before this).
  check_section_lengths(params, first);
}

// A switch with no default: -Wswitch (an error here) names an enumerator added without a name.
const char* aux_section_name(AuxSection section) {
  switch (section) {
    case AuxSection::kL:
      return "l";
    case AuxSection::kA:
      return "a";
    case AuxSection::kBG1:
      return "b_g1";
    case AuxSection::kBG2:
      break;
  }
  return "b_g2";
}

AuxSectionRange aux_section_range(const Parameters& params, AuxSection section,
                                  const PartitionInput& in) {
  const SectionCounts counts = section_counts(params);
  const uint64_t inputs = in.witness->inputs.size();
  const uint64_t b_inputs = in.b_input_density->popcount();
  // The aux part of a section follows its inputs' points (l has none); check_partition_fits
  // has checked the counts against the partition.
  const auto after = [&](Section s, uint64_t skip, const DensityTracker* density) {
    const uint64_t all = counts.of(s);
    return AuxSectionRange{s, std::min(skip, all), all - std::min(skip, all), density};
  };
  switch (section) {
    case AuxSection::kL:
      return after(Section::kL, 0, nullptr);
    case AuxSection::kA:
      return after(Section::kA, inputs, in.a_aux_density);
    case AuxSection::kBG1:
      return after(Section::kBG1, b_inputs, in.b_aux_density);
    case AuxSection::kBG2:
      break;
  }
  return after(Section::kBG2, b_inputs, in.b_aux_density);
}

AuxSectionBases aux_section_bases(const Parameters& params, AuxSection section,
                                  const PartitionInput& in) {
  require_host_points(params, "aux_section_bases");
  const AuxSectionRange r = aux_section_range(params, section, in);
  if (r.section == Section::kBG2) {
    return {{}, host_points<G2Affine>(params, r.section).subspan(r.first, r.count), r.density};
  }
  return {host_points<G1Affine>(params, r.section).subspan(r.first, r.count), {}, r.density};
}

double& aux_section_seconds(ProverTiming& t, AuxSection section) {
  switch (section) {
    case AuxSection::kL:
      return t.msm_l_s;
    case AuxSection::kA:
      return t.msm_a_s;
    case AuxSection::kBG1:
      return t.msm_b_g1_s;
    case AuxSection::kBG2:
      break;
  }
  return t.msm_b_g2_s;
}

// A switch with no default, like aux_section_name: -Wswitch names a section added without one.
void add_aux_sum(MsmSums& sums, AuxSection section, const G1Jacobian& g1, const G2Jacobian& g2) {
  switch (section) {
    case AuxSection::kL:
      sums.l += g1;
      return;
    case AuxSection::kA:
      sums.a += g1;
      return;
    case AuxSection::kBG1:
      sums.b_g1 += g1;
      return;
    case AuxSection::kBG2:
      sums.b_g2 += g2;
      return;
  }
}

MsmSums ProverBackend::prove_front(const Parameters&, const PartitionInput&, ProverTiming*) {
  throw std::logic_error("groth16: backend " + name() + " does not prove in batches");
}

void ProverBackend::aux_msm(const Parameters&, AuxSection, std::span<const PartitionInput>,
                            std::span<MsmSums>, std::span<ProverTiming>) {
  throw std::logic_error("groth16: backend " + name() + " does not prove in batches");
}

Proof assemble_proof(const VerifyingKey& vk, const MsmSums& m, const ProofRandomness& rand) {
  // C = L + H + s A + r B_g1 - r s delta
  //   = L + H + s alpha + r beta + s sum a_i A_i + r sum b_i B1_i + r s delta.
  const G1Jacobian alpha = G1Jacobian::from_affine(vk.alpha_g1);
  const G1Jacobian beta1 = G1Jacobian::from_affine(vk.beta_g1);
  const G1Jacobian delta1 = G1Jacobian::from_affine(vk.delta_g1);
  const G1Jacobian g_a = alpha + m.a + g1_mul(delta1, rand.r);
  const G2Jacobian g_b = G2Jacobian::from_affine(vk.beta_g2) + m.b_g2 +
                         g2_mul(G2Jacobian::from_affine(vk.delta_g2), rand.s);
  const G1Jacobian g_c = m.l + m.h + g1_mul(alpha + m.a, rand.s) + g1_mul(beta1 + m.b_g1, rand.r) +
                         g1_mul(delta1, rand.r * rand.s);
  return {g_a.to_affine(), g_b.to_affine(), g_c.to_affine()};
}

}  // namespace cuzk::groth16
