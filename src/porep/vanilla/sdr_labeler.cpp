#include "porep/vanilla/sdr_labeler.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "filecoin/graph/parent_cache.hpp"
#include "filecoin/graph/stacked_graph.hpp"
#include "filecoin/writable_file.hpp"
#include "porep/vanilla/sdr_label.hpp"

namespace cuzk::filecoin {

namespace {

static_assert(std::endian::native == std::endian::little,
              "the parent cache holds little-endian u32 values read in place");

constexpr uint64_t kChunkNodes = 4096;
constexpr unsigned kRing = 4;                            // chunks the producer may run ahead
constexpr size_t kSlotBytes = kTotalDegree * kNodeSize;  // 14 parent labels per node
constexpr size_t kParentWords = kTotalDegree;            // 14 u32 per node in the cache

class FileReader {
 public:
  explicit FileReader(const std::filesystem::path& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      throw std::runtime_error(path.string() +
                               ": cannot open the parent cache: " + std::strerror(errno));
    }
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  ~FileReader() { ::close(fd_); }
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  void read_at(uint64_t offset, uint8_t* out, size_t len) const {
    while (len > 0) {
      const ssize_t n = ::pread(fd_, out, len, static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        throw std::runtime_error(path_.string() + ": cannot read " + std::to_string(len) +
                                 " bytes at offset " + std::to_string(offset) +
                                 (n < 0 ? std::string(": ") + std::strerror(errno)
                                        : std::string(": unexpected end of file")));
      }
      out += n;
      len -= static_cast<size_t>(n);
      offset += static_cast<uint64_t>(n);
    }
  }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

// One layer: the producer fills chunk buffers, the hasher consumes them in order.
class LayerJob {
 public:
  LayerJob(const FileReader& parents, uint64_t nodes, unsigned layer, const Domain& replica_id,
           uint8_t* current, const uint8_t* previous)
      : parents_file_(parents),
        nodes_(nodes),
        layer_(layer),
        replica_id_(replica_id),
        current_(current),
        previous_(previous),
        chunks_((nodes + kChunkNodes - 1) / kChunkNodes) {
    for (Chunk& c : ring_) {
      c.parents.resize(kChunkNodes * kParentWords);
      c.slots.resize(kChunkNodes * kSlotBytes);
      c.missing.resize(kChunkNodes);
    }
  }

  void run(unsigned threads, const std::function<void(unsigned, uint64_t, uint64_t)>& progress) {
    if (threads < 2) {
      for (uint64_t k = 0; k < chunks_; ++k) {
        produce(k);
        consume(k);
        if (progress) progress(layer_, std::min(nodes_, (k + 1) * kChunkNodes), nodes_);
      }
      return;
    }
    std::exception_ptr producer_error;
    std::thread producer([&] {
      try {
        for (uint64_t k = 0; k < chunks_; ++k) {
          for (uint64_t c = consumed_.load(std::memory_order_acquire); k >= c + kRing;
               c = consumed_.load(std::memory_order_acquire)) {
            if (abort_.load()) return;
            consumed_.wait(c);
          }
          if (abort_.load()) return;
          produce(k);
          produced_.store(k + 1, std::memory_order_release);
          produced_.notify_one();
        }
      } catch (...) {
        producer_error = std::current_exception();
        abort_.store(true);
        produced_.fetch_add(1);
        produced_.notify_all();
      }
    });
    // The consumer's wait mirrors the producer's above on the other counter.
    try {
      for (uint64_t k = 0; k < chunks_; ++k) {
        for (uint64_t p = produced_.load(std::memory_order_acquire); p <= k;
             p = produced_.load(std::memory_order_acquire)) {
          if (abort_.load()) break;
          produced_.wait(p);
        }
        if (abort_.load()) break;
        consume(k);
        consumed_.store(k + 1, std::memory_order_release);
        consumed_.notify_one();
        if (progress) progress(layer_, std::min(nodes_, (k + 1) * kChunkNodes), nodes_);
      }
    } catch (...) {
      abort_.store(true);
      consumed_.fetch_add(kRing);
      consumed_.notify_all();
      producer.join();
      throw;
    }
    producer.join();
    if (producer_error) std::rethrow_exception(producer_error);
  }

 private:
  struct Chunk {
    std::vector<uint32_t> parents;  // 14 per node, as in the cache file
    std::vector<uint8_t> slots;     // 14 labels per node: 6 DRG then 8 expander
    std::vector<uint16_t> missing;  // DRG slots the producer could not fill yet (bit j = slot j)
  };

  // Nodes of the current layer already labeled (readable by the producer).
  uint64_t labeled() const { return labeled_.load(std::memory_order_acquire); }

