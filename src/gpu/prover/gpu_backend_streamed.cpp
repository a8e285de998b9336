// GpuBackend's front when the recorded matrices do not fit beside the H chain
// (MemoryPlan::spmv_streams_matrices, a 16 GiB card at 32 GiB): the matrices reach the device by
// row blocks through the device staging slots, straight from page-locked host memory (their
// pack, packed_matrices; else the recording's own CSR where it is locked in place, else staged),
// and the chain holds two vectors and one twiddle table:
//   a = A w and b = B w whole; C w by blocks of rows, each checked against a b (the satisfaction
//   check, as the resident path does on whole vectors); a and b to the coset; a *= b; c = C w
//   again into b's vector, to the coset; a -= c; a from the coset: h.
// The same field operations as quotient_in_place (a b - c as a b, then - c), so the same h.
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>

#include "gpu/device/cuda_check.hpp"
#include "gpu/ntt/ntt_launch.hpp"
#include "gpu/ntt/quotient.hpp"
#include "gpu/prover/gpu_backend.hpp"
#include "gpu/spmv/packed_spmv.hpp"
#include "pce/spmv.hpp"

namespace cuzk::gpu {

namespace {

// Bytes of a row block [r0, r1) in a slot: its row offsets, columns, coefficient indices.
size_t block_bytes(const pce::CsrMatrix& m, size_t r0, size_t r1) {
  const size_t entries = m.row_ptr[r1] - m.row_ptr[r0];
  return (r1 - r0 + 1) * sizeof(uint32_t) +
         entries * (sizeof(uint32_t) + sizeof(pce::CoefficientIndex));
}

using Blocks = std::vector<std::pair<size_t, size_t>>;

// Runs [b, e) of [0, count) items of at most max_items each whose bytes(b, e) fit `slot` (the
// largest end by bisection); too_large(b) says why item b alone does not.
Blocks blocks_in_slots(size_t count, size_t max_items, size_t slot,
                       const std::function<size_t(size_t, size_t)>& bytes,
                       const std::function<std::string(size_t)>& too_large) {
  Blocks blocks;
  for (size_t b = 0; b < count;) {
    if (bytes(b, b + 1) > slot) {
      throw std::runtime_error("gpu spmv: " + too_large(b) + ", more than a staging slot of " +
                               std::to_string(slot) + " bytes holds");
    }
    size_t lo = b + 1, hi = b + std::min(count - b, max_items);  // (b, lo) fits; the largest end
    while (lo < hi) {
      const size_t mid = lo + (hi - lo + 1) / 2;
      if (bytes(b, mid) <= slot) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    blocks.emplace_back(b, lo);
    b = lo;
  }
  return blocks;
}

// Row blocks of [0, rows) of at most max_rows rows that fill at most `slot` bytes each.
Blocks row_blocks(const pce::CsrMatrix& m, size_t rows, size_t slot, size_t max_rows) {
  return blocks_in_slots(
      rows, max_rows, slot, [&](size_t b, size_t e) { return block_bytes(m, b, e); },
      [&](size_t b) {
        return "row " + std::to_string(b) + " has " +
               std::to_string(m.row_ptr[b + 1] - m.row_ptr[b]) + " entries";
      });
}

// Bytes of groups [g0, g1) of a packed matrix in a slot: their offsets, then their bytes.
size_t packed_block_bytes(const pce::PackedMatrix& m, size_t g0, size_t g1) {
  return (g1 - g0 + 1) * sizeof(uint64_t) + m.group_bytes(g0, g1);
}

// Runs of whole groups of m of at most max_rows rows (a multiple of a group's, else one group)
// that fill at most `slot` bytes each.
Blocks group_blocks(const pce::PackedMatrix& m, size_t slot, size_t max_rows) {
  return blocks_in_slots(
      m.groups(), std::max<size_t>(1, max_rows / pce::kPackedGroupRows), slot,
      [&](size_t b, size_t e) { return packed_block_bytes(m, b, e); },
      [&](size_t b) {
        return "rows " + std::to_string(b * pce::kPackedGroupRows) + ".. pack into " +
               std::to_string(m.group_bytes(b, b + 1)) + " bytes";
      });
}

// n rounded up to a multiple of 8 (the next matrix's offsets are u64).
size_t padded(size_t n) {
  return (n + 7) / 8 * 8;
}

}  // namespace

const GpuBackend::PackedMatrices& GpuBackend::packed_matrices(const pce::RecordedCircuit& rc) {
  const auto fingerprint_of = [](const pce::CsrMatrix& m) {
    return sample_fingerprint(m.cols.data(), m.cols.size(), sizeof(uint32_t)) ^
           sample_fingerprint(m.row_ptr.data(), m.row_ptr.size(), sizeof(uint32_t));
  };
  const uint64_t fp =
      fingerprint_of(rc.a) ^ (fingerprint_of(rc.b) * 3) ^ (fingerprint_of(rc.c) * 5);
  const pce::CsrMatrix* csr[3] = {&rc.a, &rc.b, &rc.c};
  PackedMatrices& p = packed_matrices_;
  if (p.source != &rc || p.fingerprint != fp) {
    p = PackedMatrices();
    // (std::invalid_argument for a row whose columns do not ascend: p stays empty)
    PackedMatrices sized;
    for (int k = 0; k < 3; ++k) {
      sized.offsets[k] = pce::packed_group_offsets(*csr[k], options_.pool);
      sized.wanted += sized.offsets[k].size() * sizeof(uint64_t) + padded(sized.offsets[k].back());
    }
    sized.source = &rc;
    sized.fingerprint = fp;
    p = std::move(sized);
  }
  if (p.bytes.size() != 0 || p.refused) return p;
  // No room in the budget now: the CSR, and asked again at the next partition.
  if (!p.admitted.admit(host_admission_, p.wanted)) return p;
  try {
    p.bytes = RegisteredHostBuffer(p.wanted);
  } catch (const std::exception&) {  // std::bad_alloc, or CudaError from the registration
    p.admitted.reset();
    p.refused = true;  // (not asked again for this set: the host said no)
    return p;
  }
  try {
    uint8_t* at = p.bytes.get();  // each matrix's offsets, then its bytes padded to 8
    for (int k = 0; k < 3; ++k) {
      const std::span<uint64_t> to(reinterpret_cast<uint64_t*>(at), p.offsets[k].size());
      std::copy(p.offsets[k].begin(), p.offsets[k].end(), to.begin());
      at += to.size_bytes();
      const std::span<uint8_t> packed(at, p.offsets[k].back());
      pce::pack_matrix(*csr[k], to, packed, options_.pool);
      at += padded(packed.size());
      p.m[k] = pce::PackedMatrix{csr[k]->rows(), to, packed};
      p.offsets[k] = {};
    }
  } catch (...) {
    p = PackedMatrices();  // never a half-written pack to stream
    throw;
  }
  return p;
}

void GpuBackend::spmv_streamed(const pce::CsrMatrix& m, size_t rows, bool pinned,
                               const BlockOut& out, const BlockDone& after, size_t max_rows) {
  const cudaStream_t s = stream_->get();
  const auto blocks = row_blocks(m, rows, streamer_.slot_bytes(), std::max<size_t>(max_rows, 1));
  const auto as_bytes = [](const auto* p, size_t count) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(p), count * sizeof(*p));
  };
  streamer_.stream(
      blocks.size(),
      [&](size_t k) {
        const auto [b0, b1] = blocks[k];
        const size_t e0 = m.row_ptr[b0], e1 = m.row_ptr[b1];
        return BaseStreamer::HostRanges{as_bytes(m.row_ptr.data() + b0, b1 - b0 + 1),
                                        as_bytes(m.cols.data() + e0, e1 - e0),
                                        as_bytes(m.coeffs.data() + e0, e1 - e0)};
      },
      [&](size_t k, const uint8_t* d) {
        const auto [b0, b1] = blocks[k];
        const size_t e0 = m.row_ptr[b0], entries = m.row_ptr[b1] - e0;
        MatrixRowBlock block;
        block.row_ptr = reinterpret_cast<const uint32_t*>(d);
        block.cols = block.row_ptr + (b1 - b0 + 1);
        block.coeffs = reinterpret_cast<const pce::CoefficientIndex*>(block.cols + entries);
        block.r0 = b0;
        block.rows = b1 - b0;
        block.e0 = e0;
        spmv_rows(block, d_coefficients_.get(), d_w_.get(), out(b0), s);
        if (after) after(b0, b1);
      },
      s, pinned);
}

