// Package sg is the Go binding of sg, a static-graph runtime that runs TensorFlow graphs: graphs,
// tensors, sessions, saved models, servers and gradients over libsg's C API (sg/c_api.h).
//
// Its module path is sg.invalid/go. sg has no public host from which the go command could
// fetch it, so the path is one that no host can ever serve (.invalid is reserved by RFC 6761):
// a user's go.mod requires it and replaces it with a directory, either an install's
// share/sg/go or a checkout's bindings/go, and a forgotten replace directive fails to resolve
// rather than fetching someone else's code:
//
//	require sg.invalid/go v0.1.0
//	replace sg.invalid/go => /usr/local/share/sg/go
//
// Building needs cgo, SWIG (the go tool runs it on internal/capi/capi.swig) and pkg-config (which
// finds sg.pc, libsg's compiler and linker flags). See sg's README, "Go binding".
package sg
