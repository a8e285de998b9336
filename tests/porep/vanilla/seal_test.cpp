// Sealing a 2 KiB sector end to end (PC1, PC2, C1) against the oracle's derived_sdr_2KiB_example
// (all-zero V1_1 sector, prover actor 1000, sector 1, ticket 01.., seed 02..: replica_id, comm_c,
// comm_r_last, comm_r, the partition-0 challenges), the cache files rust-fil-proofs names, p_aux
// and t_aux, a sector with data (comm_d = the piece commitment of its unpadded data, pieces.hpp),
// every registered 2 KiB proof type (V1, V1_1, synthetic, non-interactive) through C1 and the
// vanilla verifier, and the round trip C1 -> JSON -> parse -> verify.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <random>

#include "common/temp_dir.hpp"
#include "filecoin/fr32.hpp"
#include "filecoin/pieces.hpp"
#include "oracle_file.hpp"
#include "porep/vanilla/c1_json.hpp"
#include "porep/vanilla/c1_wrapper.hpp"
#include "porep/vanilla/porep_verify.hpp"
#include "porep/vanilla/seal_commit.hpp"
#include "porep/vanilla/seal_precommit.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::filecoin {
namespace {

using cuzk::testing::TempDir;

Ticket ticket_hex(const nlohmann::json& j) {
  return test::domain_hex(j);
}

struct Sealed {
  PorepConfig config;
  std::filesystem::path cache, sealed;
  Domain prover_id{};
  uint64_t sector_id = 0;
  Ticket ticket{}, seed{};
  PreCommit1Output pc1;
  PreCommit2Output pc2;
  SealCommitPhase1Output c1;
};

Sealed seal(const TempDir& dir, RegisteredSealProof proof,
            const std::optional<std::filesystem::path>& staged = std::nullopt,
            ThreadPool* pool = nullptr) {
  const auto& ex = test::oracles().at("derived_sdr_2KiB_example");
  Sealed s;
  s.config = porep_config(proof);
  s.cache = dir.path() / "cache";
  s.sealed = dir.path() / "sealed";
  s.prover_id = test::domain_hex(ex.at("prover_id"));
  s.sector_id = ex.at("sector_id").get<uint64_t>();
  s.ticket = ticket_hex(ex.at("ticket"));
  s.seed = ticket_hex(ex.at("seed"));
  SealOptions o;
  o.parent_cache_dir = dir.path() / "parents";
  o.pool = pool;
  s.pc1 = seal_pre_commit_phase1(s.config, s.cache, staged, s.sealed, s.prover_id, s.sector_id,
                                 s.ticket, o);
  s.pc2 = seal_pre_commit_phase2(s.config, s.pc1, s.cache, s.sealed, o);
  SealCommitInputs in{s.cache,  s.sealed, s.prover_id,  s.sector_id,
                      s.ticket, s.seed,   s.pc2.comm_d, s.pc2.comm_r};
  s.c1 = seal_commit_phase1(s.config, in, pool);
  return s;
}

const Sealed& zero_sector() {
  static TempDir dir("seal-2k");
  static const Sealed s = seal(dir, RegisteredSealProof::kStackedDrg2KiBV1_1);
  return s;
}

TEST(Seal, ZeroTwoKiBSectorGivesTheOracleReplicaIdAndCommitments) {
  const auto& ex = test::oracles().at("derived_sdr_2KiB_example");
  const Sealed& s = zero_sector();
  EXPECT_EQ(to_hex(s.pc1.comm_d), ex.at("comm_d").get<std::string>());
  EXPECT_EQ(s.pc1.comm_d, empty_comm_d(2048));
  EXPECT_EQ(to_hex(s.pc1.replica_id), ex.at("replica_id").get<std::string>());
  EXPECT_EQ(to_hex(s.pc2.p_aux.comm_c), ex.at("comm_c").get<std::string>());
  EXPECT_EQ(to_hex(s.pc2.p_aux.comm_r_last), ex.at("comm_r_last").get<std::string>());
  EXPECT_EQ(to_hex(s.pc2.comm_r), ex.at("comm_r").get<std::string>());
}

TEST(Seal, CommitPhaseOneProvesTheOracleChallengesWithTheirParents) {
  const auto& ex = test::oracles().at("derived_sdr_2KiB_example");
  const Sealed& s = zero_sector();
  ASSERT_EQ(s.c1.vanilla_proofs.size(), 1u);
  ASSERT_EQ(s.c1.vanilla_proofs[0].size(), 2u);
  const auto expected = ex.at("challenges_k0").get<std::vector<uint64_t>>();
  for (size_t i = 0; i < 2; ++i) {
    const PorepChallengeProof& p = s.c1.vanilla_proofs[0][i];
    const uint64_t c = p.replica_column_proofs.c_x.column.index;
    EXPECT_EQ(c, expected[i]);
    EXPECT_EQ(merkle_proof_leaf_index(p.comm_d_proofs), c);
    const auto parents =
        ex.at("parents_of_challenges").at(std::to_string(c)).get<std::vector<uint64_t>>();
    for (size_t j = 0; j < 6; ++j)
      EXPECT_EQ(p.replica_column_proofs.drg_parents[j].column.index, parents[j]);
    for (size_t j = 0; j < 8; ++j)
      EXPECT_EQ(p.replica_column_proofs.exp_parents[j].column.index, parents[6 + j]);
    // 2 KiB: binary tree_d of 6 levels, 8-0-0 trees of 2 levels (facts sheet 6.5).
    EXPECT_EQ(p.comm_d_proofs.path_length(), 6u);
    EXPECT_EQ(p.comm_r_last_proof.path_length(), 2u);
    EXPECT_EQ(p.labeling_proofs.size(), 2u);
    EXPECT_EQ(p.labeling_proofs[1].parents.size(), 37u);
    EXPECT_EQ(p.encoding_proof, p.labeling_proofs[1]);
  }
  EXPECT_NO_THROW(verify_seal_commit_phase1(s.c1));
}

TEST(Seal, CacheDirectoryHoldsTheFilesRustFilProofsNamesWithTheirContents) {
  const Sealed& s = zero_sector();
  const auto size = [&](const char* name) { return std::filesystem::file_size(s.cache / name); };
  EXPECT_EQ(size("sc-02-data-tree-d.dat"), 127u * 32);
  EXPECT_EQ(size("sc-02-data-layer-1.dat"), 64u * 32);
  EXPECT_EQ(size("sc-02-data-layer-2.dat"), 64u * 32);
  EXPECT_EQ(size("sc-02-data-tree-c.dat"), 73u * 32);
  // tree_r_last of 64 leaves discards 1 row (default_rows_to_discard): row 2 and the root remain.
  EXPECT_EQ(size("sc-02-data-tree-r-last.dat"), 1u * 32);
  EXPECT_EQ(read_p_aux(s.cache), s.pc2.p_aux);
  const MappedFile t(s.cache / "t_aux");
  const TemporaryAux t_aux = decode_t_aux(t.bytes());
  EXPECT_EQ(t_aux, default_t_aux(64, 2, {8, 0, 0}, s.cache.string()));
  EXPECT_EQ(t_aux.tree_r_last_config.rows_to_discard, 1u);
  EXPECT_EQ(s.pc1.labels, t_aux.labels);
  EXPECT_EQ(s.pc1.tree_d_config, t_aux.tree_d_config);
  // A zero sector's replica is the last layer (replica = key + 0).
  const MappedFile sealed(s.sealed), last(s.cache / "sc-02-data-layer-2.dat");
  EXPECT_TRUE(std::equal(sealed.bytes().begin(), sealed.bytes().end(), last.bytes().begin(),
                         last.bytes().end()));
  EXPECT_TRUE(std::filesystem::exists(s.pc1.parent_cache));
  EXPECT_EQ(
      s.pc1.parent_cache.filename().string(),
      "v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b.cache");
}

TEST(Seal, CommitPhaseOneRoundTripsThroughJsonAndTheWrapperAndStillVerifies) {
  const Sealed& s = zero_sector();
  const std::string json = seal_commit_phase1_to_json(s.c1);
  const SealCommitPhase1Output parsed = seal_commit_phase1_from_json(json);
  EXPECT_EQ(parsed, s.c1);
  EXPECT_EQ(seal_commit_phase1_to_json(parsed), json);
  PorepVerifyOptions o;
  o.prover_id = s.prover_id;
  o.sector_id = s.sector_id;
  EXPECT_NO_THROW(verify_seal_commit_phase1(parsed, o));

  TempDir dir("c1");
  write_c1_file(dir.path() / "c1.json", s.c1, s.sector_id);
  const C1Document doc = read_c1_file(dir.path() / "c1.json");
  EXPECT_EQ(doc.sector_num, std::optional<uint64_t>(s.sector_id));
  EXPECT_EQ(doc.c1, s.c1);
  std::ifstream in(dir.path() / "c1.json");
  const nlohmann::json w = nlohmann::json::parse(in);
  EXPECT_EQ(w.at("SectorSize").get<uint64_t>(), 2048u);
}

TEST(Seal, WrongProverOrSectorIsRefusedByTheReplicaIdCheck) {
  const Sealed& s = zero_sector();
  PorepVerifyOptions o;
  o.prover_id = prover_id_from_actor_id(1001);
  o.sector_id = s.sector_id;
  try {
    verify_seal_commit_phase1(s.c1, o);
    FAIL() << "a foreign prover id verified";
  } catch (const PorepVerifyError& e) {
    EXPECT_NE(std::string(e.what()).find("replica_id"), std::string::npos) << e.what();
  }
}

TEST(Seal, EveryRegisteredTwoKiBProofTypeSealsAndItsCommitPhaseOneVerifies) {
  ThreadPool pool(2);
  for (RegisteredSealProof p :
       {RegisteredSealProof::kStackedDrg2KiBV1,
        RegisteredSealProof::kStackedDrg2KiBV1_1_Feat_SyntheticPoRep,
        RegisteredSealProof::kStackedDrg2KiBV1_2_Feat_NonInteractivePoRep}) {
    TempDir dir("seal-types");
    const Sealed s = seal(dir, p, std::nullopt, &pool);
    const PorepConfig cfg = porep_config(p);
    EXPECT_EQ(s.c1.vanilla_proofs.size(), cfg.partitions()) << seal_proof_info(p).name;
    const SealCommitPhase1Output back =
        seal_commit_phase1_from_json(seal_commit_phase1_to_json(s.c1));
    EXPECT_NO_THROW(verify_seal_commit_phase1(back)) << seal_proof_info(p).name;
    // Other porep_ids give other graphs and replica ids, hence another comm_r.
    EXPECT_NE(s.pc2.comm_r, zero_sector().pc2.comm_r);
  }
}

TEST(Seal, SectorWithDataHasThePieceCommitmentAsCommDAndVerifies) {
  TempDir dir("seal-data");
  std::mt19937_64 rng(11);
  std::vector<uint8_t> unpadded(2032);
  for (auto& b : unpadded)
    b = static_cast<uint8_t>(rng());
  const std::vector<uint8_t> padded = fr32_pad(unpadded);
  ASSERT_EQ(padded.size(), 2048u);
  const auto staged = dir.path() / "staged";
  std::ofstream(staged, std::ios::binary)
      .write(reinterpret_cast<const char*>(padded.data()),
             static_cast<std::streamsize>(padded.size()));
  const Sealed s = seal(dir, RegisteredSealProof::kStackedDrg2KiBV1_1, staged);
  EXPECT_EQ(s.pc1.comm_d, generate_piece_commitment(unpadded, 2032).commitment);
  EXPECT_NE(s.pc2.comm_r, zero_sector().pc2.comm_r);
  EXPECT_NO_THROW(verify_seal_commit_phase1(s.c1));
  // The data leaves of the comm_d proofs are the staged nodes.
  for (const PorepChallengeProof& p : s.c1.vanilla_proofs[0]) {
    const uint64_t c = p.replica_column_proofs.c_x.column.index;
    EXPECT_TRUE(std::equal(p.comm_d_proofs.leaf().begin(), p.comm_d_proofs.leaf().end(),
                           padded.begin() + static_cast<ptrdiff_t>(c * 32)));
  }
}

TEST(Seal, StagedDataThatIsNotFr32PaddedIsRefusedNamingTheNode) {
  TempDir dir("seal-bad");
  std::vector<uint8_t> data(2048, 0);
  data[5 * 32 + 31] = 0xff;  // node 5 >= r
  const auto staged = dir.path() / "staged";
  std::ofstream(staged, std::ios::binary)
      .write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  try {
    seal(dir, RegisteredSealProof::kStackedDrg2KiBV1_1, staged);
    FAIL() << "a non-canonical data node was sealed";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("data node 5"), std::string::npos) << e.what();
  }
  std::vector<uint8_t> big(4096, 0);
  std::ofstream(staged, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(big.data()), static_cast<std::streamsize>(big.size()));
  EXPECT_THROW(seal(dir, RegisteredSealProof::kStackedDrg2KiBV1_1, staged), std::invalid_argument);
}

