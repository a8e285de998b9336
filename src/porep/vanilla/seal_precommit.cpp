#include "porep/vanilla/seal_precommit.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "filecoin/graph/parent_cache.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256_tree.hpp"
#include "filecoin/merkle/merkle_hasher.hpp"
#include "filecoin/writable_file.hpp"
#include "porep/vanilla/porep_proof.hpp"
#include "porep/vanilla/sdr_labeler.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::filecoin {

namespace {

constexpr uint64_t kProgressStep = uint64_t{1} << 16;  // nodes between progress calls

void report(const SealOptions& o, std::string_view stage, uint64_t done, uint64_t total) {
  if (o.progress) o.progress(stage, done, total);
}

// Runs body(begin, end) over [0, n) in blocks of kProgressStep (each block in parallel on the
// pool), reporting progress and calling done(first, count) after each block.
void for_each_block(const SealOptions& o, std::string_view stage, uint64_t n, size_t min_chunk,
                    const std::function<void(size_t, size_t)>& body,
                    const std::function<void(uint64_t, uint64_t)>& done = {}) {
  for (uint64_t first = 0; first < n; first += kProgressStep) {
    const uint64_t count = std::min(kProgressStep, n - first);
    const auto shifted = [&](size_t b, size_t e) { body(first + b, first + e); };
    if (o.pool != nullptr && o.pool->size() > 1 && count >= 2 * min_chunk) {
      o.pool->parallel_for(count, shifted, min_chunk);
    } else {
      shifted(0, count);
    }
    if (done) done(first, count);
    report(o, stage, first + count, n);
  }
}

Domain node_at(std::span<const uint8_t> bytes, uint64_t i) {
  Domain d;
  std::memcpy(d.data(), bytes.data() + i * kNodeSize, kNodeSize);
  return d;
}

void copy_staged(const std::filesystem::path& staged, std::span<uint8_t> sector) {
  std::ifstream in(staged, std::ios::binary);
  if (!in) throw std::runtime_error(staged.string() + ": cannot open the staged sector");
  in.read(reinterpret_cast<char*>(sector.data()), static_cast<std::streamsize>(sector.size()));
  if (in.bad()) throw std::runtime_error(staged.string() + ": read failed");
  char extra = 0;
  if (in.gcount() == static_cast<std::streamsize>(sector.size()) && in.read(&extra, 1)) {
    throw std::invalid_argument(staged.string() + ": the staged sector is larger than the " +
                                std::to_string(sector.size()) + "-byte sector");
  }
}

// tree_d of an all-zero sector: row k is N / 2^k copies of Z_k (no hashing needed).
Domain fill_zero_tree_d(std::span<uint8_t> rows, uint64_t nodes) {
  uint64_t offset = 0;
  unsigned level = 0;
  for (uint64_t width = nodes; width >= 1; width /= 2, ++level) {
    const Domain& z = zero_subtree_root(level);
    for (uint64_t i = 0; i < width; ++i)
      std::memcpy(rows.data() + (offset + i) * kNodeSize, z.data(), kNodeSize);
    offset += width;
    if (width == 1) break;
  }
  return zero_subtree_root(level);
}

// The rows above the leaves of one base tree over `leaves` (hashes row 1 straight from the
// leaves, then the rest in place), as one array from row 1 to the root.
std::vector<uint8_t> build_upper_rows(std::span<const uint8_t> leaves, uint32_t arity,
                                      const SealOptions& o, std::string_view stage) {
  const uint64_t n = leaves.size() / kNodeSize;
  const uint64_t row1 = n / arity;
  std::vector<uint8_t> upper((merkle_tree_len(n, arity) - n) * kNodeSize);
  for_each_block(o, stage, row1, 64, [&](size_t b, size_t e) {
    NodeHasher h(TreeHasher::kPoseidon, arity);
    for (size_t p = b; p < e; ++p) {
      const Domain d = h.hash_bytes(leaves.data() + p * arity * kNodeSize);
      std::memcpy(upper.data() + p * kNodeSize, d.data(), kNodeSize);
    }
  });
  if (row1 > 1) {
    BaseTree::build_rows_in_place(upper, row1, arity, TreeHasher::kPoseidon, o.pool);
  }
  return upper;
}

}  // namespace

