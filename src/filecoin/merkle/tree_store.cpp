#include "filecoin/merkle/tree_store.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "filecoin/bincode.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::filecoin {

namespace cache_key {
std::string label_layer(unsigned layer) {
  return "layer-" + std::to_string(layer);
}
}  // namespace cache_key

std::string store_data_file_name(std::string_view id) {
  std::string version = std::to_string(kStoreConfigDataVersion);
  if (version.size() < 2) version.insert(0, 2 - version.size(), '0');  // "{:0>2}"
  return "sc-" + version + "-data-" + std::string(id) + ".dat";
}

std::vector<std::string> split_store_ids(std::string_view id, uint64_t count) {
  if (count == 0) throw std::invalid_argument("split_store_ids: zero base trees");
  if (count == 1) return {std::string(id)};
  std::vector<std::string> ids;
  for (uint64_t i = 0; i < count; ++i)
    ids.push_back(std::string(id) + "-" + std::to_string(i));
  return ids;
}

std::string tree_d_file_name() {
  return store_data_file_name(cache_key::kTreeD);
}

std::string layer_file_name(unsigned layer) {
  return store_data_file_name(cache_key::label_layer(layer));
}

namespace {

std::vector<std::string> file_names(std::string_view id, uint64_t count) {
  std::vector<std::string> out;
  for (const std::string& s : split_store_ids(id, count))
    out.push_back(store_data_file_name(s));
  return out;
}

void write_file(const std::filesystem::path& path, std::span<const uint8_t> a,
                std::span<const uint8_t> b = {}) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out)
    out.write(reinterpret_cast<const char*>(a.data()), static_cast<std::streamsize>(a.size()));
  if (out)
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  out.close();
  if (!out) throw std::runtime_error(path.string() + ": cannot write: " + std::strerror(errno));
}

std::shared_ptr<const MappedFile> map_file(const std::filesystem::path& path) {
  return std::make_shared<const MappedFile>(path);
}

void write_store_config(bincode::Writer& w, const StoreConfig& c) {
  w.string(c.path);
  w.string(c.id);
  if (c.size) {
    w.u8(1);
    w.u64(*c.size);
  } else {
    w.u8(0);
  }
  w.u64(c.rows_to_discard);
}

StoreConfig read_store_config(bincode::Reader& r) {
  StoreConfig c;
  c.path = r.string("StoreConfig path");
  c.id = r.string("StoreConfig id");
  const size_t at = r.position();
  const uint8_t tag = r.u8("StoreConfig size tag");
  if (tag == 1) {
    c.size = r.u64("StoreConfig size");
  } else if (tag != 0) {
    throw std::invalid_argument("bincode: StoreConfig size at byte " + std::to_string(at) +
                                ": Option tag " + std::to_string(tag));
  }
  c.rows_to_discard = r.u64("StoreConfig rows_to_discard");
  return c;
}

}  // namespace

std::vector<std::string> tree_c_file_names(uint64_t base_tree_count) {
  return file_names(cache_key::kTreeC, base_tree_count);
}

std::vector<std::string> tree_r_last_file_names(uint64_t base_tree_count) {
  return file_names(cache_key::kTreeRLast, base_tree_count);
}

std::vector<uint8_t> encode_p_aux(const PersistentAux& aux) {
  bincode::Writer w;
  w.domain(aux.comm_c);
  w.domain(aux.comm_r_last);
  return w.take();
}

PersistentAux decode_p_aux(std::span<const uint8_t> bytes) {
  bincode::Reader r(bytes);
  PersistentAux aux;
  aux.comm_c = r.domain("p_aux comm_c");
  aux.comm_r_last = r.domain("p_aux comm_r_last");
  r.expect_end("p_aux");
  return aux;
}

void write_p_aux(const std::filesystem::path& cache_dir, const PersistentAux& aux) {
  write_file(cache_dir / cache_key::kPAux, encode_p_aux(aux));
}

PersistentAux read_p_aux(const std::filesystem::path& cache_dir) {
  const MappedFile f(cache_dir / cache_key::kPAux);
  try {
    return decode_p_aux(f.bytes());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(f.path().string() + ": " + e.what());
  }
}

TemporaryAux default_t_aux(uint64_t sector_nodes, unsigned layers, const TreeShape& shape,
                           const std::string& cache_dir) {
  shape.validate();
  TemporaryAux t;
  for (unsigned l = 1; l <= layers; ++l)
    t.labels.push_back({cache_dir, cache_key::label_layer(l), sector_nodes, 0});
  t.tree_d_config = {cache_dir, std::string(cache_key::kTreeD), merkle_tree_len(sector_nodes, 2),
                     0};
  const uint64_t tree_nodes = sector_nodes / shape.base_tree_count();
  const uint64_t tree_size = merkle_tree_len(tree_nodes, shape.base);
  t.tree_r_last_config = {cache_dir, std::string(cache_key::kTreeRLast), tree_size,
                          default_rows_to_discard(tree_nodes, shape.base)};
  t.tree_c_config = {cache_dir, std::string(cache_key::kTreeC), tree_size, 0};
  return t;
}

// bincode, field by field in the Rust struct's order (every bincode writer here, e.g.
// update/vanilla/update_proof.cpp's, has this look; the order is the format).
std::vector<uint8_t> encode_t_aux(const TemporaryAux& aux) {
  bincode::Writer w;
  w.u64(aux.labels.size());
  for (const StoreConfig& c : aux.labels)
    write_store_config(w, c);
  write_store_config(w, aux.tree_d_config);
  write_store_config(w, aux.tree_r_last_config);
  write_store_config(w, aux.tree_c_config);
  return w.take();
}

