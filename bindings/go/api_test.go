package sg

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sumTimesC: sum = a + b, product = sum * c; every input a float placeholder.
func sumTimesC(t *testing.T) (*Graph, map[string]Output) {
	t.Helper()
	g := NewGraph()
	outs := map[string]Output{}
	for _, n := range []string{"a", "b", "c"} {
		op, err := g.AddOperation(OpSpec{Type: "Placeholder", Name: n, Attrs: map[string]any{"dtype": Float}})
		if err != nil {
			t.Fatal(err)
		}
		outs[n] = op.Output(0)
	}
	sum, err := g.AddOperation(OpSpec{Type: "AddV2", Name: "sum", Input: []Input{outs["a"], outs["b"]}})
	if err != nil {
		t.Fatal(err)
	}
	outs["sum"] = sum.Output(0)
	prod, err := g.AddOperation(OpSpec{Type: "Mul", Name: "product", Input: []Input{outs["sum"], outs["c"]}})
	if err != nil {
		t.Fatal(err)
	}
	outs["product"] = prod.Output(0)
	return g, outs
}

func floats(t *testing.T, v ...float32) *Tensor {
	t.Helper()
	x, err := NewTensor(v)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func valueOf(t *testing.T, x *Tensor) any {
	t.Helper()
	v, err := x.Value()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPartialRunSumThenProductGivesTheNumbersWrittenDown(t *testing.T) {
	g, o := sumTimesC(t)
	defer g.Close()
	s, err := NewSession(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, b, c := floats(t, 1, 2), floats(t, 10, 20), floats(t, 2, 3)
	pr, err := s.NewPartialRun([]Output{o["a"], o["b"], o["c"]}, []Output{o["sum"], o["product"]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	out, err := pr.Run(map[Output]*Tensor{o["a"]: a, o["b"]: b}, []Output{o["sum"]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := valueOf(t, out[0]); !reflect.DeepEqual(v, []float32{11, 22}) {
		t.Fatalf("sum = %v, want [11 22]", v)
	}
	out, err = pr.Run(map[Output]*Tensor{o["c"]: c}, []Output{o["product"]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := valueOf(t, out[0]); !reflect.DeepEqual(v, []float32{22, 66}) {
		t.Fatalf("product = %v, want [22 66]", v)
	}
}

func TestPartialRunBadInputIsInvalidArgument(t *testing.T) {
	g, o := sumTimesC(t)
	defer g.Close()
	s, _ := NewSession(g, nil)
	a, c := floats(t, 1), floats(t, 3)
	pr, err := s.NewPartialRun([]Output{o["a"], o["b"]}, []Output{o["sum"]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pr.Run(map[Output]*Tensor{o["c"]: c}, []Output{o["sum"]}, nil); CodeOf(err) != InvalidArgument {
		t.Fatalf("undeclared feed: %v", err)
	}
	if _, err := pr.Run(nil, []Output{o["product"]}, nil); CodeOf(err) != InvalidArgument {
		t.Fatalf("undeclared fetch: %v", err)
	}
	pr.Close()
	pr.Close()
	if _, err := pr.Run(map[Output]*Tensor{o["a"]: a}, nil, nil); CodeOf(err) != InvalidArgument {
		t.Fatalf("closed partial run: %v", err)
	}
	pr2, err := s.NewPartialRun([]Output{o["a"], o["b"]}, []Output{o["sum"]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := pr2.Run(map[Output]*Tensor{o["a"]: a}, nil, nil); CodeOf(err) != Canceled {
		t.Fatalf("partial run of a closed session: %v", err)
	}
	pr2.Close()
}

// The values below are conv_net.pb's (tests/testdata/README.md, make_testdata.py).
func TestAttrReadsConvNetValues(t *testing.T) {
	g := loadGraph(t, testdata("conv_net.pb"))
	defer g.Close()
	want := []struct {
		op, attr string
		value    any
	}{
		{"conv3/Conv2D", "strides", []int64{1, 2, 2, 1}},
		{"conv3/Conv2D", "padding", "SAME"},
		{"conv3/Conv2D", "data_format", "NHWC"},
		{"conv3/Conv2D", "use_cudnn_on_gpu", true},
		{"conv3/Conv2D", "T", Float},
		{"conv3/Conv2D", "explicit_paddings", []int64{}},
		{"conv2/Conv2D", "padding", "VALID"},
		{"bn/FusedBatchNormV3", "epsilon", float32(0.001)},
		{"bn/FusedBatchNormV3", "is_training", false},
		{"maxpool", "ksize", []int64{1, 2, 2, 1}},
		{"concat", "N", int64(2)},
		{"input", "shape", Shape{Dims: []int64{-1, 8, 8, 1}}},
	}
	for _, w := range want {
		v, err := g.Operation(w.op).Attr(w.attr)
		if err != nil || !reflect.DeepEqual(v, w.value) {
			t.Errorf("%s.%s = %#v (%v), want %#v", w.op, w.attr, v, err, w.value)
		}
	}
	v, err := g.Operation("flatten/shape").Attr("value")
	if err != nil {
		t.Fatal(err)
	}
	shape := v.(*Tensor)
	defer shape.Close()
	if got := valueOf(t, shape); !reflect.DeepEqual(got, []int32{-1, 40}) {
		t.Fatalf("flatten/shape value = %v", got)
	}
	m, err := g.Operation("conv3/Conv2D").AttrMetadata("strides")
	if err != nil || m != (AttrMetadata{IsList: true, ListSize: 4, Type: AttrTypeInt, TotalSize: -1}) {
		t.Fatalf("strides metadata %+v %v", m, err)
	}
	if _, err := g.Operation("conv3/Conv2D").Attr("no_such_attr"); CodeOf(err) != NotFound {
		t.Fatalf("missing attr: %v", err)
	}
}

func TestAttrListsOfTypesShapesFloatsStrings(t *testing.T) {
	g := NewGraph()
	defer g.Close()
	q, err := g.AddOperation(OpSpec{Type: "FIFOQueueV2", Name: "q", Attrs: map[string]any{
		"component_types": []DataType{Float, Int64},
		"shapes":          []Shape{{Dims: []int64{2, 3}}, {UnknownRank: true}, {Dims: []int64{}}},
		"shared_name":     "shared queue"}})
	if err != nil {
		t.Fatal(err)
	}
	x, _ := NewTensor([]float32{0.5})
	defer x.Close()
	in, err := g.AddOperation(OpSpec{Type: "Const", Name: "x", Attrs: map[string]any{"dtype": Float, "value": x}})
	if err != nil {
		t.Fatal(err)
	}
	bk, err := g.AddOperation(OpSpec{Type: "Bucketize", Name: "b", Input: []Input{in.Output(0)},
		Attrs: map[string]any{"boundaries": []float32{-1.5, 0, 2.25}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		op    *Operation
		attr  string
		value any
	}{
		{q, "component_types", []DataType{Float, Int64}},
		{q, "shapes", []Shape{{Dims: []int64{2, 3}}, {UnknownRank: true}, {Dims: []int64{}}}},
		{q, "capacity", int64(-1)},
		{q, "shared_name", "shared queue"},
		{q, "container", ""},
		{bk, "boundaries", []float32{-1.5, 0, 2.25}},
	} {
		v, err := w.op.Attr(w.attr)
		if err != nil || !reflect.DeepEqual(v, w.value) {
			t.Errorf("%s = %#v (%v), want %#v", w.attr, v, err, w.value)
		}
	}
}

func TestSessionOptionsBytesEqualTensorFlowsSerialization(t *testing.T) {
	// python: tf.compat.v1.ConfigProto(device_count={'CPU': 2}, intra_op_parallelism_threads=3,
	//   inter_op_parallelism_threads=-1, allow_soft_placement=True, log_device_placement=True,
	//   operation_timeout_in_ms=1500).SerializeToString().hex()
	want, _ := hex.DecodeString("0a070a034350551002100328ffffffffffffffffff013801400158dc0b")
	o := SessionOptions{DeviceCount: map[string]int32{"CPU": 2}, IntraOpParallelismThreads: 3,
		InterOpParallelismThreads: -1, AllowSoftPlacement: true, LogDevicePlacement: true, OperationTimeoutInMs: 1500}
	got, err := o.ConfigProto()
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ConfigProto = %x (%v), want %x", got, err, want)
	}
	// python: tf.compat.v1.ConfigProto(intra_op_parallelism_threads=1,
	//   inter_op_parallelism_threads=4).SerializeToString().hex() == "10012804"; then field 2 = 3.
	raw, _ := hex.DecodeString("10012804")
	got, _ = (&SessionOptions{Config: raw, IntraOpParallelismThreads: 3}).ConfigProto()
	if hex.EncodeToString(got) != "100128041003" {
		t.Fatalf("merged config %x", got)
	}
	// python: tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.FULL_TRACE,
	//   timeout_in_ms=2500, output_partition_graphs=True).SerializeToString().hex()
	r := RunOptions{TraceLevel: FullTrace, TimeoutInMs: 2500, OutputPartitionGraphs: true}
	if hex.EncodeToString(r.Bytes()) != "080310c4132801" {
		t.Fatalf("RunOptions %x", r.Bytes())
	}
	if _, err := (&SessionOptions{OperationTimeoutInMs: -1}).ConfigProto(); CodeOf(err) != InvalidArgument {
		t.Fatalf("negative timeout: %v", err)
	}
	if _, err := NewSession(NewGraph(), &SessionOptions{Config: []byte{0xff, 1}}); CodeOf(err) != InvalidArgument {
		t.Fatalf("garbage config: %v", err)
	}
}

func TestOperationTimeoutEndsABlockedDequeue(t *testing.T) {
	g := NewGraph()
	defer g.Close()
	q, err := g.AddOperation(OpSpec{Type: "FIFOQueueV2", Name: "q", Attrs: map[string]any{"component_types": []DataType{Float}}})
	if err != nil {
		t.Fatal(err)
	}
	dq, err := g.AddOperation(OpSpec{Type: "QueueDequeueV2", Name: "dequeue", Input: []Input{q.Output(0)},
		Attrs: map[string]any{"component_types": []DataType{Float}}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(g, &SessionOptions{OperationTimeoutInMs: 300})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	_, err = s.Run(nil, []Output{dq.Output(0)}, nil)
	if CodeOf(err) != DeadlineExceeded {
		t.Fatalf("dequeue from an empty queue: %v", err)
	}
	if d := time.Since(start); d < 250*time.Millisecond || d > 30*time.Second {
		t.Fatalf("returned after %v", d)
	}
}

func TestDeviceCountAndFullTrace(t *testing.T) {
	g := NewGraph()
	defer g.Close()
	two, _ := NewTensor(float32(2))
	defer two.Close()
	c, err := g.AddOperation(OpSpec{Type: "Const", Name: "c", Device: "/device:CPU:1", Attrs: map[string]any{"dtype": Float, "value": two}})
	if err != nil {
		t.Fatal(err)
	}
	sq, err := g.AddOperation(OpSpec{Type: "Square", Name: "sq", Device: "/device:CPU:1", Input: []Input{c.Output(0)}})
	if err != nil {
		t.Fatal(err)
	}
	one, _ := NewSession(g, nil)
	if _, err := one.Run(nil, []Output{sq.Output(0)}, nil); CodeOf(err) != InvalidArgument {
		t.Fatalf("CPU:1 of a one-CPU session: %v", err)
	}
	one.Close()
	s, err := NewSession(g, &SessionOptions{DeviceCount: map[string]int32{"CPU": 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out, md, err := s.RunWithOptions(&RunOptions{TraceLevel: FullTrace}, nil, []Output{sq.Output(0)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := valueOf(t, out[0]); v != float32(4) {
		t.Fatalf("sq = %v", v)
	}
	found := false
	for _, d := range md.StepStats {
		for _, n := range d.NodeStats {
			if n.NodeName == "sq" {
				found = strings.HasSuffix(d.Device, "/device:CPU:1")
			}
		}
	}
	if !found {
		t.Fatalf("sq not on CPU:1: %+v", md.StepStats)
	}
}

func TestFullTraceListsEveryNodeThatRan(t *testing.T) {
	g, o := sumTimesC(t)
	defer g.Close()
	s, _ := NewSession(g, nil)
	defer s.Close()
	feeds := map[Output]*Tensor{o["a"]: floats(t, 1, 2), o["b"]: floats(t, 10, 20), o["c"]: floats(t, 2, 3)}
	before := time.Now().UnixMicro()
	out, md, err := s.RunWithOptions(&RunOptions{TraceLevel: FullTrace}, feeds, []Output{o["product"]}, nil)
	after := time.Now().UnixMicro()
	if err != nil {
		t.Fatal(err)
	}
	if v := valueOf(t, out[0]); !reflect.DeepEqual(v, []float32{22, 66}) {
		t.Fatalf("product = %v", v)
	}
	if len(md.StepStats) != 1 || !strings.HasSuffix(md.StepStats[0].Device, "/device:CPU:0") {
		t.Fatalf("devices: %+v", md.StepStats)
	}
	byName := map[string]NodeExecStats{}
	for _, n := range md.StepStats[0].NodeStats {
		byName[n.NodeName] = n
		if n.AllStartMicros < before-1000 || n.AllStartMicros > after+1000 || n.OpEndRelMicros < n.OpStartRelMicros ||
			n.AllEndRelMicros < n.OpEndRelMicros || n.ThreadID == 0 {
			t.Errorf("%s: %+v", n.NodeName, n)
		}
	}
	// sg names the step's feed and fetch nodes "_arg_<name>/_<i>" and "_retval_<name>/_<i>".
	for _, prefix := range []string{"_arg_a/", "_arg_b/", "_arg_c/", "_retval_product/", "sum", "product"} {
		ok := false
		for k := range byName {
			ok = ok || strings.HasPrefix(k, prefix)
		}
		if !ok {
			t.Errorf("%s missing from %v", prefix, byName)
		}
	}
	if len(byName) != 6 {
		t.Errorf("%d nodes: %v", len(byName), byName)
	}
	for name, op := range map[string]string{"sum": "AddV2", "product": "Mul"} {
		n := byName[name]
		if n.OpType() != op || len(n.Outputs) != 1 || n.Outputs[0].DataType != Float ||
			!reflect.DeepEqual(n.Outputs[0].Shape, Shape{Dims: []int64{2}}) || n.Outputs[0].RequestedBytes != 8 {
			t.Errorf("%s: %+v", name, n)
		}
	}
	_, md, err = s.RunWithOptions(nil, feeds, []Output{o["product"]}, nil)
	if err != nil || len(md.StepStats) != 0 {
		t.Fatalf("untraced run: %v %+v", err, md)
	}
	if _, err := ParseRunMetadata([]byte{0x0a, 0x05, 0x0a}); CodeOf(err) != InvalidArgument {
		t.Fatalf("truncated metadata: %v", err)
	}
}