Domain compound_root(std::span<const Domain> base_roots, const TreeShape& shape) {
  shape.validate();
  if (base_roots.size() != shape.base_tree_count()) {
    throw std::invalid_argument("compound_root: " + std::to_string(base_roots.size()) +
                                " base roots for shape " + shape.to_string());
  }
  if (shape.sub == 0) return base_roots.front();
  NodeHasher sub(TreeHasher::kPoseidon, shape.sub);
  if (shape.top == 0) return sub.hash(base_roots);
  std::vector<Domain> sub_roots;
  for (uint32_t g = 0; g < shape.top; ++g)
    sub_roots.push_back(sub.hash(base_roots.subspan(g * shape.sub, shape.sub)));
  return NodeHasher(TreeHasher::kPoseidon, shape.top).hash(sub_roots);
}

Domain write_tree_d_file(const std::filesystem::path& cache_dir, std::span<const uint8_t> data,
                         const SealOptions& options) {
  const uint64_t nodes = data.size() / kNodeSize;
  report(options, "tree_d", 0, nodes);
  WritableMap tree(cache_dir / tree_d_file_name(), merkle_tree_len(nodes, 2) * kNodeSize);
  std::memcpy(tree.bytes().data(), data.data(), nodes * kNodeSize);
  const Domain root =
      BaseTree::build_rows_in_place(tree.bytes(), nodes, 2, TreeHasher::kSha256, options.pool);
  report(options, "tree_d", nodes, nodes);
  return root;
}

Domain write_tree_r_last_files(const std::filesystem::path& cache_dir,
                               std::span<const uint8_t> replica, const TreeShape& shape,
                               const SealOptions& options) {
  shape.validate();
  const uint64_t count = shape.base_tree_count();
  const uint64_t per_tree = replica.size() / kNodeSize / count;
  const uint32_t arity = shape.base;
  const unsigned rows_to_discard = default_rows_to_discard(per_tree, arity);
  std::vector<Domain> r_roots;
  const std::vector<std::string> r_names = tree_r_last_file_names(count);
  for (uint64_t j = 0; j < count; ++j) {
    const std::string stage = "tree_r_last " + std::to_string(j + 1) + "/" + std::to_string(count);
    const std::vector<uint8_t> upper = build_upper_rows(
        replica.subspan(j * per_tree * kNodeSize, per_tree * kNodeSize), arity, options, stage);
    r_roots.push_back(node_at(upper, upper.size() / kNodeSize - 1));
    uint64_t skip = 0;
    for (unsigned r = 1; r <= rows_to_discard; ++r)
      skip += per_tree >> (std::countr_zero(arity) * r);
    const std::span<const uint8_t> cached =
        std::span<const uint8_t>(upper).subspan(skip * kNodeSize);
    std::ofstream f(cache_dir / r_names[j], std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(cached.data()),
            static_cast<std::streamsize>(cached.size()));
    f.close();
    if (!f) throw std::runtime_error((cache_dir / r_names[j]).string() + ": cannot write");
  }
  return compound_root(r_roots, shape);
}

