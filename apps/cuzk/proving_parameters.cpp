#include "proving_parameters.hpp"

#include <algorithm>
#include <cstdio>

#include "parameter_flags.hpp"
#include "util/progress.hpp"

namespace cuzk::app {

groth16::Parameters read_proving_parameters(const std::filesystem::path& dir,
                                            const filecoin::CircuitParameterSet& set,
                                            const filecoin::ParameterChecks& checks,
                                            ThreadPool& pool) {
  filecoin::ParameterVerdict verdict;
  groth16::Parameters params;
  {
    PhasedProgress shown("points");
    params =
        filecoin::read_parameter_file(dir, set, shown_as_it_loads(checks, shown), pool, &verdict);
  }
  if (verdict.insecure) {
    std::fprintf(stderr,
                 "warning: INSECURE test parameters (seed \"%s\"), allowed by "
                 "--allow-insecure-params\n",
                 verdict.meta->seed.c_str());
  }
  if (verdict.params_digest_verified) {
    std::printf("parameters digest verified: %.2f GB in %.2f s (%.2f GB/s)\n",
                static_cast<double>(verdict.params_hash.bytes) * 1e-9, verdict.params_hash.seconds,
                static_cast<double>(verdict.params_hash.bytes) * 1e-9 /
                    std::max(verdict.params_hash.seconds, 1e-9));
  }
  return params;
}

}  // namespace cuzk::app