// ---- tampering -------------------------------------------------------------------------------

// Every 32-byte value of a C1 output with the words its verification failure must contain.
struct Site {
  Domain* value;
  std::string name;    // where it is, for the test's own messages
  std::string expect;  // a phrase of the verifier's message
};

void add_proof(std::vector<Site>& out, MerkleProof& p, const std::string& name,
               const std::string& expect, const std::string& root_expect) {
  std::visit(
      [&](auto& d) {
        out.push_back({&d.leaf, name + ".leaf", expect});
        out.push_back({&d.root, name + ".root", root_expect});
        using T = std::decay_t<decltype(d)>;
        const auto add_path = [&](InclusionPath& path, const std::string& what) {
          for (size_t l = 0; l < path.size(); ++l)
            for (size_t h = 0; h < path[l].hashes.size(); ++h)
              out.push_back(
                  {&path[l].hashes[h],
                   name + "." + what + "[" + std::to_string(l) + "][" + std::to_string(h) + "]",
                   expect});
        };
        if constexpr (std::is_same_v<T, SingleProof>) {
          add_path(d.path, "path");
        } else {
          add_path(d.base_proof, "base_proof");
          add_path(d.sub_proof, "sub_proof");
          if constexpr (std::is_same_v<T, TopProof>) add_path(d.top_proof, "top_proof");
        }
      },
      p.data);
}

