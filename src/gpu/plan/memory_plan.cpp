#include "gpu/plan/memory_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "gpu/msm/msm_window.hpp"

namespace cuzk::gpu {

namespace {

constexpr uint64_t kFr = 32;
constexpr uint64_t kMiB = uint64_t{1} << 20;

uint64_t ceil_div(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

// The decisions a plan is evaluated for.
struct Choice {
  bool spmv_on_device = true, witness_during_chain = true, stream_matrices = false;
  bool chain_two = false;
  uint64_t chunk = 0;
  std::vector<bool> resident;
};

struct Peaks {
  uint64_t spmv = 0, chain = 0, msm = 0, ring = 0;
  // The arena (memory_plan.hpp: arena_bytes), where a device SpMV holds three vectors: the
  // front's layouts in it (b and c, then the H MSM's scratch and slots) and the batch's (a
  // section's slots and scratch), and each phase's bytes outside it (0: no arena).
  uint64_t arena_front = 0, arena_batch = 0;
  // b and c, and one slot of streamed H bases (0: h resident), for the first chunk's copy
  // under the chain.
  uint64_t arena_chain_vectors = 0, slot_h = 0;
  uint64_t spmv_beside = 0, chain_beside = 0, msm_beside = 0, batch_beside = 0;
  // The batch phase: batch_fixed + k * compact for k partitions.
  uint64_t batch_fixed = 0, compact = 0;
  uint64_t batch(uint64_t k) const { return batch_fixed + k * compact; }
  uint64_t max() const { return std::max({spmv, chain, msm, batch(1)}); }
  uint64_t front_with_arena(uint64_t arena) const {
    return std::max({spmv_beside, chain_beside, msm_beside}) + arena;
  }
};

Peaks evaluate(const ProverShape& s, const Choice& c) {
  const uint64_t v = s.domain * kFr;  // one H-chain vector
  const uint64_t w = witness_bytes(s);
  // The recorded circuit stays cached on the device across partitions unless it streams.
  const uint64_t pce = c.spmv_on_device && !c.stream_matrices ? s.pce_bytes : 0;
  // Staging slots per phase: the H MSM's for the H bases, the batch's for its widest streamed
  // section, the row-block SpMV's for a block of matrix rows (the backend sizes them per phase).
  uint64_t resident = 0, ring_h = 0, ring_aux = 0, ws_h = 0, ws_aux = 0;
  for (size_t i = 0; i < s.sections.size(); ++i) {
    const MsmSectionShape& m = s.sections[i];
    const bool h = m.name == "h";
    if (c.resident[i]) {
      resident += m.points * m.point_bytes;
    } else {
      (h ? ring_h : ring_aux) = std::max(h ? ring_h : ring_aux, 2 * c.chunk * m.point_bytes);
    }
    // The H MSM keeps the buckets of its whole count across its chunks (BaseStreamer::msm).
    uint64_t& ws = h ? ws_h : ws_aux;
    ws = std::max(
        ws, msm_workspace_bytes(std::min(c.chunk, m.scalars), m.bucket_bytes, h ? m.scalars : 0));
  }
  Peaks p;
  // (a small circuit's whole matrix is one block)
  const uint64_t ring_spmv =
      c.stream_matrices ? 2 * std::min(kMinMatrixSlotBytes, std::max<uint64_t>(1, s.pce_bytes)) : 0;
  p.ring = std::max({ring_h, ring_aux, ring_spmv});
  const uint64_t c_block = std::min(kChainChunkElements, s.domain) * kFr;
  // Phase 1: a, b, c evaluated (device SpMV over w and the recorded circuit) or uploaded (c alone
  // first for a two-vector chain).
  if (c.stream_matrices) {
    // a and b whole, c's rows by blocks against them (the check), matrices through the slots.
    p.spmv = resident + w + 2 * v + ring_spmv + c_block;
  } else if (c.spmv_on_device) {
    p.spmv = resident + pce + w + 3 * v;
  } else {
    p.spmv = resident + (c.chain_two ? v : 3 * v);
  }
  // Phase 2: the H chain.
  if (c.stream_matrices) {
    // a and b to the coset with w kept (c is evaluated again from it, its matrix streamed), one
    // twiddle table at a time.
    p.chain = resident + w + 2 * v + std::max(ntt_one_table_bytes(s.domain), ring_spmv);
  } else {
    const uint64_t vectors = c.chain_two ? 2 * v + c_block : 3 * v;
    const bool w_kept = c.spmv_on_device && c.witness_during_chain;
    p.chain = resident + pce + ntt_table_bytes(s.domain) + vectors + (w_kept ? w : 0);
  }
  // Phase 3: the H MSM (h in a's vector; the inputs' MSMs are a few hundred scalars).
  p.msm = resident + pce + v + ring_h + ws_h;
  // The batch: the aux MSMs of k partitions from their compact witnesses, a chunk of scalars
  // expanded at a time, the section's density, and each partition's tail (its non-0/1 scalars
  // with a copy of their bases, summed by one Pippenger after the last chunk).
  const uint64_t density = ceil_div(s.aux, 64) * 8;
  p.batch_beside = resident + pce + c.chunk * kFr + density + 4 * kMiB;
  p.batch_fixed = p.batch_beside + ring_aux + ws_aux;
  p.compact = compact_witness_bytes(s) + (gathers_tails(s) ? batch_tail_bytes(s) : 0);
  if (c.spmv_on_device && !c.stream_matrices && !c.chain_two) {
    p.arena_front = std::max(2 * v, ring_h + ws_h);
    p.arena_batch = ring_aux + ws_aux;
    p.arena_chain_vectors = 2 * v;
    p.slot_h = ring_h / 2;
    p.spmv_beside = resident + pce + w + v;  // a (then h) and w beside b and c
    p.chain_beside =
        resident + pce + ntt_table_bytes(s.domain) + v + (c.witness_during_chain ? w : 0);
    p.msm_beside = resident + pce + v;  // h beside the slots and scratch
  }
  return p;
}

MemoryPlan to_plan(const ProverShape& s, const Choice& c, const Peaks& p, uint64_t cap) {
  MemoryPlan plan;
  plan.cap = cap;
  plan.spmv_on_device = c.spmv_on_device;
  plan.witness_during_chain = c.witness_during_chain;
  plan.spmv_streams_matrices = c.stream_matrices;
  plan.chain_two_vectors = c.chain_two;
  plan.chunk_scalars = c.chunk;
  plan.ring_bytes = p.ring;
  plan.spmv_peak = p.spmv;
  plan.chain_peak = p.chain;
  plan.msm_peak = p.msm;
  // As many partitions as the batch phase holds (at least one: max() counted one).
  uint64_t k = 1;
  while (k < kMaxBatchPartitions && p.batch(k + 1) <= cap)
    ++k;
  plan.batch_partitions = k;
  plan.batch_peak = p.batch(k);
  // The arena: the first of its layouts, widest first, that every phase holds.
  if (p.arena_front != 0) {
    const uint64_t both = std::max(p.arena_front, p.arena_batch);
    struct Layout {
      uint64_t bytes;
      bool batch, prefetch;
    };
    const Layout layouts[] = {
        {p.slot_h != 0 ? std::max(both, p.arena_chain_vectors + p.slot_h) : 0, true, true},
        {both, true, false},
        {p.arena_front, false, false}};
    for (const Layout& l : layouts) {
      const uint64_t batch = p.batch_beside + l.bytes + k * p.compact;
      if (l.bytes == 0 || p.front_with_arena(l.bytes) > cap || (l.batch && batch > cap)) continue;
      plan.arena_bytes = l.bytes;
      plan.batch_in_arena = l.batch;
      plan.h_first_chunk_in_chain = l.prefetch;
      if (l.batch) plan.batch_peak = batch;
      plan.spmv_peak = p.spmv_beside + l.bytes;
      plan.chain_peak = p.chain_beside + l.bytes;
      plan.msm_peak = p.msm_beside + l.bytes;
      break;
    }
  }
  plan.batch_gathers_tails = gathers_tails(s);
  for (size_t i = 0; i < s.sections.size(); ++i) {
    const MsmSectionShape& m = s.sections[i];
    plan.sections.push_back({m.name, m.points * m.point_bytes, c.resident[i]});
  }
  return plan;
}

}  // namespace

DeviceMemoryError::DeviceMemoryError(uint64_t needed, uint64_t cap, const std::string& what)
    : std::runtime_error(what), needed_(needed), cap_(cap) {}

std::string gib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1ull << 30));
  return buf;
}

