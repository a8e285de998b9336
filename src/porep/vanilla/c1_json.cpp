#include "porep/vanilla/c1_json.hpp"

#include <nlohmann/json.hpp>

#include <limits>

#include "filecoin/merkle/merkle_proof_codec.hpp"
#include "porep/vanilla/porep_config.hpp"
#include "util/bounded_json.hpp"
#include "util/utf8.hpp"

namespace cuzk::filecoin {

namespace {

using nlohmann::json;

// The deepest C1 value is a byte of a hash of a path element of a Top proof of a parent column:
// 17 levels. Twice that leaves room and stops "[[[[..." payloads at once.
constexpr int kMaxC1JsonDepth = 32;

// ---- writer -----------------------------------------------------------------------------------

// A JSON array of `items`, each written by `append`.
template <class T, class Append>
void append_array(std::string& out, const std::vector<T>& items, Append append) {
  out += '[';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out += ',';
    append(out, items[i]);
  }
  out += ']';
}

void append_domains(std::string& out, const std::vector<Domain>& ds) {
  append_array(out, ds, [](std::string& o, const Domain& d) { append_json(o, d); });
}

void append_labeling(std::string& out, const LabelingProof& p) {
  out += "{\"parents\":";
  append_domains(out, p.parents);
  out += ",\"layer_index\":" + std::to_string(p.layer_index);
  out += ",\"node\":" + std::to_string(p.node) + "}";
}

void append_column_proof(std::string& out, const ColumnProof& p) {
  out += "{\"column\":{\"index\":" + std::to_string(p.column.index) + ",\"rows\":";
  append_domains(out, p.column.rows);
  out += ",\"_h\":null},\"inclusion_proof\":";
  append_json(out, p.inclusion_proof);
  out += '}';
}

void append_proof(std::string& out, const PorepChallengeProof& p) {
  out += "{\"comm_d_proofs\":";
  append_json(out, p.comm_d_proofs);
  out += ",\"comm_r_last_proof\":";
  append_json(out, p.comm_r_last_proof);
  out += ",\"replica_column_proofs\":{\"c_x\":";
  append_column_proof(out, p.replica_column_proofs.c_x);
  out += ",\"drg_parents\":";
  append_array(out, p.replica_column_proofs.drg_parents, append_column_proof);
  out += ",\"exp_parents\":";
  append_array(out, p.replica_column_proofs.exp_parents, append_column_proof);
  out += "},\"labeling_proofs\":";
  append_array(out, p.labeling_proofs, append_labeling);
  out += ",\"encoding_proof\":";
  append_labeling(out, p.encoding_proof);
  out += '}';
}

// ---- parser -----------------------------------------------------------------------------------

// A position in the document, rendered only when a message needs it.
struct At {
  const At* parent = nullptr;
  std::string_view key;  // member name, or empty for an array element
  size_t index = 0;

