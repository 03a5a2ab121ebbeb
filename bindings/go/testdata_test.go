package sg

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// testdata is tests/testdata of the repo (SG_TESTDATA overrides it).
func testdata(name string) string {
	dir := os.Getenv("SG_TESTDATA")
	if dir == "" {
		dir = "../../tests/testdata"
	}
	return filepath.Join(dir, name)
}

// shared is a file of ../shared/testdata/tf_graphs (SG_SHARED overrides it); the test is skipped
// when it is absent.
func shared(t *testing.T, name string) string {
	dir := os.Getenv("SG_SHARED")
	if dir == "" {
		dir = "../../../shared/testdata/tf_graphs"
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared test data absent: %s", p)
	}
	return p
}

var npyShape = regexp.MustCompile(`'shape': \(([^)]*)\)`)
var npyDescr = regexp.MustCompile(`'descr': '([^']*)'`)

// readNpy reads a little-endian .npy file: its dtype descr, shape and data bytes.
func readNpy(t *testing.T, path string) (string, []int, []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var hlen, start int
	if b[6] == 1 {
		hlen, start = int(binary.LittleEndian.Uint16(b[8:])), 10
	} else {
		hlen, start = int(binary.LittleEndian.Uint32(b[8:])), 12
	}
	header := string(b[start : start+hlen])
	var shape []int
	for _, p := range strings.Split(npyShape.FindStringSubmatch(header)[1], ",") {
		if p = strings.TrimSpace(p); p != "" {
			n, _ := strconv.Atoi(p)
			shape = append(shape, n)
		}
	}
	return npyDescr.FindStringSubmatch(header)[1], shape, b[start+hlen:]
}

func npyFloats2D(t *testing.T, path string) [][]float32 {
	descr, shape, data := readNpy(t, path)
	if descr != "<f4" || len(shape) != 2 {
		t.Fatalf("%s: %s %v", path, descr, shape)
	}
	out := make([][]float32, shape[0])
	for i := range out {
		out[i] = make([]float32, shape[1])
		for j := range out[i] {
			out[i][j] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*(i*shape[1]+j):]))
		}
	}
	return out
}

func npyFloats(t *testing.T, path string) []float32 {
	descr, shape, data := readNpy(t, path)
	if descr != "<f4" || len(shape) != 1 {
		t.Fatalf("%s: %s %v", path, descr, shape)
	}
	out := make([]float32, shape[0])
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return out
}

func npyInts2D(t *testing.T, path string) [][]int32 {
	descr, shape, data := readNpy(t, path)
	if descr != "<i4" || len(shape) != 2 {
		t.Fatalf("%s: %s %v", path, descr, shape)
	}
	out := make([][]int32, shape[0])
	for i := range out {
		out[i] = make([]int32, shape[1])
		for j := range out[i] {
			out[i][j] = int32(binary.LittleEndian.Uint32(data[4*(i*shape[1]+j):]))
		}
	}
	return out
}

func npyInts(t *testing.T, path string) []int32 {
	descr, shape, data := readNpy(t, path)
	if descr != "<i4" || len(shape) != 1 {
		t.Fatalf("%s: %s %v", path, descr, shape)
	}
	out := make([]int32, shape[0])
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return out
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := gzip.NewReader(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func argmax(v []float32) int {
	best := 0
	for i := range v {
		if v[i] > v[best] {
			best = i
		}
	}
	return best
}

func sprint(v any) string { return fmtSprint(v) }

func fmtSprint(v any) string { return fmt.Sprintf("%#v", v) }
