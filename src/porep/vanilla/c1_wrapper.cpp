#include "porep/vanilla/c1_wrapper.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <optional>
#include <sstream>

#include "filecoin/base64.hpp"
#include "porep/vanilla/c1_json.hpp"
#include "util/bounded_json.hpp"
#include "util/input_file.hpp"

namespace cuzk::filecoin {

namespace {

using nlohmann::json;

uint64_t u64_field(const json& doc, const char* name) {
  const auto it = doc.find(name);
  if (it == doc.end()) throw C1JsonError(name, "missing field");
  if (!it->is_number_unsigned()) {
    throw C1JsonError(name, std::string("expected an unsigned integer, found ") + it->type_name());
  }
  return it->get<uint64_t>();
}

bool looks_like_wrapper(std::string_view text) {
  // The wrapper's fields are capitalised; the inner document's are not.
  return text.find("\"Phase1Out\"") != std::string_view::npos &&
         text.find("\"registered_proof\"") == std::string_view::npos;
}

}  // namespace

std::string c1_wrapper_to_json(const C1Wrapper& w) {
  const std::string b64 = base64_encode(std::span<const uint8_t>(
      reinterpret_cast<const uint8_t*>(w.phase1_out.data()), w.phase1_out.size()));
  return "{\"SectorNum\":" + std::to_string(w.sector_num) + ",\"Phase1Out\":\"" + b64 +
         "\",\"SectorSize\":" + std::to_string(w.sector_size) + "}";
}

C1Wrapper c1_wrapper_from_json(std::string_view text) {
  json doc;
  try {
    doc = parse_json_bounded(text, 2);  // an object of scalars
  } catch (const JsonLimitError& e) {
    throw C1JsonError("", e.what());
  }
  if (!doc.is_object()) throw C1JsonError("", "expected an object");
  C1Wrapper w;
  w.sector_num = u64_field(doc, "SectorNum");
  w.sector_size = u64_field(doc, "SectorSize");
  const auto it = doc.find("Phase1Out");
  if (it == doc.end()) throw C1JsonError("Phase1Out", "missing field");
  if (!it->is_string()) {
    throw C1JsonError("Phase1Out",
                      std::string("expected a base64 string, found ") + it->type_name());
  }
  try {
    const std::vector<uint8_t> bytes = base64_decode(it->get_ref<const std::string&>());
    w.phase1_out.assign(bytes.begin(), bytes.end());
  } catch (const std::invalid_argument& e) {
    throw C1JsonError("Phase1Out", e.what());
  }
  return w;
}

C1Document parse_c1_document(std::string_view text) {
  C1Document d;
  if (!looks_like_wrapper(text)) {
    d.c1 = seal_commit_phase1_from_json(text);
    return d;
  }
  const C1Wrapper w = c1_wrapper_from_json(text);
  try {
    d.c1 = seal_commit_phase1_from_json(w.phase1_out);
  } catch (const C1JsonError& e) {
    throw C1JsonError("Phase1Out" + (e.field().empty() ? "" : "." + e.field()), e.detail());
  }
  d.sector_num = w.sector_num;
  const uint64_t size = seal_proof_info(d.c1.registered_proof).sector_size;
  if (w.sector_size != size) {
    throw C1JsonError("SectorSize", std::to_string(w.sector_size) + " differs from the " +
                                        std::to_string(size) + "-byte sector of " +
                                        std::string(seal_proof_info(d.c1.registered_proof).name));
  }
  return d;
}

C1Document read_c1_file(const std::filesystem::path& path) {
  const std::string text = read_input_file(path, kMaxInputFileBytes);
  try {
    return parse_c1_document(text);
  } catch (const C1JsonError& e) {
    throw C1JsonError(e.field(), e.detail() + " (in " + path.string() + ")");
  }
}

void write_c1_file(const std::filesystem::path& path, const SealCommitPhase1Output& c1,
                   uint64_t sector_num) {
  C1Wrapper w;
  w.sector_num = sector_num;
  w.phase1_out = seal_commit_phase1_to_json(c1);
  w.sector_size = seal_proof_info(c1.registered_proof).sector_size;
  const std::string text = c1_wrapper_to_json(w);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
}

}  // namespace cuzk::filecoin
