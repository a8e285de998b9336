// `cuzk-bench pack-matrices`: packs A, B and C of a PCE file (pce/packed_matrix.hpp) and prints,
// per matrix, its CSR and packed bytes, their ratio and the pack's time, then the bytes a
// capped partition streams (A + B + C + C again) both ways. Every group is decoded and compared
// with the CSR; a mismatch exits 1.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace cuzk::bench {

struct PackMatricesOptions {
  std::string pce;
  unsigned threads = 0;  // 0: all cores
};

void add_pack_matrices_command(CLI::App& app, PackMatricesOptions& opts, bool& selected);
int run_pack_matrices(const PackMatricesOptions& opts);

}  // namespace cuzk::bench