uint64_t MemoryPlan::peak() const {
  return std::max({spmv_peak, chain_peak, msm_peak, batch_peak});
}

bool MemoryPlan::streams() const {
  return std::any_of(sections.begin(), sections.end(),
                     [](const SectionPlan& s) { return !s.resident; });
}

bool MemoryPlan::resident(const std::string& section) const {
  for (const SectionPlan& s : sections)
    if (s.name == section) return s.resident;
  return false;
}

std::string MemoryPlan::layout_key() const {
  if (all_resident) return "resident";
  std::string k = std::to_string(spmv_on_device) + std::to_string(witness_during_chain) +
                  std::to_string(spmv_streams_matrices) + std::to_string(chain_two_vectors) + " " +
                  std::to_string(chunk_scalars) + " " + std::to_string(ring_bytes);
  for (const SectionPlan& s : sections)
    if (s.resident) k += " " + s.name;
  return k;
}

std::string MemoryPlan::summary() const {
  std::string out = "cap " + gib(cap) + ": ";
  if (all_resident) return out + "all resident, peak " + gib(peak());
  std::string res, str;
  for (const SectionPlan& s : sections)
    (s.resident ? res : str) += (s.resident ? res : str).empty() ? s.name : "," + s.name;
  out += "resident [" + res + "] streamed [" + str + "] chunk " + std::to_string(chunk_scalars) +
         " scalars, ring " + gib(ring_bytes) + "; spmv " +
         (!spmv_on_device         ? "host"
          : spmv_streams_matrices ? "device, matrices streamed"
                                  : "device") +
         ", witness " + (witness_during_chain ? "kept" : "freed") + " for the chain, chain " +
         (chain_two_vectors || spmv_streams_matrices ? "two vectors" : "three vectors") +
         (arena_bytes != 0
              ? "; arena " + gib(arena_bytes) + (batch_in_arena ? " (front and batch" : " (front") +
                    (h_first_chunk_in_chain ? ", H's first chunk in the chain)" : ")")
              : "") +
         "; batches of " + std::to_string(batch_partitions) + "; peaks spmv " + gib(spmv_peak) +
         " chain " + gib(chain_peak) + " msm " + gib(msm_peak) + " batch " + gib(batch_peak);
  return out;
}