PreCommit1Output seal_pre_commit_phase1(const PorepConfig& config,
                                        const std::filesystem::path& cache_dir,
                                        const std::optional<std::filesystem::path>& staged,
                                        const std::filesystem::path& sealed_path,
                                        const Domain& prover_id, uint64_t sector_id,
                                        const Ticket& ticket, const SealOptions& options) {
  const uint64_t nodes = config.nodes();
  const unsigned layers = config.layers();  // also validates the sector size
  std::filesystem::create_directories(cache_dir);
  PreCommit1Output out;

  // The sealed file starts as a copy of the staged data (seal.rs copies in_path to out_path and
  // extends it to the sector size); PC2 encodes it in place.
  if (staged && std::filesystem::exists(sealed_path) &&
      std::filesystem::equivalent(*staged, sealed_path)) {
    throw std::invalid_argument(sealed_path.string() +
                                ": the sealed file must not be the staged sector itself");
  }
  {
    std::filesystem::remove(sealed_path);  // a stale replica must not leak into the new file
    WritableMap sealed(sealed_path, config.sector_size);
    if (staged) copy_staged(*staged, sealed.bytes());
    const uint64_t tree_len = merkle_tree_len(nodes, 2);
    if (!staged) {
      report(options, "tree_d", 0, nodes);
      WritableMap tree(cache_dir / tree_d_file_name(), tree_len * kNodeSize);
      out.comm_d = fill_zero_tree_d(tree.bytes(), nodes);
      report(options, "tree_d", nodes, nodes);
    } else {
      out.comm_d = write_tree_d_file(cache_dir, sealed.bytes(), options);
    }
    out.tree_d_config = {cache_dir.string(), std::string(cache_key::kTreeD), tree_len, 0};
  }

  out.replica_id = generate_replica_id(prover_id, sector_id, ticket, out.comm_d, config.porep_id);

  const StackedGraph graph = config.graph();
  const std::filesystem::path dir =
      options.parent_cache_dir.empty() ? default_parent_cache_dir() : options.parent_cache_dir;
  std::filesystem::create_directories(dir);
  report(options, "parent cache", 0, 1);
  out.parent_cache = ensure_parent_cache(dir, graph, options.verify_parent_cache, options.pool);
  report(options, "parent cache", 1, 1);

  LabelingOptions lo;
  lo.threads = options.labeling_threads;
  std::string stage;
  if (options.progress) {
    lo.progress = [&](unsigned layer, uint64_t done, uint64_t total) {
      stage = "layer " + std::to_string(layer) + "/" + std::to_string(layers);
      options.progress(stage, done, total);
    };
  }
  out.labels = generate_sdr_labels(out.parent_cache, nodes, layers, out.replica_id, cache_dir, lo);
  return out;
}

