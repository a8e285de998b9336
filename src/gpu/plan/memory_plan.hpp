// The device memory plan of one partition proof (host-only: no CUDA, unit-tested in CI). Given
// what the backend may use of the device (`[gpus] memory_limit`, or the device's memory), the
// proving key's MSM sections, the recorded circuit and the partition's working set, it decides
// what stays resident and what streams:
//   - everything resident (the path of today: bases cached on the device, whole MSMs) when it
//     fits; nothing else changes then;
//   - otherwise the proof runs in three phases (SpMV, H chain, MSMs) freeing between them what
//     the next does not need, every MSM runs in chunks of chunk_scalars scalars (bounding the
//     MSM's scratch), and the bases of the largest sections stream from host memory through two
//     staging slots while the smallest stay resident as room allows;
//   - if that is still too large, in this order: the witness leaves the device during the H
//     chain, the recorded matrices stream to the device by row blocks (not cached) and the chain
//     holds two vectors and one twiddle table (c's rows are checked against a b by blocks, then
//     c is evaluated again once a b is formed), a, b, c are evaluated on the host (CPU SpMV)
//     instead of the device, and the host chain holds two vectors (c parked on the host).
// A streaming plan proves partitions in batches (batch_partitions): the front of each partition
// (a, b, c, the H chain, the H MSM) one at a time, then the aux MSMs (L, A, B) of the whole
// batch with one pass over each section's bases, so those bases cross the bus once per batch.
// The batch holds each partition's compact witness on the device (a few percent of w).
// A cap below the smallest working set is a DeviceMemoryError naming the bytes needed.
//
// The model counts every buffer the backend allocates (gpu_backend.cpp, msm_digits.cu,
// msm_classify.cu, msm_impl.cuh, ntt.cpp, spmv.cu) with its size rule; the backend charges real
// allocations against the same cap (device_memory_cap.hpp), so a model that is short fails
// loudly, never silently past the cap.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::gpu {

// One run of proving-key points and the scalars summed over it.
struct MsmSectionShape {
  std::string name;           // "h", "l", "a", "b_g1", "b_g2"
  uint64_t points = 0;        // bases
  uint64_t scalars = 0;       // scalars of its largest msm_split (density: bits looked at)
  uint32_t point_bytes = 0;   // sizeof(Affine) of its curve (G1 96, G2 192)
  uint32_t bucket_bytes = 0;  // sizeof(Xyzz) of its curve (G1 192, G2 384)
};

struct ProverShape {
  uint64_t domain = 0;  // n, a power of two
  uint64_t inputs = 0, aux = 0;
  uint64_t witness_values = 0;  // non-0/1 aux values of the compact witness
  bool recorded = false;        // a, b, c come from a recorded circuit (else from the host)
  uint64_t pce_bytes = 0;       // that circuit on the device (DeviceCircuit::bytes)
  uint64_t rows = 0;            // its rows (0: domain - 1), for the row-block SpMV
  std::vector<MsmSectionShape> sections;
};

struct SectionPlan {
  std::string name;
  uint64_t bytes = 0;  // its bases on the device
  bool resident = false;
};

struct MemoryPlan {
  uint64_t cap = 0;
  bool all_resident = false;         // today's path; nothing below applies
  bool spmv_on_device = true;        // false: a, b, c from the host (CPU SpMV or given)
  bool witness_during_chain = true;  // false: w freed before the H chain
  // The device SpMV reads the matrices by row blocks through the staging slots; the chain holds
  // a and b and one twiddle table, c is checked by blocks and evaluated again for a b - c.
  bool spmv_streams_matrices = false;
  bool chain_two_vectors = false;  // host chain: a and b on the device, c parked on the host
  uint64_t chunk_scalars = 0;      // scalars per MSM chunk, a multiple of 64
  uint64_t ring_bytes = 0;         // both staging slots (0: nothing streams)
  uint64_t batch_partitions = 1;   // partitions proved together (aux MSMs over one pass)
  // The batch sums each partition's non-0/1 aux scalars by one Pippenger per section over
  // their gathered bases (a mostly-0/1 witness); false: one split MSM per chunk.
  bool batch_gathers_tails = false;
  // Bytes of one block kept across partitions and batches (DeviceArena; 0: none): the front lays
  // out b and c of the SpMV and the chain in it, then the H MSM's scratch and slots; with
  // batch_in_arena each aux section of the batch lays out its slots and scratch in it too, so
  // nothing of these is freed and allocated again between phases. Only where a device SpMV
  // holds three vectors and every phase holds the block (the peaks above count it), the first
  // that fits of: the widest of the front's (with the H MSM's first slot beside b and c:
  // h_first_chunk_in_chain) and the batch's layouts with as many partitions a batch; the same
  // without that slot; the front's alone (the batch frees it); none.
  uint64_t arena_bytes = 0;
  bool batch_in_arena = false;
  // The H MSM's first chunk of bases copied during the H chain into a slot at the arena's top
  // end, above b and c (BaseStreamer::prefetch_first): where the block holds b, c and that slot
  // (the H bases streamed, an arena with the batch's sections in it).
  bool h_first_chunk_in_chain = false;
  std::vector<SectionPlan> sections;
  // Bytes on the device in each phase: the front's SpMV, H chain and H MSM, and the batch's aux
  // MSMs with batch_partitions compact witnesses.
  uint64_t spmv_peak = 0, chain_peak = 0, msm_peak = 0, batch_peak = 0;

