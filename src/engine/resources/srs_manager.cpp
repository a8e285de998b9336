#include "engine/resources/srs_manager.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "groth16/point_source.hpp"

namespace cuzk::engine {

namespace {

using Clock = std::chrono::steady_clock;

uint64_t ms_since(Clock::time_point t0) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
}

}  // namespace

SrsLease& SrsLease::operator=(SrsLease&& o) noexcept {
  if (this != &o) {
    reset();
    manager_ = o.manager_;
    srs_ = std::move(o.srs_);
  }
  return *this;
}

void SrsLease::reset() {
  if (manager_ != nullptr && srs_ != nullptr) manager_->release(srs_->circuit_id);
  srs_.reset();
}

SrsManager::SrsManager(Resolver resolve, MemoryBudget& budget, ThreadPool& pool, PceLoader pce,
                       HostPolicy wants_host_points)
    : resolve_(std::move(resolve)),
      pce_(std::move(pce)),
      wants_host_points_(std::move(wants_host_points)),
      budget_(budget),
      pool_(pool) {}

void SrsManager::make_room(uint64_t bytes, const std::string& keep) {
  const auto fits = [&] {
    return budget_.limit() == 0 || budget_.in_use() + bytes <= budget_.limit();
  };
  // A host copy is a fallback's cache: it goes before any set a device may prove from.
  while (!fits()) {
    Entry* victim = nullptr;
    for (auto& [id, e] : entries_) {
      if (id == keep || e.host == nullptr || e.host.use_count() != 1) continue;
      if (victim == nullptr || e.host_last_used < victim->host_last_used) victim = &e;
    }
    if (victim == nullptr) break;
    victim->host.reset();
    victim->host_reservation.reset();
  }
  while (!fits()) {
    Entry* victim = nullptr;
    for (auto& [id, e] : entries_) {
      if (id == keep || e.srs == nullptr || e.refs != 0 || e.loading) continue;
      if (victim == nullptr || e.last_used < victim->last_used) victim = &e;
    }
    if (victim == nullptr) return;
    unload(*victim);
  }
}

void SrsManager::unload(Entry& e) {
  // A range freed while still registered would leave the driver copying from the old pages.
  e.page_locks = {};
  e.lock_asked.clear();
  e.host.reset();
  e.host_reservation.reset();
  e.srs.reset();
  e.reservation.reset();
  e.on_devices.clear();
}

std::shared_ptr<LoadedSrs> SrsManager::load(const std::string& circuit_id,
                                            const std::function<bool()>& abandon,
                                            Reservation& reservation) {
  const SrsSpec spec = resolve_(circuit_id);
  std::error_code ec;
  const uint64_t file_bytes = std::filesystem::file_size(spec.file, ec);
  if (ec) {
    throw MissingParametersError(spec.file.string() + " is missing (" + ec.message() + ")");
  }
  // Grows the reservation to `bytes`, evicting what is unreferenced, and while waiting what
  // becomes so (jobs of other circuits finish).
  const auto reserve_up_to = [&](uint64_t bytes) {
    if (bytes <= reservation.bytes()) return;
    if (budget_.limit() != 0 && bytes > budget_.capacity()) {
      throw std::invalid_argument("parameters of " + circuit_id + " (" + std::to_string(bytes) +
                                  " bytes) exceed the memory budget (" +
                                  std::to_string(budget_.capacity()) + " bytes)");
    }
    const uint64_t more = bytes - reservation.bytes();
    const auto reclaim_or_abandon = [&] {
      {
        std::lock_guard<std::mutex> g(mu_);
        make_room(more, circuit_id);
      }
      return abandon && abandon();
    };
    {
      std::lock_guard<std::mutex> g(mu_);
      make_room(more, circuit_id);
    }
    if (!budget_.reserve(more, reclaim_or_abandon)) {
      throw std::runtime_error("abandoned while waiting for memory to load " + circuit_id);
    }
    reservation.merge(Reservation(&budget_, more));
  };
  auto srs = std::make_shared<LoadedSrs>();
  srs->circuit_id = circuit_id;
  const auto load_pce = [&] {
    if (pce_) srs->pce = pce_(circuit_id);
  };
  if (spec.open && wants_host_points_) {
    // The set without its points first (vk and layout, a fraction of the file), so that the
    // policy sees its counts and recording.
    // (an estimate: never more than the budget can give, the measured size settles it)
    reserve_up_to(budget_.limit() == 0 ? file_bytes / 8
                                       : std::min(file_bytes / 8, budget_.capacity()));
    srs->params = spec.open(pool_);
    load_pce();
    if (wants_host_points_(srs->params, srs->pce.get())) {
      reserve_up_to(parameters_bytes(srs->params) +
                    groth16::points_bytes(groth16::section_counts(srs->params)) +
                    (srs->pce ? srs->pce->storage_bytes : 0));
      // Through the opened file: no second open, no second digest (verify_digests).
      srs->params = groth16::read_host_points(srs->params, &pool_);
    }
  } else {
    reserve_up_to(file_bytes);  // the file's size estimates the set's
    srs->params = spec.load(pool_);
    load_pce();
  }
  srs->pvk = groth16::prepare_verifying_key(srs->params.vk);
  srs->bytes = parameters_bytes(srs->params) + (srs->pce ? srs->pce->storage_bytes : 0);
  srs->points_bytes = groth16::points_bytes(groth16::section_counts(srs->params));
  srs->partition_working_set = partition_working_set(srs->params);
  srs->shape = shape_of(srs->params);
  // Settle the reservation on the measured size (the estimate is close, not exact).
  if (srs->bytes > reservation.bytes()) {
    reserve_up_to(srs->bytes);
  } else {
    reservation.shrink_to(srs->bytes);
  }
  return srs;
}

