// proto/cuzk/v1/proving.proto as compiled (its descriptor in cuzk_proto) against the cuzk.v1 API
// reference, ../shared/reference/cuzk-v1-api.md, parsed here: the package and service, every
// rpc with its request and response, every enum value, every message's fields by name, number,
// type and label, in both directions (nothing missing, nothing extra). A client built for the
// Rust cuzk daemon speaks exactly that table, so the table is the oracle. The reference is found
// through ../shared (CUZK_API_REFERENCE overrides it); missing, it fails under CI=true and skips
// elsewhere.
#include <gtest/gtest.h>

#include <google/protobuf/descriptor.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cuzk/v1/proving.pb.h"

namespace cuzk::server {
namespace {

namespace pb = google::protobuf;

// What the reference says.
struct ApiTable {
  std::string package, service;
  std::map<std::string, std::pair<std::string, std::string>> rpcs;  // name -> request, response
  std::map<std::string, std::map<std::string, int>> enums;          // "Outer.Inner" for nested ones
  struct Field {
    int number = 0;
    std::string type;  // "uint64", "repeated bytes", "GPUStatus", ...
  };
  std::map<std::string, std::map<std::string, Field>> messages;
};

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t.");
  const size_t e = s.find_last_not_of(" \t.");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The bullets of the paragraph that starts with `heading` (continuation lines joined).
std::vector<std::string> bullets_after(const std::string& md, const std::string& heading) {
  std::vector<std::string> out;
  const size_t at = md.find(heading);
  if (at == std::string::npos) return out;
  std::istringstream in(md.substr(at + heading.size()));
  std::string line;
  std::getline(in, line);  // the rest of the heading's line
  while (std::getline(in, line)) {
    if (line.rfind("- ", 0) == 0) {
      out.push_back(line.substr(2));
    } else if (!line.empty() && (line[0] == ' ') && !out.empty()) {
      out.back() += " " + trim(line);
    } else {
      break;
    }
  }
  return out;
}

ApiTable parse_reference(const std::string& md) {
  ApiTable t;
  std::smatch m;
  if (std::regex_search(md, m, std::regex(R"(package `([\w.]+)`, one service `(\w+)`)"))) {
    t.package = m[1];
    t.service = m[2];
  }
  // | SubmitProof | SubmitProofRequest | SubmitProofResponse | meaning |
  const std::regex rpc_row(R"(^\| (\w+) \| (\w+) \| (\w+) \|)");
  std::istringstream lines(md);
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, m, rpc_row) && m[1] != "rpc") t.rpcs[m[1]] = {m[2], m[3]};
  }
  // - `ProofKind`: A=0, B=1.  /  - `AwaitProofResponse.Status` (nested): UNKNOWN=0, ...
  for (const std::string& b : bullets_after(md, "Enums:")) {
    if (!std::regex_search(b, m, std::regex(R"(^`([\w.]+)`[^:]*:(.*)$)"))) continue;
    const std::string name = m[1];
    const std::string values = m[2];
    const std::regex value(R"((\w+)=(\d+))");
    for (auto it = std::sregex_iterator(values.begin(), values.end(), value);
         it != std::sregex_iterator(); ++it)
      t.enums[name][(*it)[1]] = std::stoi((*it)[2]);
  }
  // - SubmitProofRequest: request_id=1:string (comment), ... ; several messages may share a
  //   bullet ("ProveRequest: submit=1:SubmitProofRequest. ProveResponse: result=1:..."), and
  //   "a=10, b=11 (all uint64)" gives the untyped fields before it their type.
  for (std::string b : bullets_after(md, "Messages (field = number : type):")) {
    std::string all_type;
    if (std::regex_search(b, m, std::regex(R"(\(all (\w+)\))"))) all_type = m[1];
    b = std::regex_replace(b, std::regex(R"(\([^)]*\))"), "");
    const std::regex head(R"((^|\. )([A-Z]\w*): )");
    std::vector<std::pair<std::string, size_t>> heads;  // message, where its fields begin
    std::vector<size_t> ends;
    for (auto it = std::sregex_iterator(b.begin(), b.end(), head); it != std::sregex_iterator();
         ++it) {
      if (!heads.empty()) ends.push_back(static_cast<size_t>(it->position()));
      heads.emplace_back((*it)[2], static_cast<size_t>(it->position() + it->length()));
    }
    ends.push_back(b.size());
    for (size_t i = 0; i < heads.size(); ++i) {
      const std::string body = trim(b.substr(heads[i].second, ends[i] - heads[i].second));
      auto& fields = t.messages[heads[i].first];
      if (body == "empty") continue;
      std::istringstream parts(body);
      for (std::string part; std::getline(parts, part, ',');) {
        std::smatch f;
        const std::string p = trim(part);
        if (!std::regex_match(p, f, std::regex(R"((\w+)=(\d+)(?::(.+))?)"))) {
          fields["?" + p] = {};  // unparsable: reported as a difference
          continue;
        }
        fields[f[1]] = {std::stoi(f[2]), f[3].matched ? trim(f[3]) : all_type};
      }
    }
  }
  return t;
}

