// ReadOnlyFile (util/read_only_file.hpp): positional reads return every byte asked for, fewer only
// where the file ends; errors name the file; a file replaced by a rename is still read through
// the descriptor held open, and its stamp tells the two apart.
#include "util/read_only_file.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "common/temp_dir.hpp"

namespace cuzk {
namespace {

void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

std::string read_string(const ReadOnlyFile& f, uint64_t offset, size_t n) {
  std::vector<uint8_t> buf(n);
  buf.resize(f.read_at(offset, buf));
  return {buf.begin(), buf.end()};
}

TEST(ReadOnlyFile, ReadsAreShortOnlyAtTheEnd) {
  const testing::TempDir dir("read-only-file");
  const auto path = dir.path() / "ten";
  write_text(path, "0123456789");
  const ReadOnlyFile f(path);
  EXPECT_EQ(f.size(), 10u);
  EXPECT_EQ(f.stamp().size, 10u);
  EXPECT_EQ(read_string(f, 3, 4), "3456");
  EXPECT_EQ(read_string(f, 7, 8), "789");
  EXPECT_EQ(read_string(f, 10, 8), "");
  EXPECT_EQ(read_string(f, uint64_t{1} << 40, 8), "");
}

TEST(ReadOnlyFile, AMissingFileIsAnErrorNamingIt) {
  const testing::TempDir dir("read-only-file");
  const auto path = dir.path() / "absent";
  try {
    const ReadOnlyFile f(path);
    FAIL() << "opened";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ": cannot open"), std::string::npos)
        << e.what();
  }
}

TEST(ReadOnlyFile, TheHeldFileIsReadAfterARenameOverItsPath) {
  const testing::TempDir dir("read-only-file");
  const auto path = dir.path() / "set";
  write_text(path, "first");
  ReadOnlyFile held(path);
  write_text(dir.path() / "next", "other");
  std::filesystem::rename(dir.path() / "next", path);
  const ReadOnlyFile now(path);
  EXPECT_EQ(read_string(now, 0, 5), "other");
  const ReadOnlyFile moved(std::move(held));
  EXPECT_EQ(read_string(moved, 0, 5), "first");
  EXPECT_EQ(moved.stamp().size, now.stamp().size);
  EXPECT_NE(moved.stamp(), now.stamp());  // another inode
  EXPECT_EQ(ReadOnlyFile(path).stamp(), now.stamp());
}

}  // namespace
}  // namespace cuzk
