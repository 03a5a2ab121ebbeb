package sg

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"sg.invalid/go/internal/capi"
)

// Graph is a dataflow graph: imported from a GraphDef or built with AddOperation.
//
// The creator closes it (a finalizer frees a forgotten one). Sessions keep what they need of it,
// so a graph may be closed before its sessions, but its Operations may not be used afterwards.
// All methods may be called from several goroutines; Close waits for calls in progress.
type Graph struct {
	mu sync.RWMutex // held for reading during native calls, for writing by Close
	c  capi.Struct_SS_SG_Graph
}

// NewGraph returns an empty graph.
func NewGraph() *Graph {
	g := &Graph{c: capi.SG_NewGraph()}
	runtime.SetFinalizer(g, (*Graph).finalize)
	return g
}

func (g *Graph) finalize() { g.Close() }

// Close drops the graph (idempotent).
func (g *Graph) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.c != nil {
		capi.SG_DeleteGraph(g.c)
		g.c = nil
	}
	return nil
}

// acquire returns the handle with the read lock held, or an error once closed; pair with release.
func (g *Graph) acquire() (capi.Struct_SS_SG_Graph, error) {
	g.mu.RLock()
	if g.c == nil {
		g.mu.RUnlock()
		return nil, newError(FailedPrecondition, "the Graph is closed")
	}
	return g.c, nil
}

func (g *Graph) release() {
	g.mu.RUnlock()
	runtime.KeepAlive(g)
}

// Import adds the operations of a serialized GraphDef (binary or text format), all or nothing,
// with every name prefixed by prefix + "/" (none when prefix is empty).
func (g *Graph) Import(def []byte, prefix string) error {
	c, err := g.acquire()
	if err != nil {
		return err
	}
	defer g.release()
	buf := capi.SG_NewBufferFromString(def)
	defer capi.SG_DeleteBuffer(buf)
	opts := capi.SG_NewImportGraphDefOptions()
	defer capi.SG_DeleteImportGraphDefOptions(opts)
	if prefix != "" {
		capi.SG_ImportGraphDefOptionsSetPrefix(opts, prefix)
	}
	capi.SG_GraphImportGraphDef(c, buf, opts, &err)
	return fromStatus(err)
}

// ImportFile imports the GraphDef in a .pb or .pbtxt file.
func (g *Graph) ImportFile(path string, prefix string) error {
	def, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return g.Import(def, prefix)
}

// Operation returns the operation named name, or nil when there is none.
func (g *Graph) Operation(name string) *Operation {
	c, err := g.acquire()
	if err != nil {
		return nil
	}
	defer g.release()
	op := capi.SG_GraphOperationByName(c, name)
	if op == nil || op.Swigcptr() == 0 {
		return nil
	}
	return &Operation{g: g, c: op}
}

// Output returns the output named "op:index" or "op" (index 0).
func (g *Graph) Output(name string) (Output, error) {
	op, index := name, 0
	if i := strings.LastIndexByte(name, ':'); i > 0 {
		if n, err := strconv.Atoi(name[i+1:]); err == nil && n >= 0 {
			op, index = name[:i], n
		}
	}
	o := g.Operation(op)
	if o == nil {
		return Output{}, newError(NotFound, fmt.Sprintf("no operation named '%s' in the graph", op))
	}
	if index >= o.NumOutputs() {
		return Output{}, newError(OutOfRange, fmt.Sprintf("operation '%s' has %d outputs, not %d", op, o.NumOutputs(), index+1))
	}
	return o.Output(index), nil
}

// AddGradients adds to the graph the gradient of the sum of y with respect to each x, as
// TensorFlow's (*Graph).AddGradients: the partial derivatives d(y[0] + y[1] + ...)/dx[i], each
// weighted by dx (the gradients flowing into each y; nil means ones), built from TensorFlow's
// gradient formulas under the name scope prefix ("gradients", "gradients_1" ... when empty). It
// returns one output per x, of x's dtype and shape; the zero Output (Op nil) for an x that a y
// reaches only through ops without a gradient (StopGradient, integers...).
//
// Errors: InvalidArgument for an output of another graph, a prefix that already names an
// operation, or len(dx) != len(y); an error naming the op for an op on the path from x to y
// that has no gradient. The graph is unchanged on error.
func (g *Graph) AddGradients(prefix string, y []Output, x []Output, dx []Output) ([]Output, error) {
	if dx != nil && len(dx) != len(y) {
		return nil, newError(InvalidArgument, fmt.Sprintf("dx has %d outputs, y has %d", len(dx), len(y)))
	}
	pairs := func(outs []Output) ([]int64, error) {
		p := make([]int64, 0, 2*len(outs))
		for _, o := range outs {
			if o.Op == nil || o.Op.g != g {
				return nil, newError(InvalidArgument, fmt.Sprintf("output %v is not of this graph", o))
			}
			p = append(p, int64(o.Op.c.Swigcptr()), int64(o.Index))
		}
		return p, nil
	}
	ys, err := pairs(y)
	if err != nil {
		return nil, err
	}
	xs, err := pairs(x)
	if err != nil {
		return nil, err
	}
	dxs, err := pairs(dx)
	if err != nil {
		return nil, err
	}
	c, err := g.acquire()
	if err != nil {
		return nil, err
	}
	defer g.release()
	out := make([]int64, 2*len(x))
	var status error
	capi.Sgb_AddGradients(c, prefix, ys, xs, dxs, out, &status)
	runtime.KeepAlive(y)
	runtime.KeepAlive(x)
	runtime.KeepAlive(dx)
	if status != nil {
		return nil, fromStatus(status)
	}
	grads := make([]Output, len(x))
	for i := range x {
		if out[2*i] == 0 {
			continue // no gradient reaches x[i]
		}
		op := &Operation{g: g, c: capi.SwigcptrStruct_SS_SG_Operation(uintptr(out[2*i]))}
		grads[i] = Output{Op: op, Index: int(out[2*i+1])}
	}
	return grads, nil
}

