// The engine's recorded circuits: for a circuit id, its PCE file from the cache directory when one
// is there and valid, otherwise the circuit recorded now (and saved atomically for next time). A
// file that is refused (damaged, truncated, of another circuit or format) is recorded again, and
// said so, instead of failing the job; a circuit that cannot be recorded is proved the classic
// way (nullptr), and said so.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "engine/handlers/circuit_handler.hpp"
#include "pce/recorded_circuit.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

// An empty `dir`: recorded in memory, nothing read or written. Event name ("pce_loaded",
// "pce_refused", "pce_recorded", "pce_saved", "pce_not_saved", "pce_failed"), then a message naming
// the file and the numbers.
using EngineEventFn = std::function<void(const std::string& event, const std::string& message)>;

std::shared_ptr<const pce::RecordedCircuit> load_or_record_pce(const BlankCircuit& blank,
                                                               const std::filesystem::path& dir,
                                                               ThreadPool& pool,
                                                               const EngineEventFn& event);

// "cuzk-pce" beside the parameter directory (never inside it: that directory holds Filecoin's
// files only).
std::filesystem::path default_pce_dir(const std::filesystem::path& param_cache);

}  // namespace cuzk::engine
