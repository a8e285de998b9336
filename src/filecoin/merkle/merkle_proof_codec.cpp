#include "filecoin/merkle/merkle_proof_codec.hpp"

#include <stdexcept>

namespace cuzk::filecoin {

void write_bincode(bincode::Writer& w, const InclusionPath& path) {
  w.u64(path.size());
  for (const PathElement& e : path) {
    w.u64(e.hashes.size());
    for (const Domain& h : e.hashes)
      w.domain(h);
    w.u64(e.index);
  }
}

void write_bincode(bincode::Writer& w, const MerkleProof& proof) {
  w.u32(static_cast<uint32_t>(proof.data.index()));
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, SingleProof>) {
          w.domain(d.root);
          w.domain(d.leaf);
          write_bincode(w, d.path);
        } else {
          write_bincode(w, d.base_proof);
          write_bincode(w, d.sub_proof);
          if constexpr (std::is_same_v<T, TopProof>) write_bincode(w, d.top_proof);
          w.domain(d.root);
          w.domain(d.leaf);
        }
      },
      proof.data);
}

InclusionPath read_bincode_inclusion_path(bincode::Reader& r) {
  // An element is at least 16 bytes (two lengths), a hash 32.
  const uint64_t n = r.length(16, "InclusionPath length");
  InclusionPath path(n);
  for (PathElement& e : path) {
    e.hashes.resize(r.length(kNodeSize, "PathElement hash count"));
    for (Domain& h : e.hashes)
      h = r.domain("PathElement hash");
    e.index = r.u64("PathElement index");
  }
  return path;
}

MerkleProof read_bincode_merkle_proof(bincode::Reader& r) {
  const size_t at = r.position();
  const uint32_t variant = r.u32("MerkleProof variant");
  switch (variant) {
    case 0: {
      SingleProof p;
      p.root = r.domain("SingleProof root");
      p.leaf = r.domain("SingleProof leaf");
      p.path = read_bincode_inclusion_path(r);
      return MerkleProof{std::move(p)};
    }
    case 1: {
      SubProof p;
      p.base_proof = read_bincode_inclusion_path(r);
      p.sub_proof = read_bincode_inclusion_path(r);
      p.root = r.domain("SubProof root");
      p.leaf = r.domain("SubProof leaf");
      return MerkleProof{std::move(p)};
    }
    case 2: {
      TopProof p;
      p.base_proof = read_bincode_inclusion_path(r);
      p.sub_proof = read_bincode_inclusion_path(r);
      p.top_proof = read_bincode_inclusion_path(r);
      p.root = r.domain("TopProof root");
      p.leaf = r.domain("TopProof leaf");
      return MerkleProof{std::move(p)};
    }
    default:
      throw std::invalid_argument("bincode: MerkleProof at byte " + std::to_string(at) +
                                  ": unknown variant " + std::to_string(variant) +
                                  " (0 Single, 1 Sub, 2 Top)");
  }
}

std::vector<uint8_t> merkle_proof_to_bincode(const MerkleProof& proof) {
  bincode::Writer w;
  write_bincode(w, proof);
  return w.take();
}

MerkleProof merkle_proof_from_bincode(std::span<const uint8_t> bytes) {
  bincode::Reader r(bytes);
  MerkleProof p = read_bincode_merkle_proof(r);
  r.expect_end("MerkleProof");
  return p;
}

void append_json(std::string& out, const Domain& d) {
  out += '[';
  for (size_t i = 0; i < d.size(); ++i) {
    if (i != 0) out += ',';
    out += std::to_string(d[i]);
  }
  out += ']';
}

void append_json(std::string& out, const InclusionPath& path) {
  out += "{\"path\":[";
  for (size_t i = 0; i < path.size(); ++i) {
    if (i != 0) out += ',';
    out += "{\"hashes\":[";
    for (size_t h = 0; h < path[i].hashes.size(); ++h) {
      if (h != 0) out += ',';
      append_json(out, path[i].hashes[h]);
    }
    out += "],\"index\":" + std::to_string(path[i].index) + "}";
  }
  out += "]}";
}

// serde's JSON of each shape, field by field in serde's order (the C1 writer in
// porep/vanilla/c1_json.cpp has the same look for its own structs): a table of fields would hide
// the order the bytes must keep.
void append_json(std::string& out, const MerkleProof& proof) {
  out += "{\"data\":{";
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, SingleProof>) {
          out += "\"Single\":{\"root\":";
          append_json(out, d.root);
          out += ",\"leaf\":";
          append_json(out, d.leaf);
          out += ",\"path\":";
          append_json(out, d.path);
        } else {
          out += std::is_same_v<T, SubProof> ? "\"Sub\":{" : "\"Top\":{";
          out += "\"base_proof\":";
          append_json(out, d.base_proof);
          out += ",\"sub_proof\":";
          append_json(out, d.sub_proof);
          if constexpr (std::is_same_v<T, TopProof>) {
            out += ",\"top_proof\":";
            append_json(out, d.top_proof);
          }
          out += ",\"root\":";
          append_json(out, d.root);
          out += ",\"leaf\":";
          append_json(out, d.leaf);
        }
        out += '}';
      },
      proof.data);
  out += "}}";
}

std::string merkle_proof_to_json(const MerkleProof& proof) {
  std::string s;
  append_json(s, proof);
  return s;
}

}  // namespace cuzk::filecoin
