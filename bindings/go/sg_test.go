package sg

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func loadGraph(t *testing.T, path string) *Graph {
	t.Helper()
	g := NewGraph()
	if err := g.ImportFile(path, ""); err != nil {
		t.Fatal(err)
	}
	return g
}

func mustOutput(t *testing.T, g *Graph, name string) Output {
	t.Helper()
	o, err := g.Output(name)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestDigitsClassifierMatchesTensorFlowOnAll360Samples(t *testing.T) {
	x := npyFloats2D(t, testdata("digits_test_x.npy"))
	y := npyInts(t, testdata("digits_test_y.npy"))
	tfProbs := npyFloats2D(t, testdata("digits_tf_probs.npy"))

	g := loadGraph(t, testdata("digits_mlp.pb"))
	defer g.Close()
	if op := g.Operation("probs"); op == nil || op.Type() != "Softmax" {
		t.Fatalf("probs: %v", op)
	}
	s, err := NewSession(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in, err := NewTensor(x)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := s.Run(map[Output]*Tensor{mustOutput(t, g, "input:0"): in}, []Output{mustOutput(t, g, "probs:0")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer out[0].Close()
	if out[0].DataType() != Float || len(out[0].Shape()) != 2 || out[0].Shape()[0] != 360 {
		t.Fatalf("probs: dtype %d shape %v", out[0].DataType(), out[0].Shape())
	}
	v, err := out[0].Value()
	if err != nil {
		t.Fatal(err)
	}
	probs := v.([][]float32)
	ours, theirs := 0, 0
	for i := range probs {
		for j := range probs[i] {
			if d := math.Abs(float64(probs[i][j] - tfProbs[i][j])); d > 1e-5 {
				t.Fatalf("probs[%d][%d] = %g, TensorFlow %g", i, j, probs[i][j], tfProbs[i][j])
			}
		}
		if argmax(probs[i]) == int(y[i]) {
			ours++
		}
		if argmax(tfProbs[i]) == int(y[i]) {
			theirs++
		}
	}
	if ours != theirs {
		t.Fatalf("accuracy: %d of 360 correct, TensorFlow %d", ours, theirs)
	}
}

func TestMnistMlpT10kAccuracyIs08989(t *testing.T) {
	images := gunzip(t, shared(t, "mnist_t10k/t10k-images-idx3-ubyte.gz"))
	labels := gunzip(t, shared(t, "mnist_t10k/t10k-labels-idx1-ubyte.gz"))
	g := loadGraph(t, shared(t, "mnist_mlp_frozen.pb"))
	defer g.Close()
	s, err := NewSession(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in, logits := mustOutput(t, g, "Placeholder"), mustOutput(t, g, "softmax_linear/add")
	correct := 0
	batch := make([][]float32, 100)
	for i := range batch {
		batch[i] = make([]float32, 784)
	}
	for start := 0; start < 10000; start += 100 {
		for i := range batch {
			for k := range batch[i] {
				batch[i][k] = float32(images[16+(start+i)*784+k]) / 255
			}
		}
		x, err := NewTensor(batch)
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Run(map[Output]*Tensor{in: x}, []Output{logits}, nil)
		x.Close()
		if err != nil {
			t.Fatal(err)
		}
		v, _ := out[0].Value()
		out[0].Close()
		for i, row := range v.([][]float32) {
			if argmax(row) == int(labels[8+start+i]) {
				correct++
			}
		}
	}
	if correct != 8989 {
		t.Fatalf("t10k: %d correct, want 8989", correct)
	}
}

func TestBuiltGraphRunsAndExports(t *testing.T) {
	g := NewGraph()
	defer g.Close()
	a, err := g.AddOperation(OpSpec{Type: "Placeholder", Name: "a", Attrs: map[string]any{"dtype": Float}})
	if err != nil {
		t.Fatal(err)
	}
	two, _ := NewTensor(float32(2))
	defer two.Close()
	c, err := g.AddOperation(OpSpec{Type: "Const", Name: "two", Attrs: map[string]any{"dtype": Float, "value": two}})
	if err != nil {
		t.Fatal(err)
	}
	mul, err := g.AddOperation(OpSpec{Type: "Mul", Name: "mul", Input: []Input{a.Output(0), c.Output(0)}})
	if err != nil {
		t.Fatal(err)
	}
	def, err := g.ToGraphDef()
	if err != nil || len(def) == 0 {
		t.Fatalf("ToGraphDef: %v", err)
	}
	g2 := NewGraph()
	defer g2.Close()
	if err := g2.Import(def, "copy"); err != nil || g2.Operation("copy/mul") == nil {
		t.Fatalf("re-import: %v", err)
	}
	s, err := NewSession(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x, _ := NewTensor([]float32{1, 2, 3})
	defer x.Close()
	out, err := s.Run(map[Output]*Tensor{a.Output(0): x}, []Output{mul.Output(0)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer out[0].Close()
	v, _ := out[0].Value()
	if got := v.([]float32); len(got) != 3 || got[0] != 2 || got[2] != 6 {
		t.Fatalf("mul: %v", got)
	}

	// An unknown op type is NotFound; a missing attr InvalidArgument.
	if _, err := g.AddOperation(OpSpec{Type: "NoSuchOp", Name: "x"}); CodeOf(err) != NotFound {
		t.Fatalf("unknown op: %v", err)
	}
	if _, err := g.AddOperation(OpSpec{Type: "Placeholder", Name: "y"}); CodeOf(err) != InvalidArgument {
		t.Fatalf("missing dtype: %v", err)
	}
}

func TestErrorsCarryTheStatusCode(t *testing.T) {
	g := NewGraph()
	defer g.Close()
	err := g.Import([]byte("this is not a GraphDef"), "")
	if CodeOf(err) != InvalidArgument || !strings.Contains(err.Error(), "INVALID_ARGUMENT") {
		t.Fatalf("garbage import: %v", err)
	}
	g = loadGraph(t, testdata("digits_mlp.pb"))
	defer g.Close()
	s, _ := NewSession(g, nil)
	defer s.Close()
	wrong, _ := NewTensor([][]int32{{1}})
	defer wrong.Close()
	_, err = s.Run(map[Output]*Tensor{mustOutput(t, g, "input"): wrong}, []Output{mustOutput(t, g, "probs")}, nil)
	if CodeOf(err) != InvalidArgument {
		t.Fatalf("int32 feed of a float input: %v", err)
	}
	var e *Error
	if !asError(err, &e) || e.Code() != InvalidArgument || e.Message() == "" {
		t.Fatalf("error type: %T %v", err, err)
	}
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	*target = e
	return ok
}

func TestTensorValuesRoundTrip(t *testing.T) {
	cases := []any{
		float32(1.5), float64(-2.25), int32(7), int64(-9), int16(3), int8(-4), uint8(200),
		uint16(60000), uint32(4000000000), uint64(1 << 63), true, "scalar string",
		complex64(1 + 2i), complex128(-3 + 4i),
		[]float32{1, 2, 3}, [][]float64{{1, 2}, {3, 4}}, [][][]int32{{{1}, {2}}, {{3}, {4}}},
		[]int64{1, -1}, []bool{true, false, true}, []string{"a", "", "ccc"},
		[][]string{{"x", "yy"}, {"zzz", "w"}}, []uint8{1, 2, 255}, [2][3]int32{{1, 2, 3}, {4, 5, 6}},
		[]complex64{1 + 1i, 2 - 2i}, [][]float32{},
		[]string{"", "a\x00b", strings.Repeat("x", 300)}, []string{}, [][]string{{}, {}},
	}
	for _, c := range cases {
		tensor, err := NewTensor(c)
		if err != nil {
			t.Fatalf("NewTensor(%#v): %v", c, err)
		}
		v, err := tensor.Value()
		tensor.Close()
		if err != nil {
			t.Fatalf("Value of %#v: %v", c, err)
		}
		want := c
		if arr, ok := c.([2][3]int32); ok {
			want = [][]int32{arr[0][:], arr[1][:]}
		}
		if !deepEqual(v, want) {
			t.Fatalf("round trip of %#v gave %#v", c, v)
		}
	}
}

func deepEqual(a, b any) bool {
	return strings.ReplaceAll(formatAny(a), " ", "") == strings.ReplaceAll(formatAny(b), " ", "")
}

func formatAny(v any) string { return strings.TrimSpace(strings.ReplaceAll(sprint(v), "\n", "")) }

func TestRaggedSliceIsAnError(t *testing.T) {
	_, err := NewTensor([][]float32{{1, 2}, {3}})
	if CodeOf(err) != InvalidArgument || !strings.Contains(err.Error(), "ragged") {
		t.Fatalf("ragged: %v", err)
	}
	_, err = NewTensor([][]float32{{1, 2}, nil})
	if CodeOf(err) != InvalidArgument {
		t.Fatalf("nil row: %v", err)
	}
	if _, err := NewTensor([]int{1, 2}); CodeOf(err) != InvalidArgument {
		t.Fatalf("int: %v", err)
	}
	if _, err := NewTensor(nil); CodeOf(err) != InvalidArgument {
		t.Fatalf("nil: %v", err)
	}
}

// Eight goroutines share one session while another forces garbage collection: every result is
// right, and the finalizers and KeepAlives keep every native object alive while it is used.
func TestEightGoroutinesOnOneSessionUnderGC(t *testing.T) {
	x := npyFloats2D(t, testdata("digits_test_x.npy"))
	tfProbs := npyFloats2D(t, testdata("digits_tf_probs.npy"))
	g := loadGraph(t, testdata("digits_mlp.pb"))
	s, err := NewSession(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in, probs := mustOutput(t, g, "input"), mustOutput(t, g, "probs")
	g = nil // the session and the Outputs keep what they need

	stop := make(chan struct{})
	var gcDone sync.WaitGroup
	gcDone.Add(1)
	go func() {
		defer gcDone.Done()
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
				time.Sleep(time.Millisecond)
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for r := 0; r < 40; r++ {
				i := (w*40 + r) % len(x)
				xt, err := NewTensor([][]float32{x[i]}) // not closed: left to the finalizer
				if err != nil {
					errs <- err
					return
				}
				out, err := s.Run(map[Output]*Tensor{in: xt}, []Output{probs}, nil)
				if err != nil {
					errs <- err
					return
				}
				v, _ := out[0].Value()
				if r%2 == 0 {
					out[0].Close()
				}
				for j, p := range v.([][]float32)[0] {
					if math.Abs(float64(p-tfProbs[i][j])) > 1e-5 {
						errs <- newError(Internal, "wrong probability for sample "+strconv.Itoa(i))
						return
					}
				}
			}
		}(w)
	}
	wg.Wait()
	close(stop)
	gcDone.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestCloseWaitsForRunsInFlight(t *testing.T) {
	g := loadGraph(t, testdata("digits_mlp.pb"))
	defer g.Close()
	s, _ := NewSession(g, nil)
	in, probs := mustOutput(t, g, "input"), mustOutput(t, g, "probs")
	big := make([][]float32, 20000)
	for i := range big {
		big[i] = make([]float32, 64)
	}
	x, _ := NewTensor(big)
	defer x.Close()
	var wg sync.WaitGroup
	results := make(chan error, 4)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := s.Run(map[Output]*Tensor{in: x}, []Output{probs}, nil)
			if err == nil {
				out[0].Close()
			}
			results <- err
		}()
	}
	time.Sleep(5 * time.Millisecond)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(results)
	for err := range results {
		if err != nil && CodeOf(err) != Canceled {
			t.Fatalf("a run racing Close: %v", err)
		}
	}
	if _, err := s.Run(map[Output]*Tensor{in: x}, []Output{probs}, nil); CodeOf(err) != Canceled {
		t.Fatalf("run after Close: %v", err)
	}
}

func rssKB(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			n, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return n
		}
	}
	t.Skip("no VmRSS")
	return 0
}

func TestManyTensorsKeepMemoryBounded(t *testing.T) {
	row := make([]float32, 64)
	churn := func(n int) {
		for i := 0; i < n; i++ {
			x, err := NewTensor(row)
			if err != nil {
				t.Fatal(err)
			}
			x.Close()
		}
	}
	churn(10000)
	debug.FreeOSMemory()
	before := rssKB(t)
	// 300000 tensors of 256 bytes: a leak of even their data alone is 75 MiB, far over the
	// bound, while the Go heap's own slack (some MiB, more on a loaded machine) stays under it.
	churn(300000)
	debug.FreeOSMemory()
	after := rssKB(t)
	if grew := after - before; grew > 40*1024 {
		t.Fatalf("resident memory grew by %d KB over 300000 tensors", grew)
	}
}
