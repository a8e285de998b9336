// The PCE file (pce/pce_file.hpp): any bytes as a recorded circuit on disk. The header is read
// and checked (sizes, section table, its SHA-256), then, for a header that passes, the whole file
// against the identity it names. A damaged file is refused (PceFileError), never read past its
// end or trusted.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_check.hpp"
#include "pce/pce_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  static ThreadPool pool(1);
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("cuzk-fuzz-" + std::to_string(::getpid()) + ".pce");
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    const pce::PceFileInfo info = pce::read_pce_header(path);
    fuzz::require(info.file_bytes == size, "header file size", std::to_string(info.file_bytes));
    const pce::RecordedCircuit rc = pce::read_pce_file(path, info.identity, pool);
    fuzz::require(rc.num_rows == info.num_rows && rc.num_inputs == info.num_inputs,
                  "recording counts match the header");
  } catch (const pce::PceFileError& e) {
    fuzz::require_utf8_message(e.what());
  } catch (const std::runtime_error& e) {
    fuzz::require_utf8_message(e.what());
  }
  return 0;
}
