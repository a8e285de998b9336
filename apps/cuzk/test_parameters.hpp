// What the three `params` commands (porep, post, update) share: INSECURE test parameters made on
// the GPU from a circuit's recording or on the CPU from the kind's blank circuit, written under
// their Filecoin names, and the report of a written set. Each command checks its own options,
// then hands its kind's circuit to write_test_parameters; the device setup needs only the
// recording, which every kind has through its engine handler.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "filecoin/circuit_parameters.hpp"
#include "filecoin/parameter_cache.hpp"
#include "groth16/setup.hpp"
#include "groth16/types.hpp"
#include "util/atomic_file.hpp"
#include "util/progress.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::app {

struct DeviceParameterRequest {
  std::string circuit_id;  // the engine's id: "porep-32g", "wpost-32g", "winning-32g", "snap-32g"
  std::string pce_dir;     // load (or record and save) the recording here; empty: record in memory
  filecoin::ParameterMetadata meta;  // sector size, insecure = true, the seed of the toxic waste
};

// Records `circuit_id`'s blank circuit (or loads its PCE file), makes the set on the device and
// streams the .params through pinned buffers into `files` as the points are made (a 32 GiB
// PoRep .params is 47 GB: never whole in host memory), with progress per phase and one timing
// line. std::invalid_argument without a CUDA device or in a build without CUDA; FileExistsError
// under Overwrite::kRefuse.
void write_test_parameters_on_device(const DeviceParameterRequest& request,
                                     const filecoin::ParameterFiles& files, Overwrite mode,
                                     ThreadPool& pool);

// FileExistsError naming the first of the set's files that exists (checked before minutes of
// setup, not after).
void refuse_existing_parameter_files(const filecoin::ParameterFiles& files);

// One line per file: its parameters.json digest (a file over 4 GB says how to get it: BLAKE2b is
// one sequential chain, ~0.6 GB/s, so a 47 GB .params would take 75 s on the H200 host, longer
// than the device made the set in), path and size.
void print_parameter_files(const filecoin::ParameterFiles& files);

// The --backend (cpu|gpu) and --out DIR of a `params` command: true for the device.
// std::invalid_argument for another backend or no --out (test sets carry the production names:
// never the real parameter cache by default).
bool test_parameters_on_device(const std::string& backend, const std::string& out);

// One kind's circuit as `params` makes its set.
struct TestParameterCircuit {
  std::string circuit_id;             // the engine's id: what the device path records
  filecoin::CircuitParameterSet set;  // its parameter files' names and sector size
  std::string label;                  // the summary's subject: "2KiB PoRep partition"
  // The CPU path: the setup over the kind's blank circuit (it needs it whole in memory).
  std::function<groth16::Parameters(ThreadPool&, groth16::SetupTiming*, const ProgressFn&)>
      generate;
};

struct TestParameterOutput {
  std::filesystem::path dir;
  std::string seed;     // of the toxic waste
  std::string pce_dir;  // the device path's recording (empty: recorded in memory)
  unsigned threads = 0;
  bool force = false;      // replace existing files
  bool on_device = false;  // --backend gpu
};

// Checks the device backend (on_device), refuses existing files (unless forced) before minutes of
// setup, warns that the set is INSECURE,
// makes it on the device or the CPU, writes it and prints the summary and the files' digests.
// FileExistsError, or std::invalid_argument without a device; 0 when written.
int write_test_parameters(const TestParameterCircuit& circuit, const TestParameterOutput& out);

}  // namespace cuzk::app