TemporaryAux decode_t_aux(std::span<const uint8_t> bytes) {
  bincode::Reader r(bytes);
  TemporaryAux t;
  // A StoreConfig is at least 33 bytes (two string lengths, the tag, rows_to_discard).
  t.labels.resize(r.length(33, "t_aux labels"));
  for (StoreConfig& c : t.labels)
    c = read_store_config(r);
  t.tree_d_config = read_store_config(r);
  t.tree_r_last_config = read_store_config(r);
  t.tree_c_config = read_store_config(r);
  r.expect_end("t_aux");
  return t;
}

unsigned tree_r_last_rows_to_discard(const std::filesystem::path& cache_dir,
                                     uint64_t nodes_per_base_tree, uint32_t arity) {
  const std::filesystem::path path = cache_dir / cache_key::kTAux;
  if (!std::filesystem::exists(path)) return default_rows_to_discard(nodes_per_base_tree, arity);
  const MappedFile t(path);
  try {
    return static_cast<unsigned>(decode_t_aux(t.bytes()).tree_r_last_config.rows_to_discard);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path.string() + ": " + e.what());
  }
}

void write_tree_file(const std::filesystem::path& path, const BaseTree& tree) {
  if (tree.rows_to_discard() != 0) {
    throw std::invalid_argument("write_tree_file " + path.string() +
                                ": the tree does not store every row");
  }
  write_file(path, tree.leaf_bytes(), tree.upper_rows_bytes());
}

void write_level_cache_file(const std::filesystem::path& path, const BaseTree& tree,
                            unsigned rows_to_discard) {
  write_file(path, tree.level_cache_bytes(rows_to_discard));
}

BaseTree open_tree_file(const std::filesystem::path& path, uint64_t leaves, uint32_t arity,
                        TreeHasher hasher) {
  auto f = map_file(path);
  try {
    return BaseTree::view(f->bytes(), leaves, arity, hasher, f);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path.string() + ": " + e.what());
  }
}

MerkleTree open_tree_d(const std::filesystem::path& cache_dir, uint64_t nodes) {
  std::vector<BaseTree> trees;
  trees.push_back(open_tree_file(cache_dir / tree_d_file_name(), nodes, 2, TreeHasher::kSha256));
  return MerkleTree::from_base_trees(std::move(trees), TreeShape{2, 0, 0});
}

MerkleTree open_tree_c(const std::filesystem::path& cache_dir, uint64_t nodes,
                       const TreeShape& shape) {
  shape.validate();
  const uint64_t count = shape.base_tree_count();
  std::vector<BaseTree> trees;
  for (const std::string& name : tree_c_file_names(count))
    trees.push_back(
        open_tree_file(cache_dir / name, nodes / count, shape.base, TreeHasher::kPoseidon));
  return MerkleTree::from_base_trees(std::move(trees), shape);
}

MerkleTree open_tree_r_last(const std::filesystem::path& cache_dir,
                            const std::filesystem::path& replica_path, uint64_t nodes,
                            const TreeShape& shape, unsigned rows_to_discard) {
  shape.validate();
  auto replica = map_file(replica_path);
  if (replica->bytes().size() != nodes * kNodeSize) {
    throw std::invalid_argument(replica_path.string() + ": " +
                                std::to_string(replica->bytes().size()) + " bytes, expected " +
                                std::to_string(nodes * kNodeSize) + " for " +
                                std::to_string(nodes) + " nodes");
  }
  const uint64_t count = shape.base_tree_count();
  const uint64_t per_tree = nodes / count;
  std::vector<BaseTree> trees;
  const std::vector<std::string> names = tree_r_last_file_names(count);
  for (uint64_t j = 0; j < count; ++j) {
    auto cache = map_file(cache_dir / names[j]);
    // The base tree keeps both mappings alive.
    auto both = std::make_shared<
        std::pair<std::shared_ptr<const MappedFile>, std::shared_ptr<const MappedFile>>>(replica,
                                                                                         cache);
    try {
      trees.push_back(BaseTree::view_level_cache(
          replica->bytes().subspan(j * per_tree * kNodeSize, per_tree * kNodeSize), cache->bytes(),
          shape.base, rows_to_discard, TreeHasher::kPoseidon, both));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(cache->path().string() + ": " + e.what());
    }
  }
  return MerkleTree::from_base_trees(std::move(trees), shape);
}

void write_tree_c(const std::filesystem::path& cache_dir, const MerkleTree& tree) {
  const std::vector<std::string> names = tree_c_file_names(tree.base_trees().size());
  for (size_t j = 0; j < names.size(); ++j)
    write_tree_file(cache_dir / names[j], tree.base_trees()[j]);
}

void write_tree_r_last(const std::filesystem::path& cache_dir, const MerkleTree& tree,
                       unsigned rows_to_discard) {
  const std::vector<std::string> names = tree_r_last_file_names(tree.base_trees().size());
  for (size_t j = 0; j < names.size(); ++j)
    write_level_cache_file(cache_dir / names[j], tree.base_trees()[j], rows_to_discard);
}

void write_tree_d(const std::filesystem::path& cache_dir, const MerkleTree& tree) {
  if (tree.base_trees().size() != 1 || tree.base_trees().front().arity() != 2) {
    throw std::invalid_argument("write_tree_d: tree_d is a single binary tree");
  }
  write_tree_file(cache_dir / tree_d_file_name(), tree.base_trees().front());
}

}  // namespace cuzk::filecoin