std::string type_of(const pb::FieldDescriptor* f) {
  std::string type;
  if (f->type() == pb::FieldDescriptor::TYPE_MESSAGE) {
    type = f->message_type()->name();
  } else if (f->type() == pb::FieldDescriptor::TYPE_ENUM) {
    type = f->enum_type()->name();
  } else {
    type = f->type_name();
  }
  return f->is_repeated() ? "repeated " + type : type;
}

void enum_values(const pb::EnumDescriptor* e, std::map<std::string, int>* out) {
  for (int i = 0; i < e->value_count(); ++i)
    (*out)[e->value(i)->name()] = e->value(i)->number();
}

// What the compiled .proto says, in the reference's terms.
ApiTable from_descriptor(const pb::FileDescriptor* file) {
  ApiTable t;
  t.package = file->package();
  if (file->service_count() == 1) {
    const pb::ServiceDescriptor* s = file->service(0);
    t.service = s->name();
    for (int i = 0; i < s->method_count(); ++i) {
      const pb::MethodDescriptor* m = s->method(i);
      t.rpcs[m->name()] = {m->input_type()->name(), m->output_type()->name()};
    }
  } else {
    t.service = std::to_string(file->service_count()) + " services";
  }
  for (int i = 0; i < file->enum_type_count(); ++i)
    enum_values(file->enum_type(i), &t.enums[file->enum_type(i)->name()]);
  for (int i = 0; i < file->message_type_count(); ++i) {
    const pb::Descriptor* d = file->message_type(i);
    auto& fields = t.messages[d->name()];
    for (int k = 0; k < d->field_count(); ++k)
      fields[d->field(k)->name()] = {d->field(k)->number(), type_of(d->field(k))};
    for (int k = 0; k < d->enum_type_count(); ++k)
      enum_values(d->enum_type(k), &t.enums[d->name() + "." + d->enum_type(k)->name()]);
    if (d->nested_type_count() != 0) fields["<nested messages>"] = {d->nested_type_count(), ""};
  }
  return t;
}

// Every way the two disagree, one line each ("" when none).
std::vector<std::string> differences(const ApiTable& want, const ApiTable& got) {
  std::vector<std::string> out;
  const auto say = [&](const std::string& s) { out.push_back(s); };
  if (want.package != got.package) say("package " + got.package + ", want " + want.package);
  if (want.service != got.service) say("service " + got.service + ", want " + want.service);
  for (const auto& [name, rr] : want.rpcs) {
    const auto it = got.rpcs.find(name);
    if (it == got.rpcs.end()) {
      say("rpc " + name + " missing");
    } else if (it->second != rr) {
      say("rpc " + name + "(" + it->second.first + ") returns " + it->second.second + ", want (" +
          rr.first + ") returns " + rr.second);
    }
  }
  for (const auto& [name, rr] : got.rpcs)
    if (want.rpcs.count(name) == 0) say("rpc " + name + " not in the reference");
  for (const auto& [name, values] : want.enums) {
    const auto it = got.enums.find(name);
    if (it == got.enums.end()) {
      say("enum " + name + " missing");
      continue;
    }
    for (const auto& [v, n] : values) {
      const auto g = it->second.find(v);
      if (g == it->second.end()) {
        say("enum " + name + " lacks " + v);
      } else if (g->second != n) {
        say("enum " + name + "." + v + " = " + std::to_string(g->second) + ", want " +
            std::to_string(n));
      }
    }
    for (const auto& [v, n] : it->second)
      if (values.count(v) == 0) say("enum " + name + "." + v + " not in the reference");
  }
  for (const auto& [name, values] : got.enums)
    if (want.enums.count(name) == 0) say("enum " + name + " not in the reference");
  for (const auto& [name, fields] : want.messages) {
    const auto it = got.messages.find(name);
    if (it == got.messages.end()) {
      say("message " + name + " missing");
      continue;
    }
    for (const auto& [f, spec] : fields) {
      const auto g = it->second.find(f);
      if (g == it->second.end()) {
        say(name + "." + f + " missing");
      } else if (g->second.number != spec.number || g->second.type != spec.type) {
        say(name + "." + f + " = " + std::to_string(g->second.number) + ":" + g->second.type +
            ", want " + std::to_string(spec.number) + ":" + spec.type);
      }
    }
    for (const auto& [f, spec] : it->second)
      if (fields.count(f) == 0) say(name + "." + f + " not in the reference");
  }
  for (const auto& [name, fields] : got.messages)
    if (want.messages.count(name) == 0) say("message " + name + " not in the reference");
  return out;
}

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

