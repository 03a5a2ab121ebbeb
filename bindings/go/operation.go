package sg

import (
	"fmt"

	"sg.invalid/go/internal/capi"
)

// Operation is a node of a Graph, valid while the graph is open.
type Operation struct {
	g *Graph
	c capi.Struct_SS_SG_Operation
}

// Name is the operation's name.
func (op *Operation) Name() string {
	if _, err := op.g.acquire(); err != nil {
		return ""
	}
	defer op.g.release()
	return capi.SG_OperationName(op.c)
}

// Type is the op type, e.g. "MatMul".
func (op *Operation) Type() string {
	if _, err := op.g.acquire(); err != nil {
		return ""
	}
	defer op.g.release()
	return capi.SG_OperationOpType(op.c)
}

// Device is the requested device ("" when none).
func (op *Operation) Device() string {
	if _, err := op.g.acquire(); err != nil {
		return ""
	}
	defer op.g.release()
	return capi.SG_OperationDevice(op.c)
}

// NumOutputs is the number of outputs.
func (op *Operation) NumOutputs() int {
	if _, err := op.g.acquire(); err != nil {
		return 0
	}
	defer op.g.release()
	return capi.SG_OperationNumOutputs(op.c)
}

// Output returns output i of the operation.
func (op *Operation) Output(i int) Output { return Output{Op: op, Index: i} }

// Output is one output of an Operation: what a session feeds or fetches. Outputs are comparable
// (map keys) when they come from the same *Operation value.
type Output struct {
	Op    *Operation
	Index int
}

// DataType is the dtype the graph gives the output.
func (o Output) DataType() DataType {
	if _, err := o.Op.g.acquire(); err != nil {
		return 0
	}
	defer o.Op.g.release()
	return DataType(capi.Sgb_OperationOutputType(o.Op.c, o.Index))
}

// Shape is the static shape as far as known (-1 for unknown dims, UnknownRank when unknown).
func (o Output) Shape() (Shape, error) {
	g, err := o.Op.g.acquire()
	if err != nil {
		return Shape{}, err
	}
	defer o.Op.g.release()
	rank := capi.Sgb_GraphGetTensorNumDims(g, o.Op.c, o.Index, &err)
	if err != nil {
		return Shape{}, fromStatus(err)
	}
	if rank < 0 {
		return Shape{UnknownRank: true}, nil
	}
	dims := make([]int64, rank)
	capi.Sgb_GraphGetTensorShape(g, o.Op.c, o.Index, dims, &err)
	return Shape{Dims: dims}, fromStatus(err)
}

func (o Output) String() string { return fmt.Sprintf("%s:%d", o.Op.Name(), o.Index) }