uint64_t msm_workspace_bytes(uint64_t scalars, uint32_t bucket_bytes, uint64_t window_scalars) {
  if (scalars == 0) return 0;
  const uint64_t s = scalars;
  const unsigned c = msm_window_bits(std::max(s, window_scalars));
  const uint64_t windows = ceil_div(256, c), buckets = uint64_t{1} << (c - 1);
  const uint64_t m = windows * buckets;
  uint64_t b = 2 * windows * s * 4;       // digits, entries
  b += 4 * m * 4;                         // counts, offsets, task_counts, task_offsets
  b += std::max(m, ceil_div(s, 64)) * 4;  // cursor (buckets, or density words in classify)
  b += m * bucket_bytes;                  // buckets
  const uint64_t task_len = std::max<uint64_t>(16, 2 * ceil_div(s, buckets));
  const uint64_t tasks = m + ceil_div(windows * s, task_len);
  b += std::max(tasks, s / 16 + 2) * bucket_bytes;  // partials (tasks, or batch_add's outputs)
  b += 4 * tasks * 4;                               // tasks ordered by length (keys, values)
  b += (m / 4 + windows) * bucket_bytes;            // segments
  b += s * (kFr + 4);                               // tail scalars and indices
  b += ceil_div(s, 32) * 4 + ceil_div(s, 64) * 4;   // ones bitmap, density word offsets
  b += 2 * kMiB + m / 4;                            // CUB scan, task-order scratch, counters
  b += msm_radix_sort_bytes(s);                     // the radix sort's keys, payload, scratch
  return b;
}

