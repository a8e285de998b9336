// The SealCommitPhase1Output JSON (facts sheet 6.5; oracle c1_json_schema): field names and their
// order at every level, compact serde_json form, the V1 variant name for every proof version, the
// Single / Sub / Top Merkle proof forms of 2 KiB, 32 GiB and 64 GiB; the parser's acceptance of
// reordered and unknown fields and its refusal of malformed input with the field's path; the
// cuzk c1.json wrapper and standard base64 (RFC 4648 section 10 vectors).
#include "porep/vanilla/c1_json.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "filecoin/base64.hpp"
#include "oracle_file.hpp"
#include "porep/vanilla/c1_wrapper.hpp"
#include "porep/vanilla/porep_verify.hpp"
#include "porep/vanilla/synthetic_c1.hpp"

namespace cuzk::filecoin {
namespace {

using ordered = nlohmann::ordered_json;

SealCommitPhase1Output synthetic(RegisteredSealProof p, uint64_t seed = 1) {
  SyntheticC1Params params;
  params.seed = seed;
  return make_synthetic_c1(porep_config(p), params).c1;
}

const std::string& two_kib_json() {
  static const std::string j =
      seal_commit_phase1_to_json(synthetic(RegisteredSealProof::kStackedDrg2KiBV1_1));
  return j;
}

std::vector<std::string> keys(const ordered& j) {
  std::vector<std::string> out;
  for (const auto& [k, v] : j.items())
    out.push_back(k);
  return out;
}

std::vector<std::string> schema(const char* name) {
  return test::oracles().at("c1_json_schema").at(name).get<std::vector<std::string>>();
}

TEST(C1Json, FieldsHaveTheSerdeNamesInDeclarationOrderAtEveryLevel) {
  const ordered doc = ordered::parse(two_kib_json());
  EXPECT_EQ(keys(doc), schema("top_level_fields_in_order"));
  EXPECT_EQ(doc.at("registered_proof"), "StackedDrg2KiBV1_1");
  EXPECT_EQ(keys(doc.at("vanilla_proofs")), std::vector<std::string>{"StackedDrg2KiBV1"});
  const ordered& proof = doc.at("vanilla_proofs").at("StackedDrg2KiBV1").at(0).at(1);
  EXPECT_EQ(keys(proof), schema("proof_fields"));
  EXPECT_EQ(keys(proof.at("replica_column_proofs")), schema("replica_column_proofs_fields"));
  const ordered& cp = proof.at("replica_column_proofs").at("drg_parents").at(3);
  EXPECT_EQ(keys(cp), schema("column_proof_fields"));
  EXPECT_EQ(keys(cp.at("column")), schema("column_fields"));
  EXPECT_TRUE(cp.at("column").at("_h").is_null());
  EXPECT_EQ(keys(proof.at("labeling_proofs").at(0)), schema("labeling_proof_fields"));
  EXPECT_EQ(keys(proof.at("encoding_proof")), schema("encoding_proof_fields"));
  EXPECT_EQ(keys(proof.at("comm_d_proofs").at("data").at("Single")), schema("single_fields"));
  const ordered& path = proof.at("comm_r_last_proof").at("data").at("Single").at("path");
  EXPECT_EQ(keys(path), std::vector<std::string>{"path"});
  EXPECT_EQ(keys(path.at("path").at(0)), (std::vector<std::string>{"hashes", "index"}));
  EXPECT_EQ(path.at("path").at(0).at("hashes").size(), 7u);
  EXPECT_EQ(doc.at("comm_r").size(), 32u);
  // serde_json::to_string: no whitespace anywhere.
  EXPECT_EQ(two_kib_json().find_first_of(" \n\t"), std::string::npos);
  EXPECT_EQ(two_kib_json().rfind("{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":"
                                 "{\"StackedDrg2KiBV1\":[[{\"comm_d_proofs\":{\"data\":{\"Single\":"
                                 "{\"root\":[",
                                 0),
            0u);
}

TEST(C1Json, ThirtyTwoAndSixtyFourGiBUseSubAndTopProofsAndRoundTrip) {
  for (const auto& [proof, variant, fields] :
       {std::tuple{RegisteredSealProof::kStackedDrg32GiBV1_1, "Sub", "sub_fields"},
        std::tuple{RegisteredSealProof::kStackedDrg64GiBV1_1, "Top", "top_fields"}}) {
    const SealCommitPhase1Output c1 = synthetic(proof);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string json = seal_commit_phase1_to_json(c1);
    const auto t1 = std::chrono::steady_clock::now();
    const SealCommitPhase1Output back = seal_commit_phase1_from_json(json);
    const auto t2 = std::chrono::steady_clock::now();
    EXPECT_EQ(back, c1);
    std::printf("%s C1 JSON: %.1f MB, write %.2f s, parse %.2f s\n",
                std::string(seal_proof_info(proof).name).c_str(), json.size() / 1e6,
                std::chrono::duration<double>(t1 - t0).count(),
                std::chrono::duration<double>(t2 - t1).count());
    const size_t at = json.find("\"comm_r_last_proof\":{\"data\":{\"");
    ASSERT_NE(at, std::string::npos);
    const ordered mp = ordered::parse(
        json.substr(at + 20, json.find("},\"replica_column_proofs\"", at) - at - 20 + 1));
    EXPECT_EQ(keys(mp.at("data").at(variant)), schema(fields));
    EXPECT_EQ(mp.at("data").at(variant).at("base_proof").at("path").size(), 9u);
    EXPECT_EQ(mp.at("data").at(variant).at("sub_proof").at("path").size(), 1u);
  }
}

TEST(C1Json, EveryVersionAndFeatureUsesTheV1VariantName) {
  for (uint32_t id = 0; id < kSealProofCount; ++id) {
    const SealProofInfo& info = seal_proof_info(seal_proof_from_id(id));
    SealCommitPhase1Output c1;
    c1.registered_proof = seal_proof_from_id(id);
    const std::string json = seal_commit_phase1_to_json(c1);
    EXPECT_NE(json.find("\"vanilla_proofs\":{\"" + vanilla_seal_proof_variant(info.sector_size) +
                        "\":[]}"),
              std::string::npos)
        << info.name;
    EXPECT_EQ(seal_commit_phase1_from_json(json), c1) << info.name;
  }
}

TEST(C1Json, AcceptsReorderedAndUnknownFieldsLikeSerde) {
  nlohmann::json doc = nlohmann::json::parse(two_kib_json());  // std::map: keys sorted
  doc["extra"] = {1, 2, 3};
  doc["vanilla_proofs"]["StackedDrg2KiBV1"][0][0]["replica_column_proofs"]["note"] = "ignored";
  EXPECT_EQ(seal_commit_phase1_from_json(doc.dump()), seal_commit_phase1_from_json(two_kib_json()));
}

// Applies `edit` to the 2 KiB document and expects a C1JsonError naming `field` and `phrase`.
void expect_refused(const std::function<void(nlohmann::json&)>& edit, const std::string& field,
                    const std::string& phrase) {
  nlohmann::json doc = nlohmann::json::parse(two_kib_json());
  edit(doc);
  try {
    seal_commit_phase1_from_json(doc.dump());
    ADD_FAILURE() << "accepted a document with a bad " << field;
  } catch (const C1JsonError& e) {
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
  }
}

TEST(C1Json, RefusesMalformedInputNamingTheField) {
  const std::string p0 = "vanilla_proofs.StackedDrg2KiBV1[0][0]";
  const auto proof0 = [](nlohmann::json& d) -> nlohmann::json& {
    return d["vanilla_proofs"]["StackedDrg2KiBV1"][0][0];
  };
  expect_refused([&](auto& d) { proof0(d)["replica_column_proofs"]["c_x"]["column"].erase("_h"); },
                 p0 + ".replica_column_proofs.c_x.column", "missing field `_h`");
  expect_refused([&](auto& d) { proof0(d)["replica_column_proofs"]["c_x"]["column"]["_h"] = 0; },
                 p0 + ".replica_column_proofs.c_x.column._h", "expected null");
  expect_refused([&](auto& d) { d["comm_r"][5] = 256; }, "comm_r[5]", "expected an integer 0..255");
  expect_refused([&](auto& d) { d["seed"].erase(d["seed"].begin()); }, "seed",
                 "expected an array of 32 integers 0..255, found an array of 31");
  expect_refused([&](auto& d) { d.erase("ticket"); }, "", "missing field `ticket`");
  expect_refused([&](auto& d) { d["registered_proof"] = "StackedDrg3KiBV1"; }, "registered_proof",
                 "unknown registered seal proof");
  expect_refused([&](auto& d) { d["registered_proof"] = 5; }, "registered_proof",
                 "expected a string");
  expect_refused([&](auto& d) { d["registered_proof"] = "StackedDrg8MiBV1_1"; }, "vanilla_proofs",
                 "does not match registered_proof");
  expect_refused(
      [&](auto& d) {
        auto& rows = proof0(d)["replica_column_proofs"]["drg_parents"][4]["column"]["rows"];
        rows[1][0] = "12";
      },
      p0 + ".replica_column_proofs.drg_parents[4].column.rows[1][0]", "expected an integer");
  expect_refused([&](auto& d) { proof0(d)["labeling_proofs"][1]["layer_index"] = 4294967296ULL; },
                 p0 + ".labeling_proofs[1].layer_index", "out of range");
  expect_refused([&](auto& d) { proof0(d)["encoding_proof"]["node"] = -3; },
                 p0 + ".encoding_proof.node", "expected an unsigned integer");
  expect_refused([&](auto& d) { proof0(d)["comm_d_proofs"]["data"]["Double"] = 1; },
                 p0 + ".comm_d_proofs.data", "exactly one of");
  expect_refused(
      [&](auto& d) {
        auto& data = proof0(d)["comm_d_proofs"]["data"];
        data["Triple"] = data["Single"];
        data.erase("Single");
      },
      p0 + ".comm_d_proofs.data", "unknown variant `Triple`");
  expect_refused(
      [&](auto& d) {
        proof0(d)["comm_r_last_proof"]["data"]["Single"]["path"]["path"][1].erase("index");
      },
      p0 + ".comm_r_last_proof.data.Single.path.path[1]", "missing field `index`");
  expect_refused(
      [&](auto& d) {
        proof0(d)["replica_column_proofs"]["exp_parents"] = {{"a", 1}};
      },
      p0 + ".replica_column_proofs.exp_parents", "expected an array, found object");
  expect_refused([&](auto& d) { d = nlohmann::json::array(); }, "", "expected an object");

  try {
    seal_commit_phase1_from_json(two_kib_json().substr(0, 5000));
    ADD_FAILURE() << "accepted a truncated document";
  } catch (const C1JsonError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
  }
}

TEST(C1Wrapper, WrapsTheDocumentInStandardBase64AndChecksTheSectorSize) {
  C1Wrapper w{42, two_kib_json(), 2048};
  const std::string text = c1_wrapper_to_json(w);
  const ordered j = ordered::parse(text);
  EXPECT_EQ(keys(j), (std::vector<std::string>{"SectorNum", "Phase1Out", "SectorSize"}));
  EXPECT_EQ(base64_encode(std::span<const uint8_t>(
                reinterpret_cast<const uint8_t*>(two_kib_json().data()), two_kib_json().size())),
            j.at("Phase1Out").get<std::string>());
  const C1Document d = parse_c1_document(text);
  EXPECT_EQ(d.sector_num, std::optional<uint64_t>(42));
  EXPECT_EQ(d.c1, seal_commit_phase1_from_json(two_kib_json()));
  EXPECT_FALSE(parse_c1_document(two_kib_json()).sector_num.has_value());

  const auto refused = [](const std::string& doc, const std::string& field,
                          const std::string& phrase) {
    try {
      parse_c1_document(doc);
      ADD_FAILURE() << "accepted " << doc.substr(0, 80);
    } catch (const C1JsonError& e) {
      EXPECT_EQ(e.field(), field) << e.what();
      EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
    }
  };
  refused(c1_wrapper_to_json({42, two_kib_json(), 4096}), "SectorSize", "differs");
  refused("{\"SectorNum\":1,\"Phase1Out\":\"abc\",\"SectorSize\":2048}", "Phase1Out", "base64");
  refused("{\"SectorNum\":-1,\"Phase1Out\":\"\",\"SectorSize\":2048}", "SectorNum",
          "expected an unsigned integer");
  refused("{\"SectorNum\":1,\"SectorSize\":2048,\"X\":\"Phase1Out\"}", "Phase1Out", "missing");
  refused(c1_wrapper_to_json({1, "{\"registered_proof\":\"StackedDrg2KiBV1\"}", 2048}), "Phase1Out",
          "missing field `vanilla_proofs`");
}

TEST(Base64, MatchesTheRfc4648VectorsAndRefusesMalformedText) {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(plain),
                                         std::strlen(plain));
    EXPECT_EQ(base64_encode(bytes), encoded);
    const auto back = base64_decode(encoded);
    EXPECT_EQ(std::string(back.begin(), back.end()), plain);
  }
  EXPECT_EQ(base64_encode(std::vector<uint8_t>{0xfb, 0xff}), "+/8=");
  for (const char* bad : {"Zg=", "Zg=a", "Z===", "Zm9v$A==", "Zh==", "=Zg="})
    EXPECT_THROW(base64_decode(bad), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace cuzk::filecoin
