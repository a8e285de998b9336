// SrsManager: the Groth16 parameters of each circuit id, loaded once and shared by every job that
// proves that circuit. Tiers as cuzk.v1 reports them: HOT (host copy loaded and the device copy
// made by a GPU worker), WARM (host copy loaded), COLD (known, not loaded). A lease is a
// reference: leased parameters are never evicted. Loading reserves the parameters' bytes in the
// memory budget, evicting unreferenced entries in LRU order to make room.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/handlers/circuit_handler.hpp"
#include "engine/resources/memory_budget.hpp"
#include "engine/types.hpp"
#include "groth16/backend.hpp"
#include "groth16/types.hpp"
#include "groth16/verifier.hpp"
#include "pce/recorded_circuit.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

struct LoadedSrs {
  std::string circuit_id;
  groth16::Parameters params;
  groth16::PreparedVerifyingKey pvk;
  // The circuit's recorded constraints (null: PCE disabled, or the circuit cannot be recorded;
  // its partitions are then synthesized into the classic proving assignment).
  std::shared_ptr<const pce::RecordedCircuit> pce;
  uint64_t bytes = 0;                  // host bytes of params and pce
  uint64_t partition_working_set = 0;  // partition_working_set(params)
  ShapeHint shape;                     // shape_of(params)
};

class SrsManager;

// Holds one reference to loaded parameters (move-only).
class SrsLease {
 public:
  SrsLease() = default;
  SrsLease(SrsManager* manager, std::shared_ptr<const LoadedSrs> srs)
      : manager_(manager), srs_(std::move(srs)) {}
  SrsLease(SrsLease&& o) noexcept : manager_(o.manager_), srs_(std::move(o.srs_)) {}
  SrsLease& operator=(SrsLease&& o) noexcept;
  SrsLease(const SrsLease&) = delete;
  SrsLease& operator=(const SrsLease&) = delete;
  ~SrsLease() { reset(); }
  void reset();

  const LoadedSrs& operator*() const { return *srs_; }
  const LoadedSrs* operator->() const { return srs_.get(); }
  explicit operator bool() const { return srs_ != nullptr; }

 private:
  SrsManager* manager_ = nullptr;
  std::shared_ptr<const LoadedSrs> srs_;
};

class SrsManager {
 public:
  using Resolver = std::function<SrsSpec(const std::string& circuit_id)>;
  // The recorded constraints of a circuit id, loaded with its parameters (null: none).
  using PceLoader =
      std::function<std::shared_ptr<const pce::RecordedCircuit>(const std::string& circuit_id)>;

  // `resolve` maps a circuit id to its spec (std::invalid_argument for unknown ids or missing
  // files); `pool` parses parameter files; `pce` (optional) loads or records the circuit.
  SrsManager(Resolver resolve, MemoryBudget& budget, ThreadPool& pool, PceLoader pce = nullptr);

  // The parameters of `circuit_id`, loading them if needed (one load per id at a time; other
  // callers wait for it). `load_ms` gets the time this call waited for a load (0 when resident).
  // std::invalid_argument for unknown ids / missing files / a budget smaller than the
  // parameters; std::runtime_error when `abandon` turns true while waiting for memory.
  SrsLease acquire(const std::string& circuit_id, uint64_t* load_ms,
                   const std::function<bool()>& abandon);

  PreloadResult preload(const std::string& circuit_id);
  EvictResult evict(const std::string& circuit_id);
  // Evicts unreferenced parameters, least recently used first, until `bytes` more fit in the
  // budget or nothing unreferenced is left.
  void reclaim(uint64_t bytes);
  // GPU worker `device` has the device copy of `circuit_id`: HOT while some device has it and
  // the host copy is loaded. `keep_on_device` forgets the copies `device` had of the sets
  // `holds` says it no longer has (asked outside the manager's lock: a backend call).
  void mark_on_device(const std::string& circuit_id, const std::string& device);
  // Page-locks the points of `lease`'s set in place for GPU worker `device`, once per load and
  // worker: `lock` (its backend's lock_streamed_points) runs outside the manager's lock while
  // the lease keeps the set loaded. The first locks taken stay with the set, and go when it is
  // unloaded, before its points are freed; a worker whose backend streams nothing (or is
  // refused) is not asked again until the set is loaded anew.
  void lock_points(const SrsLease& lease, const std::string& device,
                   const std::function<groth16::PageLocks()>& lock);
  void keep_on_device(const std::string& device,
                      const std::function<bool(const groth16::Parameters&)>& holds);
  std::vector<SrsInfo> list() const;
  // Circuit ids with an entry, loaded or not: only ids that loaded once keep one (a failed load
  // of an id never loaded leaves nothing, so unknown ids cannot grow the map).
  size_t entry_count() const;

 private:
  friend class SrsLease;
  struct Entry {
    std::shared_ptr<const LoadedSrs> srs;  // null: not loaded (COLD)
    Reservation reservation;
    uint32_t refs = 0;
    bool loading = false;
    std::set<std::string> on_devices;  // the GPU workers holding a device copy
    uint64_t last_used = 0;            // LRU tick
    uint64_t known_bytes = 0;
    // lock_points: the workers asked since the set loaded, and the locks taken (after `srs`, so
    // that they go first however the entry ends).
    std::set<std::string> lock_asked;
    groth16::PageLocks page_locks;
  };
  void release(const std::string& circuit_id);
  // Drops the loaded set of `e` (its page locks first, then the points, the reservation, the
  // device marks). Caller holds mu_.
  static void unload(Entry& e);
  // Evicts unreferenced loaded entries other than `keep`, least recently used first, until
  // `bytes` more fit in the budget (or nothing is left to evict). Caller holds mu_.
  void make_room(uint64_t bytes, const std::string& keep);

  Resolver resolve_;
  PceLoader pce_;
  MemoryBudget& budget_;
  ThreadPool& pool_;
  mutable std::mutex mu_;
  std::condition_variable loaded_;
  std::map<std::string, Entry> entries_;
  uint64_t tick_ = 0;
};

}  // namespace cuzk::engine
