#include "engine/resources/srs_manager.hpp"

#include <filesystem>
#include <stdexcept>

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

SrsManager::SrsManager(Resolver resolve, MemoryBudget& budget, ThreadPool& pool, PceLoader pce)
    : resolve_(std::move(resolve)), pce_(std::move(pce)), budget_(budget), pool_(pool) {}

void SrsManager::make_room(uint64_t bytes, const std::string& keep) {
  while (budget_.limit() != 0 && budget_.in_use() + bytes > budget_.limit()) {
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
  e.srs.reset();
  e.reservation.reset();
  e.on_devices.clear();
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
    const SrsSpec spec = resolve_(circuit_id);
    std::error_code ec;
    const uint64_t estimate = std::filesystem::file_size(spec.file, ec);
    if (ec) {
      throw MissingParametersError(spec.file.string() + " is missing (" + ec.message() + ")");
    }
    const auto too_large = [&](uint64_t bytes) {
      return std::invalid_argument("parameters of " + circuit_id + " (" + std::to_string(bytes) +
                                   " bytes) exceed the memory budget (" +
                                   std::to_string(budget_.capacity()) + " bytes)");
    };
    if (budget_.limit() != 0 && estimate > budget_.capacity()) throw too_large(estimate);
    // While waiting, keep evicting what became unreferenced (jobs of other circuits finish).
    const auto reclaim_or_abandon = [&] {
      {
        std::lock_guard<std::mutex> g(mu_);
        make_room(estimate, circuit_id);
      }
      return abandon && abandon();
    };
    {
      std::lock_guard<std::mutex> g(mu_);
      make_room(estimate, circuit_id);
    }
    if (!budget_.reserve(estimate, reclaim_or_abandon)) {
      throw std::runtime_error("abandoned while waiting for memory to load " + circuit_id);
    }
    reservation = Reservation(&budget_, estimate);
    srs = std::make_shared<LoadedSrs>();
    srs->circuit_id = circuit_id;
    srs->params = spec.load(pool_);
    srs->pvk = groth16::prepare_verifying_key(srs->params.vk);
    srs->bytes = parameters_bytes(srs->params);
    if (pce_) {
      srs->pce = pce_(circuit_id);
      if (srs->pce) srs->bytes += srs->pce->storage_bytes;
    }
    srs->partition_working_set = partition_working_set(srs->params);
    srs->shape = shape_of(srs->params);
    // Settle the reservation on the measured size (the file size is close, not exact).
    if (srs->bytes > estimate) {
      if (budget_.limit() != 0 && srs->bytes > budget_.capacity()) throw too_large(srs->bytes);
      if (!budget_.reserve(srs->bytes - estimate, reclaim_or_abandon)) {
        throw std::runtime_error("abandoned while waiting for memory to load " + circuit_id);
      }
      reservation.merge(Reservation(&budget_, srs->bytes - estimate));
    } else {
      reservation.shrink_to(srs->bytes);
    }
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
  const uint64_t freed = e.srs->bytes;
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
    s.tier = e.srs == nullptr       ? SrsTier::kCold
             : e.on_devices.empty() ? SrsTier::kWarm
                                    : SrsTier::kHot;
    s.size_bytes = e.known_bytes;
    s.ref_count = e.refs;
    s.page_locked_bytes = e.page_locks.bytes;
    out.push_back(s);
  }
  return out;
}

}  // namespace cuzk::engine
