// The message of the exception a call throws, or "" when it throws none: for tests that compare
// two paths' errors (one an oracle) or look for words in one.
#pragma once

#include <exception>
#include <string>

namespace cuzk::testing {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace cuzk::testing
