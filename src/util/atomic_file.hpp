// AtomicFileWriter: a file that appears under its name only once it is complete. Bytes go to a
// temporary file beside it ("<name>.tmp-<pid>-<n>"), which commit() flushes to disk and then
// links into place: without `kForce` an existing file is never replaced (link fails with EEXIST,
// so two writers cannot both win), with it the temporary is renamed over the old one. A writer
// destroyed without commit() removes its temporary: a failed or interrupted write leaves nothing
// under the name.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cuzk {

enum class Overwrite { kRefuse, kForce };

// The name is taken and overwriting was not allowed.
class FileExistsError : public std::runtime_error {
 public:
  explicit FileExistsError(const std::filesystem::path& path)
      : std::runtime_error(path.string() + " exists (not overwritten; pass --force to replace it)"),
        path_(path) {}
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

class AtomicFileWriter {
 public:
  // Throws FileExistsError at once when `path` exists and `mode` is kRefuse (so a long
  // computation is not started for nothing), std::runtime_error naming the file on I/O errors.
  AtomicFileWriter(std::filesystem::path path, Overwrite mode);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(std::span<const uint8_t> bytes);
  void write(std::string_view text);
  // fsync, then link (kRefuse) or rename (kForce) into place. FileExistsError when the name was
  // taken meanwhile.
  void commit();

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_, tmp_;
  Overwrite mode_;
  int fd_ = -1;
  bool committed_ = false;
};

// One-shot form.
void write_file_atomically(const std::filesystem::path& path, std::span<const uint8_t> bytes,
                           Overwrite mode);

}  // namespace cuzk