  At field(std::string_view k) const { return At{this, k, 0}; }
  At element(size_t i) const { return At{this, {}, i}; }
  std::string render() const {
    if (parent == nullptr) return std::string(key);
    std::string s = parent->render();
    if (key.empty()) return s + "[" + std::to_string(index) + "]";
    return s.empty() ? std::string(key) : s + "." + std::string(key);
  }
};

[[noreturn]] void bad(const At& at, const std::string& what) {
  throw C1JsonError(at.render(), what);
}

const char* kind(const json& j) {
  return j.type_name();
}

const json& member(const json& obj, const char* key, const At& at) {
  if (!obj.is_object()) bad(at, std::string("expected an object, found ") + kind(obj));
  const auto it = obj.find(key);
  if (it == obj.end()) bad(at, std::string("missing field `") + key + "`");
  return *it;
}

const json& array(const json& j, const At& at) {
  if (!j.is_array()) bad(at, std::string("expected an array, found ") + kind(j));
  return j;
}

uint64_t unsigned_int(const json& j, uint64_t max, const At& at) {
  if (!j.is_number_unsigned()) {
    bad(at, std::string("expected an unsigned integer, found ") +
                (j.is_number() ? j.dump() : std::string(kind(j))));
  }
  const uint64_t v = j.get<uint64_t>();
  if (v > max)
    bad(at, std::to_string(v) + " is out of range (at most " + std::to_string(max) + ")");
  return v;
}

Domain domain(const json& j, const At& at) {
  if (!j.is_array() || j.size() != kNodeSize) {
    bad(at, std::string("expected an array of 32 integers 0..255, found ") +
                (j.is_array() ? "an array of " + std::to_string(j.size()) : std::string(kind(j))));
  }
  Domain d;
  for (size_t i = 0; i < kNodeSize; ++i) {
    const json& b = j[i];
    if (!b.is_number_unsigned() || b.get<uint64_t>() > 255) {
      bad(at.element(i), "expected an integer 0..255, found " + b.dump());
    }
    d[i] = static_cast<uint8_t>(b.get<uint64_t>());
  }
  return d;
}

std::vector<Domain> domains(const json& j, const At& at) {
  std::vector<Domain> out;
  out.reserve(array(j, at).size());
  for (size_t i = 0; i < j.size(); ++i)
    out.push_back(domain(j[i], at.element(i)));
  return out;
}

InclusionPath inclusion_path(const json& j, const At& at) {
  const At p = at.field("path");
  const json& elements = array(member(j, "path", at), p);
  InclusionPath out;
  out.reserve(elements.size());
  for (size_t i = 0; i < elements.size(); ++i) {
    const At e = p.element(i);
    PathElement pe;
    pe.hashes = domains(member(elements[i], "hashes", e), e.field("hashes"));
    pe.index = unsigned_int(member(elements[i], "index", e), std::numeric_limits<uint64_t>::max(),
                            e.field("index"));
    out.push_back(std::move(pe));
  }
  return out;
}

MerkleProof merkle_proof(const json& j, const At& at) {
  const At d = at.field("data");
  const json& data = member(j, "data", at);
  if (!data.is_object() || data.size() != 1) {
    bad(d, "expected an object with exactly one of \"Single\", \"Sub\", \"Top\"");
  }
  const std::string& variant = data.begin().key();
  const json& v = data.begin().value();
  const At va = d.field(variant);
  const auto path_of = [&](const char* name) {
    return inclusion_path(member(v, name, va), va.field(name));
  };
  const Domain root = domain(member(v, "root", va), va.field("root"));
  const Domain leaf = domain(member(v, "leaf", va), va.field("leaf"));
  if (variant == "Single") return MerkleProof{SingleProof{root, leaf, path_of("path")}};
  if (variant == "Sub") {
    return MerkleProof{SubProof{path_of("base_proof"), path_of("sub_proof"), root, leaf}};
  }
  if (variant == "Top") {
    return MerkleProof{
        TopProof{path_of("base_proof"), path_of("sub_proof"), path_of("top_proof"), root, leaf}};
  }
  bad(d, "unknown variant `" + quote_bytes(variant) + "`, expected one of `Single`, `Sub`, `Top`");
}

ColumnProof column_proof(const json& j, const At& at) {
  ColumnProof p;
  const At c = at.field("column");
  const json& col = member(j, "column", at);
  p.column.index = static_cast<uint32_t>(unsigned_int(
      member(col, "index", c), std::numeric_limits<uint32_t>::max(), c.field("index")));
  p.column.rows = domains(member(col, "rows", c), c.field("rows"));
  if (!member(col, "_h", c).is_null()) bad(c.field("_h"), "expected null (a PhantomData)");
  p.inclusion_proof = merkle_proof(member(j, "inclusion_proof", at), at.field("inclusion_proof"));
  return p;
}

std::vector<ColumnProof> column_proofs(const json& j, const At& at) {
  std::vector<ColumnProof> out;
  for (size_t i = 0; i < array(j, at).size(); ++i)
    out.push_back(column_proof(j[i], at.element(i)));
  return out;
}

LabelingProof labeling_proof(const json& j, const At& at) {
  LabelingProof p;
  p.parents = domains(member(j, "parents", at), at.field("parents"));
  p.layer_index = static_cast<uint32_t>(unsigned_int(
      member(j, "layer_index", at), std::numeric_limits<uint32_t>::max(), at.field("layer_index")));
  p.node =
      unsigned_int(member(j, "node", at), std::numeric_limits<uint64_t>::max(), at.field("node"));
  return p;
}

PorepChallengeProof challenge_proof(const json& j, const At& at) {
  PorepChallengeProof p;
  p.comm_d_proofs = merkle_proof(member(j, "comm_d_proofs", at), at.field("comm_d_proofs"));
  p.comm_r_last_proof =
      merkle_proof(member(j, "comm_r_last_proof", at), at.field("comm_r_last_proof"));
  const At r = at.field("replica_column_proofs");
  const json& rcp = member(j, "replica_column_proofs", at);
  p.replica_column_proofs.c_x = column_proof(member(rcp, "c_x", r), r.field("c_x"));
  p.replica_column_proofs.drg_parents =
      column_proofs(member(rcp, "drg_parents", r), r.field("drg_parents"));
  p.replica_column_proofs.exp_parents =
      column_proofs(member(rcp, "exp_parents", r), r.field("exp_parents"));
  const At l = at.field("labeling_proofs");
  const json& lps = array(member(j, "labeling_proofs", at), l);
  for (size_t i = 0; i < lps.size(); ++i)
    p.labeling_proofs.push_back(labeling_proof(lps[i], l.element(i)));
  p.encoding_proof = labeling_proof(member(j, "encoding_proof", at), at.field("encoding_proof"));
  return p;
}

}  // namespace