uint64_t ntt_table_bytes(uint64_t n) {
  // Twiddles for omega and omega^-1 (n/2 each); power tables of two coset shifts.
  return n * kFr + 4 * (4096 + ceil_div(n, 4096)) * kFr;
}

uint64_t ntt_one_table_bytes(uint64_t n) {
  return n / 2 * kFr + 2 * (4096 + ceil_div(n, 4096)) * kFr;
}

uint64_t compact_witness_bytes(const ProverShape& s) {
  const uint64_t words = ceil_div(s.aux, 64);
  return 2 * words * 8 + words * 4 + std::max<uint64_t>(1, s.witness_values) * kFr;
}

bool gathers_tails(const ProverShape& s) {
  return s.witness_values * 8 <= s.aux;
}

uint64_t batch_tail_bytes(const ProverShape& s) {
  uint64_t point = 0;
  for (const MsmSectionShape& m : s.sections)
    if (m.name != "h") point = std::max<uint64_t>(point, m.point_bytes);
  const uint64_t room = std::max<uint64_t>(1, s.witness_values);
  return tail_scalars_offset(room, point) + room * kFr;
}

uint64_t witness_bytes(const ProverShape& s) {
  const uint64_t words = ceil_div(s.aux, 64);
  // w, the bitmaps and ranks and values of its upload, and (a, b, c from the host) the three
  // density bitmaps, at most a word per 64 inputs or aux each.
  const uint64_t density = 3 * ceil_div(std::max(s.inputs, s.aux), 64) * 8;
  return (s.inputs + s.aux) * kFr + 2 * words * 8 + words * 4 +
         std::max<uint64_t>(1, s.witness_values) * kFr + density + 4 * kMiB;
}

uint64_t resident_peak(const ProverShape& s) {
  uint64_t bases = 0, ws = 0;
  for (const MsmSectionShape& m : s.sections) {
    bases += m.points * m.point_bytes;
    ws = std::max(ws, msm_workspace_bytes(m.scalars, m.bucket_bytes));
  }
  const uint64_t pce = s.recorded ? s.pce_bytes : 0;
  return bases + pce + witness_bytes(s) + 3 * s.domain * kFr + ntt_table_bytes(s.domain) + ws;
}