PreCommit2Output seal_pre_commit_phase2(const PorepConfig& config, const PreCommit1Output& pc1,
                                        const std::filesystem::path& cache_dir,
                                        const std::filesystem::path& sealed_path,
                                        const SealOptions& options) {
  const uint64_t nodes = config.nodes();
  const SectorShape& shape = config.shape();
  const unsigned layers = shape.layers;
  if (pc1.labels.size() != layers) {
    throw std::invalid_argument("seal_pre_commit_phase2: " + std::to_string(pc1.labels.size()) +
                                " label layers, the sector needs " + std::to_string(layers));
  }
  std::vector<std::unique_ptr<MappedFile>> label_files;
  for (unsigned l = 1; l <= layers; ++l) {
    auto f = std::make_unique<MappedFile>(cache_dir / layer_file_name(l));
    if (f->bytes().size() != nodes * kNodeSize) {
      throw std::invalid_argument(f->path().string() + ": " + std::to_string(f->bytes().size()) +
                                  " bytes, a layer of " + std::to_string(nodes) + " nodes has " +
                                  std::to_string(nodes * kNodeSize));
    }
    label_files.push_back(std::move(f));
  }

  const uint64_t count = shape.base_tree_count();
  const uint64_t per_tree = nodes / count;
  const uint32_t arity = shape.tree.base;
  const uint64_t tree_len = merkle_tree_len(per_tree, arity);
  const PoseidonConstants& column_constants = PoseidonConstants::standard(layers);

  // tree_c: leaves are the column hashes (proof.rs generate_tree_c_cpu), every row stored.
  std::vector<Domain> c_roots;
  const std::vector<std::string> c_names = tree_c_file_names(count);
  for (uint64_t j = 0; j < count; ++j) {
    WritableMap tree(cache_dir / c_names[j], tree_len * kNodeSize);
    const std::string stage =
        "tree_c columns " + std::to_string(j + 1) + "/" + std::to_string(count);
    for_each_block(
        options, stage, per_tree, 256,
        [&](size_t b, size_t e) {
          std::array<Fr, 11> column;
          for (size_t i = b; i < e; ++i) {
            const uint64_t v = j * per_tree + i;
            for (unsigned l = 0; l < layers; ++l)
              column[l] = domain_to_fr(node_at(label_files[l]->bytes(), v));
            const Domain h = fr_to_domain(
                poseidon_hash(column_constants, std::span<const Fr>(column.data(), layers)));
            std::memcpy(tree.bytes().data() + i * kNodeSize, h.data(), kNodeSize);
          }
        },
        [&](uint64_t first, uint64_t n) {
          // Labels are read once here: drop them from the resident set as the hashing moves on.
          for (const auto& f : label_files)
            drop_pages(f->bytes().subspan((j * per_tree + first) * kNodeSize, n * kNodeSize));
        });
    const std::string rows = "tree_c rows " + std::to_string(j + 1) + "/" + std::to_string(count);
    report(options, rows, 0, 1);
    c_roots.push_back(BaseTree::build_rows_in_place(tree.bytes(), per_tree, arity,
                                                    TreeHasher::kPoseidon, options.pool));
    report(options, rows, 1, 1);
  }
  PreCommit2Output out;
  out.p_aux.comm_c = compound_root(c_roots, shape.tree);

  // Encoding in place (proof.rs prepare_tree_r_data_cpu): replica = data + key.
  const uint64_t sealed_size = std::filesystem::file_size(sealed_path);
  if (sealed_size != config.sector_size) {
    throw std::invalid_argument(sealed_path.string() + ": " + std::to_string(sealed_size) +
                                " bytes, the sector has " + std::to_string(config.sector_size));
  }
  WritableMap sealed(sealed_path, config.sector_size);
  const std::span<const uint8_t> keys = label_files.back()->bytes();
  for_each_block(
      options, "encoding", nodes, 4096,
      [&](size_t b, size_t e) {
        for (size_t v = b; v < e; ++v) {
          uint8_t* node = sealed.bytes().data() + v * kNodeSize;
          Domain data;
          std::memcpy(data.data(), node, kNodeSize);
          const std::optional<Fr> d = try_domain_to_fr(data);
          if (!d) {
            throw std::invalid_argument(
                sealed_path.string() + ": data node " + std::to_string(v) + " (" + to_hex(data) +
                ") is not a canonical field element; the staged sector must "
                "be Fr32-padded");
          }
          const Domain replica = fr_to_domain(domain_to_fr(node_at(keys, v)) + *d);
          std::memcpy(node, replica.data(), kNodeSize);
        }
      },
      [&](uint64_t first, uint64_t n) {
        drop_pages(keys.subspan(first * kNodeSize, n * kNodeSize));
      });

  out.p_aux.comm_r_last = write_tree_r_last_files(cache_dir, sealed.bytes(), shape.tree, options);
  out.comm_r = poseidon_hash2(out.p_aux.comm_c, out.p_aux.comm_r_last);
  out.comm_d = pc1.comm_d;

  write_p_aux(cache_dir, out.p_aux);
  const std::vector<uint8_t> t_aux =
      encode_t_aux(default_t_aux(nodes, layers, shape.tree, cache_dir.string()));
  std::ofstream t(cache_dir / cache_key::kTAux, std::ios::binary | std::ios::trunc);
  t.write(reinterpret_cast<const char*>(t_aux.data()), static_cast<std::streamsize>(t_aux.size()));
  t.close();
  if (!t) throw std::runtime_error((cache_dir / cache_key::kTAux).string() + ": cannot write");
  return out;
}

}  // namespace cuzk::filecoin
