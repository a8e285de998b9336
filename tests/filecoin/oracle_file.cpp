#include "oracle_file.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace cuzk::filecoin::test {

const nlohmann::json& oracles() {
  static const nlohmann::json j = [] {
    std::string path = CUZK_FILECOIN_ORACLES_DEFAULT;
    if (const char* env = std::getenv("CUZK_FILECOIN_ORACLES"); env != nullptr && *env != '\0')
      path = env;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("filecoin oracle file missing or unreadable: " + path);
    return nlohmann::json::parse(in);
  }();
  return j;
}

std::filesystem::path golden_file(std::string_view name) {
  std::string dir = CUZK_FILECOIN_GOLDEN_DEFAULT;
  if (const char* env = std::getenv("CUZK_FILECOIN_GOLDEN"); env != nullptr && *env != '\0')
    dir = env;
  const std::filesystem::path p = std::filesystem::path(dir) / name;
  if (!std::filesystem::exists(p)) throw std::runtime_error("golden file missing: " + p.string());
  return p;
}

std::vector<uint8_t> read_file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> byte_array(const nlohmann::json& j) {
  std::vector<uint8_t> out;
  for (const auto& b : j)
    out.push_back(b.get<uint8_t>());
  return out;
}

Domain domain_bytes(const nlohmann::json& j) {
  return domain_from_bytes(byte_array(j));
}

const std::vector<nlohmann::json>& regression_records_v18() {
  static const std::vector<nlohmann::json> records = [] {
    std::ifstream in(golden_file("seal_regression_records-v18.json"));
    std::vector<nlohmann::json> out;
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
  }();
  return records;
}

}  // namespace cuzk::filecoin::test