// ToGraphDef returns the graph as a serialized GraphDef.
func (g *Graph) ToGraphDef() ([]byte, error) {
	c, err := g.acquire()
	if err != nil {
		return nil, err
	}
	defer g.release()
	buf := capi.SG_NewBuffer()
	defer capi.SG_DeleteBuffer(buf)
	capi.SG_GraphToGraphDef(c, buf, &err)
	if err != nil {
		return nil, fromStatus(err)
	}
	return append([]byte(nil), capi.Sgb_BufferView(buf)...), nil
}

// OpSpec describes an operation to add with AddOperation.
//
// Attrs values: string, []byte, []string, int64, []int64, float32, []float32, bool, []bool,
// DataType, []DataType, Shape, []Shape, *Tensor, []*Tensor.
type OpSpec struct {
	Type          string
	Name          string
	Input         []Input
	ControlInputs []*Operation
	Device        string
	Attrs         map[string]any
}

// Input is an operation input: an Output, or an OutputList for list inputs ("N * T").
type Input interface{ isInput() }

// OutputList is a list input.
type OutputList []Output

func (Output) isInput()     {}
func (OutputList) isInput() {}

// Shape is a static shape: Dims with -1 for unknown dims; UnknownRank for an unknown rank.
type Shape struct {
	Dims        []int64
	UnknownRank bool
}

// AddOperation checks spec against its OpDef and adds the operation to the graph.
func (g *Graph) AddOperation(spec OpSpec) (*Operation, error) {
	c, err := g.acquire()
	if err != nil {
		return nil, err
	}
	defer g.release()
	d := capi.SG_NewOperation(c, spec.Type, spec.Name)
	var keep []any // values native calls use, kept alive to the end
	for _, in := range spec.Input {
		switch v := in.(type) {
		case Output:
			capi.Sgb_AddInput(d, v.Op.c, v.Index)
		case OutputList:
			pairs := make([]int64, 0, 2*len(v))
			for _, o := range v {
				pairs = append(pairs, int64(o.Op.c.Swigcptr()), int64(o.Index))
			}
			capi.Sgb_AddInputList(d, pairs)
		}
	}
	for _, op := range spec.ControlInputs {
		capi.SG_AddControlInput(d, op.c)
	}
	if spec.Device != "" {
		capi.SG_SetDevice(d, spec.Device)
	}
	var attrErr error
	for name, value := range spec.Attrs {
		if e := setAttr(d, name, value, &keep); e != nil && attrErr == nil {
			attrErr = e
		}
	}
	op := capi.SG_FinishOperation(d, &err) // always consumes d
	runtime.KeepAlive(keep)
	runtime.KeepAlive(spec)
	if attrErr != nil {
		return nil, attrErr
	}
	if err != nil {
		return nil, fromStatus(err)
	}
	return &Operation{g: g, c: op}, nil
}

func setAttr(d capi.Struct_SS_SG_OperationDescription, name string, value any, keep *[]any) error {
	var err error
	switch v := value.(type) {
	case string:
		capi.SG_SetAttrString(d, name, []byte(v))
	case []byte:
		capi.SG_SetAttrString(d, name, v)
	case []string:
		var all []byte
		lengths := make([]int64, len(v))
		for i, s := range v {
			all = append(all, s...)
			lengths[i] = int64(len(s))
		}
		capi.Sgb_SetAttrStringList(d, name, all, lengths, &err)
	case int64:
		capi.SG_SetAttrInt(d, name, v)
	case []int64:
		capi.SG_SetAttrIntList(d, name, v)
	case float32:
		capi.SG_SetAttrFloat(d, name, v)
	case []float32:
		capi.SG_SetAttrFloatList(d, name, v)
	case bool:
		capi.SG_SetAttrBool(d, name, boolByte(v))
	case []bool:
		b := make([]byte, len(v))
		for i, x := range v {
			b[i] = boolByte(x)
		}
		capi.SG_SetAttrBoolList(d, name, b)
	case DataType:
		capi.SG_SetAttrType(d, name, capi.Enum_SS_SG_DataType(v))
	case []DataType:
		t := make([]int32, len(v))
		for i, x := range v {
			t[i] = int32(x)
		}
		capi.SG_SetAttrTypeList(d, name, t)
	case Shape:
		unknown := 0
		if v.UnknownRank {
			unknown = 1
		}
		capi.Sgb_SetAttrShape(d, name, v.Dims, unknown)
	case []Shape:
		var dims, ranks []int64
		for _, s := range v {
			if s.UnknownRank {
				ranks = append(ranks, -1)
				continue
			}
			ranks = append(ranks, int64(len(s.Dims)))
			dims = append(dims, s.Dims...)
		}
		capi.Sgb_SetAttrShapeList(d, name, dims, ranks, &err)
	case *Tensor:
		c, e := v.handle()
		if e != nil {
			return e
		}
		capi.SG_SetAttrTensor(d, name, c, &err)
		*keep = append(*keep, v)
	case []*Tensor:
		hs := make([]int64, len(v))
		for i, t := range v {
			c, e := t.handle()
			if e != nil {
				return e
			}
			hs[i] = int64(c.Swigcptr())
		}
		capi.Sgb_SetAttrTensorList(d, name, hs, &err)
		*keep = append(*keep, v)
	default:
		return newError(InvalidArgument, fmt.Sprintf("attr '%s': values of type %T are not supported", name, value))
	}
	return fromStatus(err)
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
