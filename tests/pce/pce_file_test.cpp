// The PCE file: a recording survives the round trip bit for bit, and a file that is truncated,
// damaged, of another circuit or format version, or inconsistent is refused naming the file and
// what did not match.
#include "pce/pce_file.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "common/temp_dir.hpp"
#include "groth16/random_circuit.hpp"
#include "pce/recording_cs.hpp"

namespace cuzk::pce {
namespace {

const CircuitIdentity kId{"test", 2048, "any", 3};

RecordedCircuit record(size_t constraints = 4000) {
  const testing::RandomCircuit circuit(constraints, 5, 21);
  RecordingCS rec;
  circuit.synthesize(rec);
  return std::move(rec).finish(kId);
}

template <class T>
std::vector<T> vec(std::span<const T> s) {
  return {s.begin(), s.end()};
}

void expect_equal(const RecordedCircuit& x, const RecordedCircuit& y) {
  EXPECT_EQ(x.identity, y.identity);
  EXPECT_EQ(x.num_inputs, y.num_inputs);
  EXPECT_EQ(x.num_aux, y.num_aux);
  EXPECT_EQ(x.num_rows, y.num_rows);
  EXPECT_EQ(vec(x.coefficients), vec(y.coefficients));
  const CsrMatrix* mx[3] = {&x.a, &x.b, &x.c};
  const CsrMatrix* my[3] = {&y.a, &y.b, &y.c};
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(vec(mx[k]->row_ptr), vec(my[k]->row_ptr));
    EXPECT_EQ(vec(mx[k]->cols), vec(my[k]->cols));
    EXPECT_EQ(vec(mx[k]->coeffs), vec(my[k]->coeffs));
  }
  EXPECT_EQ(x.a_aux_density.words(), y.a_aux_density.words());
  EXPECT_EQ(x.b_input_density.words(), y.b_input_density.words());
  EXPECT_EQ(x.b_aux_density.words(), y.b_aux_density.words());
}

void flip_byte(const std::filesystem::path& p, uint64_t offset) {
  std::fstream f(p, std::ios::binary | std::ios::in | std::ios::out);
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x40);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(&c, 1);
}

void expect_refused(const std::filesystem::path& p, const CircuitIdentity& id, const char* what) {
  ThreadPool pool(2);
  try {
    read_pce_file(p, id, pool);
    ADD_FAILURE() << "accepted; expected: " << what;
  } catch (const PceFileError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(p.string()), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(PceFile, RoundTripIsExact) {
  testing::TempDir dir;
  ThreadPool pool(2);
  const RecordedCircuit rc = record();
  const auto path = pce_file_path(dir.path(), kId);
  EXPECT_EQ(path.filename(), "test-2048-any-c3.pce");
  const uint64_t bytes = write_pce_file(path, rc, pool);
  EXPECT_EQ(bytes, std::filesystem::file_size(path));
  EXPECT_EQ(bytes % 4096, 0u);
  const RecordedCircuit back = read_pce_file(path, kId, pool);
  expect_equal(rc, back);
  const PceFileInfo info = read_pce_header(path);
  EXPECT_EQ(info.num_rows, rc.num_rows);
  EXPECT_EQ(info.nnz_a + info.nnz_b + info.nnz_c, rc.nnz());
  EXPECT_EQ(info.file_bytes, bytes);
  // No temporary file is left beside it.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator()),
            1);
  // Read into memory of its own, not mapped: the recording stays whole when its file is cut
  // short afterwards (a mapping's pages past the new end would fault).
  std::filesystem::resize_file(path, 0);
  expect_equal(rc, back);
}

TEST(PceFile, DamagedTruncatedAndForeignFilesAreRefused) {
  testing::TempDir dir;
  ThreadPool pool(2);
  const RecordedCircuit rc = record();
  const auto path = dir.path() / "c.pce";
  const uint64_t size = write_pce_file(path, rc, pool);
  const auto copy = [&](const char* name) {
    const auto p = dir.path() / name;
    std::filesystem::copy_file(path, p);
    return p;
  };

  const auto body = copy("body.pce");
  flip_byte(body, size - 4096 - 17);  // inside the last sections
  expect_refused(body, kId, "checksum");

  const auto head = copy("head.pce");
  flip_byte(head, 60);  // inside the identity
  expect_refused(head, kId, "checksum");

  const auto cut = copy("cut.pce");
  std::filesystem::resize_file(cut, size - 4096);
  expect_refused(cut, kId, "truncated");

  const auto version = copy("version.pce");
  flip_byte(version, 8);  // the format version
  expect_refused(version, kId, "format version");

  CircuitIdentity other = kId;
  other.circuit_version = 4;
  expect_refused(path, other, "recorded for test-2048-any-c3");
  other = kId;
  other.sector_size = 4096;
  expect_refused(path, other, "expected test-4096-any-c3");

  std::ofstream(dir.path() / "junk.pce") << "not a pce file at all";
  expect_refused(dir.path() / "junk.pce", kId, "magic");
  expect_refused(dir.path() / "absent.pce", kId, "absent.pce");
}

TEST(PceFile, ConsistentChecksumsDoNotLetAnOutOfRangeEntryThrough) {
  // A file written with valid checksums around a column past the last variable (as a crafted
  // file could be) is refused when read, before any SpMV would index past the witness.
  testing::TempDir dir;
  ThreadPool pool(2);
  const RecordedCircuit rc = record(500);
  std::vector<uint32_t> cols(rc.b.cols.begin(), rc.b.cols.end());
  cols[cols.size() / 2] = static_cast<uint32_t>(rc.num_columns());
  RecordedCircuit bad = rc;
  bad.b.cols = cols;
  const auto path = dir.path() / "bad.pce";
  write_pce_file(path, bad, pool);
  expect_refused(path, kId, "matrix B has an entry out of range");
}

}  // namespace
}  // namespace cuzk::pce
