// GpuBackend's aux MSMs of a batch (groth16::ProverBackend::aux_msm): one section (L, A, B_G1 or
// B_G2) for every partition of the batch, with each chunk of the section's bases on the device
// once for all of them: uploaded through the staging slots (or read where resident), then for
// each partition the chunk's aux scalars are expanded from its compact witness (uploaded once
// per batch, a few percent of w) and split: the 0/1 scalars' bases summed by batch addition, the
// others appended with a copy of their base to the partition's tail, which one Pippenger sums
// after the last chunk. A section's bases cross the bus once per batch instead of once per
// partition, and each partition runs one Pippenger per section, as the resident path does (one
// per chunk measured 3.3x the resident B_G2 time on the H200 at 24 GiB, 2026-12-04).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpu/device/cuda_check.hpp"
#include "gpu/prover/gpu_backend.hpp"
#include "util/clock.hpp"

namespace cuzk::gpu {

namespace {

// The batch's sums of one section over one curve: bases (resident or streamed), a visit per chunk
// that sums each partition's ones into partial[p] and appends its tail, then each tail's MSM.
template <class Curve>
void sum_section(BaseStreamer& streamer, const Affine<Curve>* d_bases,
                 std::span<const Affine<Curve>> host, size_t count, const DensityTracker* density,
                 const uint64_t* d_density, size_t aux, size_t chunk,
                 std::span<const WitnessScratch> witnesses, std::span<MsmTail<Curve>> tails,
                 Fr* d_chunk, MsmWorkspace& ws, cudaStream_t s,
                 std::vector<Jacobian<Curve>>& partial) {
  ChunkedMsmInput<Curve> in;
  in.host_bases = host;
  in.d_bases = d_bases;
  in.resident_count = count;
  in.n = aux;
  if (density != nullptr) {
    in.density = density->words();
    in.d_density = d_density;
  }
  partial.assign(witnesses.size(), Jacobian<Curve>::identity());
  for (MsmTail<Curve>& t : tails)
    t.size = 0;
  streamer.for_each_chunk<Curve>(
      in, chunk, s, [&](const Affine<Curve>* d_bases, const MsmChunk& c) {
        const uint64_t* d_bits = d_density != nullptr ? d_density + c.s0 / 64 : nullptr;
        for (size_t p = 0; p < witnesses.size(); ++p) {
          // (both synchronise: the next expansion may overwrite d_chunk, the next chunk the slot)
          expand_aux_range(witnesses[p], c.s0, c.s1 - c.s0, d_chunk, s);
          partial[p] +=
              tails.empty()
                  ? msm_split<Curve>(d_bases, d_chunk, c.s1 - c.s0, d_bits, ws, s)
                  : msm_split_ones<Curve>(d_bases, d_chunk, c.s1 - c.s0, d_bits, ws, s, tails[p]);
        }
      });
  for (size_t p = 0; p < tails.size(); ++p) {
    partial[p] +=
        msm_pippenger<Curve>(tails[p].bases, tails[p].scalars, nullptr, tails[p].size, ws, s);
  }
}

}  // namespace

void GpuBackend::aux_planned(const groth16::Parameters& params, groth16::AuxSection section,
                             std::span<const groth16::PartitionInput> inputs,
                             std::span<groth16::MsmSums> sums,
                             std::span<groth16::ProverTiming> timings, const MemoryPlan& plan) {
  const auto t0 = SteadyClock::now();
  const cudaStream_t s = stream_->get();
  const double bandwidth = bandwidth_locked();
  const uint64_t h2d_before = h2d_bytes();
  const double allocation_s0 = cap_.allocation_seconds();
  give_back_arena_locked();  // (a front that threw midway left them)
  // The section's slots and scratch in the arena (memory_plan.hpp: batch_in_arena), else the
  // batch's phase does not hold the fronts' block beside its own.
  DeviceArena* const arena = plan.batch_in_arena ? &arena_ : nullptr;
  if (arena != nullptr) {
    arena_.reserve(plan.arena_bytes);
    arena_.reset();
  } else {
    arena_.release();
  }
  const size_t k = inputs.size();
  const size_t aux = inputs.front().witness->num_aux;
  // The batch's compact witnesses, once for its sections.
  std::vector<const pce::CompactWitness*> key;
  for (const groth16::PartitionInput& in : inputs)
    key.push_back(in.witness);
  if (key != batch_key_) {
    release_batch();
    batch_witness_.resize(k);
    for (size_t p = 0; p < k; ++p) {
      upload_compact_aux(*key[p], batch_witness_[p], s);
      h2d_ += compact_aux_bytes(*key[p]);
    }
    batch_key_ = key;
  }
  const groth16::AuxSectionRange bases =
      groth16::aux_section_range(params, section, inputs.front());
  const uint64_t* d_density = nullptr;
  if (bases.density != nullptr) {
    if (section_density_source_ != bases.density) {
      const std::vector<uint64_t>& words = bases.density->words();
      d_section_density_.reserve(std::max<size_t>(1, words.size()));
      d_section_density_.upload(words, s);
      h2d_ += words.size() * 8;
      section_density_source_ = bases.density;
    }
    d_density = d_section_density_.get();
  }
  const size_t chunk = plan.chunk_scalars != 0 ? plan.chunk_scalars : (aux + 63) / 64 * 64;
  const bool resident = plan.all_resident || plan.resident(groth16::aux_section_name(section));
  d_chunk_scalars_.reserve(std::max<size_t>(1, std::min(chunk, aux)));
  // Each partition's tail: at most its non-0/1 aux values, with a copy of each one's base.
  const auto tails_of = [&]<class Curve>(std::vector<MsmTail<Curve>>& tails) {
    if (!plan.batch_gathers_tails) return;  // one split MSM per chunk
    tails.resize(k);
    for (size_t p = 0; p < k; ++p) {
      const size_t room = std::max<size_t>(1, inputs[p].witness->aux_values.size());
      const size_t scalars_at = tail_scalars_offset(room, sizeof(Affine<Curve>));
      batch_tails_[p].reserve(scalars_at + room * sizeof(Fr));
      uint8_t* base = batch_tails_[p].get();
      tails[p] = {reinterpret_cast<Affine<Curve>*>(base), reinterpret_cast<Fr*>(base + scalars_at),
                  0, room};
    }
  };
  batch_tails_.resize(k);
  // The branches differ in curve, bases cache and which half of add_aux_sum they fill;
  // sum_section is already the part they share. Only the slots and the scratch take from the
  // arena (the tails outlive the section).
  if (section == groth16::AuxSection::kBG2) {
    std::vector<MsmTail<G2Curve>> tails;
    tails_of(tails);
    std::vector<G2Jacobian> partial;
    const auto run = point_run<G2Curve>(params, bases.section, bases.first, bases.count);
    {
      const DeviceArena::Scope in_arena(arena);
      if (!resident) streamer_.reserve(chunk * sizeof(G2Affine));
      sum_section<G2Curve>(streamer_, resident ? device_copy(g2_bases_, run) : nullptr, run.host,
                           run.size(), bases.density, d_density, aux, chunk, batch_witness_, tails,
                           d_chunk_scalars_.get(), ws_, s, partial);
    }
    for (size_t p = 0; p < k; ++p)
      groth16::add_aux_sum(sums[p], section, G1Jacobian::identity(), partial[p]);
  } else {
    std::vector<MsmTail<G1Curve>> tails;
    tails_of(tails);
    std::vector<G1Jacobian> partial;
    const auto run = point_run<G1Curve>(params, bases.section, bases.first, bases.count);
    {
      const DeviceArena::Scope in_arena(arena);
      if (!resident) streamer_.reserve(chunk * sizeof(G1Affine));
      sum_section<G1Curve>(streamer_, resident ? device_copy(g1_bases_, run) : nullptr, run.host,
                           run.size(), bases.density, d_density, aux, chunk, batch_witness_, tails,
                           d_chunk_scalars_.get(), ws_, s, partial);
    }
    for (size_t p = 0; p < k; ++p)
      groth16::add_aux_sum(sums[p], section, partial[p], G2Jacobian::identity());
  }
  // The slots and scratch go between sections (the next may be the other curve's, or another
  // proof's front between the batch's steps); from the arena they free nothing.
  streamer_.release_device();
  ws_.release();
  const double share = seconds_since(t0) / static_cast<double>(k);
  const double allocation_share =
      (cap_.allocation_seconds() - allocation_s0) / static_cast<double>(k);
  const uint64_t bytes = (h2d_bytes() - h2d_before) / k;
  for (groth16::ProverTiming& t : timings) {
    groth16::aux_section_seconds(t, section) += share;
    t.h2d_bytes += bytes;
    if (bandwidth > 0) t.transfer_floor_s += static_cast<double>(bytes) / bandwidth;
    t.total_s += share;
    t.batch_allocate_s += allocation_share;
  }
}

}  // namespace cuzk::gpu
