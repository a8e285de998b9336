// How a `cuzk` command's errors become its exit code: an input error (BadInput, or anything else
// thrown: unreadable files, a missing device) is 2 with "error: <what>" on stderr; a failed check
// or verification is 1, which the command returns itself.
#pragma once

#include <cstdio>
#include <exception>
#include <stdexcept>

namespace cuzk::app {

struct BadInput : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Runs one command's action: its exit code, or 2 after printing what it threw.
template <class Action>
int exit_code_of(Action&& action) {
  try {
    return action();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}

}  // namespace cuzk::app
