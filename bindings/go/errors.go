package sg

import (
	"errors"

	"sg.invalid/go/internal/capi"
)

// Code is a status code of sg's C API (TensorFlow's codes, the gRPC canonical codes).
type Code int

// The status codes.
const (
	OK                 Code = 0
	Canceled           Code = 1
	Unknown            Code = 2
	InvalidArgument    Code = 3
	DeadlineExceeded   Code = 4
	NotFound           Code = 5
	AlreadyExists      Code = 6
	PermissionDenied   Code = 7
	ResourceExhausted  Code = 8
	FailedPrecondition Code = 9
	Aborted            Code = 10
	OutOfRange         Code = 11
	Unimplemented      Code = 12
	Internal           Code = 13
	Unavailable        Code = 14
	DataLoss           Code = 15
	Unauthenticated    Code = 16
)

var codeNames = [...]string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
	"NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
	"ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
	"UNAUTHENTICATED"}

func (c Code) String() string {
	if c >= 0 && int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "UNKNOWN"
}

// Error is a failed sg call: the status code and the C API's one-line message.
type Error struct {
	code Code
	msg  string
}

// Code is the status code.
func (e *Error) Code() Code { return e.code }

// Message is the C API's message.
func (e *Error) Message() string { return e.msg }

func (e *Error) Error() string { return e.code.String() + ": " + e.msg }

// CodeOf returns the status code of err when it is (or wraps) an *Error, OK for nil, and
// Unknown otherwise.
func CodeOf(err error) Code {
	if err == nil {
		return OK
	}
	var e *Error
	if errors.As(err, &e) {
		return e.code
	}
	return Unknown
}

func newError(code Code, msg string) error { return &Error{code: code, msg: msg} }

// fromStatus converts the generated layer's error (a failed SG_Status) to an *Error.
func fromStatus(err error) error {
	if err == nil {
		return nil
	}
	var s *capi.StatusError
	if errors.As(err, &s) {
		return &Error{code: Code(s.Code), msg: s.Message}
	}
	return err
}
