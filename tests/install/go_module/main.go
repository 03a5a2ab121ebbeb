// The digits classifier through the installed Go module, as a user's program: go_module_test.sh
// copies this file into a scratch module whose go.mod replaces sg.invalid/go with the install's
// share/sg/go. It prints the classes of the first rows of digits_test_x.npy and fails unless each
// row's probabilities are TensorFlow's (digits_tf_probs.npy) within 1e-5.
//
//	main DIGITS_MLP_PB DIGITS_TEST_X_NPY DIGITS_TF_PROBS_NPY
package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strings"

	sg "sg.invalid/go"
)

const rows = 4

// readF32 reads the first n float32 values of a little-endian, C-ordered .npy file (version 1).
func readF32(path string, n int) []float32 {
	b, err := os.ReadFile(path)
	if err != nil {
		fail(err)
	}
	if len(b) < 10 || string(b[1:6]) != "NUMPY" || b[6] != 1 {
		fail(fmt.Errorf("%s: not a version 1 .npy file", path))
	}
	hlen := int(binary.LittleEndian.Uint16(b[8:]))
	header := string(b[10 : 10+hlen])
	if !strings.Contains(header, "'<f4'") || !strings.Contains(header, "'fortran_order': False") {
		fail(fmt.Errorf("%s: not C-ordered float32: %s", path, header))
	}
	data := b[10+hlen:]
	if len(data) < 4*n {
		fail(fmt.Errorf("%s: fewer than %d values", path, n))
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return v
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "go_module main:", err)
	os.Exit(1)
}

func main() {
	if len(os.Args) != 4 {
		fail(fmt.Errorf("usage: main DIGITS_MLP_PB DIGITS_TEST_X_NPY DIGITS_TF_PROBS_NPY"))
	}
	x := readF32(os.Args[2], rows*64)
	want := readF32(os.Args[3], rows*10)

	g := sg.NewGraph()
	defer g.Close()
	if err := g.ImportFile(os.Args[1], ""); err != nil {
		fail(err)
	}
	s, err := sg.NewSession(g, nil)
	if err != nil {
		fail(err)
	}
	defer s.Close()
	in, err := g.Output("input:0")
	if err != nil {
		fail(err)
	}
	probs, err := g.Output("probs:0")
	if err != nil {
		fail(err)
	}
	batch := make([][]float32, rows)
	for i := range batch {
		batch[i] = x[64*i : 64*(i+1)]
	}
	xt, err := sg.NewTensor(batch)
	if err != nil {
		fail(err)
	}
	defer xt.Close()
	out, err := s.Run(map[sg.Output]*sg.Tensor{in: xt}, []sg.Output{probs}, nil)
	if err != nil {
		fail(fmt.Errorf("%v: %v", sg.CodeOf(err), err))
	}
	defer out[0].Close()
	v, err := out[0].Value()
	if err != nil {
		fail(err)
	}
	got := v.([][]float32)
	if len(got) != rows {
		fail(fmt.Errorf("probs has %d rows, want %d", len(got), rows))
	}
	for i, row := range got {
		best := 0
		for j, p := range row {
			if d := math.Abs(float64(p - want[10*i+j])); d > 1e-5 {
				fail(fmt.Errorf("row %d class %d: probability %g, TensorFlow's %g", i, j, p, want[10*i+j]))
			}
			if p > row[best] {
				best = j
			}
		}
		fmt.Printf("row %d: class %d (p=%.4f)\n", i, best, row[best])
	}
	fmt.Println("go_module main: ok")
}
