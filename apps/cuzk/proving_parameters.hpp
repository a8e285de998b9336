// The proving parameters of a prove command (porep c2, post prove, update prove): read through
// the kind's parameter set with the command's checks, shown as they load, then a warning when the
// set is INSECURE (allowed by --allow-insecure-params) and, when the .params was hashed, the
// digest's rate.
#pragma once

#include <filesystem>

#include "filecoin/circuit_parameters.hpp"
#include "filecoin/parameter_cache.hpp"
#include "groth16/types.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::app {

groth16::Parameters read_proving_parameters(const std::filesystem::path& dir,
                                            const filecoin::CircuitParameterSet& set,
                                            const filecoin::ParameterChecks& checks,
                                            ThreadPool& pool);

}  // namespace cuzk::app
