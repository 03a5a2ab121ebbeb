// Status helpers used across sg: absl::Status / absl::StatusOr carry TensorFlow's error codes
// (absl::StatusCode shares the numbers of TensorFlow's error.Code, OK=0 .. UNAUTHENTICATED=16).
#ifndef SG_CORE_FRAMEWORK_STATUS_H_
#define SG_CORE_FRAMEWORK_STATUS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

#define SG_STATUS_CONCAT_INNER_(a, b) a##b
#define SG_STATUS_CONCAT_(a, b) SG_STATUS_CONCAT_INNER_(a, b)

// Returns from the enclosing function when `expr` yields a non-OK absl::Status.
#define SG_RETURN_IF_ERROR(expr)                      \
  do {                                                \
    ::absl::Status sg_status_ = (expr);               \
    if (!sg_status_.ok()) return sg_status_;          \
  } while (0)

// `SG_ASSIGN_OR_RETURN(auto x, MakeX());` unwraps a StatusOr or returns its error.
#define SG_ASSIGN_OR_RETURN(lhs, expr) \
  SG_ASSIGN_OR_RETURN_IMPL_(SG_STATUS_CONCAT_(sg_statusor_, __LINE__), lhs, expr)
#define SG_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

namespace sg {
namespace errors {

// One-line constructors that join their arguments with absl::StrCat.
#define SG_DEFINE_ERROR_(Name, Code)                                  \
  template <typename... Args>                                         \
  ::absl::Status Name(const Args&... args) {                          \
    return ::absl::Status(::absl::StatusCode::Code, ::absl::StrCat(args...)); \
  }
SG_DEFINE_ERROR_(Cancelled, kCancelled)
SG_DEFINE_ERROR_(Unknown, kUnknown)
SG_DEFINE_ERROR_(InvalidArgument, kInvalidArgument)
SG_DEFINE_ERROR_(DeadlineExceeded, kDeadlineExceeded)
SG_DEFINE_ERROR_(NotFound, kNotFound)
SG_DEFINE_ERROR_(AlreadyExists, kAlreadyExists)
SG_DEFINE_ERROR_(PermissionDenied, kPermissionDenied)
SG_DEFINE_ERROR_(ResourceExhausted, kResourceExhausted)
SG_DEFINE_ERROR_(FailedPrecondition, kFailedPrecondition)
SG_DEFINE_ERROR_(Aborted, kAborted)
SG_DEFINE_ERROR_(OutOfRange, kOutOfRange)
SG_DEFINE_ERROR_(Unimplemented, kUnimplemented)
SG_DEFINE_ERROR_(Internal, kInternal)
SG_DEFINE_ERROR_(Unavailable, kUnavailable)
SG_DEFINE_ERROR_(DataLoss, kDataLoss)
SG_DEFINE_ERROR_(Unauthenticated, kUnauthenticated)
#undef SG_DEFINE_ERROR_

// Returns `s` with `prefix` put in front of its message; OK stays OK.
absl::Status Annotate(const absl::Status& s, absl::string_view prefix);

}  // namespace errors
}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_STATUS_H_
