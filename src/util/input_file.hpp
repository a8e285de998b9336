// Reading a whole input file (a configuration, a C1 output, a proof) with a bound: what is not a
// file that ends is refused before a byte is read (a directory; a device such as /dev/zero,
// which would be read for ever), and at most max_bytes are read from what is (a regular file by
// its size; a pipe such as a shell's <(...) as it goes). Issue 29: `--config /dev/zero` and
// `porep verify --c1 /dev/zero` read without limit, `--config <a directory>` read as empty.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace cuzk {

// "<path>: <why>" (cannot open, a directory, a device, larger than the bound, a read error).
class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the commands read at most from one input file: a 64 GiB sector's C1 output, the largest
// input, is ~100 MB (the daemon takes messages of up to 1 GiB too).
inline constexpr uint64_t kMaxInputFileBytes = uint64_t{1} << 30;

enum class InputKind { kRegularOnly, kRegularOrPipe };

std::string read_input_file(const std::filesystem::path& path, uint64_t max_bytes,
                            InputKind kind = InputKind::kRegularOrPipe);

}  // namespace cuzk