// The reference's text, or "" when it is not there.
std::string reference_text() {
  const char* env = std::getenv("CUZK_API_REFERENCE");
  std::ifstream in(env != nullptr ? env : CUZK_API_REFERENCE_DEFAULT);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const pb::FileDescriptor* compiled() {
  return cuzk::v1::SubmitProofRequest::descriptor()->file();
}

#define LOAD_REFERENCE(md)                                                     \
  const std::string md = reference_text();                                     \
  if (md.empty()) {                                                            \
    if (in_ci()) FAIL() << "CI=true and the cuzk.v1 API reference is missing"; \
    GTEST_SKIP() << "../shared/reference/cuzk-v1-api.md is missing";           \
  }

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v)
    s += "\n  " + x;
  return s;
}

TEST(ProtoApi, TheCompiledProtoIsExactlyTheReferenceTable) {
  LOAD_REFERENCE(md);
  const ApiTable want = parse_reference(md);
  // The parse found the whole table (an empty parse would agree with nothing checked).
  EXPECT_EQ(want.package, "cuzk.v1");
  EXPECT_EQ(want.rpcs.size(), 8u);
  EXPECT_EQ(want.enums.size(), 4u);
  EXPECT_EQ(want.messages.size(), 19u);
  EXPECT_EQ(want.messages.at("SubmitProofRequest").size(), 14u);
  EXPECT_EQ(want.messages.at("AwaitProofResponse").at("total_ms").type, "uint64");
  EXPECT_EQ(want.messages.at("SubmitProofRequest").at("vanilla_proofs").type, "repeated bytes");
  const std::vector<std::string> diff = differences(want, from_descriptor(compiled()));
  EXPECT_TRUE(diff.empty()) << "proving.proto differs from cuzk-v1-api.md:" << joined(diff);
}

// The comparison sees a change of each kind (number, type, name, enum value, rpc): edited
// copies of the reference disagree with the compiled .proto, each naming what changed.
TEST(ProtoApi, AnEditedReferenceIsCaught) {
  LOAD_REFERENCE(md);
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"total_ms=14", "total_ms=15"},
      {"miner_id=21:uint64", "miner_id=21:int64"},
      {"partition_index=23:uint32", "partition_idx=23:uint32"},
      {"CRITICAL=4", "CRITICAL=5"},
      {"| Prove | ProveRequest | ProveResponse |", "| Prove | ProveRequest | AwaitProofResponse |"},
      {"vanilla_proofs=11:repeated bytes", "vanilla_proofs=11:bytes"},
      {"ref_count=4:uint32", "ref_count=4:uint32, pinned=5:bool"},
  };
  const ApiTable got = from_descriptor(compiled());
  for (const auto& [from, to] : edits) {
    std::string edited = md;
    const size_t at = edited.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    edited.replace(at, from.size(), to);
    EXPECT_FALSE(differences(parse_reference(edited), got).empty()) << from << " -> " << to;
  }
}

}  // namespace
}  // namespace cuzk::server