void add_column(std::vector<Site>& out, ColumnProof& c, const std::string& name,
                const std::string& expect, const std::string& root_expect) {
  for (size_t l = 0; l < c.column.rows.size(); ++l)
    out.push_back({&c.column.rows[l], name + ".rows[" + std::to_string(l) + "]", expect});
  add_proof(out, c.inclusion_proof, name + ".inclusion_proof", expect, root_expect);
}

std::vector<Site> sites(SealCommitPhase1Output& c1) {
  std::vector<Site> out;
  out.push_back({&c1.comm_r, "comm_r", "comm_r"});
  out.push_back({&c1.comm_d, "comm_d", "comm_d"});
  out.push_back({&c1.replica_id, "replica_id", "replica_id"});
  out.push_back({&c1.seed, "seed", "challenge"});
  out.push_back({&c1.ticket, "ticket", "replica_id"});
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
      PorepChallengeProof& p = c1.vanilla_proofs[k][i];
      const bool first = k == 0 && i == 0;  // its roots define comm_c and comm_r_last
      const std::string at = "[" + std::to_string(k) + "][" + std::to_string(i) + "]";
      add_proof(out, p.comm_d_proofs, at + ".comm_d_proofs", "comm_d inclusion proof",
                "comm_d inclusion proof");
      add_proof(out, p.comm_r_last_proof, at + ".comm_r_last_proof", "comm_r_last inclusion proof",
                first ? "comm_r" : "comm_r_last inclusion proof");
      ReplicaColumnProof& r = p.replica_column_proofs;
      add_column(out, r.c_x, at + ".c_x", "replica column c_x", first ? "comm_r" : "c_x");
      for (size_t j = 0; j < r.drg_parents.size(); ++j) {
        const std::string e = "DRG parent column " + std::to_string(j);
        add_column(out, r.drg_parents[j], at + ".drg" + std::to_string(j), e, e);
      }
      for (size_t j = 0; j < r.exp_parents.size(); ++j) {
        const std::string e = "expander parent column " + std::to_string(j);
        add_column(out, r.exp_parents[j], at + ".exp" + std::to_string(j), e, e);
      }
      for (size_t l = 0; l < p.labeling_proofs.size(); ++l)
        for (size_t j = 0; j < p.labeling_proofs[l].parents.size(); ++j)
          out.push_back(
              {&p.labeling_proofs[l].parents[j],
               at + ".labeling" + std::to_string(l) + ".parents[" + std::to_string(j) + "]",
               "labeling proof of layer " + std::to_string(l + 1) + ": parent " +
                   std::to_string(j)});
      for (size_t j = 0; j < p.encoding_proof.parents.size(); ++j)
        out.push_back({&p.encoding_proof.parents[j],
                       at + ".encoding.parents[" + std::to_string(j) + "]",
                       "encoding proof: parent " + std::to_string(j)});
    }
  }
  return out;
}