SrsLease SrsManager::acquire(const std::string& circuit_id, uint64_t* load_ms,
                             const std::function<bool()>& abandon) {
  const auto t0 = Clock::now();
  if (load_ms != nullptr) *load_ms = 0;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    Entry& e = entries_[circuit_id];
    if (e.srs != nullptr) {
      ++e.refs;
      e.last_used = ++tick_;
      if (load_ms != nullptr) *load_ms = ms_since(t0);
      return SrsLease(this, e.srs);
    }
    if (!e.loading) break;
    loaded_.wait_for(lock, std::chrono::milliseconds(100));
    if (abandon) {
      // Lock order is engine -> SRS manager -> budget: `abandon` takes the engine's lock.
      lock.unlock();
      const bool give_up = abandon();
      lock.lock();
      if (give_up) throw std::runtime_error("abandoned while parameters load");
    }
  }
  entries_[circuit_id].loading = true;
  lock.unlock();

  // Load outside the lock; the entry's `loading` flag makes other callers wait.
  std::shared_ptr<LoadedSrs> srs;
  Reservation reservation;
  try {
    srs = load(circuit_id, abandon, reservation);
  } catch (...) {
    std::lock_guard<std::mutex> g(mu_);
    const auto it = entries_.find(circuit_id);
    if (it != entries_.end()) {
      it->second.loading = false;
      if (it->second.known_bytes == 0 && it->second.refs == 0) entries_.erase(it);
    }
    loaded_.notify_all();
    throw;
  }
  lock.lock();
  Entry& e = entries_[circuit_id];
  e.loading = false;
  e.srs = srs;
  e.reservation = std::move(reservation);
  e.known_bytes = srs->bytes;
  e.refs = 1;
  e.last_used = ++tick_;
  loaded_.notify_all();
  if (load_ms != nullptr) *load_ms = ms_since(t0);
  return SrsLease(this, srs);
}

void SrsManager::release(const std::string& circuit_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(circuit_id);
  if (it != entries_.end() && it->second.refs > 0) --it->second.refs;
}

std::shared_ptr<const groth16::Parameters> SrsManager::acquire_host(const SrsLease& lease) {
  if (!lease) throw std::logic_error("acquire_host: no lease");
  if (groth16::has_host_points(lease->params)) return lease.params();
  const std::string& id = lease->circuit_id;
  std::unique_lock<std::mutex> lock(mu_);
  // The lease keeps its entry loaded (refs > 0): never evicted while we wait or load.
  const auto entry = [&]() -> Entry& { return entries_.at(id); };
  for (;;) {
    Entry& e = entry();
    if (e.host != nullptr) {
      e.host_last_used = ++tick_;
      return e.host;
    }
    if (!e.host_loading) break;
    loaded_.wait(lock);
  }
  const uint64_t need = lease->points_bytes;
  make_room(need, id);
  if (!budget_.try_reserve(need)) {
    throw std::runtime_error("no memory for the host copy of " + id + " (" +
                             std::to_string((need + (1 << 20) - 1) >> 20) + " MiB)");
  }
  Reservation reservation(&budget_, need);
  entry().host_loading = true;
  lock.unlock();
  std::shared_ptr<const groth16::Parameters> host;
  try {
    // From the file the set was opened with (its held descriptor: a file replaced since is not
    // read), so the copy is the opened set's points.
    host = std::make_shared<groth16::Parameters>(groth16::read_host_points(lease->params, &pool_));
  } catch (...) {
    lock.lock();
    entry().host_loading = false;
    loaded_.notify_all();
    throw;
  }
  lock.lock();
  Entry& e = entry();
  e.host_loading = false;
  e.host = host;
  e.host_reservation = std::move(reservation);
  e.host_last_used = ++tick_;
  loaded_.notify_all();
  return host;
}

