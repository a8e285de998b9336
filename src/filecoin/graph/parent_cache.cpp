#include "filecoin/graph/parent_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace cuzk::filecoin {

namespace {

// rust-fil-proofs storage-proofs-porep/parent_cache.json (commit 87348a74).
constexpr ParentCacheManifestEntry kManifest[] = {
    {"v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117", 34359738368,
     "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"},
    {"v28-sdr-parent-2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42", 536870912,
     "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
    {"v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899", 2048,
     "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
    {"v28-sdr-parent-4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b", 68719476736,
     "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"},
    {"v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b", 2048,
     "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
    {"v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5", 8388608,
     "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    {"v28-sdr-parent-7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34", 536870912,
     "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
    {"v28-sdr-parent-8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6", 68719476736,
     "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"},
    {"v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc", 8388608,
     "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
    {"v28-sdr-parent-e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13", 34359738368,
     "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"},
};

// Nodes generated per chunk: 3.5 MiB of output, enough work to spread over the pool.
constexpr uint64_t kChunkNodes = uint64_t{1} << 16;

void put_le32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    p[i] = static_cast<uint8_t>(v >> (8 * i));
}

void fill(const StackedGraph& graph, uint64_t first, uint64_t count, uint8_t* out) {
  std::array<uint32_t, kTotalDegree> parents;
  for (uint64_t v = first; v < first + count; ++v) {
    graph.parents(v, parents);
    uint8_t* p = out + (v - first) * kParentCacheNodeBytes;
    for (unsigned k = 0; k < kTotalDegree; ++k)
      put_le32(p + 4 * k, parents[k]);
  }
}

}  // namespace

std::string parent_cache_file_stem(const StackedGraph& graph) {
  Sha256 h;
  const auto text = [](std::string_view s) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  const std::string hasher = tree_hasher_name(graph.hasher());
  const std::string id = graph.identifier();
  h.update(text(hasher)).update(text(id));
  for (uint64_t key : graph.feistel_keys()) {
    uint8_t le[8];
    for (int i = 0; i < 8; ++i)
      le[i] = static_cast<uint8_t>(key >> (8 * i));
    h.update(le);
  }
  uint8_t nodes_le[4];
  put_le32(nodes_le, static_cast<uint32_t>(graph.nodes()));
  h.update(nodes_le);
  return "v" + std::to_string(kParameterCacheVersion) + "-sdr-parent-" + to_hex(h.finish());
}

std::string parent_cache_file_name(const StackedGraph& graph) {
  return parent_cache_file_stem(graph) + ".cache";
}

std::filesystem::path default_parent_cache_dir() {
  if (const char* p = std::getenv("FIL_PROOFS_PARENT_CACHE"); p != nullptr && *p != '\0') return p;
  std::string base = "/var/tmp/";
  if (const char* c = std::getenv("FIL_PROOFS_CACHE_DIR"); c != nullptr) base = c;
  return base + "filecoin-parents";
}

std::span<const ParentCacheManifestEntry> parent_cache_manifest() {
  return kManifest;
}

const ParentCacheManifestEntry* find_parent_cache_manifest_entry(std::string_view stem) {
  for (const ParentCacheManifestEntry& e : kManifest)
    if (e.stem == stem) return &e;
  return nullptr;
}

Sha256Digest generate_parent_cache(const StackedGraph& graph,
                                   FunctionRef<void(std::span<const uint8_t>)> sink,
                                   ThreadPool* pool) {
  const uint64_t nodes = graph.nodes();
  std::vector<uint8_t> buf(std::min(nodes, kChunkNodes) * kParentCacheNodeBytes);
  Sha256 digest;
  for (uint64_t first = 0; first < nodes; first += kChunkNodes) {
    const uint64_t count = std::min(kChunkNodes, nodes - first);
    if (pool != nullptr && pool->size() > 1) {
      pool->parallel_for(
          count,
          [&](size_t b, size_t e) {
            fill(graph, first + b, e - b, buf.data() + b * kParentCacheNodeBytes);
          },
          256);
    } else {
      fill(graph, first, count, buf.data());
    }
    const std::span<const uint8_t> chunk(buf.data(), count * kParentCacheNodeBytes);
    digest.update(chunk);
    sink(chunk);
  }
  return digest.finish();
}

std::vector<uint8_t> generate_parent_cache_bytes(const StackedGraph& graph, ThreadPool* pool) {
  std::vector<uint8_t> out;
  out.reserve(graph.nodes() * kParentCacheNodeBytes);
  generate_parent_cache(
      graph, [&](std::span<const uint8_t> c) { out.insert(out.end(), c.begin(), c.end()); }, pool);
  return out;
}

Sha256Digest write_parent_cache_file(const std::filesystem::path& path, const StackedGraph& graph,
                                     ThreadPool* pool) {
  std::filesystem::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());
  Sha256Digest d;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(tmp.string() + ": cannot create: " + std::strerror(errno));
    d = generate_parent_cache(
        graph,
        [&](std::span<const uint8_t> c) {
          out.write(reinterpret_cast<const char*>(c.data()),
                    static_cast<std::streamsize>(c.size()));
          if (!out) throw std::runtime_error(tmp.string() + ": write failed");
        },
        pool);
    out.close();
    if (!out) throw std::runtime_error(tmp.string() + ": close failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw std::runtime_error(path.string() + ": cannot rename into place: " + ec.message());
  }
  return d;
}

Sha256Digest file_sha256(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open: " + std::strerror(errno));
  Sha256 h;
  std::vector<char> buf(size_t{1} << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    h.update(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(buf.data()),
                                      static_cast<size_t>(in.gcount())));
  }
  if (!in.eof()) throw std::runtime_error(path.string() + ": read failed");
  return h.finish();
}

ParentCacheVerification verify_parent_cache_file(const std::filesystem::path& path,
                                                 const StackedGraph& graph) {
  ParentCacheVerification v;
  v.size_ok = std::filesystem::file_size(path) == graph.nodes() * kParentCacheNodeBytes;
  v.digest_hex = to_hex(file_sha256(path));
  if (const auto* e = find_parent_cache_manifest_entry(parent_cache_file_stem(graph)))
    v.manifest_digest = std::string(e->digest);
  return v;
}

std::filesystem::path ensure_parent_cache(const std::filesystem::path& dir,
                                          const StackedGraph& graph, bool verify,
                                          ThreadPool* pool) {
  const std::filesystem::path path = dir / parent_cache_file_name(graph);
  if (std::filesystem::exists(path) && (!verify || verify_parent_cache_file(path, graph).ok()))
    return path;
  std::filesystem::create_directories(dir);
  const std::string digest = to_hex(write_parent_cache_file(path, graph, pool));
  if (const auto* e = find_parent_cache_manifest_entry(parent_cache_file_stem(graph));
      e != nullptr && e->digest != digest) {
    throw std::runtime_error(path.string() + ": newly generated parent cache has digest " + digest +
                             ", the manifest says " + std::string(e->digest));
  }
  return path;
}

}  // namespace cuzk::filecoin