std::string verify_error(const SealCommitPhase1Output& c1, const Sealed& s) {
  PorepVerifyOptions o;
  o.prover_id = s.prover_id;
  o.sector_id = s.sector_id;
  try {
    verify_seal_commit_phase1(c1, o);
  } catch (const PorepVerifyError& e) {
    return e.what();
  }
  return "";
}

TEST(SealTampering, FlippingAnyByteOfAnyValueFailsVerificationNamingWhatFailed) {
  const Sealed& s = zero_sector();
  // Through JSON, as a C2 would receive it.
  SealCommitPhase1Output c1 = seal_commit_phase1_from_json(seal_commit_phase1_to_json(s.c1));
  ASSERT_EQ(verify_error(c1, s), "");
  std::vector<Site> all = sites(c1);
  ASSERT_GT(all.size(), 800u);
  size_t n = 0;
  for (const Site& site : all) {
    const size_t byte = (n++ * 7) % 32;  // every byte position is hit across the values
    (*site.value)[byte] ^= 0x01;         // bit 0 keeps trunc254 values canonical
    const std::string err = verify_error(c1, s);
    (*site.value)[byte] ^= 0x01;
    ASSERT_FALSE(err.empty()) << site.name << " byte " << byte << " changed and still verified";
    EXPECT_NE(err.find(site.expect), std::string::npos)
        << site.name << " byte " << byte << ": \"" << err << "\" does not mention \"" << site.expect
        << "\"";
  }
  EXPECT_EQ(verify_error(c1, s), "");
}

