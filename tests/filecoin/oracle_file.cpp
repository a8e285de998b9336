#include "oracle_file.hpp"

#include <cstdlib>
#include <fstream>
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

}  // namespace cuzk::filecoin::test
