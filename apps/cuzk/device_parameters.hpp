// What the three `params` commands (porep, post, update) share: INSECURE test parameters made on
// the GPU from a circuit's recording, and the report of a written set. The CPU setup stays in each
// kind's layer (it needs the kind's blank circuit whole in memory); the device setup needs only
// the recording, which every kind has through its engine handler.
#pragma once

#include <string>

#include "filecoin/parameter_cache.hpp"
#include "util/atomic_file.hpp"
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

}  // namespace cuzk::app
