// Package capi is SWIG's generated layer over libsg's C API. It is internal: use package sg.
//
// The go tool runs SWIG on the .swig files of a package directory (C mode: .swig, not
// .swigcxx); capi.swig is a symbolic link to the bindings' single interface, bindings/sg.i, so
// that the go build cache, which hashes the package's files, sees every edit of it. (It does not
// see c_api.h, which sg.i includes: CMake's targets key the cache on that too, see
// bindings/go/CMakeLists.txt.)
package capi

// #cgo pkg-config: sg
import "C"
