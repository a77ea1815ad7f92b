// The one error type of StrideScope's core. Every failure that reaches a user
// carries the spec path of the field it is about, so that a message reads
//   error: params.inputWindowStrides[2]: stride must not be 0
//
// A function that cannot finish returns the Error instead of its result, and
// its caller usually hands that Error on unchanged. Two macros (at the end of
// this header) write that hand-off, so that the happy path reads straight down:
//
//   Expected<SliceParams> validate(const SliceRequest& r, std::size_t rank) {
//     SliceParams p;
//     SS_ASSIGN_OR_RETURN(p.offsets, dims_param(r, &SliceRequest::offsets, rank));
//     SS_ASSIGN_OR_RETURN(const Sizes sizes, dims_param(r, &SliceRequest::sizes, rank));
//     SS_RETURN_IF_ERROR(check_entries(r.strides.size(), strides_field, rank));
//     ...
//   }
//
// Each evaluates its expression once and, on failure, returns the Error from
// the enclosing function, whose result may be an Expected<U>, a Status or any
// type an Error converts to. A caller that adds context to the error or maps
// it to another one still writes its `if (!x) return ...;` by hand.
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

// SS_RETURN_IF_ERROR(expr): `expr` is a Status, or an Expected whose value
// is not needed; when it failed, its Error is returned. The macros take the
// expression as `...` so that commas in braces or template arguments need no
// extra parentheses.
#define SS_RETURN_IF_ERROR(...)                                      \
  do {                                                               \
    if (auto&& ss_status_ = (__VA_ARGS__); !ss_status_) {            \
      return (ss_status_).error();                                   \
    }                                                                \
  } while (false)

// SS_ASSIGN_OR_RETURN(lhs, expr): `expr` is an Expected<T>; its Error is
// returned, else its value is moved into `lhs`. `lhs` declares a variable
// (`auto offsets`, `const Sizes& sizes`: a reference binds to a hidden
// Expected that lives to the end of the scope) or names an existing lvalue
// (`p.offsets`, `*target`). A declared type with a comma needs an alias or
// `auto`. It expands to several statements in the enclosing scope (so that
// a declared `lhs` stays visible): an `if` or `else` needs braces around it.
#define SS_ASSIGN_OR_RETURN(lhs, ...) \
  SS_ASSIGN_OR_RETURN_IMPL_(SS_CONCAT_(ss_expected_, __COUNTER__), lhs, __VA_ARGS__)

#define SS_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, ...) \
  auto tmp = (__VA_ARGS__);                      \
  if (!(tmp)) return (tmp).error();              \
  lhs = std::move(*(tmp))

// Pastes after expanding, so that __COUNTER__ becomes a number.
#define SS_CONCAT_(a, b) SS_CONCAT_INNER_(a, b)
#define SS_CONCAT_INNER_(a, b) a##b
