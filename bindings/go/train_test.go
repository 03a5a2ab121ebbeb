package sg

import (
	"math"
	"strings"
	"testing"
)

// Training from Go: the digits classifier (64 -> 64 ReLU -> 10) built with AddOperation, its
// gradients added with (*Graph).AddGradients, trained with Adam (ApplyAdam) as TensorFlow trained
// tests/testdata/digits_mlp.pb (learning rate 0.005, 600 steps of 64 samples, from TensorFlow's
// initial weights on TensorFlow's batches: digits_train_init.npy and digits_train_batches.npy),
// and its held-out accuracy compared with TensorFlow's for that model (digits_mlp's
// test_accuracy in tests/testdata/expected.json: 354 of 360) within one point.

const tfDigitsAccuracy = 354.0 / 360.0

type trainer struct {
	t *testing.T
	g *Graph
}

func (b trainer) op(typ, name string, attrs map[string]any, in ...Input) Output {
	b.t.Helper()
	op, err := b.g.AddOperation(OpSpec{Type: typ, Name: name, Input: in, Attrs: attrs})
	if err != nil {
		b.t.Fatalf("%s: %v", name, err)
	}
	return op.Output(0)
}

func (b trainer) constant(name string, value any) Output {
	b.t.Helper()
	v, err := NewTensor(value)
	if err != nil {
		b.t.Fatal(err)
	}
	defer v.Close()
	return b.op("Const", name, map[string]any{"value": v, "dtype": v.DataType()})
}

// variable adds a VariableV2, its initializer (an Assign) and its value (NAME/read).
func (b trainer) variable(name string, initial any, dims []int64) (ref, read Output, init *Operation) {
	ref = b.op("VariableV2", name, map[string]any{"dtype": Float, "shape": Shape{Dims: dims}})
	init = b.op("Assign", name+"/Assign", nil, ref, b.constant(name+"/initial_value", initial)).Op
	read = b.op("Identity", name+"/read", nil, ref)
	return ref, read, init
}

// matrix is rows x cols floats of flat from offset, row-major.
func matrix(flat []float32, offset, rows, cols int) [][]float32 {
	m := make([][]float32, rows)
	for i := range m {
		m[i] = append([]float32(nil), flat[offset+i*cols:offset+(i+1)*cols]...)
	}
	return m
}

