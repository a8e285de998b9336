// The cuzk c1.json wrapper around a SealCommitPhase1Output (curio extern/cuzk/cuzk-core/src/
// prover.rs C1OutputWrapper; facts sheet 6.5): {"SectorNum": u64, "Phase1Out": "<standard
// base64 of the SealCommitPhase1Output JSON bytes>", "SectorSize": u64}.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "porep/vanilla/porep_proof.hpp"

namespace cuzk::filecoin {

struct C1Wrapper {
  uint64_t sector_num = 0;
  std::string phase1_out;  // the inner SealCommitPhase1Output JSON text
  uint64_t sector_size = 0;
};

std::string c1_wrapper_to_json(const C1Wrapper& w);
// Throws C1JsonError naming the field (SectorNum, Phase1Out, SectorSize) on malformed input.
C1Wrapper c1_wrapper_from_json(std::string_view json);

// A C1 document from a file: the wrapper (then sector_num is set and SectorSize must equal the
// registered proof's size) or a bare SealCommitPhase1Output JSON.
struct C1Document {
  SealCommitPhase1Output c1;
  std::optional<uint64_t> sector_num;
};
C1Document parse_c1_document(std::string_view json);
C1Document read_c1_file(const std::filesystem::path& path);
// Writes the wrapper form of `c1` to `path`.
void write_c1_file(const std::filesystem::path& path, const SealCommitPhase1Output& c1,
                   uint64_t sector_num);

}  // namespace cuzk::filecoin
