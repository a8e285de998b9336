// Checks of the ff/ec layers against the BLS12-381 vector files of an independent implementation
// (format: shared/vectors/bls12_381/README.md). Used by the tests and by `cuzk selfcheck`.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace cuzk::oracle {

struct CheckReport {
  std::string file;
  size_t checked = 0;
  size_t failed = 0;
  std::vector<std::string> failures;  // the first few failure messages

  void expect(bool ok, const std::string& what);
  bool ok() const { return failed == 0 && checked > 0; }
};

// $CUZK_VECTORS_DIR, else ../shared/vectors/bls12_381 relative to the repository root.
std::filesystem::path default_vectors_dir();

// Each reads one file (throws std::runtime_error naming it if it is missing or malformed).
CheckReport check_fr(const std::filesystem::path& dir);
CheckReport check_fp(const std::filesystem::path& dir);
CheckReport check_fp2(const std::filesystem::path& dir);
CheckReport check_fp6(const std::filesystem::path& dir);
CheckReport check_fp12(const std::filesystem::path& dir);
CheckReport check_g1(const std::filesystem::path& dir);
CheckReport check_g2(const std::filesystem::path& dir);
CheckReport check_msm(const std::filesystem::path& dir);
CheckReport check_pairing(const std::filesystem::path& dir);

std::vector<CheckReport> check_all(const std::filesystem::path& dir);

}  // namespace cuzk::oracle