void GpuBackend::spmv_streamed(const pce::PackedMatrix& m, const BlockOut& out,
                               const BlockDone& after, size_t max_rows) {
  const cudaStream_t s = stream_->get();
  const auto blocks = group_blocks(m, streamer_.slot_bytes(), max_rows);
  streamer_.stream(
      blocks.size(),
      [&](size_t k) {
        const auto [g0, g1] = blocks[k];
        const auto offsets = std::as_bytes(m.group_offsets.subspan(g0, g1 - g0 + 1));
        return BaseStreamer::HostRanges{
            {reinterpret_cast<const uint8_t*>(offsets.data()), offsets.size()},
            m.bytes.subspan(m.group_offsets[g0], m.group_bytes(g0, g1))};
      },
      [&](size_t k, const uint8_t* d) {
        const auto [g0, g1] = blocks[k];
        const size_t b0 = g0 * pce::kPackedGroupRows;
        const size_t b1 = std::min(m.rows, g1 * pce::kPackedGroupRows);
        PackedRowBlock block;
        block.group_offsets = reinterpret_cast<const uint64_t*>(d);
        block.bytes = d + (g1 - g0 + 1) * sizeof(uint64_t);
        block.groups = g1 - g0;
        block.rows = b1 - b0;
        spmv_packed_rows(block, d_coefficients_.get(), d_w_.get(), out(b0), s);
        if (after) after(b0, b1);
      },
      s, true);
}