MemoryPlan plan_device_memory(const ProverShape& shape, uint64_t cap, bool host_spmv,
                              uint64_t max_chunk) {
  if (cap == 0) throw std::invalid_argument("device memory plan: the cap must be > 0 bytes");
  if (shape.domain == 0 || (shape.domain & (shape.domain - 1)) != 0)
    throw std::invalid_argument("device memory plan: the domain must be a power of two");
  const uint64_t all = resident_peak(shape);
  if (all <= cap) {
    Choice c;
    c.resident.assign(shape.sections.size(), true);
    Peaks p;
    p.spmv = p.chain = p.msm = all;
    MemoryPlan plan = to_plan(shape, c, p, cap);
    plan.all_resident = true;
    plan.batch_partitions = 1;  // every base resident: nothing to share between partitions
    plan.batch_peak = all;
    return plan;
  }
  uint64_t largest = 64;
  for (const MsmSectionShape& m : shape.sections)
    largest = std::max(largest, m.scalars);
  const auto down64 = [](uint64_t x) { return std::max<uint64_t>(64, x / 64 * 64); };
  const uint64_t top = down64(std::min(max_chunk, ceil_div(largest, 64) * 64));
  // While something streams, chunks of at most kStreamChunkScalars: each doubling doubles the
  // staging slots too (2^26 G2 points: 25 GiB), which would push sections out of residence.
  const uint64_t stream_top = std::min(top, kStreamChunkScalars);
  const uint64_t bottom = std::min(stream_top, kMinChunkScalars);
  // The fallbacks in order of cost; a classic partition (a, b, c given) has no SpMV choice.
  std::vector<Choice> levels;
  const auto level = [&](bool device, bool keep_w, bool two, bool stream_matrices = false) {
    Choice c;
    c.spmv_on_device = device;
    c.witness_during_chain = keep_w;
    c.chain_two = two;
    c.stream_matrices = stream_matrices;
    c.resident.assign(shape.sections.size(), false);
    levels.push_back(c);
  };
  if (shape.recorded) {
    level(true, true, false);
    level(true, false, false);
    level(true, true, false, true);
  }
  if (!shape.recorded || host_spmv) {
    level(false, false, false);
    level(false, false, true);
  }
  uint64_t smallest = UINT64_MAX;
  for (Choice c : levels) {
    // The largest chunk (halving from the top) that fits with every base streamed.
    Peaks p;
    bool fits = false;
    for (c.chunk = stream_top;; c.chunk = std::max(bottom, down64(c.chunk / 2))) {
      p = evaluate(shape, c);
      if (p.max() <= cap) {
        fits = true;
        break;
      }
      if (c.chunk == bottom) break;
    }
    smallest = std::min(smallest, p.max());
    if (!fits) continue;
    // Then residents, smallest sections first: the largest MSMs stream.
    std::vector<size_t> order(shape.sections.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return shape.sections[a].points * shape.sections[a].point_bytes <
             shape.sections[b].points * shape.sections[b].point_bytes;
    });
    for (size_t i : order) {
      c.resident[i] = true;
      const Peaks q = evaluate(shape, c);
      if (q.max() <= cap) {
        p = q;
      } else {
        c.resident[i] = false;
      }
    }
    // Everything resident: no slots, so wider chunks cost only scratch; as wide as fits.
    if (std::all_of(c.resident.begin(), c.resident.end(), [](bool r) { return r; })) {
      for (Choice w = c; w.chunk < top;) {
        w.chunk = std::min(top, 2 * w.chunk);
        const Peaks q = evaluate(shape, w);
        if (q.max() > cap) break;
        c = w;
        p = q;
      }
    }
    return to_plan(shape, c, p, cap);
  }
  const std::string what = "device memory: a partition of domain 2^" +
                           std::to_string(__builtin_ctzll(shape.domain)) + " needs at least " +
                           std::to_string(smallest) + " bytes (" + gib(smallest) +
                           ") of device memory with every base streamed" +
                           (shape.recorded && !host_spmv ? " (no host SpMV available)" : "") +
                           "; the cap is " + std::to_string(cap) + " bytes (" + gib(cap) + ")";
  throw DeviceMemoryError(smallest, cap, what);
}

PlanBeside plan_beside(const ProverShape& shape, uint64_t cap, uint64_t others, bool host_spmv,
                       uint64_t max_chunk) {
  PlanBeside alone{plan_device_memory(shape, cap, host_spmv, max_chunk), false};
  if (others == 0) return {alone.plan, true};
  if (others >= cap) return alone;
  try {
    MemoryPlan beside = plan_device_memory(shape, cap - others, host_spmv, max_chunk);
    if (beside.layout_key() == alone.plan.layout_key() &&
        beside.batch_partitions == alone.plan.batch_partitions)
      return {std::move(beside), true};
  } catch (const DeviceMemoryError&) {
    // too small beside them: without them, then
  }
  return alone;
}

}  // namespace cuzk::gpu