func TestAdamReachesTensorFlowsHeldOutDigitsAccuracy(t *testing.T) {
	xtr := npyFloats2D(t, testdata("digits_train_x.npy"))
	ytr := npyInts(t, testdata("digits_train_y.npy"))
	xte := npyFloats2D(t, testdata("digits_test_x.npy"))
	yte := npyInts(t, testdata("digits_test_y.npy"))
	initValues := npyFloats(t, testdata("digits_train_init.npy"))
	batches := npyInts2D(t, testdata("digits_train_batches.npy"))
	if len(initValues) != 64*64+64+64*10+10 || len(batches) != 600 {
		t.Fatalf("init %d values, %d batches", len(initValues), len(batches))
	}

	g := NewGraph()
	defer g.Close()
	b := trainer{t, g}
	x := b.op("Placeholder", "input", map[string]any{"dtype": Float})
	labels := b.op("Placeholder", "labels", map[string]any{"dtype": Int32})
	beta1Power := b.op("Placeholder", "beta1_power", map[string]any{"dtype": Float})
	beta2Power := b.op("Placeholder", "beta2_power", map[string]any{"dtype": Float})

	names := []string{"hidden/w", "hidden/b", "out/w", "out/b"}
	dims := [][]int64{{64, 64}, {64}, {64, 10}, {10}}
	initial := []any{matrix(initValues, 0, 64, 64), initValues[4096:4160], matrix(initValues, 4160, 64, 10),
		initValues[4800:4810]}
	zeros := []any{matrix(make([]float32, 4096), 0, 64, 64), make([]float32, 64),
		matrix(make([]float32, 640), 0, 64, 10), make([]float32, 10)}
	var refs, ms, vs, reads []Output
	var inits []*Operation
	for i, name := range names {
		ref, read, init := b.variable(name, initial[i], dims[i])
		m, _, minit := b.variable(name+"/Adam", zeros[i], dims[i])
		v, _, vinit := b.variable(name+"/Adam_1", zeros[i], dims[i])
		refs, ms, vs, reads = append(refs, ref), append(ms, m), append(vs, v), append(reads, read)
		inits = append(inits, init, minit, vinit)
	}
	h := b.op("Relu", "hidden/Relu", nil, b.op("BiasAdd", "hidden/BiasAdd", nil,
		b.op("MatMul", "hidden/MatMul", nil, x, reads[0]), reads[1]))
	logits := b.op("BiasAdd", "logits", nil, b.op("MatMul", "out/MatMul", nil, h, reads[2]), reads[3])
	xent := b.op("SparseSoftmaxCrossEntropyWithLogits", "xent", nil, logits, labels)
	loss := b.op("Mean", "loss", nil, xent, b.constant("axis", int32(0)))

	grads, err := g.AddGradients("", []Output{loss}, reads, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, gr := range grads {
		s, err := gr.Shape()
		if err != nil || gr.DataType() != Float || len(s.Dims) != len(dims[i]) {
			t.Fatalf("the gradient of %s: %v %v %v", names[i], gr.DataType(), s, err)
		}
		if !strings.HasPrefix(gr.Op.Name(), "gradients/") {
			t.Fatalf("the gradient of %s is %s, not under gradients/", names[i], gr.Op.Name())
		}
	}

	lr, beta1 := b.constant("learning_rate", float32(0.005)), b.constant("beta1", float32(0.9))
	beta2, epsilon := b.constant("beta2", float32(0.999)), b.constant("epsilon", float32(1e-8))
	var apply []*Operation
	for i, name := range names {
		apply = append(apply, b.op("ApplyAdam", name+"/ApplyAdam", nil, refs[i], ms[i], vs[i],
			beta1Power, beta2Power, lr, beta1, beta2, epsilon, grads[i]).Op)
	}

	s, err := NewSession(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Run(nil, nil, inits); err != nil {
		t.Fatal(err)
	}
	var first, last float32
	for step := 1; step <= 600; step++ {
		bx, by := make([][]float32, 64), make([]int32, 64)
		for i := range bx {
			row := batches[step-1][i]
			bx[i], by[i] = xtr[row], ytr[row]
		}
		feeds := map[Output]any{x: bx, labels: by, beta1Power: float32(math.Pow(0.9, float64(step))),
			beta2Power: float32(math.Pow(0.999, float64(step)))}
		tensors := map[Output]*Tensor{}
		for o, v := range feeds {
			tv, err := NewTensor(v)
			if err != nil {
				t.Fatal(err)
			}
			tensors[o] = tv
		}
		out, err := s.Run(tensors, []Output{loss}, apply)
		for _, tv := range tensors {
			tv.Close()
		}
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		v, _ := out[0].Value()
		last = v.(float32)
		if step == 1 {
			first = last
		}
		out[0].Close()
	}
	if last >= first/5 {
		t.Fatalf("loss %g -> %g", first, last)
	}
	tx, err := NewTensor(xte)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	out, err := s.Run(map[Output]*Tensor{x: tx}, []Output{logits}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer out[0].Close()
	v, _ := out[0].Value()
	correct := 0
	for i, row := range v.([][]float32) {
		if argmax(row) == int(yte[i]) {
			correct++
		}
	}
	if acc := float64(correct) / float64(len(yte)); acc < tfDigitsAccuracy-0.01 {
		t.Fatalf("held-out accuracy %.4f, TensorFlow's %.4f", acc, tfDigitsAccuracy)
	}
}

func TestAddGradientsGivesTheZeroOutputWhereNoGradientFlows(t *testing.T) {
	g := NewGraph()
	defer g.Close()
	b := trainer{t, g}
	x1 := b.op("Placeholder", "a", map[string]any{"dtype": Float})
	x2 := b.op("Placeholder", "b", map[string]any{"dtype": Float})
	y := b.op("AddV2", "y", nil, x1, b.op("StopGradient", "stop", nil, x2))
	grads, err := g.AddGradients("", []Output{y}, []Output{x1, x2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if grads[0].Op == nil || grads[0].DataType() != Float {
		t.Fatalf("d y / d a: %v", grads[0])
	}
	if grads[1].Op != nil {
		t.Fatalf("d y / d b through StopGradient: got %v, want the zero Output", grads[1])
	}
}

func TestAddGradientsRefusesOutputsOfAnotherGraph(t *testing.T) {
	g, other := NewGraph(), NewGraph()
	defer g.Close()
	defer other.Close()
	x := trainer{t, g}.op("Placeholder", "x", map[string]any{"dtype": Float})
	y := trainer{t, other}.op("Placeholder", "y", map[string]any{"dtype": Float})
	if _, err := g.AddGradients("", []Output{y}, []Output{x}, nil); CodeOf(err) != InvalidArgument {
		t.Fatalf("got %v, want InvalidArgument", err)
	}
	if _, err := g.AddGradients("", []Output{x}, []Output{x}, []Output{x, x}); CodeOf(err) != InvalidArgument {
		t.Fatalf("dx of the wrong count: got %v, want InvalidArgument", err)
	}
}