void GpuBackend::chain_streamed(const groth16::PartitionInput& in, groth16::ProverTiming& t) {
  const cudaStream_t s = stream_->get();
  // Marks between the steps: uploads (the matrices' pack the first time, where the engine did
  // not make it when it locked the set's points) | SpMV of A, B and C (checked) | a, b to the
  // coset, a b | SpMV of C again | the rest of the chain.
  Event start, uploaded, checked, multiplied, evaluated, done;
  start.record(s);
  const pce::RecordedCircuit& rc = *in.circuit;
  const PackedMatrices& packed = packed_matrices(rc);
  const bool is_packed = packed.bytes.size() != 0;
  const pce::CsrMatrix* csr[3] = {&rc.a, &rc.b, &rc.c};
  bool locked = true;  // (rc's CSR, where it is read: lock_streamed_points locked it in place)
  for (const pce::CsrMatrix* m : csr) {
    for (const void* p :
         {static_cast<const void*>(m->row_ptr.data()), static_cast<const void*>(m->cols.data()),
          static_cast<const void*>(m->coeffs.data())})
      locked = locked && (p == nullptr || is_page_locked(p));
  }
  // Matrix k (A, B, C) times w by row blocks: the pack, else the CSR.
  const auto matrix_times_w = [&](int k, const BlockOut& out, const BlockDone& after = nullptr,
                                  size_t max_rows = SIZE_MAX) {
    if (is_packed) {
      spmv_streamed(packed.m[k], out, after, max_rows);
    } else {
      spmv_streamed(*csr[k], csr[k]->rows(), locked, out, after, max_rows);
    }
  };
  const pce::CompactWitness& w = *in.witness;
  const size_t rows = in.rows();
  const EvaluationDomain domain = EvaluationDomain::for_size(rows);
  const size_t n = domain.size();
  d_w_.reserve(w.inputs.size() + w.num_aux);
  upload_witness(w, d_w_.get(), witness_scratch_, s);
  d_coefficients_.reserve(std::max<size_t>(1, rc.coefficients.size()));
  d_coefficients_.upload(rc.coefficients, s);
  h2d_ += w.inputs.size() * sizeof(Fr) + compact_aux_bytes(w) + rc.coefficients.size_bytes();
  // Slots of kMinMatrixSlotBytes (memory_plan.cpp), or of the largest matrix when it is smaller.
  size_t slot = 0;
  for (int k = 0; k < 3; ++k) {
    const pce::PackedMatrix& m = packed.m[k];
    slot = std::max(slot, is_packed ? packed_block_bytes(m, 0, m.groups())
                                    : block_bytes(*csr[k], 0, csr[k]->rows()));
  }
  slot = std::min<size_t>(slot, std::min(options_.matrix_slot_bytes, kMinMatrixSlotBytes));
  streamer_.reserve(slot);
  d_abc_[0].reserve(n);
  d_abc_[1].reserve(n);
  Fr* const d_a = d_abc_[0].get();
  Fr* const d_b = d_abc_[1].get();
  uploaded.record(s);
  matrix_times_w(0, [&](size_t b0) { return d_a + b0; });
  matrix_times_w(1, [&](size_t b0) { return d_b + b0; });
  {
    // Every row's a b = c: C by blocks of at most len rows into one block of c, each checked as
    // it is queued and the first bad row read once at the end (a wait per block left the next
    // block's copy unoverlapped).
    const size_t len = std::min<size_t>(rows, kChainChunkElements);
    DeviceBuffer<Fr> c_block(std::max<size_t>(1, len));
    start_row_check(d_flag_, rows, s);
    matrix_times_w(
        2, [&](size_t) { return c_block.get(); },
        [&](size_t b0, size_t b1) {
          mark_unsatisfied_rows(d_a + b0, d_b + b0, c_block.get(), b1 - b0, b0, d_flag_.get(), s);
        },
        len);
    const size_t first = first_marked_row(d_flag_, s);  // (waits: before c_block goes, too)
    if (first != rows) throw pce::unsatisfied_row_error(first, rc);
  }
  checked.record(s);
  // One of the slots and a twiddle table at a time (memory_plan.cpp's chain phase).
  streamer_.release_device();
  d_abc_[0].zero(s, rows, n - rows);
  d_abc_[1].zero(s, rows, n - rows);
  quotient_to_coset({{d_a, d_b}}, domain, *ntt_);
  ntt_detail::launch_mul(d_a, d_b, n, s);
  multiplied.record(s);
  // c again, into b's vector (b is in the product), then to its coset.
  ntt_->release_tables();
  streamer_.reserve(slot);
  matrix_times_w(2, [&](size_t b0) { return d_b + b0; });
  evaluated.record(s);
  d_abc_[1].zero(s, rows, n - rows);
  streamer_.release_device();  // (cudaFree waits for the SpMV that read the slots and w)
  d_w_.release();
  witness_scratch_ = WitnessScratch();
  quotient_to_coset({{d_b}}, domain, *ntt_);
  ntt_detail::launch_sub(d_a, d_b, n, s);
  d_abc_[1].release();
  quotient_from_coset(d_a, domain, *ntt_);
  d_coefficients_.release();
  done.record(s);
  done.sync();
  t.upload_s = uploaded.ms_since(start) / 1e3;
  t.spmv_s = (checked.ms_since(uploaded) + evaluated.ms_since(multiplied)) / 1e3;
  t.quotient_s = (multiplied.ms_since(checked) + done.ms_since(evaluated)) / 1e3;
}

}  // namespace cuzk::gpu
