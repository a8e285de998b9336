// GpuBackend's front when the recorded matrices do not fit beside the H chain
// (MemoryPlan::spmv_streams_matrices, a 16 GiB card at 32 GiB): the matrices reach the device by
// row blocks through the device staging slots, straight from page-locked host memory (the
// recording's own, or a copy: streamed_matrices), and the chain holds two vectors and one
// twiddle table:
//   a = A w and b = B w whole; C w by blocks of rows, each checked against a b (the satisfaction
//   check, as the resident path does on whole vectors); a and b to the coset; a *= b; c = C w
//   again into b's vector, to the coset; a -= c; a from the coset: h.
// The same field operations as quotient_in_place (a b - c as a b, then - c), so the same h.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "gpu/device/cuda_check.hpp"
#include "gpu/ntt/ntt_launch.hpp"
#include "gpu/ntt/quotient.hpp"
#include "gpu/prover/gpu_backend.hpp"
#include "pce/spmv.hpp"

namespace cuzk::gpu {

namespace {

// Bytes of a row block [r0, r1) in a slot: its row offsets, columns, coefficient indices.
size_t block_bytes(const pce::CsrMatrix& m, size_t r0, size_t r1) {
  const size_t entries = m.row_ptr[r1] - m.row_ptr[r0];
  return (r1 - r0 + 1) * sizeof(uint32_t) +
         entries * (sizeof(uint32_t) + sizeof(pce::CoefficientIndex));
}

// Row blocks of [0, rows) of at most max_rows rows that fill at most `slot` bytes each (the
// largest end by bisection).
std::vector<std::pair<size_t, size_t>> row_blocks(const pce::CsrMatrix& m, size_t rows, size_t slot,
                                                  size_t max_rows) {
  std::vector<std::pair<size_t, size_t>> blocks;
  for (size_t b = 0; b < rows;) {
    if (block_bytes(m, b, b + 1) > slot) {
      throw std::runtime_error("gpu spmv: row " + std::to_string(b) + " has " +
                               std::to_string(m.row_ptr[b + 1] - m.row_ptr[b]) +
                               " entries, more than a staging slot of " + std::to_string(slot) +
                               " bytes holds");
    }
    size_t lo = b + 1, hi = b + std::min(rows - b, max_rows);  // (b, lo) fits; the largest end
    while (lo < hi) {
      const size_t mid = lo + (hi - lo + 1) / 2;
      if (block_bytes(m, b, mid) <= slot) {
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

// Copies n elements of `from` into `to` (page-locked), on the pool when there is one.
template <class T>
std::span<const T> copy_into(std::span<const T> from, uint8_t*& to, ThreadPool* pool) {
  T* dst = reinterpret_cast<T*>(to);
  const auto copy = [&](size_t b, size_t e) {
    std::memcpy(dst + b, from.data() + b, (e - b) * sizeof(T));
  };
  if (pool != nullptr) {
    pool->parallel_for(from.size(), copy, size_t{1} << 20, 1);
  } else {
    copy(0, from.size());
  }
  to += from.size_bytes();
  return {dst, from.size()};
}

}  // namespace

GpuBackend::StreamedMatrices GpuBackend::streamed_matrices(const pce::RecordedCircuit& rc) {
  bool in_place = true;
  for (const pce::CsrMatrix* m : {&rc.a, &rc.b, &rc.c}) {
    in_place = in_place && (m->row_ptr.empty() || is_page_locked(m->row_ptr.data())) &&
               (m->cols.empty() || is_page_locked(m->cols.data())) &&
               (m->coeffs.empty() || is_page_locked(m->coeffs.data()));
  }
  if (in_place) {
    pinned_matrices_ = PinnedMatrices();  // (a copy made before, of this or another recording)
    return {&rc.a, &rc.b, &rc.c, true};
  }
  const PinnedMatrices& p = pinned_matrices(rc);
  return {&p.a, &p.b, &p.c, p.bytes.size() != 0};
}

const GpuBackend::PinnedMatrices& GpuBackend::pinned_matrices(const pce::RecordedCircuit& rc) {
  const auto fingerprint_of = [](const pce::CsrMatrix& m) {
    return sample_fingerprint(m.cols.data(), m.cols.size(), sizeof(uint32_t)) ^
           sample_fingerprint(m.row_ptr.data(), m.row_ptr.size(), sizeof(uint32_t));
  };
  const uint64_t fp =
      fingerprint_of(rc.a) ^ (fingerprint_of(rc.b) * 3) ^ (fingerprint_of(rc.c) * 5);
  PinnedMatrices& p = pinned_matrices_;
  if (p.source == &rc && p.fingerprint == fp) return p;
  p = PinnedMatrices();
  size_t bytes = 0;
  for (const pce::CsrMatrix* m : {&rc.a, &rc.b, &rc.c})
    bytes += m->row_ptr.size_bytes() + m->cols.size_bytes() + m->coeffs.size_bytes();
  const auto staged = [&]() -> const PinnedMatrices& {
    p.a = rc.a;
    p.b = rc.b;
    p.c = rc.c;
    return p;
  };
  // No room in the budget now: staged, and asked again at the next partition (source unset).
  if (!p.admitted.admit(host_admission_, bytes)) return staged();
  p.source = &rc;
  p.fingerprint = fp;
  try {
    p.bytes = RegisteredHostBuffer(bytes);
  } catch (const std::exception&) {  // std::bad_alloc, or CudaError from the registration
    p.admitted.reset();
    return staged();
  }
  uint8_t* at = p.bytes.get();
  const auto copy = [&](const pce::CsrMatrix& from) {
    pce::CsrMatrix to;
    to.row_ptr = copy_into(from.row_ptr, at, options_.pool);
    to.cols = copy_into(from.cols, at, options_.pool);
    to.coeffs = copy_into(from.coeffs, at, options_.pool);
    return to;
  };
  p.a = copy(rc.a);
  p.b = copy(rc.b);
  p.c = copy(rc.c);
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

void GpuBackend::chain_streamed(const groth16::PartitionInput& in, groth16::ProverTiming& t) {
  const cudaStream_t s = stream_->get();
  // Marks between the steps: uploads (the matrices' page-locked copy the first time, if one is
  // made) | SpMV of A, B and C (checked) | a, b to the coset, a b | SpMV of C again | the rest of
  // the chain.
  Event start, uploaded, checked, multiplied, evaluated, done;
  start.record(s);
  const pce::RecordedCircuit& rc = *in.circuit;
  const StreamedMatrices matrices = streamed_matrices(rc);
  const bool locked = matrices.page_locked;
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
  for (const pce::CsrMatrix* m : {matrices.a, matrices.b, matrices.c})
    slot = std::max(slot, block_bytes(*m, 0, rows));
  slot = std::min<size_t>(slot, std::min(options_.matrix_slot_bytes, kMinMatrixSlotBytes));
  streamer_.reserve(slot);
  d_abc_[0].reserve(n);
  d_abc_[1].reserve(n);
  Fr* const d_a = d_abc_[0].get();
  Fr* const d_b = d_abc_[1].get();
  uploaded.record(s);
  spmv_streamed(*matrices.a, rows, locked, [&](size_t b0) { return d_a + b0; });
  spmv_streamed(*matrices.b, rows, locked, [&](size_t b0) { return d_b + b0; });
  {
    // Every row's a b = c: C by blocks of at most len rows into one block of c, each checked as
    // it is queued and the first bad row read once at the end (a wait per block left the next
    // block's copy unoverlapped).
    const size_t len = std::min<size_t>(rows, kChainChunkElements);
    DeviceBuffer<Fr> c_block(std::max<size_t>(1, len));
    start_row_check(d_flag_, rows, s);
    spmv_streamed(
        *matrices.c, rows, locked, [&](size_t) { return c_block.get(); },
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
  spmv_streamed(*matrices.c, rows, locked, [&](size_t b0) { return d_b + b0; });
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
