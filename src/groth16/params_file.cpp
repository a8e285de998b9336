#include "groth16/params_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <type_traits>
#include <utility>

#include "util/mapped_file.hpp"

namespace cuzk::groth16 {

namespace {

// Points are preaded into the caller's memory and decoded there.
static_assert(sizeof(G1Affine) == kG1UncompressedBytes && sizeof(G2Affine) == kG2UncompressedBytes);

uint64_t mix(uint64_t h, uint64_t v) {
  // splitmix64's finalizer over the running value and the next field.
  h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2);
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9;
  h = (h ^ (h >> 27)) * 0x94d049bb133111eb;
  return h ^ (h >> 31);
}

uint64_t identity_of(const FileStamp& s) {
  uint64_t h = 0;
  for (const uint64_t v : {s.device, s.inode, s.size, static_cast<uint64_t>(s.modified_ns),
                           static_cast<uint64_t>(s.changed_ns)}) {
    h = mix(h, v);
  }
  return h;
}

}  // namespace

ParamsFileSource::ParamsFileSource(const std::filesystem::path& path, SubgroupCheck check,
                                   uint64_t task_bytes)
    : ParamsFileSource(ReadOnlyFile(path), check, task_bytes) {}

ParamsFileSource::ParamsFileSource(ReadOnlyFile file, SubgroupCheck check, uint64_t task_bytes)
    : file_(std::move(file)),
      name_(file_.path().string()),
      check_(check),
      task_bytes_(std::max<uint64_t>(task_bytes, 1)),
      // Only the vk's pages and the five length words of the map are read.
      layout_(scan_parameters(MappedFile(file_).bytes(), name_)),
      identity_(identity_of(file_.stamp())) {
  // Advice only: reads go through the file in order, a piece per task.
  ::posix_fadvise(file_.fd(), 0, 0, POSIX_FADV_SEQUENTIAL);
}

template <class P>
void ParamsFileSource::read(Section section, uint64_t first, std::span<P> out,
                            ThreadPool* pool) const {
  check_range(section, std::is_same_v<P, G2Affine>, first, out.size());
  if (out.empty()) return;
  constexpr uint64_t size = sizeof(P);
  const uint64_t base = layout_.of(section).offset + first * size;
  const size_t per_task = static_cast<size_t>(std::max<uint64_t>(1, task_bytes_ / size));
  const size_t tasks = (out.size() + per_task - 1) / per_task;
  const auto task = [&](size_t t) {
    const size_t begin = t * per_task;
    const std::span<P> piece = out.subspan(begin, std::min(per_task, out.size() - begin));
    const std::span<uint8_t> raw(reinterpret_cast<uint8_t*>(piece.data()), piece.size() * size);
    const uint64_t at = base + begin * size;
    const size_t got = file_.read_at(at, raw);
    if (got != raw.size()) {
      throw FormatError(name_, at + got,
                        std::string("truncated: ") + section_name(section) +
                            " ends early (the file is shorter than when it was opened)");
    }
    decode_points(raw, piece, at, section_name(section), name_, check_, nullptr);
  };
  if (pool != nullptr && tasks > 1) {
    pool->run(tasks, task);
  } else {
    for (size_t t = 0; t < tasks; ++t)
      task(t);
  }
}

void ParamsFileSource::read_g1(Section section, uint64_t first, std::span<G1Affine> out,
                               ThreadPool* pool) const {
  read(section, first, out, pool);
}

void ParamsFileSource::read_g2(Section section, uint64_t first, std::span<G2Affine> out,
                               ThreadPool* pool) const {
  read(section, first, out, pool);
}

Parameters ParamsFileSource::read_points(ThreadPool* pool) const {
  if (pool == nullptr) return PointSource::read_points(pool);
  // A map reads past a shrunk file's end as SIGBUS, where pread reads short: a file shorter
  // now than when it was opened is refused first (as read_parameters' map, it is not guarded
  // against shrinking while it is parsed).
  struct stat now {};
  if (::fstat(file_.fd(), &now) != 0 || static_cast<uint64_t>(now.st_size) < file_.size()) {
    throw FormatError(name_, static_cast<uint64_t>(now.st_size),
                      "truncated: the file is shorter than when it was opened");
  }
  const MappedFile map(file_);
  Parameters p = parse_parameters(map.bytes(), name_, check_, *pool,
                                  [&map](std::span<const uint8_t> part) { map.release(part); });
  // Parsed again from the bytes, not read by the opened layout: a file rewritten in place since
  // it was opened must not give the set another setup's points.
  if (p.vk != layout_.vk || section_counts(p) != layout_.counts()) {
    throw FormatError(name_, 0,
                      "rewritten since it was opened: its vk or section counts are not the set's");
  }
  p.vk = {};
  return p;
}

Parameters open_parameters(const std::filesystem::path& path, SubgroupCheck check) {
  auto source = std::make_shared<const ParamsFileSource>(path, check);
  Parameters p;
  p.vk = source->layout().vk;
  p.source = std::move(source);
  return p;
}

}  // namespace cuzk::groth16