// Field by field in serde's order, as merkle_proof_codec.cpp writes the proofs inside.
std::string seal_commit_phase1_to_json(const SealCommitPhase1Output& c1) {
  const SealProofInfo& info = seal_proof_info(c1.registered_proof);
  std::string out;
  out.reserve(1024);
  out += "{\"registered_proof\":\"" + std::string(info.name) + "\",\"vanilla_proofs\":{\"" +
         vanilla_seal_proof_variant(info.sector_size) + "\":";
  append_array(out, c1.vanilla_proofs, [](std::string& o, const auto& partition) {
    append_array(o, partition, append_proof);
  });
  out += "},\"comm_r\":";
  append_json(out, c1.comm_r);
  out += ",\"comm_d\":";
  append_json(out, c1.comm_d);
  out += ",\"replica_id\":";
  append_json(out, c1.replica_id);
  out += ",\"seed\":";
  append_json(out, c1.seed);
  out += ",\"ticket\":";
  append_json(out, c1.ticket);
  out += '}';
  return out;
}

SealCommitPhase1Output seal_commit_phase1_from_json(std::string_view text) {
  json doc;
  try {
    doc = parse_json_bounded(text, kMaxC1JsonDepth);
  } catch (const JsonLimitError& e) {
    throw C1JsonError("", e.what());
  }
  const At root{};
  SealCommitPhase1Output c1;
  const json& rp = member(doc, "registered_proof", root);
  if (!rp.is_string()) bad(root.field("registered_proof"), "expected a string");
  try {
    c1.registered_proof = seal_proof_from_name(rp.get<std::string>());
  } catch (const std::invalid_argument&) {
    bad(root.field("registered_proof"),
        "unknown registered seal proof \"" + quote_bytes(rp.get<std::string>()) + "\"");
  }
  const uint64_t sector_size = seal_proof_info(c1.registered_proof).sector_size;

  const At vp = root.field("vanilla_proofs");
  const json& vanilla = member(doc, "vanilla_proofs", root);
  if (!vanilla.is_object() || vanilla.size() != 1) {
    bad(vp, "expected an object with one StackedDrg<size>V1 variant");
  }
  const std::string& variant = vanilla.begin().key();
  const std::string expected = vanilla_seal_proof_variant(sector_size);
  if (variant != expected) {
    bad(vp, "variant `" + quote_bytes(variant) + "` does not match registered_proof " +
                rp.get<std::string>() + " (expected `" + expected + "`)");
  }
  const At pv = vp.field(variant);
  const json& partitions = array(vanilla.begin().value(), pv);
  for (size_t k = 0; k < partitions.size(); ++k) {
    const At pk = pv.element(k);
    const json& proofs = array(partitions[k], pk);
    std::vector<PorepChallengeProof> out;
    out.reserve(proofs.size());
    for (size_t i = 0; i < proofs.size(); ++i)
      out.push_back(challenge_proof(proofs[i], pk.element(i)));
    c1.vanilla_proofs.push_back(std::move(out));
  }
  c1.comm_r = domain(member(doc, "comm_r", root), root.field("comm_r"));
  c1.comm_d = domain(member(doc, "comm_d", root), root.field("comm_d"));
  c1.replica_id = domain(member(doc, "replica_id", root), root.field("replica_id"));
  c1.seed = domain(member(doc, "seed", root), root.field("seed"));
  c1.ticket = domain(member(doc, "ticket", root), root.field("ticket"));
  return c1;
}

}  // namespace cuzk::filecoin
