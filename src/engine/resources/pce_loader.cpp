#include "engine/resources/pce_loader.hpp"

#include <chrono>
#include <cstdio>

#include "pce/pce_file.hpp"
#include "pce/recording_cs.hpp"

namespace cuzk::engine {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string gb(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GB", static_cast<double>(bytes) / 1e9);
  return buf;
}

std::string secs(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

}  // namespace

std::filesystem::path default_pce_dir(const std::filesystem::path& param_cache) {
  const std::filesystem::path abs = std::filesystem::absolute(param_cache).lexically_normal();
  const std::filesystem::path base = abs.has_filename() ? abs : abs.parent_path();
  return base.parent_path() / "cuzk-pce";
}

std::shared_ptr<const pce::RecordedCircuit> load_or_record_pce(const BlankCircuit& blank,
                                                               const std::filesystem::path& dir,
                                                               ThreadPool& pool,
                                                               const EngineEventFn& event) {
  const auto say = [&](const char* name, const std::string& message) {
    if (event) event(name, message);
  };
  const std::string id = blank.identity.to_string();
  // No directory: recorded in memory each time, never written into the working directory.
  const std::filesystem::path path =
      dir.empty() ? std::filesystem::path{} : pce::pce_file_path(dir, blank.identity);
  auto t0 = Clock::now();
  std::error_code ec;
  if (!path.empty() && std::filesystem::exists(path, ec)) {
    try {
      auto rc =
          std::make_shared<pce::RecordedCircuit>(pce::read_pce_file(path, blank.identity, pool));
      say("pce_loaded", path.string() + " (" + gb(rc->storage_bytes) + ") in " + secs(since(t0)));
      return rc;
    } catch (const pce::PceFileError& e) {
      say("pce_refused", std::string(e.what()) + "; recording " + id + " again");
    }
  }
  std::shared_ptr<pce::RecordedCircuit> recorded;
  try {
    t0 = Clock::now();
    pce::RecordingCS rec;
    blank.circuit->synthesize(rec);
    recorded = std::make_shared<pce::RecordedCircuit>(std::move(rec).finish(blank.identity));
    say("pce_recorded", id + ": " + std::to_string(recorded->num_rows) + " rows, " +
                            std::to_string(recorded->nnz()) + " entries, " +
                            std::to_string(recorded->coefficients.size()) + " coefficients (" +
                            gb(recorded->storage_bytes) + ") in " + secs(since(t0)));
  } catch (const std::exception& e) {
    say("pce_failed", id + " cannot be recorded (" + e.what() +
                          "); its partitions are proved with the classic assignment");
    return nullptr;
  }
  if (path.empty()) {
    say("pce_not_saved", id + ": no directory to keep it in ([pce] cache_dir and [srs] "
                              "param_cache are both empty); using the recording in memory");
    return recorded;
  }
  try {
    t0 = Clock::now();
    std::filesystem::create_directories(dir);
    const uint64_t bytes = pce::write_pce_file(path, *recorded, pool);
    // Read back: the daemon proves from what a restart would load, checked by its checksums.
    auto read_back =
        std::make_shared<pce::RecordedCircuit>(pce::read_pce_file(path, blank.identity, pool));
    say("pce_saved", path.string() + " (" + gb(bytes) + ") in " + secs(since(t0)));
    return read_back;
  } catch (const std::exception& e) {
    say("pce_not_saved", path.string() + ": " + e.what() + "; using the recording in memory");
    return recorded;
  }
}

}  // namespace cuzk::engine
