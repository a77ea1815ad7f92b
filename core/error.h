// The one error type of StrideScope's core. Every failure that reaches a user
// carries the spec path of the field it is about, so that a message reads
//   error: params.inputWindowStrides[2]: stride must not be 0
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace stridescope {

enum class ErrorCode {
  InvalidSpec,         // the spec (or a form in the app) breaks a rule; CLI exit 2
  BackendUnavailable,  // no such backend / no device on this machine; CLI exit 3
  BackendFailure,      // the backend failed while running (device lost, out of memory)
  Io,                  // a file could not be read or written
};

struct Error {
  ErrorCode code = ErrorCode::InvalidSpec;
  std::string path;     // spec path of the field, e.g. "params.strides[1]"; may be empty
  std::string message;  // short lowercase statement of the fact

  // "path: message", or just the message when no field is concerned.
  [[nodiscard]] std::string to_string() const {
    return path.empty() ? message : path + ": " + message;
  }
};

inline Error invalid(std::string path, std::string message) {
  return Error{ErrorCode::InvalidSpec, std::move(path), std::move(message)};
}

// A value or the Error that prevented it (C++20 has no std::expected).
template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}          // NOLINT(google-explicit-constructor)
  Expected(Error error) : state_(std::move(error)) {}      // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

// Success or an Error, for operations that produce nothing.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT(google-explicit-constructor)
  [[nodiscard]] bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_{};
  bool ok_ = true;
};

}  // namespace stridescope