  uint64_t peak() const;
  bool streams() const;  // some section's bases stream from the host
  bool resident(const std::string& section) const;
  // The decisions alone ("resident", or the flags, chunk and resident sections): two plans with
  // the same key lay the device out alike (the backend keeps its caches between them).
  std::string layout_key() const;
  // One line: the decisions and the peaks, in GiB.
  std::string summary() const;
};

// A cap below what the smallest plan needs.
class DeviceMemoryError : public std::runtime_error {
 public:
  DeviceMemoryError(uint64_t needed, uint64_t cap, const std::string& what);
  uint64_t needed() const { return needed_; }
  uint64_t cap() const { return cap_; }

 private:
  uint64_t needed_, cap_;
};

// Elements of H-chain vector c uploaded at a time for the pointwise step of a two-vector chain,
// and rows of c evaluated at a time by the row-block SpMV's check.
inline constexpr uint64_t kChainChunkElements = uint64_t{1} << 23;
// A batch holds at most this many partitions (SnapDeals proves 16 at 32 GiB, PoRep 10).
inline constexpr uint64_t kMaxBatchPartitions = 16;
// The staging slots hold at least this much when the matrices stream (one row block).
inline constexpr uint64_t kMinMatrixSlotBytes = uint64_t{256} << 20;
// Scalars per MSM chunk at most (msm_split takes < 2^31). The plan halves the chunk from the
// largest MSM down until it fits: wider chunks are faster per point (H200, 2026-11-30: G1 2^24
// at c = 16 253 ms = 15.1 ns/point, 2^26 at c = 20 821 ms = 12.2 ns/point) but their scratch
// grows with them (c = 20 above 2^24: 13 x 2^19 buckets).
inline constexpr uint64_t kMaxChunkScalars = uint64_t{1} << 30;
inline constexpr uint64_t kStreamChunkScalars = uint64_t{1} << 24;
inline constexpr uint64_t kMinChunkScalars = uint64_t{1} << 16;

// Device bytes of the MSM scratch (MsmWorkspace) after an MSM of `scalars` scalars whose points
// sum in `bucket_bytes`-byte XYZZ buckets: an upper bound (every scalar in the tail). A chunk of a
// chunked MSM (MsmAccumulator) has the buckets of the whole count: window_scalars (0: scalars)
// sets the window width.
uint64_t msm_workspace_bytes(uint64_t scalars, uint32_t bucket_bytes, uint64_t window_scalars = 0);
// NTT twiddle and power tables of the H chain at domain size n.
uint64_t ntt_table_bytes(uint64_t n);
// One twiddle table (a single direction) and the power tables.
uint64_t ntt_one_table_bytes(uint64_t n);
// The expanded witness and its upload scratch.
uint64_t witness_bytes(const ProverShape& s);
// One partition's compact aux witness on the device (bitmaps, ranks, non-0/1 values).
uint64_t compact_witness_bytes(const ProverShape& s);
// Where a batch's tail of `room` entries keeps its scalars, after the bases of `point_bytes`
// each (aligned for the kernels' vector loads); the tail's bytes are that plus room scalars.
inline uint64_t tail_scalars_offset(uint64_t room, uint64_t point_bytes) {
  return (room * point_bytes + 255) / 256 * 256;
}
// One partition's tail in a batch's aux section (its non-0/1 values and a copy of their bases,
// at the widest aux section's point size).
uint64_t batch_tail_bytes(const ProverShape& s);
// Whether a batch gathers tails for this shape: its aux is mostly 0/1 (at most 1 in 8 values
// otherwise; PoRep 1.3%). A full-width witness (WindowPoSt) would copy every base.
bool gathers_tails(const ProverShape& s);
// Everything resident, whole MSMs: today's peak.
uint64_t resident_peak(const ProverShape& s);

// cap: bytes of the device the backend may use (> 0). host_spmv: a CPU SpMV is available (the
// backend has a thread pool). max_chunk: chunk scalars at most (tests force small chunks).
MemoryPlan plan_device_memory(const ProverShape& shape, uint64_t cap, bool host_spmv,
                              uint64_t max_chunk = kMaxChunkScalars);

// The plan of a set on a device that also keeps `others` bytes of other sets' bases (the sets of
// circuits proved before, kept so that switching back uploads nothing): the plan beside them
// when it lays the device out as the plan without them would (same layout and batch), so that
// kept sets never make a proof slower; otherwise the plan without them, and keep_others false
// (the caller drops them first). A WinningPoSt beside PoRep's 47 GB on the H200 keeps them; a
// PoRep on an 80 GB card, whose plan needs nearly the whole device, drops a WinningPoSt's.
struct PlanBeside {
  MemoryPlan plan;
  bool keep_others = false;
};
PlanBeside plan_beside(const ProverShape& shape, uint64_t cap, uint64_t others, bool host_spmv,
                       uint64_t max_chunk = kMaxChunkScalars);

// "1.50 GiB".
std::string gib(uint64_t bytes);

}  // namespace cuzk::gpu
