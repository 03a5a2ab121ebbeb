// Package capi is SWIG's generated layer over libsg's C API (bindings/sg.i). It is internal:
// use package sg.
package capi

// #cgo pkg-config: sg
import "C"
