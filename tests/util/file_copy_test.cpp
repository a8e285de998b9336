// FileCopy: the bytes are the file's (pieces read in parallel, the last one short), the memory
// is private and anonymous (what cudaHostRegister locks; a file mapping's registration hung), and
// each failure names the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "util/file_copy.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {
namespace {

// (the process id in the name: two test runs on one machine share TempDir)
std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::path(::testing::TempDir()) / (std::to_string(::getpid()) + "-" + name);
}

std::vector<uint8_t> write_random_file(const std::filesystem::path& path, size_t n) {
  std::vector<uint8_t> bytes(n);
  std::mt19937_64 rng(n);
  for (uint8_t& b : bytes)
    b = static_cast<uint8_t>(rng());
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(n));
  return bytes;
}

// The /proc/self/maps line of the mapping that holds `p` ("" when none does).
std::string mapping_of(const void* p) {
  const auto at = reinterpret_cast<uintptr_t>(p);
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream in(line);
    in >> std::hex >> lo >> dash >> hi;
    if (at >= lo && at < hi) return line;
  }
  return "";
}

TEST(FileCopy, HoldsTheFilesBytesReadInPiecesOnAPool) {
  const auto path = temp_path("file-copy-pieces.bin");
  const std::vector<uint8_t> want = write_random_file(path, 10 * 4096 + 123);
  ThreadPool pool(3);
  for (size_t piece : {size_t{4096}, size_t{5000}, size_t{1} << 20}) {
    const FileCopy copy(path, &pool, piece);
    ASSERT_EQ(copy.bytes().size(), want.size()) << piece;
    EXPECT_TRUE(std::equal(want.begin(), want.end(), copy.bytes().begin())) << piece;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(copy.bytes().data()) % 4096, 0u);
  }
  const FileCopy serial(path, nullptr, 4096);
  EXPECT_TRUE(std::equal(want.begin(), want.end(), serial.bytes().begin()));
  std::filesystem::remove(path);
}

TEST(FileCopy, LiesInPrivateAnonymousMemoryNotAMappingOfTheFile) {
  const auto path = temp_path("file-copy-anonymous.bin");
  write_random_file(path, 3 * 4096);
  const FileCopy copy(path);
  const std::string line = mapping_of(copy.bytes().data());
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.find(path.filename().string()), std::string::npos) << line;
  EXPECT_NE(line.find(" rw-p "), std::string::npos) << line;
  std::filesystem::remove(path);
}

TEST(FileCopy, AnEmptyFileHasNoBytes) {
  const auto path = temp_path("file-copy-empty.bin");
  write_random_file(path, 0);
  EXPECT_TRUE(FileCopy(path).bytes().empty());
  std::filesystem::remove(path);
}

TEST(FileCopy, FailuresNameTheFile) {
  const auto missing = temp_path("file-copy-missing.bin");
  try {
    FileCopy c(missing);
    FAIL() << "read a missing file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string() + ": cannot open"), std::string::npos)
        << e.what();
  }
  const auto dir = temp_path("file-copy-dir");
  std::filesystem::create_directories(dir);
  try {
    FileCopy c(dir);
    FAIL() << "read a directory";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), dir.string() + ": not a regular file");
  }
  std::filesystem::remove(dir);
  const auto path = temp_path("file-copy-zero-piece.bin");
  write_random_file(path, 10);
  EXPECT_THROW(FileCopy(path, nullptr, 0), std::invalid_argument);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace cuzk
