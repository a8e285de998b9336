// SrsManager: the Groth16 parameters of each circuit id, loaded once and shared by every job that
// proves that circuit. Tiers as cuzk.v1 reports them: HOT (a GPU worker has the device copy),
// WARM (the points are in host memory), COLD (known; not loaded, or loaded without its points
// and on no device). A lease is a reference: leased parameters are never evicted. Loading
// reserves the parameters' host bytes in the memory budget, evicting unreferenced entries in LRU
// order to make room. A set the host policy wants no host copy of is opened without its points
// (the devices read them from the file); acquire_host loads that copy on demand.
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
  uint64_t bytes = 0;                  // host bytes of params (points only if held) and pce
  uint64_t points_bytes = 0;           // the set's points wherever they are (section counts)
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
  // The leased set's parameters, kept alive by the pointer itself.
  std::shared_ptr<const groth16::Parameters> params() const {
    return srs_ ? std::shared_ptr<const groth16::Parameters>(srs_, &srs_->params) : nullptr;
  }

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

  // Whether a set, opened without its points (`meta`: vk and section counts), is to be loaded
  // with them into host memory (asked once per load, with the circuit's recording if any).
  using HostPolicy =
      std::function<bool(const groth16::Parameters& meta, const pce::RecordedCircuit* pce)>;

  // `resolve` maps a circuit id to its spec (std::invalid_argument for unknown ids or missing
  // files); `pool` parses parameter files; `pce` (optional) loads or records the circuit;
  // `wants_host_points` (null: always) decides, for a spec that can `open`, whether the points
  // are loaded too.
  SrsManager(Resolver resolve, MemoryBudget& budget, ThreadPool& pool, PceLoader pce = nullptr,
             HostPolicy wants_host_points = nullptr);

  // The parameters of `circuit_id`, loading them if needed (one load per id at a time; other
  // callers wait for it). `load_ms` gets the time this call waited for a load (0 when resident).
  // std::invalid_argument for unknown ids / missing files / a budget smaller than the
  // parameters; std::runtime_error when `abandon` turns true while waiting for memory.
  SrsLease acquire(const std::string& circuit_id, uint64_t* load_ms,
                   const std::function<bool()>& abandon);

  // The leased set with its points in host memory, for whoever needs them (the CPU fallback, a
  // device that cannot prove from the source): the lease's own parameters when they hold the
  // points, else the set's host copy, loaded once (spec.load outside the lock; other callers
  // wait for it) and kept while referenced. Its points' bytes are reserved without waiting (the
  // prover thread must not block on memory), after evicting unreferenced host copies and sets:
  // std::runtime_error "no memory for the host copy of <id> (N MiB)" when they do not fit.
  std::shared_ptr<const groth16::Parameters> acquire_host(const SrsLease& lease);

  PreloadResult preload(const std::string& circuit_id);
  EvictResult evict(const std::string& circuit_id);
  // Evicts unreferenced parameters, least recently used first, until `bytes` more fit in the
  // budget or nothing unreferenced is left.
  void reclaim(uint64_t bytes);
  // GPU worker `device` has the device copy of `circuit_id`: HOT while some device has it and
  // the set is loaded. `keep_on_device` forgets the copies `device` had of the sets
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
    // acquire_host: the host copy of a set loaded without its points, its reservation, and its
    // LRU tick; unreferenced when the entry holds the only pointer.
    std::shared_ptr<const groth16::Parameters> host;
    Reservation host_reservation;
    bool host_loading = false;
    uint64_t host_last_used = 0;
  };
  // Loads the set of `circuit_id` (opened without its points when the policy says so), growing
  // `reservation` to its host bytes. Outside mu_.
  std::shared_ptr<LoadedSrs> load(const std::string& circuit_id,
                                  const std::function<bool()>& abandon, Reservation& reservation);
  void release(const std::string& circuit_id);
  // Drops the loaded set of `e` (its page locks first, then its host copy, the points, the
  // reservations, the device marks). Caller holds mu_.
  static void unload(Entry& e);
  // Evicts unreferenced host copies, then unreferenced loaded entries, other than `keep`'s,
  // least recently used first, until `bytes` more fit in the budget (or nothing is left to
  // evict). Caller holds mu_.
  void make_room(uint64_t bytes, const std::string& keep);

  Resolver resolve_;
  PceLoader pce_;
  HostPolicy wants_host_points_;
  MemoryBudget& budget_;
  ThreadPool& pool_;
  mutable std::mutex mu_;
  std::condition_variable loaded_;
  std::map<std::string, Entry> entries_;
  uint64_t tick_ = 0;
};

}  // namespace cuzk::engine