TEST(SealTampering, ChangedChallengeIndicesLayersAndCountsFailNamingTheCheck) {
  const Sealed& s = zero_sector();
  const auto expect_error = [&](const std::function<void(SealCommitPhase1Output&)>& change,
                                const std::string& phrase) {
    SealCommitPhase1Output c1 = s.c1;
    change(c1);
    const std::string err = verify_error(c1, s);
    EXPECT_NE(err.find(phrase), std::string::npos)
        << "\"" << err << "\" lacks \"" << phrase << "\"";
    EXPECT_NE(err.find("partition 0, challenge 1 (node 27)"), std::string::npos) << err;
  };
  const auto p = [](SealCommitPhase1Output& c1) -> PorepChallengeProof& {
    return c1.vanilla_proofs[0][1];
  };
  expect_error([&](auto& c1) { p(c1).replica_column_proofs.c_x.column.index = 26; }, "challenge");
  expect_error(
      [&](auto& c1) { std::get<SingleProof>(p(c1).comm_d_proofs.data).path[0].index ^= 1; },
      "challenge");
  expect_error(
      [&](auto& c1) { std::get<SingleProof>(p(c1).comm_r_last_proof.data).path[1].index ^= 1; },
      "comm_r_last inclusion proof");
  expect_error([&](auto& c1) { p(c1).replica_column_proofs.drg_parents[2].column.index += 1; },
               "DRG parent column 2: the column is of node");
  expect_error(
      [&](auto& c1) {
        std::swap(p(c1).replica_column_proofs.exp_parents[0],
                  p(c1).replica_column_proofs.exp_parents[1]);
      },
      "expander parent column 0");
  expect_error([&](auto& c1) { p(c1).labeling_proofs[1].layer_index = 1; },
               "labeling proof of layer 2: layer_index 1");
  expect_error([&](auto& c1) { p(c1).labeling_proofs[0].node = 28; },
               "labeling proof of layer 1: node");
  expect_error([&](auto& c1) { p(c1).encoding_proof.layer_index = 1; },
               "encoding proof: layer_index");
  expect_error([&](auto& c1) { p(c1).labeling_proofs.pop_back(); }, "labeling proofs: 1 entries");
  expect_error([&](auto& c1) { p(c1).replica_column_proofs.exp_parents.pop_back(); },
               "6 DRG and 7 expander");
  expect_error([&](auto& c1) { p(c1).replica_column_proofs.c_x.column.rows.pop_back(); },
               "replica column c_x: the column has 1 rows");

  SealCommitPhase1Output c1 = s.c1;
  c1.vanilla_proofs[0].pop_back();
  EXPECT_NE(verify_error(c1, s).find("partition 0: 1 challenge proofs, expected 2"),
            std::string::npos);
  c1.vanilla_proofs.clear();
  EXPECT_NE(verify_error(c1, s).find("vanilla_proofs: 0 partitions"), std::string::npos);
}

TEST(SealTampering, AnEditedNumberInTheJsonTextFailsAfterParsing) {
  const Sealed& s = zero_sector();
  std::string json = seal_commit_phase1_to_json(s.c1);
  // The first byte of the first labeling proof's first parent.
  const size_t at = json.find("\"labeling_proofs\":[{\"parents\":[[") + 33;
  const size_t end = json.find(',', at);
  const int value = std::stoi(json.substr(at, end - at));
  json.replace(at, end - at, std::to_string(value ^ 1));
  const std::string err = verify_error(seal_commit_phase1_from_json(json), s);
  EXPECT_NE(err.find("labeling proof of layer 1: parent 0"), std::string::npos) << err;
}

}  // namespace
}  // namespace cuzk::filecoin
