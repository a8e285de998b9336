// Result<T, E>: a value or an error code (a small stand-in for C++23 std::expected).
#pragma once

#include <stdexcept>
#include <utility>
#include <variant>

namespace cuzk {

template <class E>
struct Unexpected {
  E error;
};
template <class E>
Unexpected(E) -> Unexpected<E>;

template <class T, class E>
class Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(Unexpected<E> e) : v_(std::in_place_index<1>, e.error) {}   // NOLINT

  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  const T& value() const& {
    if (!has_value()) throw std::logic_error("Result::value() on an error");
    return std::get<0>(v_);
  }
  T&& value() && {
    if (!has_value()) throw std::logic_error("Result::value() on an error");
    return std::get<0>(std::move(v_));
  }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  E error() const {
    if (has_value()) throw std::logic_error("Result::error() on a value");
    return std::get<1>(v_);
  }

 private:
  std::variant<T, E> v_;
};

}  // namespace cuzk