  // Reads the chunk's parents and gathers every parent label already available.
  void produce(uint64_t k) {
    Chunk& c = ring_[k % kRing];
    const uint64_t first = k * kChunkNodes;
    const uint64_t count = std::min(kChunkNodes, nodes_ - first);
    parents_file_.read_at(first * kParentCacheNodeBytes,
                          reinterpret_cast<uint8_t*>(c.parents.data()),
                          count * kParentCacheNodeBytes);
    uint64_t ready = labeled();
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t v = first + i;
      const uint32_t* p = &c.parents[i * kParentWords];
      uint8_t* slot = &c.slots[i * kSlotBytes];
      uint16_t missing = 0;
      if ((i & 63) == 0) ready = labeled();
      for (unsigned j = 0; j < kBaseDegree; ++j) {
        // DRG parents precede the node (nodes 0 and 1 list parent 0); anything else means a
        // corrupt cache, which would otherwise be hashed silently.
        if (v != 0 && p[j] >= v) bad_parent(v, j, p[j]);
        if (p[j] < ready) {
          std::memcpy(slot + j * kNodeSize, current_ + uint64_t{p[j]} * kNodeSize, kNodeSize);
        } else {
          missing |= static_cast<uint16_t>(1u << j);
        }
      }
      if (layer_ > 1) {
        for (unsigned j = kBaseDegree; j < kTotalDegree; ++j) {
          if (p[j] >= nodes_) bad_parent(v, j, p[j]);
          std::memcpy(slot + j * kNodeSize, previous_ + uint64_t{p[j]} * kNodeSize, kNodeSize);
        }
      }
      c.missing[i] = missing;
    }
  }

  void consume(uint64_t k) {
    Chunk& c = ring_[k % kRing];
    const uint64_t first = k * kChunkNodes;
    const uint64_t count = std::min(kChunkNodes, nodes_ - first);
    const size_t parent_bytes = (layer_ == 1 ? kBaseDegree : kTotalDegree) * kNodeSize;
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t v = first + i;
      uint8_t* slot = &c.slots[i * kSlotBytes];
      Domain label;
      if (v == 0) {
        label = sdr_label(replica_id_, layer_, 0, {});
      } else {
        const uint32_t* p = &c.parents[i * kParentWords];
        for (uint16_t m = c.missing[i]; m != 0; m &= static_cast<uint16_t>(m - 1)) {
          const unsigned j = static_cast<unsigned>(std::countr_zero(m));
          std::memcpy(slot + j * kNodeSize, current_ + uint64_t{p[j]} * kNodeSize, kNodeSize);
        }
        label = sdr_label(replica_id_, layer_, v, std::span<const uint8_t>(slot, parent_bytes));
      }
      std::memcpy(current_ + v * kNodeSize, label.data(), kNodeSize);
      labeled_.store(v + 1, std::memory_order_release);
    }
  }

  [[noreturn]] void bad_parent(uint64_t v, unsigned slot, uint32_t parent) const {
    throw std::runtime_error("parent cache: node " + std::to_string(v) + " lists parent " +
                             std::to_string(parent) + " in slot " + std::to_string(slot) +
                             ", impossible in a graph of " + std::to_string(nodes_) +
                             " nodes (corrupt or wrong cache file)");
  }

  const FileReader& parents_file_;
  uint64_t nodes_;
  unsigned layer_;
  Domain replica_id_;
  uint8_t* current_;
  const uint8_t* previous_;
  uint64_t chunks_;
  Chunk ring_[kRing];
  std::atomic<uint64_t> labeled_{0};
  std::atomic<uint64_t> produced_{0}, consumed_{0};
  std::atomic<bool> abort_{false};
};

}  // namespace

std::vector<StoreConfig> generate_sdr_labels(const std::filesystem::path& parent_cache,
                                             uint64_t nodes, unsigned layers,
                                             const Domain& replica_id,
                                             const std::filesystem::path& cache_dir,
                                             const LabelingOptions& options) {
  if (nodes < 2 || layers == 0) {
    throw std::invalid_argument("generate_sdr_labels: need at least 2 nodes and 1 layer (got " +
                                std::to_string(nodes) + " nodes, " + std::to_string(layers) +
                                " layers)");
  }
  std::error_code ec;
  const uint64_t cache_size = std::filesystem::file_size(parent_cache, ec);
  if (ec) throw std::runtime_error(parent_cache.string() + ": " + ec.message());
  if (cache_size != nodes * kParentCacheNodeBytes) {
    throw std::invalid_argument(parent_cache.string() + ": " + std::to_string(cache_size) +
                                " bytes; a parent cache of " + std::to_string(nodes) +
                                " nodes has " + std::to_string(nodes * kParentCacheNodeBytes));
  }
  const FileReader reader(parent_cache);
  std::vector<StoreConfig> configs;
  std::unique_ptr<WritableMap> previous;
  for (unsigned layer = 1; layer <= layers; ++layer) {
    auto current =
        std::make_unique<WritableMap>(cache_dir / layer_file_name(layer), nodes * kNodeSize);
    if (previous) advise_random(previous->bytes());
    LayerJob job(reader, nodes, layer, replica_id, current->bytes().data(),
                 previous ? previous->bytes().data() : nullptr);
    job.run(options.threads, options.progress);
    configs.push_back({cache_dir.string(), cache_key::label_layer(layer), nodes, 0});
    previous = std::move(current);
  }
  return configs;
}

}  // namespace cuzk::filecoin