PreloadResult SrsManager::preload(const std::string& circuit_id) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(circuit_id);
    if (it != entries_.end() && it->second.srs != nullptr) return {true, 0};
  }
  uint64_t ms = 0;
  SrsLease lease = acquire(circuit_id, &ms, nullptr);
  return {false, ms};
}

EvictResult SrsManager::evict(const std::string& circuit_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(circuit_id);
  if (it == entries_.end() || it->second.srs == nullptr) return {false, 0};
  Entry& e = it->second;
  if (e.refs != 0) {
    throw std::invalid_argument("SRS " + circuit_id + " is in use by " + std::to_string(e.refs) +
                                " job(s); not evicted");
  }
  const uint64_t freed = e.srs->bytes + e.host_reservation.bytes();
  unload(e);
  return {true, freed};
}

void SrsManager::reclaim(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  make_room(bytes, "");
}

void SrsManager::mark_on_device(const std::string& circuit_id, const std::string& device) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = entries_.find(circuit_id);
  if (it != entries_.end() && it->second.srs != nullptr) it->second.on_devices.insert(device);
}

void SrsManager::lock_points(const SrsLease& lease, const std::string& device,
                             const std::function<groth16::PageLocks()>& lock) {
  if (!lease) return;
  const auto same_load = [&](const Entry& e) { return e.srs.get() == &*lease; };
  {
    std::lock_guard<std::mutex> g(mu_);
    const auto it = entries_.find(lease->circuit_id);
    if (it == entries_.end() || !same_load(it->second)) return;
    Entry& e = it->second;
    if (!e.page_locks.handles.empty() || !e.lock_asked.insert(device).second) return;
  }
  groth16::PageLocks locks = lock();
  if (locks.handles.empty()) return;
  std::lock_guard<std::mutex> g(mu_);
  const auto it = entries_.find(lease->circuit_id);
  // (the lease kept the set loaded; a second worker's locks, taken meanwhile, give way)
  if (it != entries_.end() && same_load(it->second) && it->second.page_locks.handles.empty()) {
    it->second.page_locks = std::move(locks);
  }
}

void SrsManager::keep_on_device(const std::string& device,
                                const std::function<bool(const groth16::Parameters&)>& holds) {
  std::vector<std::shared_ptr<const LoadedSrs>> marked;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [id, e] : entries_)
      if (e.srs != nullptr && e.on_devices.contains(device)) marked.push_back(e.srs);
  }
  std::vector<const LoadedSrs*> dropped;
  for (const auto& s : marked)
    if (!holds(s->params)) dropped.push_back(s.get());
  std::lock_guard<std::mutex> lock(mu_);
  for (const LoadedSrs* s : dropped) {
    const auto it = entries_.find(s->circuit_id);
    if (it != entries_.end() && it->second.srs.get() == s) it->second.on_devices.erase(device);
  }
}

size_t SrsManager::entry_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

std::vector<SrsInfo> SrsManager::list() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<SrsInfo> out;
  for (const auto& [id, e] : entries_) {
    if (e.srs == nullptr && e.known_bytes == 0) continue;  // never loaded
    SrsInfo s;
    s.circuit_id = id;
    const bool points_here =
        e.srs != nullptr && (groth16::has_host_points(e.srs->params) || e.host != nullptr);
    s.tier = e.srs == nullptr        ? SrsTier::kCold
             : !e.on_devices.empty() ? SrsTier::kHot
             : points_here           ? SrsTier::kWarm
                                     : SrsTier::kCold;
    s.host_bytes = e.srs == nullptr ? 0 : e.srs->bytes + e.host_reservation.bytes();
    s.size_bytes = e.srs == nullptr ? e.known_bytes : s.host_bytes;
    s.ref_count = e.refs;
    s.page_locked_bytes = e.page_locks.bytes;
    out.push_back(s);
  }
  return out;
}

}  // namespace cuzk::engine
