// `cuzk selfcheck`: the arithmetic against the shared vector files, then a short timing table.
#pragma once

#include <filesystem>

namespace cuzk::app {

struct SelfcheckOptions {
  std::filesystem::path vectors_dir;
  bool bench = true;
};

// Returns the process exit code: 0 when every vector check passed.
int run_selfcheck(const SelfcheckOptions& opts);

}  // namespace cuzk::app
